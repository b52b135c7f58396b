"""Rubicon near the end of the hand, played for the settlement (R6.8): when brisques decide
it, and when points would only raise what a sure rubicon costs. The settlement's numbers
come from bezsim.engine.settlement, which settles the game, so both read one definition.
"""

from bezsim.engine.constants import (
    K_LAST_TRICK,
    PR_BRISQUE_VALUE,
    PR_BRISQUES_COUNT,
    PR_CLOSE_BY_POINTS,
    PR_POINTS,
    PR_RUBICON_LINE,
    SC_HAND_POINTS,
    SC_PLAYERS,
    SC_STAGE,
    SC_STOCK_LEFT,
)
from bezsim.engine.jit import njit
from bezsim.engine.settlement import ROUND_TO, RUBICON_FLOOR
from bezsim.engine.state import (
    O_BRISQ_TAKEN,
    O_RULES,
    O_SC,
)
from bezsim.policies.expert.weights import E_ENDGAME, E_SETTLE


@njit(cache=True, _nrt=False)
def _endgame(S, w):
    """Rubicon: is the end of the hand near enough to play for the settlement (R6.8)?"""
    if w[E_ENDGAME] <= 0.0:
        return False
    return (S[O_SC + SC_STAGE] == 2
            or S[O_SC + SC_STOCK_LEFT] <= w[E_ENDGAME] * S[O_SC + SC_PLAYERS])


@njit(cache=True, _nrt=False)
def _brisques_left(S, seat, packs):
    """Brisque points not yet taken by either side, the last trick's points, and each side's
    brisque points (every trick is seen, so what each has taken is public); brisques are 0
    where they count for nothing (six-pack, R7)."""
    last = S[O_RULES + PR_POINTS + K_LAST_TRICK]
    if not _brisques_count(S):
        return 0, last, 0, 0
    bv = S[O_RULES + PR_BRISQUE_VALUE]
    mine = S[O_BRISQ_TAKEN + seat]
    theirs = S[O_BRISQ_TAKEN + 1 - seat]
    return 8 * packs * bv - mine - theirs, last, mine, theirs


@njit(cache=True, inline="always", _nrt=False)
def _brisques_count(S):
    """Brisques count in the settlement (Rubicon, R6.7; not six-pack, R7)."""
    return S[O_RULES + PR_BRISQUES_COUNT] != 0


@njit(cache=True, _nrt=False)
def _settle_brisque(S, seat, w, packs):
    """Rubicon near the end (R6.8): the extra worth of a brisque when brisques decide the
    settlement, which is when the rounded totals are level (rubicon_close=brisques) or a
    probable loser under 1000 may still reach it with his brisques (he escapes the rubicon:
    about 2000 points of stake). Winning a trick takes its brisques from the other side, so
    one worth serves both sides' lines."""
    if w[E_SETTLE] == 0.0 or not _brisques_count(S) or not _endgame(S, w):
        return 0.0
    me = S[O_SC + SC_HAND_POINTS + seat]
    op = S[O_SC + SC_HAND_POINTS + 1 - seat]
    left, last, bm, bo = _brisques_left(S, seat, packs)
    rm = me // ROUND_TO
    ro = op // ROUND_TO
    line = S[O_RULES + PR_RUBICON_LINE]
    if rm == ro and S[O_RULES + PR_CLOSE_BY_POINTS] == 0:
        return w[E_SETTLE]
    if rm <= ro and me + bm < line <= me + bm + left + last:
        return w[E_SETTLE]
    if ro <= rm and op + bo < line <= op + bo + left + last:
        return w[E_SETTLE]
    return 0.0


@njit(cache=True, _nrt=False)
def _doomed(S, seat, w, packs, pts):
    """Rubicon near the end: would scoring ``pts`` now only raise what a sure rubicon costs?
    A rubiconed loser pays his own rounded total too (R6.8), so a seat that can reach
    neither the other's rounded total nor the 1000 line (its points, its brisques, every
    brisque left and the last trick) does better to keep its rounded total down."""
    if not _endgame(S, w):
        return False
    me = S[O_SC + SC_HAND_POINTS + seat]
    op = S[O_SC + SC_HAND_POINTS + 1 - seat]
    left, last, bm, _bo = _brisques_left(S, seat, packs)
    after = me + pts
    if (after + bm + left + last >= S[O_RULES + PR_RUBICON_LINE]
            or after // ROUND_TO >= op // ROUND_TO):
        return False
    floor = RUBICON_FLOOR // ROUND_TO
    return max(after // ROUND_TO, floor) > max(me // ROUND_TO, floor)
