"""Which declarations a seat may score now (R1.8, R1.9, R3, R4.2, R6.2): the offer a policy
chooses from. A declaration action is ``kind * 4 + suit`` (suit used by marriages).
"""

from bezsim.engine.constants import (
    ACE,
    JACK,
    K_BEZIQUE,
    K_COMMON_MARRIAGE,
    K_DOUBLE_BEZIQUE,
    K_FOUR_TRUMP_ACES,
    K_PLAIN_SEQUENCE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_DECLARE,
    K_SEVEN_EXCHANGE,
    KING,
    NO_CARD,
    NO_TRUMP,
    PR_BEZ_LEVELS,
    PR_FIRST_SEQ_TRUMPS,
    PR_PARTNERS,
    PR_PLAIN_SEQUENCE,
    PR_POINTS,
    PR_REUSE,
    PR_SEVEN_WHEN,
    PR_TRUMP_FOURS,
    QUEEN,
    REUSE_ORDINARY,
    SC_EXCHANGED,
    SC_TRUMP,
    SC_TURNUP,
    SEVEN,
    SEVEN_WHEN_DECLARED,
    TEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.roles import (
    BEZ_KINDS,
    CN_BJ_DOUBLE,
    CN_BJ_SINGLE,
    CN_BQ_DOUBLE,
    CN_BQ_SINGLE,
    CN_BQ_TRIPLE,
    CN_FOUR,
    CN_KING,
    CN_QUEEN,
    CN_SEVEN,
    CN_TFOUR,
    FOUR_KINDS,
    partner_shown,
    seq_slot,
)
from bezsim.engine.state import (
    ACTIONS_MAX,
    CNT_WIDTH,
    O_HAND_CNT,
    O_SC,
    unsigned,
)


@njit(error_model="numpy", cache=True, _nrt=False)
def _offer_beziques(params, S, cnt, partner, out, n):
    """Double and higher beziques from the counts at ``cnt``; with a ``partner`` (R4.2) they
    may also take the pairs the partner has declared on the table."""
    pq, pj = partner_shown(params, S, partner, 1)
    # ordinary: a double or triple needs one card new to the bezique class (R1.9 rule 3)
    fresh = (S[cnt + CN_BQ_SINGLE] + S[cnt + CN_BJ_SINGLE] + pq + pj > 0
             or params[PR_REUSE] != REUSE_ORDINARY)
    if not fresh:
        return n
    pq, pj = partner_shown(params, S, partner, 2)
    if S[cnt + CN_BQ_DOUBLE] + pq >= 2 and S[cnt + CN_BJ_DOUBLE] + pj >= 2:
        n = _offer(S, out, n, K_DOUBLE_BEZIQUE, 0, params[PR_POINTS + K_DOUBLE_BEZIQUE])
    for level in range(3, params[PR_BEZ_LEVELS] + 1):
        at = cnt + CN_BQ_TRIPLE + 2 * (level - 3)
        pq, pj = partner_shown(params, S, partner, level)
        if S[at] + pq >= level and S[at + 1] + pj >= level:
            kind = BEZ_KINDS[level - 1]
            n = _offer(S, out, n, kind, 0, params[PR_POINTS + kind])
    return n


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _offer(S, out, n, kind, suit, points):
    S[out + n] = kind * 4 + suit
    S[out + ACTIONS_MAX + n] = points
    return n + 1


@njit(error_model="numpy", cache=True, _nrt=False)
def exchange_possible(S):
    turnup = S[O_SC + SC_TURNUP]
    return S[O_SC + SC_EXCHANGED] == 0 and turnup != NO_CARD and (turnup & 7) != SEVEN


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _offer_if(S, out, n, ok, kind, suit, points):
    """``_offer`` without a branch: the entry is written either way and kept only if ``ok``
    (past the offer lie earlier offers anyway). Whether a seat holds a combination is random,
    so a branch on it is mispredicted about as often as not."""
    S[unsigned(out + n)] = kind * 4 + suit
    S[unsigned(out + ACTIONS_MAX + n)] = points
    return n + (1 if ok else 0)


@njit(error_model="numpy", cache=True, _nrt=False)
def legal_declarations(params, S, seat, allow_combo, allow_seven, out):
    """Write the declarations ``seat`` may make now at S[out:] (codes) and
    S[out + ACTIONS_MAX:] (points); return how many.

    ``allow_combo``: a combination may still score on this win (R1.10: one per trick).
    ``allow_seven``: the seven of trumps may still be exchanged or declared (R2.3).
    Written without branches on the counts (``_offer_if``): they depend on random cards.
    """
    # kept up to date as cards come and go; seat & 3 (at most four seats) shows the compiler
    # the index is positive, so the reads below need no wrap-around (state.unsigned)
    cnt = O_HAND_CNT + (seat & 3) * CNT_WIDTH
    trump = S[O_SC + SC_TRUMP]
    undecided = trump == NO_TRUMP       # Rubicon: the first marriage or sequence fixes trumps
    n = 0
    if allow_combo:
        for s in range(4):
            ok = (S[cnt + CN_KING + s] > 0) & (S[cnt + CN_QUEEN + s] > 0)
            kind = K_ROYAL_MARRIAGE if (s == trump or undecided) else K_COMMON_MARRIAGE
            n = _offer_if(S, out, n, ok, kind, s, params[PR_POINTS + kind])
        plain = params[PR_PLAIN_SEQUENCE] != 0
        for s in range(4):
            if s != trump and not plain:
                continue
            at = cnt + seq_slot(s, trump)
            ok = ((S[at + ACE] > 0) & (S[at + TEN] > 0) & (S[at + KING] > 0)
                  & (S[at + QUEEN] > 0) & (S[at + JACK] > 0))
            # R6.2: while trumps are undecided a sequence is in trumps (first_sequence=trumps)
            # or plain (plain); it then carries its suit, the suit it would make trumps
            in_trumps = (s == trump) | (undecided & (params[PR_FIRST_SEQ_TRUMPS] != 0))
            kind = K_SEQUENCE if in_trumps else K_PLAIN_SEQUENCE
            suit = 0 if (in_trumps and not undecided) else s   # a fixed trump suit: no code
            n = _offer_if(S, out, n, ok, kind, suit, params[PR_POINTS + kind])
        n = _offer_if(S, out, n, (S[cnt + CN_BQ_SINGLE] > 0) & (S[cnt + CN_BJ_SINGLE] > 0),
                      K_BEZIQUE, 0, params[PR_POINTS + K_BEZIQUE])
        if params[PR_PARTNERS]:
            n = _offer_beziques(params, S, cnt, (seat + 2) & 3, out, n)
        else:
            # ordinary: a double or triple needs one card new to the bezique class (R1.9
            # rule 3); written out (not via _offer_beziques): measured faster
            fresh = ((S[cnt + CN_BQ_SINGLE] + S[cnt + CN_BJ_SINGLE] > 0)
                     | (params[PR_REUSE] != REUSE_ORDINARY))
            n = _offer_if(S, out, n,
                          (S[cnt + CN_BQ_DOUBLE] >= 2) & (S[cnt + CN_BJ_DOUBLE] >= 2) & fresh,
                          K_DOUBLE_BEZIQUE, 0, params[PR_POINTS + K_DOUBLE_BEZIQUE])
            for level in range(3, params[PR_BEZ_LEVELS] + 1):
                at = cnt + CN_BQ_TRIPLE + 2 * (level - 3)
                kind = BEZ_KINDS[level - 1]
                n = _offer_if(S, out, n, (S[at] >= level) & (S[at + 1] >= level) & fresh,
                              kind, 0, params[PR_POINTS + kind])
        for r in (ACE, KING, QUEEN, JACK):
            kind = FOUR_KINDS[r]
            n = _offer_if(S, out, n, S[cnt + CN_FOUR + r] >= 4, kind, 0,
                          params[PR_POINTS + kind])
        if params[PR_TRUMP_FOURS] and not undecided:
            for r in range(JACK + 1):           # six-pack (R7): fours in trumps, tens too
                kind = K_FOUR_TRUMP_ACES + r
                n = _offer_if(S, out, n, (S[cnt + CN_TFOUR + r] >= 4)
                              & (params[PR_POINTS + kind] > 0), kind, 0,
                              params[PR_POINTS + kind])
    if allow_seven:
        seven = S[cnt + CN_SEVEN] > 0
        n = _offer_if(S, out, n, seven & exchange_possible(S), K_SEVEN_EXCHANGE, 0,
                      params[PR_POINTS + K_SEVEN_EXCHANGE])
        n = _offer_if(S, out, n, seven & (params[PR_SEVEN_WHEN] == SEVEN_WHEN_DECLARED),
                      K_SEVEN_DECLARE, 0, params[PR_POINTS + K_SEVEN_DECLARE])
    return n
