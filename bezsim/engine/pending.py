"""Combinations shown "to score" (R1.10): announced aloud, kept on the table, scored on a
later win or lost when one of their cards is played.
"""

from bezsim.engine.constants import (
    EV_LOST,
    LOC_TABLE,
    PR_PLAYERS,
    TR_SHOW,
)
from bezsim.engine.copies import select_copies
from bezsim.engine.jit import njit
from bezsim.engine.offers import legal_declarations
from bezsim.engine.roles import code_kind, suit_extra
from bezsim.engine.state import (
    O_BUF,
    O_LOC,
    O_PEND,
    O_PEND_N,
    PENDING_MAX,
    PENDING_WIDTH,
    record_event,
    show,
    trace_add,
    trace_on,
)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def pend_at(seat, i):
    return O_PEND + (seat * PENDING_MAX + i) * PENDING_WIDTH


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_index(S, seat, code):
    for i in range(S[O_PEND_N + seat]):
        if S[pend_at(seat, i)] == code:
            return i
    return -1


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_remove(S, seat, i):
    last = S[O_PEND_N + seat] - 1
    for k in range(PENDING_WIDTH):
        S[pend_at(seat, i) + k] = S[pend_at(seat, last) + k]
    S[O_PEND_N + seat] = last


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_announce(params, S, seat, scratch, hand_no, trick):
    """After scoring one combination, every other one the seat can show is shown 'to score'."""
    players = params[PR_PLAYERS]
    n = legal_declarations(params, S, seat, True, False, scratch)
    for a in range(n):
        code = S[scratch + a]
        if pending_index(S, seat, code) >= 0 or S[O_PEND_N + seat] >= PENDING_MAX:
            continue
        k = select_copies(params, S, seat, code)
        at = pend_at(seat, S[O_PEND_N + seat])
        S[at] = code
        S[at + 1] = k
        for j in range(k):
            c = S[O_BUF + j]
            S[at + 2 + j] = c
            if S[O_LOC + c] < LOC_TABLE:
                show(S, players, seat, c)
            if trace_on(S):
                trace_add(S, TR_SHOW, hand_no, trick, seat, c, code, 0, 0)
        S[O_PEND_N + seat] += 1


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_lose(S, seat, i, hand_no, trick):
    code = S[pend_at(seat, i)]
    kind = code_kind(code)
    record_event(S, hand_no, trick, seat, kind, EV_LOST, suit_extra(kind, code), 0)
    pending_remove(S, seat, i)


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_on_play(S, seat, card, hand_no, trick):
    """A played card kills every 'to score' combination it belonged to."""
    i = 0
    while i < S[O_PEND_N + seat]:
        at = pend_at(seat, i)
        hit = False
        for j in range(S[at + 1]):
            if S[at + 2 + j] == card:
                hit = True
        if hit:
            pending_lose(S, seat, i, hand_no, trick)
        else:
            i += 1


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_flush(S, seat, hand_no, trick):
    while S[O_PEND_N + seat] > 0:
        pending_lose(S, seat, S[O_PEND_N + seat] - 1, hand_no, trick)
