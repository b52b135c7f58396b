"""A user policy for bezsim: plays its weakest legal card and scores the most valuable
declaration offered. Run it with

    PYTHONPATH=docs/examples bezsim simulate --policies my_policies:weakest_card,greedy \
        --games 1000 --seed 1 --out data/runs/weakest

(see docs/user_policies.md).
"""

from numba import njit

from bezsim.engine.constants import D_PLAY
from bezsim.engine.state import O_ACTS, O_APTS, O_DECISION, O_N_ACTS


@njit(cache=True)
def weakest_card(S, seat, params, rng):
    n = S[O_N_ACTS]                          # the offer: S[O_ACTS : O_ACTS + n]
    best = 0
    if S[O_DECISION] == D_PLAY:              # the actions are card ids
        for i in range(1, n):
            # rank is card & 7: 0 is the ace, 7 the seven; the largest is the weakest
            if S[O_ACTS + i] & 7 > S[O_ACTS + best] & 7:
                best = i
    else:                                    # declarations, worth S[O_APTS + i] points now
        for i in range(1, n):
            if S[O_APTS + i] > S[O_APTS + best]:
                best = i
    return best                              # an index into the offer
