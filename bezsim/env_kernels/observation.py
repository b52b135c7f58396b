"""A seat's view and the offer as fixed-size arrays, compiled: what every environment returns.

``observe_into`` writes the observation vector (layout below, the same for every variant)
from the regions the policy contract lets a seat read (bezsim/policies/builtin.py): its own
knowledge row, the public scalars and the trick; never another hand or the stock.
``offer_into`` writes the legal-action mask over the shared action map
(bezsim/env_kernels/actions.py) and, for each action, its index in the engine's offer (the
first copy of a face stands for its copies).

Observation layout (OBSERVATION_SIZE float32 values):

* 0..255, 8 planes of 32 faces (plane * 32 + face; face = suit * 8 + rank): copies of the
  face, divided by 6, (0) in my hand, (1) mine declared on the table, (2) played,
  (3) on the current trick, (4) the turn-up, (5..7) known to be held by the next, second and
  third seat to my left (declared, shown or open);
* 256..259: trumps, one-hot (all zero while undecided);
* 260..265: stage 2, face-down stock cards / 128, trick number / 128, cards on the trick / 4,
  I lead this trick, the decision is a declaring one;
* 266..269: this hand's points of me and the next three seats / 1000 (zero for seats the
  variant lacks); 270..273: game scores likewise.
"""

from __future__ import annotations

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.jit import njit
from bezsim.env_kernels.actions import DECLARE_BASE, STOP

FACE_PLANES = 8
TRUMPS_AT = FACE_PLANES * 32
SCALARS_AT = TRUMPS_AT + 4
POINTS_AT = SCALARS_AT + 6
SCORES_AT = POINTS_AT + 4
OBSERVATION_SIZE = SCORES_AT + 4
COPY = 1.0 / 6.0


def _plane_tables() -> tuple[np.ndarray, np.ndarray]:
    """For (players, seat, knowledge code): the face plane the card counts in, and its
    weight (0 for a card the seat knows nothing of): a table, not branches, because the
    codes of a hand's cards follow no pattern a branch predictor could learn."""
    plane = np.zeros((5, 4, 16), np.int64)
    weight = np.zeros((5, 4, 16), np.float32)
    for players in range(1, 5):
        for seat in range(players):
            for code, p in ((C.V_MINE, 0), (C.V_MINE_SHOWN, 0), (C.V_PLAYED, 2),
                            (C.V_TRICK, 3), (C.V_TURNUP, 4)):
                plane[players, seat, code] = p
                weight[players, seat, code] = COPY
            for owner in range(players):
                k = (owner - seat) % players
                if k:
                    for code in (C.V_SHOWN + owner, C.V_OPEN + owner):
                        plane[players, seat, code] = 4 + k
                        weight[players, seat, code] = COPY
    return plane, weight


PLANE, WEIGHT = _plane_tables()


@njit(cache=True, _nrt=False)
def observe_into(S, seat, out):
    """The observation of ``seat`` in state ``S`` into ``out`` (module docstring)."""
    sc = st.O_SC
    players = S[sc + C.SC_PLAYERS]
    n_cards = S[sc + C.SC_PACKS] * 32
    for i in range(OBSERVATION_SIZE):
        out[i] = 0.0
    planes = PLANE[players, seat]
    weights = WEIGHT[players, seat]
    base = st.O_SEEN + seat * st.N_MAX
    declared = np.float32(COPY)
    for c in range(n_cards):
        v = S[base + c] & 15
        f = c & 31
        out[planes[v] * 32 + f] += weights[v]
        out[32 + f] += declared * (v == C.V_MINE_SHOWN)     # mine, on the table
    trump = S[sc + C.SC_TRUMP]
    if trump != C.NO_TRUMP:
        out[TRUMPS_AT + trump] = 1.0
    out[SCALARS_AT] = S[sc + C.SC_STAGE] == 2
    out[SCALARS_AT + 1] = S[sc + C.SC_STOCK_LEFT] / 128.0
    out[SCALARS_AT + 2] = S[sc + C.SC_TRICK] / 128.0
    out[SCALARS_AT + 3] = S[sc + C.SC_N_TRICK] / 4.0
    out[SCALARS_AT + 4] = S[sc + C.SC_LEADER] == seat
    out[SCALARS_AT + 5] = S[st.O_DECISION] != C.D_PLAY
    for k in range(players):
        p = (seat + k) % players
        out[POINTS_AT + k] = S[sc + C.SC_HAND_POINTS + p] / 1000.0
        out[SCORES_AT + k] = S[sc + C.SC_SCORE + p] / 1000.0


@njit(cache=True, inline="always", _nrt=False)
def action_at(S, i):
    """The action (bezsim/env_kernels/actions.py) of offer entry ``i`` of the decision in ``S``."""
    v = S[st.O_ACTS + i]
    if S[st.O_DECISION] == C.D_PLAY:
        return v & 31
    if v == C.A_STOP:
        return STOP
    return DECLARE_BASE + v


@njit(cache=True, _nrt=False)
def offer_into(S, mask, index_of):
    """The legal actions of the decision in ``S``: ``mask`` (bool) and ``index_of`` (int8:
    the offer's index for each action, -1 where it is not offered)."""
    for a in range(mask.shape[0]):
        mask[a] = False
        index_of[a] = -1
    for i in range(S[st.O_N_ACTS]):
        a = action_at(S, i)
        if index_of[a] < 0:
            index_of[a] = i
            mask[a] = True
