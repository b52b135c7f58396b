"""The scripted seat of the step API (bezsim/step/game.py): the engine plays a game to its end in
one call, so a game driven one decision at a time is replayed from its start with the
decisions taken so far, and stops where the script runs out.

The script lives at the end of the state array, past the events and trace. Its entries, one
per decision of a scripted seat, hold the action's index in the offer and the seat's random
stream after it (so a bot that drew from it, driven from Python, leaves the stream as it
would have in the engine). At the first decision past the script the policy keeps a
snapshot of the state and of every random stream, and from then on plays the first offered
action: the rest of that game is discarded.
"""

import numpy as np

from bezsim.engine.jit import njit
from bezsim.engine.state import S_BASE

SCRIPT_ENTRIES = 4096       # scripted decisions a game may hold (the step API's room)
ENTRY_WIDTH = 17            # the action's index, then the stream after it as 16-bit pieces
RNG_ROWS = 5                # the deal's stream and up to four seats'
# the last words of the array, from the end: a header, the snapshot's streams, the snapshot;
# before them the entries, the first one nearest the snapshot (a state array with no room
# for entries, as OpenSpiel's states use, still stops at its first decision)
K_N = 0                     # entries in the script
K_NEXT = 1                  # the next entry to play
K_STOPPED = 2               # 1 once the script ran out (a snapshot was taken)
K_SEAT = 3                  # the seat deciding at the snapshot
HEADER = 8
K_RNG = HEADER              # header + streams + snapshot, all counted back from the end
K_SNAPSHOT = K_RNG + RNG_ROWS * 16
TAIL_WORDS = K_SNAPSHOT + S_BASE


def script_words(entries: int) -> int:
    """Words a state array needs past its events and trace for ``entries`` entries."""
    return TAIL_WORDS + entries * ENTRY_WIDTH




@njit(cache=True, inline="always", _nrt=False)
def script_base(S):
    """Where the tail starts: header at +0, streams at +K_RNG, snapshot at +K_SNAPSHOT."""
    return S.shape[0] - TAIL_WORDS


@njit(cache=True, inline="always", _nrt=False)
def entry_at(S, i):
    return S.shape[0] - TAIL_WORDS - (i + 1) * ENTRY_WIDTH


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
        at = entry_at(S, i)
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


# --- the Python side (bezsim/step/game.py, bezsim/rl/openspiel.py) --------------------------------

def stream_words(stream: np.ndarray) -> list[int]:
    """put_stream in Python: a script entry's stream words."""
    return [(int(stream[w]) >> (16 * k)) & 0xFFFF for w in range(4) for k in range(4)]


def read_snapshot(S: np.ndarray, rows: int) -> tuple[int, np.ndarray, np.ndarray] | None:
    """(seat, state, random streams) at the decision where the script ran out, or None if
    the game (or hand) ended without one; ``rows``: streams kept, 1 + players."""
    k = S.shape[0] - TAIL_WORDS
    if not S[k + K_STOPPED]:
        return None
    rng = np.zeros((rows, 4), np.uint64)
    for r in range(rows):
        words = S[k + K_RNG + 16 * r:k + K_RNG + 16 * r + 16]
        for w in range(4):
            v = 0
            for j in range(4):
                v |= (int(words[4 * w + j]) & 0xFFFF) << (16 * j)
            rng[r, w] = np.uint64(v)
    return int(S[k + K_SEAT]), S[k + K_SNAPSHOT:k + K_SNAPSHOT + S_BASE].copy(), rng
