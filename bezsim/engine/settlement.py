"""Rubicon and six-pack settlement of one game (one hand is one game): R6.7, R6.8, R7.

Readings chosen where the rules leave room:

- the rubicon test uses the loser's raw total (before rounding) plus his brisques: he is
  rubiconed if that sum is under the line (1000; six-pack 3000, where brisques count for
  nothing); brisques only save him, they never enter any score;
- a rubiconed loser's rounded total counts as 100 if it is under 100 (i.e. if it rounds to 0);
- close scores (option ``rubicon_close``): totals tied after rounding are decided by brisques
  (``brisques``, the seed's reading, R6.7), so fewer points may win; or by the unrounded points
  first, brisques breaking only an exact tie (``points``). A tie on both is a draw.
"""

import numpy as np

from bezsim.engine.constants import (
    PR_BRISQUE_BONUS,
    PR_BRISQUES_COUNT,
    PR_CLOSE_BY_POINTS,
    PR_GAME_BONUS,
    PR_RUBICON_GAME_BONUS,
    PR_RUBICON_LINE,
)
from bezsim.engine.jit import njit

# R6.8's numbers (the rules table carries the ones six-pack changes: line, bonuses)
ROUND_TO = 100             # totals are rounded down to a multiple of this
RUBICON_FLOOR = 100        # a rubiconed loser's rounded total counts at least this


@njit(error_model="numpy", cache=True)
def settle(params, points0, points1, brisques0, brisques1):
    """Settle one Rubicon or six-pack game (R6.8, R7) from each seat's points and brisques,
    under the rules table ``params``.

    Returns ``(winner, rounded0, rounded1, rubicon, stake)``, all int64: ``winner`` is the
    winning seat (0 or 1) or -1 for a draw; ``rounded0``/``rounded1`` are the totals rounded
    down to a multiple of 100; ``rubicon`` is 1 if the loser is rubiconed, else 0; ``stake`` is
    what the winner scores for the game (0 for a draw).

    Plain win: stake = game bonus (Rubicon 500, six-pack 1000) + (rounded winner - rounded
    loser). Rubicon (the loser's raw total, plus his brisques where they count, under the line:
    Rubicon 1000, six-pack 3000): stake = rounded winner + max(rounded loser, 100) + the
    brisque bonus (option ``rubicon_brisque_bonus``; none in six-pack) + the rubicon's game
    bonus. Brisques decide tied rounded totals unless ``rubicon_close=points`` or they do not
    count (six-pack): then the unrounded points do, and an exact tie of both is a draw.
    """
    p0 = np.int64(points0)
    p1 = np.int64(points1)
    count = params[PR_BRISQUES_COUNT] != 0
    b0 = np.int64(brisques0) if count else np.int64(0)
    b1 = np.int64(brisques1) if count else np.int64(0)
    close_by_points = params[PR_CLOSE_BY_POINTS] != 0 or not count
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

    if p_lose + b_lose < params[PR_RUBICON_LINE]:
        rubicon = np.int64(1)
        stake = (r_win + max(r_lose, np.int64(RUBICON_FLOOR)) + np.int64(params[PR_BRISQUE_BONUS])
                 + np.int64(params[PR_RUBICON_GAME_BONUS]))
    else:
        rubicon = np.int64(0)
        stake = np.int64(params[PR_GAME_BONUS]) + (r_win - r_lose)
    return winner, r0, r1, rubicon, stake
