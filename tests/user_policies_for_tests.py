"""User policies for test_user_policies.py and test_faults.py, loaded the way a user's are
(module:function)."""

from numba import njit

from bezsim.engine.constants import D_PLAY
from bezsim.engine.rng import below
from bezsim.engine.state import O_APTS, O_DECISION, O_N_ACTS
from bezsim.policies.builtin import greedy_policy

DOUBLE_BEZIQUE_POINTS = 500


@njit(cache=True)
def greedy_copy(S, seat, params, rng):
    """The built-in greedy; a user policy's parameter row is zeros, so both margins are 0."""
    return greedy_policy(S, seat, params, rng)


def not_compiled(S, seat, params, rng):
    return 0


@njit
def wrong_arguments(S):
    return 0


@njit(cache=True)
def out_of_range(S, seat, params, rng):
    """Breaks the contract: an index past the offer."""
    return 99


@njit(cache=True)
def raises(S, seat, params, rng):
    """Breaks the contract by raising (a numba C callback cannot pass it on:
    bezsim/engine_api/plugin_faults.py)."""
    raise ValueError("this policy always fails")


@njit(cache=True)
def _offered_double_bezique(S):
    if S[O_DECISION] == D_PLAY:
        return False
    for i in range(S[O_N_ACTS]):
        if S[O_APTS + i] >= DOUBLE_BEZIQUE_POINTS:
            return True
    return False


@njit(cache=True)
def raises_at_double_bezique(S, seat, params, rng):
    """Plays at random until it is first offered a double bezique, then raises: a fault
    that first happens deep in a run (test_faults.py)."""
    if _offered_double_bezique(S):
        raise RuntimeError("no double bezique, please")
    return below(rng, S[O_N_ACTS])


@njit(cache=True)
def illegal_at_double_bezique(S, seat, params, rng):
    """Plays at random until it is first offered a double bezique, then answers outside the
    offer."""
    if _offered_double_bezique(S):
        return S[O_N_ACTS]
    return below(rng, S[O_N_ACTS])
