"""The scripted seat: how the engine stops at a decision that someone outside it takes.

The engine plays a hand as nested calls (a trick, a declaring step, a draw), so it cannot
return half way through one. A seat whose decisions come from outside (a person, a learning
agent, search driven from Python) is *scripted*: when the engine asks it to decide, it raises
DecisionReached, which unwinds the calls to the kernel that began them (engine/stepping.py).
Nothing runs after the raise, so the state array and the random streams are then exactly the
state at that decision: resume.py takes the hand up from there with the action chosen.

A script of decisions already taken can be kept at the end of the state array, so a game
can be replayed from its start (a saved game, a transcript): its entries, one per decision
of a scripted seat, hold the action's index in the offer and, when the seat drew from its
random stream (a bot driven from Python), the stream after it. The seat raises only once
the script has run out.
"""

import numpy as np

from bezsim.engine.jit import njit

SCRIPT_ENTRIES = 4096       # scripted decisions a game may hold (the step API's room)
ENTRY_WIDTH = 17            # the action's index, then the stream after it as 16-bit pieces
KEEP_STREAM = 1 << 16       # in an entry's index word: the seat did not draw, keep its stream
# the last words of the array, from the end: a header; before it the entries, the first one
# nearest the header (a state array with no room for entries stops at its first decision)
K_N = 0                     # entries in the script
K_NEXT = 1                  # the next entry to play
K_STOPPED = 2               # 1 once the script ran out and the seat raised
K_SEAT = 3                  # the seat deciding there
TAIL_WORDS = 8


class DecisionReached(Exception):
    """A scripted seat must decide: the engine stops there (module docstring)."""


def script_words(entries: int) -> int:
    """Words a state array needs past its events and trace for ``entries`` entries."""
    return TAIL_WORDS + entries * ENTRY_WIDTH




@njit(cache=True, inline="always", _nrt=False)
def script_base(S):
    """Where the header starts."""
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
    """The scripted seat's decision: the script's next entry, or a raise (module
    docstring). ``rng``: every stream."""
    k = script_base(S)
    i = S[k + K_NEXT]
    if i < S[k + K_N]:
        at = entry_at(S, i)
        S[k + K_NEXT] = i + 1
        if S[at] & KEEP_STREAM:
            return S[at] & (KEEP_STREAM - 1)
        get_stream(S, at + 1, rng[1 + seat])
        return S[at]
    S[k + K_STOPPED] = 1
    S[k + K_SEAT] = seat
    raise DecisionReached()


@njit(cache=True, inline="always", _nrt=False)
def stopped_seat(S):
    """The seat that raised DecisionReached in this state array, or -1."""
    k = script_base(S)
    return S[k + K_SEAT] if S[k + K_STOPPED] else -1


@njit(cache=True, inline="always", _nrt=False)
def clear_stop(S):
    """Ready to stop at the next scripted decision again (the entries all played)."""
    k = script_base(S)
    S[k + K_STOPPED] = 0
    S[k + K_NEXT] = S[k + K_N]


# --- the Python side (bezsim/step/step_game.py, bezsim/rl/openspiel.py) ---------------------

def stream_words(stream: np.ndarray) -> list[int]:
    """put_stream in Python: a script entry's stream words."""
    return [(int(stream[w]) >> (16 * k)) & 0xFFFF for w in range(4) for k in range(4)]
