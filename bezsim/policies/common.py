"""Small reads of the observation that several built-in policies share."""

from bezsim.engine.constants import ACE, TEN
from bezsim.engine.jit import njit
from bezsim.engine.state import O_APTS, O_N_ACTS, O_TRICK


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
