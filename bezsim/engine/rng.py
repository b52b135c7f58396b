"""Counter-based randomness: a game's stream depends only on (seed, game), never on threads.

Every stream is xoshiro256** seeded by SplitMix64 from (root seed, game, purpose, index), so
a game's cards and choices depend only on its own index: the same seed gives the same games
for any thread count, shard size or machine count.
"""

import numpy as np

from bezsim.engine.jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

PURPOSE_DEAL = 1      # index = hand number: the shuffle of that hand
PURPOSE_POLICY = 2    # index = seat: that seat's policy stream for the whole game
PURPOSE_GAME = 3      # index 0: game-level draws (first dealer)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(error_model="numpy", cache=True, _nrt=False)
def seed_stream(state, seed, game, purpose, index):
    """Fill ``state`` (uint64[4]) for stream (seed, game, purpose, index)."""
    x = _mix(np.uint64(seed) + GOLDEN)
    x = _mix(x ^ (np.uint64(game) * GOLDEN))
    x = _mix(x ^ (np.uint64(purpose) << np.uint64(32)) ^ np.uint64(index))
    for i in range(4):
        x = x + GOLDEN
        state[i] = _mix(x)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def next_u64(s):
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def below(s, n):
    """Uniform integer in [0, n) for small n (multiply-shift; bias under n / 2**32)."""
    return np.int64(((next_u64(s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def uniform(s):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(error_model="numpy", cache=True, _nrt=False)
def shuffle_range(state, a, start, n):
    """Fisher-Yates on a[start:start + n] with the draws of ``below(state, i + 1)``, i from
    n - 1 down to 1: the same permutation and final state, with the stream's words held in
    registers (through ``state`` each draw reloaded them after every swap, since the compiler
    cannot tell the two arrays apart)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    for i in range(n - 1, 0, -1):
        result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
        t = s1 << np.uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        j = np.int64(((result >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        tmp = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = tmp
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
