"""The scripted seat of the step API (bezsim/step.py): the engine plays a game to its end in
one call, so a game driven one decision at a time is replayed from its start with the
decisions taken so far, and stops where the script runs out.

The script lives at the end of the state array (``S[len(S) - SCRIPT_WORDS:]``, past the events
and trace): its entries, one per decision of a scripted seat, hold the action's index in the
offer and the seat's random stream after it (so a bot that drew from it, driven from
Python, leaves the stream as it would have in the engine). At the first decision past the
script the policy keeps a snapshot of the state and of every random stream, and from then
on plays the first offered action: the rest of that game is discarded.
"""

import numpy as np

from bezsim.engine.jit import njit
from bezsim.engine.state import S_BASE

SCRIPT_ENTRIES = 4096       # scripted decisions a game may hold
ENTRY_WIDTH = 17            # the action's index, then the stream after it as 16-bit pieces
RNG_ROWS = 5                # the deal's stream and up to four seats'
K_N = 0                     # entries in the script
K_NEXT = 1                  # the next entry to play
K_STOPPED = 2               # 1 once the script ran out (a snapshot was taken)
K_SEAT = 3                  # the seat deciding at the snapshot
K_ENTRIES = 8
K_SNAPSHOT = K_ENTRIES + SCRIPT_ENTRIES * ENTRY_WIDTH
K_RNG = K_SNAPSHOT + S_BASE
SCRIPT_WORDS = K_RNG + RNG_ROWS * 16


@njit(cache=True, inline="always", _nrt=False)
def script_base(S):
    return S.shape[0] - SCRIPT_WORDS


@njit(cache=True, _nrt=False)
def put_stream(S, at, stream):
    """A 4-word uint64 stream into 16 int32 words of 16 bits each."""
    mask = np.uint64(0xFFFF)
    for w in range(4):
        for k in range(4):
            S[at + 4 * w + k] = np.int32((stream[w] >> np.uint64(16 * k)) & mask)


@njit(cache=True, _nrt=False)
def get_stream(S, at, stream):
    """put_stream's inverse."""
    for w in range(4):
        v = np.uint64(0)
        for k in range(4):
            v |= np.uint64(S[at + 4 * w + k] & 0xFFFF) << np.uint64(16 * k)
        stream[w] = v


@njit(cache=True, _nrt=False)
def script_policy(S, seat, rng):
    """The scripted seat's decision (module docstring). ``rng``: every stream."""
    k = script_base(S)
    if S[k + K_STOPPED]:
        return 0
    i = S[k + K_NEXT]
    if i < S[k + K_N]:
        at = k + K_ENTRIES + i * ENTRY_WIDTH
        S[k + K_NEXT] = i + 1
        get_stream(S, at + 1, rng[1 + seat])
        return S[at]
    S[k + K_STOPPED] = 1
    S[k + K_SEAT] = seat
    for j in range(S_BASE):
        S[k + K_SNAPSHOT + j] = S[j]
    for r in range(rng.shape[0]):
        put_stream(S, k + K_RNG + 16 * r, rng[r])
    return 0
