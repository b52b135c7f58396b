"""Rubicon settlement of one game (one hand is one game): R6.7, R6.8.

Readings chosen where the rules leave room:

- the rubicon test uses the loser's raw total (before rounding) plus his brisques: he is
  rubiconed if that sum is under 1000; brisques only save him, they never enter any score;
- a rubiconed loser's rounded total counts as 100 if it is under 100 (i.e. if it rounds to 0);
- close scores (option ``rubicon_close``): totals tied after rounding are decided by brisques
  (``brisques``, the seed's reading, R6.7), so fewer points may win; or by the unrounded points
  first, brisques breaking only an exact tie (``points``). A tie on both is a draw.
"""

import numpy as np

from bezsim.engine.jit import njit

# R6.8's numbers, read by expert's settlement-aware play (policies/expert/rubicon.py) too
ROUND_TO = 100             # totals are rounded down to a multiple of this
RUBICON_LINE = 1000        # a loser whose raw total plus brisques is under this is rubiconed
GAME_BONUS = 500           # a plain win: this for the game, plus the rounded difference
RUBICON_GAME_BONUS = 1000  # a rubicon: this for the game, on top of both rounded totals
RUBICON_FLOOR = 100        # a rubiconed loser's rounded total counts at least this


@njit(error_model="numpy", cache=True)
def settle(points0, points1, brisques0, brisques1, brisque_bonus, close_by_points=0):
    """Settle one Rubicon game (R6.8) from each seat's points and brisques.

    Returns ``(winner, rounded0, rounded1, rubicon, stake)``, all int64: ``winner`` is the
    winning seat (0 or 1) or -1 for a draw; ``rounded0``/``rounded1`` are the totals rounded
    down to a multiple of 100; ``rubicon`` is 1 if the loser is rubiconed, else 0; ``stake`` is
    what the winner scores for the game (0 for a draw). ``brisque_bonus`` is the option
    ``rubicon_brisque_bonus`` (300 by default, 320 in some rule books); ``close_by_points`` is
    1 for option ``rubicon_close=points``.

    Plain win: stake = 500 + (rounded winner - rounded loser). Rubicon (loser's raw total plus
    his brisques under 1000): stake = rounded winner + max(rounded loser, 100) + brisque_bonus
    + 1000.
    """
    p0 = np.int64(points0)
    p1 = np.int64(points1)
    b0 = np.int64(brisques0)
    b1 = np.int64(brisques1)
    bonus = np.int64(brisque_bonus)
    r0 = (p0 // ROUND_TO) * ROUND_TO
    r1 = (p1 // ROUND_TO) * ROUND_TO

    if r0 > r1:
        winner = np.int64(0)
    elif r1 > r0:
        winner = np.int64(1)
    elif close_by_points and p0 > p1:
        winner = np.int64(0)
    elif close_by_points and p1 > p0:
        winner = np.int64(1)
    elif b0 > b1:
        winner = np.int64(0)
    elif b1 > b0:
        winner = np.int64(1)
    else:
        return np.int64(-1), r0, r1, np.int64(0), np.int64(0)

    if winner == 0:
        r_win, r_lose, p_lose, b_lose = r0, r1, p1, b1
    else:
        r_win, r_lose, p_lose, b_lose = r1, r0, p0, b0

    if p_lose + b_lose < RUBICON_LINE:
        rubicon = np.int64(1)
        stake = r_win + max(r_lose, np.int64(RUBICON_FLOOR)) + bonus + RUBICON_GAME_BONUS
    else:
        rubicon = np.int64(0)
        stake = GAME_BONUS + (r_win - r_lose)
    return winner, r0, r1, rubicon, stake
