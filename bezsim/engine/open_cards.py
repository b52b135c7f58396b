"""Polish (open) bézique, R5: the cards a trick brings become the winner's open cards, the
seven of trumps belongs to the trick's winner, and every combination those new cards complete
with the open cards scores at once (a compound declaration). Only rule 1 of R1.9 holds.

Read through params[PR_OPEN_CARDS]: the hand loop calls ``open_cards_trick`` after every
trick instead of the ordinary declaring step.
"""

import numpy as np

from bezsim.engine.constants import (
    A_STOP,
    ACE,
    D_DECLARE,
    DOUBLE_BEZ_ALL_AT_ONCE,
    EV_SCORED,
    H_SEVEN,
    JACK,
    K_BEZIQUE,
    K_BRISQUES,
    K_COMMON_MARRIAGE,
    K_DOUBLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_EXCHANGE,
    K_SEVEN_PLAYED,
    KING,
    LOC_OPEN,
    LOC_PLAYED,
    LOC_TURNUP,
    PR_BRISQUE_VALUE,
    PR_DOUBLE_BEZ,
    PR_PLAYERS,
    PR_POINTS,
    QUEEN,
    SC_EXCHANGED,
    SC_TRUMP,
    SC_TURNUP,
    SEVEN,
    TEN,
    TR_DECLARED_CARD,
    TR_EXCHANGE,
    TR_OPEN,
    V_OPEN,
    V_PLAYED,
    V_TURNUP,
)
from bezsim.engine.copies import select_copies_at
from bezsim.engine.decisions import decide
from bezsim.engine.jit import njit
from bezsim.engine.offers import exchange_possible
from bezsim.engine.roles import (
    CN_BJ_DOUBLE,
    CN_BJ_SINGLE,
    CN_BQ_DOUBLE,
    CN_BQ_SINGLE,
    CN_FOUR,
    CN_KING,
    CN_QUEEN,
    FOUR_KINDS,
    count_cards,
    seq_slot,
    suit_extra,
)
from bezsim.engine.scoring import history_bit
from bezsim.engine.state import (
    CNT_WIDTH,
    CTR_DECLARING,
    O_ACTS,
    O_APTS,
    O_BRISQ_TAKEN,
    O_BUF,
    O_COMPOUND,
    O_DSTATS,
    O_HIST,
    O_LOC,
    O_MARK,
    O_NEW,
    O_NEW_N,
    O_OPEN,
    O_OPEN_CNT,
    O_OPEN_N,
    O_ROLE_MASK,
    O_ROLE_N,
    O_ROLE_SLOT,
    O_SC,
    O_TRICK,
    OPEN_MAX,
    ROLES_FIXED,
    ROLES_PER_FACE,
    count_card_roles,
    record_event,
    rehist_card_roles,
    reveal_all,
    trace_add,
    trace_on,
    unsigned,
)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def is_open_card(card, trump):
    """A, K, Q, J of any suit and the ten of trumps go face up (R5.1); 7, 8, 9 and plain tens
    are set aside."""
    r = card & 7
    # one test, not a chain of branches on a random card
    return (((OPEN_RANKS >> r) & 1) | ((r == TEN) & (((card & 31) >> 3) == trump))) != 0


OPEN_RANKS = (1 << ACE) | (1 << KING) | (1 << QUEEN) | (1 << JACK)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _count_card(S, seat, card, sign):
    """Keep the seat's open counts as an open card arrives or scores."""
    count_card_roles(S, O_OPEN_CNT + seat * CNT_WIDTH, card, sign)


@njit(error_model="numpy", cache=True, _nrt=False)
def recount_open(S, seat):
    """Open counts from scratch (positions build their state this way)."""
    count_cards(S, O_OPEN + seat * OPEN_MAX, S[O_OPEN_N + seat], O_OPEN_CNT + seat * CNT_WIDTH)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def add_open(params, S, seat, card, hand_no, trick_no):
    """The card joins the seat's open cards and this trick's new cards. (Called behind a
    branch on whether the card goes open: a branch-free version, writing every card and
    keeping the open ones, measured ~4% slower.)"""
    n = S[O_OPEN_N + seat]
    S[unsigned(O_OPEN + seat * OPEN_MAX + n)] = card
    S[O_OPEN_N + seat] = n + 1
    S[unsigned(O_LOC + card)] = LOC_OPEN + seat
    _count_card(S, seat, card, 1)
    reveal_all(S, params[PR_PLAYERS], card, V_OPEN + seat)
    k = S[O_NEW_N]
    S[unsigned(O_NEW + k)] = card
    S[O_NEW_N] = k + 1
    S[unsigned(O_MARK + card)] = 1
    if trace_on(S):
        trace_add(S, TR_OPEN, hand_no, trick_no, seat, card, 0, 0, 0)


@njit(error_model="numpy", cache=True, _nrt=False)
def exchange_seven(params, S, seat, seven, hand_no, trick_no):
    """R5.3: the trick's seven of trumps for the turn-up, 10; the turn-up is won like a card
    of the trick (open card if it can be declared, a brisque if an ace or ten)."""
    players = params[PR_PLAYERS]
    turnup = S[O_SC + SC_TURNUP]
    S[O_LOC + seven] = LOC_TURNUP    # the loser of the last stock trick draws it
    reveal_all(S, players, seven, V_TURNUP)
    S[O_SC + SC_TURNUP] = seven
    S[O_SC + SC_EXCHANGED] = 1
    if trace_on(S):
        trace_add(S, TR_EXCHANGE, hand_no, trick_no, seat, seven, turnup, 0, 0)
    record_event(S, hand_no, trick_no, seat, K_SEVEN_EXCHANGE, EV_SCORED, 0,
                 params[PR_POINTS + K_SEVEN_EXCHANGE])
    trump = S[O_SC + SC_TRUMP]
    r = turnup & 7
    if r == ACE or r == TEN:
        S[O_BRISQ_TAKEN + seat] += params[PR_BRISQUE_VALUE]
        record_event(S, hand_no, trick_no, seat, K_BRISQUES, EV_SCORED, 0,
                     params[PR_BRISQUE_VALUE])
    if is_open_card(turnup, trump):
        add_open(params, S, seat, turnup, hand_no, trick_no)
    else:
        S[O_LOC + turnup] = LOC_PLAYED
        reveal_all(S, players, turnup, V_PLAYED)


ASK = -2    # sevens_from's ``code`` when the winner is still to be asked (A_STOP is -1)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def sevens_from(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, k0, code):
    """Each unscored seven of trumps in the trick from place ``k0`` on: exchanged (the
    winner's choice, while an exchange is possible) or scored as it lies, 10 to the trick's
    winner (R5.3). ``code``: the choice already made for the seven at ``k0`` (search
    play-outs resume there, open_cards_rest) or ASK."""
    players = params[PR_PLAYERS]
    seven_face = S[O_SC + SC_TRUMP] * 8 + SEVEN
    for k in range(k0, players):
        c = S[O_TRICK + k]
        if code == ASK:
            if (c & 31) != seven_face or S[unsigned(O_HIST + c)] & H_SEVEN:
                continue
            S[unsigned(O_HIST + c)] |= H_SEVEN
            if exchange_possible(S):
                S[O_ACTS] = K_SEVEN_EXCHANGE * 4
                S[O_APTS] = params[PR_POINTS + K_SEVEN_EXCHANGE]
                S[O_ACTS + 1] = A_STOP
                S[O_APTS + 1] = 0
                S[CTR_DECLARING] = k
                code = S[O_ACTS + decide(S, rng, pol_ids, pol_params, fns, D_DECLARE, seat, 2)]
        exchange = code != ASK and code != A_STOP
        code = ASK
        if exchange:
            exchange_seven(params, S, seat, c, hand_no, trick_no)
            continue
        record_event(S, hand_no, trick_no, seat, K_SEVEN_PLAYED, EV_SCORED, 0,
                     params[PR_POINTS + K_SEVEN_PLAYED])


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _add_if(S, n, ok, code):
    """Append ``code`` to the compound list if ``ok``, without a branch (see
    offers._offer_if): the slot past the list is scratch."""
    S[unsigned(O_COMPOUND + n * 8)] = code
    return n + (1 if ok else 0)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def completed_combinations(params, S, seat):
    """The combinations the new cards complete with the seat's open cards (R5.2), each
    including a new card, one of each kind (and suit for marriages), judged all at once
    before any of them scores; their codes go to the compound list. Returns how many."""
    new = new_roles(S)
    cnt = O_OPEN_CNT + seat * CNT_WIDTH     # kept up to date by add_open and score_compound
    trump = S[O_SC + SC_TRUMP]
    n = 0
    for s in range(4):
        kind = K_ROYAL_MARRIAGE if s == trump else K_COMMON_MARRIAGE
        n = _add_if(S, n, (S[cnt + CN_KING + s] > 0) & (S[cnt + CN_QUEEN + s] > 0)
                    & _fed(new, (1 << (CN_KING + s)) | (1 << (CN_QUEEN + s))), kind * 4 + s)
    seq = seq_slot(trump, trump)
    complete = ((S[cnt + seq + ACE] > 0) & (S[cnt + seq + TEN] > 0) & (S[cnt + seq + KING] > 0)
                & (S[cnt + seq + QUEEN] > 0) & (S[cnt + seq + JACK] > 0))
    n = _add_if(S, n, complete & _fed(new, 31 << (seq + ACE)), K_SEQUENCE * 4)
    n = _add_if(S, n, (S[cnt + CN_BQ_SINGLE] > 0) & (S[cnt + CN_BJ_SINGLE] > 0)
                & _fed(new, (1 << CN_BQ_SINGLE) | (1 << CN_BJ_SINGLE)), K_BEZIQUE * 4)
    double_ok = (S[cnt + CN_BQ_DOUBLE] >= 2) & (S[cnt + CN_BJ_DOUBLE] >= 2)
    if params[PR_DOUBLE_BEZ] == DOUBLE_BEZ_ALL_AT_ONCE:
        double_ok = double_ok & (S[cnt + CN_BQ_SINGLE] >= 2) & (S[cnt + CN_BJ_SINGLE] >= 2)
    n = _add_if(S, n, double_ok & _fed(new, (1 << CN_BQ_DOUBLE) | (1 << CN_BJ_DOUBLE)),
                K_DOUBLE_BEZIQUE * 4)
    for r in (ACE, KING, QUEEN, JACK):
        n = _add_if(S, n, (S[cnt + CN_FOUR + r] >= 4) & _fed(new, 1 << (CN_FOUR + r)),
                    FOUR_KINDS[r] * 4)
    return n


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def new_roles(S):
    """The counts (roles.CN_*) this trick's new cards feed, as bits of one word: the compound
    asks only whether a new card feeds a count, so no counts are cleared and summed (that
    was 5% of a Polish hand)."""
    bits = np.int64(0)
    for i in range(S[O_NEW_N]):
        c = S[unsigned(O_NEW + i)]
        h = S[unsigned(O_HIST + c)]
        at = (c & 31) * ROLES_PER_FACE
        for j in range(max(ROLES_FIXED, S[O_ROLE_N + (c & 31)])):
            free = np.int64((h & S[O_ROLE_MASK + at + j]) == 0)
            bits |= free << S[O_ROLE_SLOT + at + j]
    return bits


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _fed(bits, mask):
    """Whether a new card feeds any of the counts in ``mask`` (bits as in new_roles)."""
    return (bits & np.int64(mask)) != 0


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def score_compound(params, S, seat, n, hand_no, trick_no):
    """Choose the copies of every combination first (a card may serve several kinds), then
    mark their history and record the events."""
    for i in range(n):
        at = O_COMPOUND + i * 8
        k = select_copies_at(params, S, LOC_OPEN + seat, LOC_OPEN + seat, -1, S[at])
        S[at + 1] = k
        for j in range(k):
            S[at + 2 + j] = S[O_BUF + j]
    for i in range(n):
        at = O_COMPOUND + i * 8
        code = S[at]
        kind = code >> 2
        bit = history_bit(kind)
        for j in range(S[at + 1]):
            c = S[at + 2 + j]
            rehist_card_roles(S, O_OPEN_CNT + seat * CNT_WIDTH, c,
                              S[unsigned(O_HIST + c)] | bit)
            if trace_on(S):
                trace_add(S, TR_DECLARED_CARD, hand_no, trick_no, seat, c, kind, 0, 0)
        record_event(S, hand_no, trick_no, seat, kind, EV_SCORED, suit_extra(kind, code),
                     params[PR_POINTS + kind])


# Called, not inlined (with play_trick, engine/hand.py): two call sites in play_rest, 28 s of
# compile inlined; Polish measured 1.6% slower called (greedy, 4 rounds alternating).
@njit(error_model="numpy", cache=True, _nrt=False)
def open_cards_trick(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no):
    """Everything that follows a won trick in Polish: open cards, sevens, the compound."""
    players = params[PR_PLAYERS]
    trump = S[O_SC + SC_TRUMP]
    S[O_NEW_N] = 0
    for k in range(players):
        c = S[O_TRICK + k]
        if is_open_card(c, trump):
            add_open(params, S, seat, c, hand_no, trick_no)
    open_cards_rest(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, 0, ASK)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def open_cards_rest(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, k0, code):
    """open_cards_trick once the trick's cards are open: the sevens from trick place ``k0``
    (``code`` as in sevens_from), then the compound."""
    sevens_from(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, k0, code)
    if S[O_NEW_N] > 0:
        scored = completed_combinations(params, S, seat)
        score_compound(params, S, seat, scored, hand_no, trick_no)
        if scored > 0:
            S[O_DSTATS + seat * 3] += scored
            S[O_DSTATS + seat * 3 + 1] += 1
            if scored > 1:
                S[O_DSTATS + seat * 3 + 2] += 1
    for k in range(S[O_NEW_N]):
        S[unsigned(O_MARK + S[O_NEW + k])] = 0
    S[O_NEW_N] = 0
