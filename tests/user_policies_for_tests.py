"""User policies for test_user_policies.py, loaded the way a user's are (module:function)."""

from numba import njit

from bezsim.policies.builtin import greedy_policy


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
