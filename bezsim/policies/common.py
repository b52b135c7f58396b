"""Small reads of the observation that several built-in policies share."""

from bezsim.engine.constants import ACE, TEN
from bezsim.engine.jit import njit
from bezsim.engine.state import O_ACTS, O_APTS, O_N_ACTS, O_TRICK


@njit(cache=True, inline="always", _nrt=False)
def trick_brisques(S, n_trick):
    """Aces and tens already on the current trick."""
    brisques = 0
    for i in range(n_trick):
        r = S[O_TRICK + i] & 7
        if r == ACE or r == TEN:
            brisques += 1
    return brisques


@njit(cache=True, inline="always", _nrt=False)
def best_declaration(S):
    """Index of the offered declaration worth the most points now (the first on ties)."""
    best = 0
    for i in range(1, S[O_N_ACTS]):
        if S[O_APTS + i] > S[O_APTS + best]:
            best = i
    return best


@njit(cache=True, _nrt=False)
def distinct_offers(S, n, play, cand):
    """cand[:k] := the offered actions worth trying, k returned: every one, or for a card
    play the first copy of each face (identical copies play alike)."""
    n_cand = 0
    for i in range(n):
        fresh = True
        if play:
            for j in range(n_cand):
                if S[O_ACTS + cand[j]] & 31 == S[O_ACTS + i] & 31:
                    fresh = False
        if fresh:
            cand[n_cand] = i
            n_cand += 1
    return n_cand
