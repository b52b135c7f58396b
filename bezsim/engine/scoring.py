"""Scoring a declaration: its points, the copies' history, the Rubicon trumps a first
marriage or sequence fixes (R6.2), Rubicon re-forming (R6.6) and the seven of trumps (R2.3).
"""

from bezsim.engine.constants import (
    EV_SCORED,
    H_BEZ1,
    H_BEZ2,
    H_BEZ3,
    H_BEZ4,
    H_EVER_SHIFT,
    H_FOUR,
    H_MARRIAGE,
    H_SEQUENCE,
    H_SEVEN,
    H_TRUMP_FOUR,
    K_BEZIQUE,
    K_COMMON_MARRIAGE,
    K_DOUBLE_BEZIQUE,
    K_FOUR_TRUMP_ACES,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_EXCHANGE,
    K_TRIPLE_BEZIQUE,
    LOC_HAND,
    LOC_PLAYED,
    LOC_TABLE,
    LOC_TRICK,
    LOC_TURNUP,
    MAX_HAND,
    NO_CARD,
    NO_TRUMP,
    PR_PLAYERS,
    PR_POINTS,
    PR_REFORM_DOUBLE,
    PR_REUSE,
    QUEEN,
    REUSE_ORDINARY,
    SC_EXCHANGED,
    SC_TRUMP,
    SC_TRUMP_TRICK,
    SC_TURNUP,
    SEVEN,
    TR_DECLARED_CARD,
    TR_EXCHANGE,
    V_MINE,
    V_SHOWN,
    V_TURNUP,
)
from bezsim.engine.copies import select_copies
from bezsim.engine.jit import njit
from bezsim.engine.pending import pend_at
from bezsim.engine.roles import code_kind, code_suit, recount_hands, set_roles, suit_extra
from bezsim.engine.state import (
    INSTANCE_MAX,
    INSTANCE_WIDTH,
    N_MAX,
    O_BUF,
    O_HAND_N,
    O_HANDS,
    O_HIST,
    O_INST,
    O_INST_N,
    O_LOC,
    O_PEND_N,
    O_SC,
    O_SEEN,
    count_hand_card,
    record_event,
    set_hist,
    show,
    trace_add,
    trace_on,
)


@njit(error_model="numpy", cache=True, _nrt=False)
def history_bit(kind):
    if kind == K_COMMON_MARRIAGE or kind == K_ROYAL_MARRIAGE:
        return H_MARRIAGE
    if kind == K_SEQUENCE or kind == K_PLAIN_SEQUENCE:
        return H_SEQUENCE
    if kind == K_BEZIQUE:
        return H_BEZ1
    if kind == K_DOUBLE_BEZIQUE:
        return H_BEZ2
    if kind == K_TRIPLE_BEZIQUE:
        return H_BEZ3
    if kind == K_QUADRUPLE_BEZIQUE:
        return H_BEZ4
    if kind >= K_FOUR_TRUMP_ACES:
        return H_TRUMP_FOUR
    return H_FOUR


@njit(error_model="numpy", cache=True, _nrt=False)
def score_combination(params, S, seat, code, hand_no, trick, status):
    """Score combination ``code`` for ``seat``: copies marked, shown, event recorded."""
    players = params[PR_PLAYERS]
    kind = code_kind(code)
    n = select_copies(params, S, seat, code)
    bit = history_bit(kind)
    if params[PR_REUSE] != REUSE_ORDINARY:
        bit |= bit << H_EVER_SHIFT
        add_instance(S, seat, kind, n)
    elif kind == K_DOUBLE_BEZIQUE and params[PR_REFORM_DOUBLE]:
        add_instance(S, seat, kind, n)        # watched for a second double (R3)
    for j in range(n):
        c = S[O_BUF + j]
        owner = S[O_LOC + c] & 7              # a partner's shown pair stays his (R4.2)
        set_hist(S, owner, c, S[O_HIST + c] | bit)
        show(S, players, owner, c)
        if trace_on(S):
            trace_add(S, TR_DECLARED_CARD, hand_no, trick, seat, c, kind, 0, 0)
    record_event(S, hand_no, trick, seat, kind, status, suit_extra(kind, code),
                 params[PR_POINTS + kind])
    if S[O_SC + SC_TRUMP] == NO_TRUMP and (kind <= K_PLAIN_SEQUENCE):
        S[O_SC + SC_TRUMP] = code_suit(code)   # R6.2: the first marriage or sequence
        S[O_SC + SC_TRUMP_TRICK] = trick
        set_roles(params, S)
        recount_hands(params, S)
        recode_pending(S, players, code_suit(code))


@njit(error_model="numpy", cache=True, _nrt=False)
def recode_pending(S, players, trump):
    """Combinations shown "to score" before trumps were fixed take their new kinds: a royal
    marriage outside trumps becomes common, a sequence outside trumps plain, a plain sequence
    in trumps the trump sequence (coded without a suit once trumps are fixed)."""
    for seat in range(players):
        for i in range(S[O_PEND_N + seat]):
            at = pend_at(seat, i)
            kind = code_kind(S[at])
            suit = code_suit(S[at])
            if kind == K_ROYAL_MARRIAGE and suit != trump:
                S[at] = K_COMMON_MARRIAGE * 4 + suit
            elif kind == K_PLAIN_SEQUENCE and suit == trump:
                S[at] = K_SEQUENCE * 4
            elif kind == K_SEQUENCE:            # shown in trumps while undecided (R6.2)
                S[at] = K_SEQUENCE * 4 if suit == trump else K_PLAIN_SEQUENCE * 4 + suit


# --- Rubicon re-forming (R6.6): a combination stays intact until one of its cards is played --

@njit(error_model="numpy", cache=True, _nrt=False)
def add_instance(S, seat, kind, n):
    """Remember the cards in O_BUF as an intact combination of ``kind``."""
    i = S[O_INST_N + seat]
    if i >= INSTANCE_MAX:
        return
    at = O_INST + (seat * INSTANCE_MAX + i) * INSTANCE_WIDTH
    S[at] = kind
    S[at + 1] = n
    for j in range(n):
        S[at + 2 + j] = S[O_BUF + j]
    S[O_INST_N + seat] = i + 1


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _gone(S, c):
    loc = S[O_LOC + c]
    return loc == LOC_TRICK or loc == LOC_PLAYED


@njit(error_model="numpy", cache=True, _nrt=False)
def _double_pair_played(S, at):
    """R3: a queen and a jack of this declared double have been played."""
    q = False
    j = False
    for k in range(S[at + 1]):
        c = S[at + 2 + k]
        if _gone(S, c):
            if (c & 7) == QUEEN:
                q = True
            else:
                j = True
    return q and j


@njit(error_model="numpy", cache=True, _nrt=False)
def release_instances(params, S, seat, card):
    """A played card breaks every intact combination it was in: the other cards may form that
    kind again with a like card (Rubicon re-forming, R6.6). Three/four-handed (R3): once a
    pair of a declared double is played, the pair left counts as a declared single, so it may
    make a second double with a third pair."""
    ordinary = params[PR_REUSE] == REUSE_ORDINARY
    i = 0
    while i < S[O_INST_N + seat]:
        at = O_INST + (seat * INSTANCE_MAX + i) * INSTANCE_WIDTH
        hit = False
        for j in range(S[at + 1]):
            if S[at + 2 + j] == card:
                hit = True
        if not hit or (ordinary and not _double_pair_played(S, at)):
            i += 1
            continue
        bit = history_bit(S[at])
        for j in range(S[at + 1]):
            c = S[at + 2 + j]
            loc = S[O_LOC + c]
            new = (S[O_HIST + c] & ~bit) | (H_BEZ1 if ordinary else 0)
            if loc >= LOC_HAND and loc < LOC_TABLE + 8:
                set_hist(S, loc & 7, c, new)
            else:
                S[O_HIST + c] = new
        last = O_INST + (seat * INSTANCE_MAX + S[O_INST_N + seat] - 1) * INSTANCE_WIDTH
        for k in range(INSTANCE_WIDTH):
            S[at + k] = S[last + k]
        S[O_INST_N + seat] -= 1


@njit(error_model="numpy", cache=True, _nrt=False)
def _held_seven(S, seat):
    """A seven of trumps the seat holds that has not scored (lowest id: deterministic)."""
    best = NO_CARD
    face = S[O_SC + SC_TRUMP] * 8 + SEVEN
    base = O_HANDS + seat * MAX_HAND
    for i in range(S[O_HAND_N + seat]):
        c = S[base + i]
        if (c & 31) == face and (S[O_HIST + c] & H_SEVEN) == 0 and (best == NO_CARD or c < best):
            best = c
    return best


@njit(error_model="numpy", cache=True, _nrt=False)
def score_seven(params, S, seat, code, hand_no, trick):
    """Exchange the seven of trumps for the turn-up, or declare it (R2.3): 10 either way."""
    players = params[PR_PLAYERS]
    kind = code_kind(code)
    seven = _held_seven(S, seat)
    set_hist(S, seat, seven, S[O_HIST + seven] | H_SEVEN)
    if kind == K_SEVEN_EXCHANGE:
        turnup = S[O_SC + SC_TURNUP]
        base = O_HANDS + seat * MAX_HAND
        for i in range(S[O_HAND_N + seat]):
            if S[base + i] == seven:
                count_hand_card(S, seat, seven, -1)
                S[base + i] = turnup
                count_hand_card(S, seat, turnup, 1)
        S[O_LOC + turnup] = LOC_HAND + seat
        for p in range(players):
            S[O_SEEN + p * N_MAX + turnup] = V_MINE if p == seat else V_SHOWN + seat
            S[O_SEEN + p * N_MAX + seven] = V_TURNUP
        S[O_LOC + seven] = LOC_TURNUP
        S[O_SC + SC_TURNUP] = seven
        S[O_SC + SC_EXCHANGED] = 1
        if trace_on(S):
            trace_add(S, TR_EXCHANGE, hand_no, trick, seat, seven, turnup, 0, 0)
    else:
        show(S, players, seat, seven)
        if trace_on(S):
            trace_add(S, TR_DECLARED_CARD, hand_no, trick, seat, seven, kind, 0, 0)
    record_event(S, hand_no, trick, seat, kind, EV_SCORED, 0, params[PR_POINTS + kind])
