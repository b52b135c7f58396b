"""The action map every environment shares: one Discrete space for every variant.

0..31 play a card of that face (suit * 8 + rank, ranks A 10 K Q J 9 8 7; copies play alike),
32 + code declare a combination or the seven (code = kind * 4 + suit, bezsim.engine.constants),
and STOP (the last action) declares nothing more. It imports neither PettingZoo nor OpenSpiel,
so each environment needs only its own extra.
"""

from __future__ import annotations

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st

CARD_ACTIONS = 32
DECLARE_BASE = CARD_ACTIONS
STOP = DECLARE_BASE + C.N_KINDS * 4
N_ACTIONS = STOP + 1


def action_of(kind: str, value: int) -> int:
    """The environment's action for an offered card, declaration code or stop."""
    if kind == "card":
        return value & 31
    if kind == "stop":
        return STOP
    return DECLARE_BASE + value


def offered(S: np.ndarray) -> dict[int, int]:
    """Environment action -> index in the offer, for the decision in state array ``S`` (the
    first copy of a face stands for its copies). Shared by the environments."""
    out: dict[int, int] = {}
    play = S[st.O_DECISION] == C.D_PLAY
    for i in range(int(S[st.O_N_ACTS])):
        v = int(S[st.O_ACTS + i])
        kind = "card" if play else ("stop" if v == C.A_STOP else "declare")
        out.setdefault(action_of(kind, v), i)
    return out
