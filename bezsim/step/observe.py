"""What a seat may see at a decision, read from the engine state as a policy reads it.

The policy contract (bezsim/policies/builtin.py) names the regions: the seat's own knowledge
row (``O_SEEN``: its hand, what it was shown, what has been played), the public scalars, the
trick, the offer, and the announced "to score" combinations. ``observe`` turns them into a
dictionary for people and programs; ``observation_vector`` into a fixed-length array for
learning agents (PettingZoo, bezsim/rl/pettingzoo.py). Neither reads another hand or the stock.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bezsim.cards import card_name, suit_name
from bezsim.engine import constants as C
from bezsim.engine import state as st
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
    """A fixed-length float32 vector of the seat's view, the same layout for every variant:

    * 32 faces x 8 planes: how many copies of the face are (0) in my hand, (1) mine on the
      table, (2) played, (3) on the current trick, (4) the turn-up, (5..7) known in the next,
      second and third seat's hand to my left (shown or open);
    * 4: trumps one-hot (all zero while undecided);
    * 12 scalars: stage 2, stock left / 128, trick number / 128, cards on the trick / 4,
      my seat is leader, hand points of me and the next three seats / 1000, game scores
      likewise / 1000 (zero for seats the variant lacks, the last four).
    """
    players = rules.players
    n_cards = rules.packs * 32
    row = S[st.O_SEEN + seat * st.N_MAX:st.O_SEEN + seat * st.N_MAX + n_cards]
    faces = np.zeros((8, 32), np.float32)
    for c in range(n_cards):
        v = int(row[c])
        f = c & 31
        if v == C.V_MINE:
            faces[0, f] += 1
        elif v == C.V_MINE_SHOWN:
            faces[0, f] += 1
            faces[1, f] += 1
        elif v == C.V_PLAYED:
            faces[2, f] += 1
        elif v == C.V_TRICK:
            faces[3, f] += 1
        elif v == C.V_TURNUP:
            faces[4, f] += 1
        elif v >= C.V_SHOWN:
            owner = (v - C.V_OPEN) if v >= C.V_OPEN else (v - C.V_SHOWN)
            k = (owner - seat) % players
            if 1 <= k <= 3:
                faces[4 + k, f] += 1
    sc = st.O_SC
    trumps = np.zeros(4, np.float32)
    if S[sc + C.SC_TRUMP] != C.NO_TRUMP:
        trumps[int(S[sc + C.SC_TRUMP])] = 1
    scal = np.zeros(12, np.float32)
    scal[0] = S[sc + C.SC_STAGE] == 2
    scal[1] = S[sc + C.SC_STOCK_LEFT] / 128
    scal[2] = S[sc + C.SC_TRICK] / 128
    scal[3] = S[sc + C.SC_N_TRICK] / 4
    scal[4] = S[sc + C.SC_LEADER] == seat
    for k in range(min(players, 4)):
        p = (seat + k) % players
        if k < 4 and 5 + k < 9:
            scal[5 + k] = S[sc + C.SC_HAND_POINTS + p] / 1000
    scores = np.zeros(4, np.float32)
    for k in range(players):
        scores[k] = S[sc + C.SC_SCORE + (seat + k) % players] / 1000
    return np.concatenate([faces.ravel() / 6, trumps, scal[:9], scores[:3]]).astype(np.float32)


OBSERVATION_SIZE = 8 * 32 + 4 + 9 + 3
