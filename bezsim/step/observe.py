"""What a seat may see at a decision, read from the engine state as a policy reads it.

The policy contract (bezsim/policies/builtin.py) names the regions: the seat's own knowledge
row (``O_SEEN``: its hand, what it was shown, what has been played), the public scalars, the
trick, the offer, and the announced "to score" combinations. ``observe`` turns them into a
dictionary for people and programs; ``observation_vector`` into a fixed-length array for
learning agents (bezsim/env_kernels/observation.py). Neither reads another hand or the stock.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bezsim.cards import card_name, suit_name
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.env_kernels.observation import OBSERVATION_SIZE, observe_into
from bezsim.rules import Rules


def _names(cards: list[int]) -> list[str]:
    return [card_name(c) for c in sorted(cards, key=lambda c: (c & 31, c))]


def observe(rules: Rules, S: np.ndarray, seat: int) -> dict[str, Any]:
    """The seat's view (module docstring), with cards by name."""
    players = rules.players
    n_cards = rules.packs * 32
    row = S[st.O_SEEN + seat * st.N_MAX:st.O_SEEN + seat * st.N_MAX + n_cards]
    sc = st.O_SC
    trump = int(S[sc + C.SC_TRUMP])
    turnup = int(S[sc + C.SC_TURNUP])
    hand = [c for c in range(n_cards) if row[c] in (C.V_MINE, C.V_MINE_SHOWN)]
    shown = {p: [c for c in range(n_cards) if row[c] == C.V_SHOWN + p]
             for p in range(players) if p != seat}
    open_cards = {p: [c for c in range(n_cards) if row[c] == C.V_OPEN + p]
                  for p in range(players)}
    pending = {}
    for p in range(players):
        items = []
        for i in range(int(S[st.O_PEND_N + p])):
            at = st.O_PEND + (p * st.PENDING_MAX + i) * st.PENDING_WIDTH
            code, k = int(S[at]), int(S[at + 1])
            items.append({"kind": C.KIND_NAMES[code >> 2],
                          "cards": [card_name(int(c)) for c in S[at + 2:at + 2 + k]]})
        if items:
            pending[p] = items
    return {
        "seat": seat,
        "variant": rules.variant,
        "hand_number": int(S[sc + C.SC_HAND]),
        "dealer": int(S[sc + C.SC_DEALER]),
        "trumps": suit_name(trump) if trump != C.NO_TRUMP else None,
        "turn_up": card_name(turnup) if turnup != C.NO_CARD else None,
        "stage": int(S[sc + C.SC_STAGE]),
        "trick_number": int(S[sc + C.SC_TRICK]),
        "leader": int(S[sc + C.SC_LEADER]),
        "stock_left": int(S[sc + C.SC_STOCK_LEFT]),
        "trick": [card_name(int(c)) for c in S[st.O_TRICK:st.O_TRICK + S[sc + C.SC_N_TRICK]]],
        "hand": _names(hand),
        "on_table": _names([c for c in hand if row[c] == C.V_MINE_SHOWN]),
        "shown_by": {p: _names(v) for p, v in shown.items() if v},
        "open_cards": {p: _names(v) for p, v in open_cards.items() if v},
        "to_score": pending,
        "played": len([c for c in range(n_cards) if row[c] == C.V_PLAYED]),
        "scores": [int(v) for v in S[sc + C.SC_SCORE:sc + C.SC_SCORE + players]],
        "hand_points": [int(v) for v in S[sc + C.SC_HAND_POINTS:sc + C.SC_HAND_POINTS
                                          + players]],
        "brisques_taken": [int(v) for v in S[st.O_BRISQ_TAKEN:st.O_BRISQ_TAKEN + players]],
    }


def observation_vector(rules: Rules, S: np.ndarray, seat: int) -> np.ndarray:
    """The seat's view as the fixed-length float32 vector every environment returns, the
    same layout for every variant (bezsim/env_kernels/observation.py gives it)."""
    out = np.empty(OBSERVATION_SIZE, np.float32)
    observe_into(S, seat, out)
    return out
