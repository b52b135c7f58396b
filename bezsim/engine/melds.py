"""Declarations of the ordinary game: which combinations a seat may score now (R1.8, R1.9),
which copies score, and the seven of trumps (R2.3).

A declaration action is ``kind * 4 + suit`` (suit used by marriages). The policy picks the
kind; the engine picks the physical copies, preferring copies that have already scored in
other kinds and cards already on the table, so fresh copies stay free for later combinations.
"""

from bezsim.engine.constants import (
    ACE,
    BEZ_PAIR_BY_TRUMP,
    CLUBS,
    DIAMONDS,
    DOUBLE_BEZ_ALL_AT_ONCE,
    EV_LOST,
    EV_SCORED,
    H_BEZ1,
    H_BEZ2,
    H_BEZ3,
    H_BEZ4,
    H_CLASS_B,
    H_CLASS_M,
    H_EVER_SHIFT,
    H_FOUR,
    H_MARRIAGE,
    H_SEQUENCE,
    H_SEVEN,
    HEARTS,
    JACK,
    K_BEZIQUE,
    K_COMMON_MARRIAGE,
    K_DOUBLE_BEZIQUE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_DECLARE,
    K_SEVEN_EXCHANGE,
    K_TRIPLE_BEZIQUE,
    KING,
    LOC_HAND,
    LOC_PLAYED,
    LOC_TABLE,
    LOC_TRICK,
    LOC_TURNUP,
    MAX_HAND,
    NO_CARD,
    NO_TRUMP,
    PR_BEZ_LEVELS,
    PR_BEZ_PAIR,
    PR_DOUBLE_BEZ,
    PR_FIRST_SEQ_TRUMPS,
    PR_MARR_TO_SEQ,
    PR_NO_SEVEN,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PARTNERS,
    PR_PLAIN_SEQUENCE,
    PR_PLAYERS,
    PR_POINTS,
    PR_REFORM_DOUBLE,
    PR_REUSE,
    PR_SEVEN_WHEN,
    QUEEN,
    REUSE_LATER_CLASS,
    REUSE_ORDINARY,
    SC_EXCHANGED,
    SC_TRUMP,
    SC_TRUMP_TRICK,
    SC_TURNUP,
    SEVEN,
    SEVEN_WHEN_DECLARED,
    SPADES,
    TEN,
    TR_DECLARED_CARD,
    TR_EXCHANGE,
    TR_SHOW,
    V_MINE,
    V_SHOWN,
    V_TURNUP,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    ACTIONS_MAX,
    CNT_WIDTH,
    INSTANCE_MAX,
    INSTANCE_WIDTH,
    N_MAX,
    O_BUF,
    O_CNT,
    O_HAND_CNT,
    O_HAND_N,
    O_HANDS,
    O_HIST,
    O_INST,
    O_INST_N,
    O_LOC,
    O_MARK,
    O_N_COUNTS,
    O_PEND,
    O_PEND_N,
    O_ROLE_CACHE,
    O_ROLE_MASK,
    O_ROLE_N,
    O_ROLE_SLOT,
    O_SC,
    O_SEEN,
    O_TRACK_HAND,
    PENDING_MAX,
    PENDING_WIDTH,
    ROLE_CACHE_WIDTH,
    ROLE_TABLE,
    ROLES_FIXED,
    ROLES_PER_FACE,
    count_hand_card,
    record_event,
    set_hist,
    show,
    trace_add,
    trace_on,
    unsigned,
)

# layout of the scratch counts (O_CNT)
# The ordinary and Polish games use only the first CN_COMMON counts (trump sequence first),
# so count_cards clears no more than the variant needs.
CN_KING = 0        # + suit: kings free for a marriage
CN_QUEEN = 4       # + suit: queens free for a marriage
CN_BQ_SINGLE = 8   # bezique queens free for a single bezique
CN_BJ_SINGLE = 9
CN_BQ_DOUBLE = 10  # ... for a double
CN_BJ_DOUBLE = 11
CN_FOUR = 12       # + rank (A..J): copies free for a four of their rank
CN_SEVEN = 17      # sevens of trumps not yet scored
CN_SEQ = 18        # + seq_slot(suit) * 5 + rank (A..J): cards free for that suit's sequence
CN_COMMON = 23     # counts used by games without plain sequences or triple beziques
CN_BQ_TRIPLE = 38  # ... for a triple (three or more packs)
CN_BJ_TRIPLE = 39
CN_BQ_QUAD = 40    # ... for a quadruple (four packs)
CN_BJ_QUAD = 41
CN_NONE = 42       # where faces feeding nothing are counted (never read)
CN_SIZE = 43

FORBID_DOUBLE = H_BEZ2 | H_BEZ3 | H_BEZ4   # no double from a double or a higher bezique
BEZ_KINDS = (K_BEZIQUE, K_DOUBLE_BEZIQUE, K_TRIPLE_BEZIQUE, K_QUADRUPLE_BEZIQUE)
BEZ_BITS = (H_BEZ1, H_BEZ2, H_BEZ3, H_BEZ4)
FOUR_KINDS = (K_FOUR_ACES, -1, K_FOUR_KINGS, K_FOUR_QUEENS, K_FOUR_JACKS)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def seq_slot(suit, trump):
    """Where a suit's sequence counts start: the trump suit's first, so the ordinary game
    needs only CN_COMMON counts."""
    return CN_SEQ + (((suit - trump) & 3) if trump >= 0 else suit) * 5


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def code_kind(code):
    return code >> 2


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def code_suit(code):
    return code & 3


@njit(error_model="numpy", cache=True, _nrt=False)
def bezique_faces(params, trump):
    """(queen face, jack face) of a bezique: Q♠ J♦; with option ``bezique_pair=by_trump``
    Q♣ J♥ when spades or diamonds are trumps (R9)."""
    if params[PR_BEZ_PAIR] == BEZ_PAIR_BY_TRUMP and (trump == SPADES or trump == DIAMONDS):
        return CLUBS * 8 + QUEEN, HEARTS * 8 + JACK
    return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _ever(bits):
    return bits << H_EVER_SHIFT


@njit(error_model="numpy", cache=True, _nrt=False)
def _earlier_classes(params, klass):
    """Rubicon (R6.6, later_class): a card once declared in a later class may not serve an
    earlier one (classes M, B, F)."""
    if params[PR_REUSE] != REUSE_LATER_CLASS:
        return 0
    if klass == 0:
        return _ever(H_CLASS_B | H_FOUR)
    if klass == 1:
        return _ever(H_FOUR)
    return 0


@njit(error_model="numpy", cache=True, _nrt=False)
def sequence_forbid(params):
    if params[PR_REUSE] != REUSE_ORDINARY:
        m = 0 if params[PR_MARR_TO_SEQ] else _ever(H_MARRIAGE)
        return H_SEQUENCE | m | _earlier_classes(params, 0)
    if params[PR_MARR_TO_SEQ]:
        return H_SEQUENCE
    return H_SEQUENCE | H_MARRIAGE


@njit(error_model="numpy", cache=True, _nrt=False)
def marriage_forbid(params):
    """R1.9: no second marriage, none from a sequence; open cards (R5.2): rule 1 only;
    Rubicon (R6.6): no marriage from a sequence or a later class, re-forming allowed."""
    if params[PR_REUSE] != REUSE_ORDINARY:
        return H_MARRIAGE | _ever(H_SEQUENCE) | _earlier_classes(params, 0)
    return H_MARRIAGE if params[PR_OPEN_CARDS] else H_CLASS_M


@njit(error_model="numpy", cache=True, _nrt=False)
def bezique_forbid(params, level):
    """Bits that stop a copy from a bezique of ``level`` (1 single .. 4 quadruple)."""
    own = BEZ_BITS[level - 1]
    higher = 0
    for k in range(level, 4):
        higher |= BEZ_BITS[k]
    if params[PR_REUSE] != REUSE_ORDINARY:
        if level == 2 and params[PR_DOUBLE_BEZ] == DOUBLE_BEZ_ALL_AT_ONCE:
            higher |= H_CLASS_B                # no card that ever was in a bezique
        return own | _ever(higher) | _earlier_classes(params, 1)
    if params[PR_OPEN_CARDS]:
        if level == 2 and params[PR_DOUBLE_BEZ] == DOUBLE_BEZ_ALL_AT_ONCE:
            return H_CLASS_B
        return own
    if level == 1:
        return H_CLASS_B
    if level == 2 and params[PR_DOUBLE_BEZ] == DOUBLE_BEZ_ALL_AT_ONCE:
        return H_CLASS_B
    return own | higher


@njit(error_model="numpy", cache=True, _nrt=False)
def single_forbid(params):
    return bezique_forbid(params, 1)


@njit(error_model="numpy", cache=True, _nrt=False)
def double_forbid(params):
    return bezique_forbid(params, 2)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _role(S, at, slot, mask):
    S[O_ROLE_SLOT + at] = slot
    S[O_ROLE_MASK + at] = mask
    return at + 1


@njit(error_model="numpy", cache=True, _nrt=False)
def set_roles(params, S):
    """For each face, the counts of count_cards it feeds and the history bits that stop it
    (R1.9, R6.6), fixed while trumps stay the same: counting then needs no branches. The
    tables depend on the rules and trumps only, so they are built once per trump suit and
    copied at later deals (building them was 3% of a Polish hand)."""
    trump = S[O_SC + SC_TRUMP]
    cached = -1 <= trump <= 3
    entry = O_ROLE_CACHE + (trump + 1) * ROLE_CACHE_WIDTH
    if cached and S[unsigned(entry + ROLE_TABLE + 1)] == 1:
        for i in range(ROLE_TABLE):
            S[O_ROLE_SLOT + i] = S[unsigned(entry + i)]
        S[O_N_COUNTS] = S[unsigned(entry + ROLE_TABLE)]
        return
    _build_roles(params, S, trump)
    if cached:
        for i in range(ROLE_TABLE):
            S[unsigned(entry + i)] = S[O_ROLE_SLOT + i]
        S[unsigned(entry + ROLE_TABLE)] = S[O_N_COUNTS]
        S[unsigned(entry + ROLE_TABLE + 1)] = 1


@njit(error_model="numpy", cache=True, _nrt=False)
def _build_roles(params, S, trump):
    """set_roles' tables for ``trump``, built from the rules."""
    bq, bj = bezique_faces(params, trump)
    seq_forbid = sequence_forbid(params)
    m_forbid = marriage_forbid(params)
    levels = params[PR_BEZ_LEVELS]
    plain = params[PR_PLAIN_SEQUENCE] != 0
    seven = params[PR_NO_SEVEN] == 0
    for f in range(32):
        r = f & 7
        s = f >> 3
        base = f * ROLES_PER_FACE
        for j in range(ROLES_PER_FACE):
            # unused roles feed scratch counts, a different one for each role: counting a
            # card is then no chain of updates to one word (~2% of a two-player hand)
            S[O_ROLE_SLOT + base + j] = CN_NONE + j % (CNT_WIDTH - CN_NONE)
            S[O_ROLE_MASK + base + j] = 0
        at = base
        if r == KING or r == QUEEN:
            at = _role(S, at, (CN_QUEEN if r == QUEEN else CN_KING) + s, m_forbid)
        if r <= JACK and (s == trump or plain):
            at = _role(S, at, seq_slot(s, trump) + r, seq_forbid)
        if f == bq or f == bj:
            for level in range(1, levels + 1):
                slot = (CN_BQ_SINGLE if level <= 2 else CN_BQ_TRIPLE) + 2 * ((level - 1) % 2)
                at = _role(S, at, slot + (0 if f == bq else 1), bezique_forbid(params, level))
        if r <= JACK and r != TEN:
            at = _role(S, at, CN_FOUR + r, H_FOUR)
        if seven and s == trump and r == SEVEN:
            at = _role(S, at, CN_SEVEN, H_SEVEN)
        S[O_ROLE_N + f] = at - base
    S[O_N_COUNTS] = CN_COMMON if (not plain and levels <= 2) else CN_NONE


@njit(error_model="numpy", cache=True, _nrt=False)
def count_cards(S, base, n, out):
    """Count how many of the cards S[base:base+n] may still score in each needed role (R1.9)
    into S[out:out+CN_SIZE], through the role table of set_roles."""
    for i in range(S[O_N_COUNTS]):
        S[unsigned(out + i)] = 0
    for i in range(n):
        c = S[unsigned(base + i)]
        h = S[unsigned(O_HIST + c)]
        at = (c & 31) * ROLES_PER_FACE
        for j in range(max(ROLES_FIXED, S[O_ROLE_N + (c & 31)])):
            S[unsigned(out + S[O_ROLE_SLOT + at + j])] += (h & S[O_ROLE_MASK + at + j]) == 0


@njit(error_model="numpy", cache=True, _nrt=False)
def recount_hands(params, S):
    """Hand counts from scratch, after the roles change (the deal, trumps fixed); from then
    on give, take and set_hist keep them (not needed with open cards)."""
    S[O_TRACK_HAND] = 0 if params[PR_OPEN_CARDS] else 1
    if params[PR_OPEN_CARDS]:
        return
    for seat in range(params[PR_PLAYERS]):
        count_cards(S, O_HANDS + seat * MAX_HAND, S[O_HAND_N + seat],
                    O_HAND_CNT + seat * CNT_WIDTH)


@njit(error_model="numpy", cache=True, _nrt=False)
def partner_shown(params, S, partner, level):
    """Bezique queens and jacks the partner has declared on the table that may still serve a
    bezique of ``level`` (R4.2); (0, 0) without a partner."""
    if partner < 0:
        return 0, 0
    bq, bj = bezique_faces(params, S[O_SC + SC_TRUMP])
    forbid = bezique_forbid(params, level)
    q = 0
    j = 0
    for k in range(params[PR_PACKS]):
        c = bq + 32 * k
        q += S[O_LOC + c] == LOC_TABLE + partner and (S[O_HIST + c] & forbid) == 0
        c = bj + 32 * k
        j += S[O_LOC + c] == LOC_TABLE + partner and (S[O_HIST + c] & forbid) == 0
    return q, j


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
    if allow_seven:
        seven = S[cnt + CN_SEVEN] > 0
        n = _offer_if(S, out, n, seven & exchange_possible(S), K_SEVEN_EXCHANGE, 0,
                      params[PR_POINTS + K_SEVEN_EXCHANGE])
        n = _offer_if(S, out, n, seven & (params[PR_SEVEN_WHEN] == SEVEN_WHEN_DECLARED),
                      K_SEVEN_DECLARE, 0, params[PR_POINTS + K_SEVEN_DECLARE])
    return n


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _popcount8(h):
    """Bits set among the low 16 (the history word), without a data-dependent loop."""
    h = h & 0xFFFF
    h = h - ((h >> 1) & 0x5555)
    h = (h & 0x3333) + ((h >> 2) & 0x3333)
    h = (h + (h >> 4)) & 0x0F0F
    return (h + (h >> 8)) & 0x1F


@njit(error_model="numpy", cache=True, _nrt=False)
def _pick(S, packs, loc_a, loc_b, loc_c, match, by_rank, forbid, n_out):
    """Best copy, among the cards whose location is loc_a, loc_b or loc_c, of a face (or of a
    rank when by_rank) free of ``forbid`` bits and not already among the first n_out cards of
    O_BUF: cards new on this trick first (open cards, R5.2), then most history, then shown
    cards, then lowest id. Only the copies of the face are looked at."""
    best = NO_CARD
    best_key = -1
    n_faces = 4 if by_rank else 1
    # copies come in increasing id, so "lowest id on ties" is "first on ties"; written
    # without branches on the cards (which copy is where is random: mispredicted branches
    # were most of the Polish compound's cost)
    for k in range(n_faces * packs):
        c = _copy(k, match, by_rank)
        key = _copy_key(S, c, loc_a, loc_b, loc_c, forbid, n_out)
        better = key > best_key
        best = c if better else best
        best_key = key if better else best_key
    return best


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _copy(k, match, by_rank):
    """The k-th copy of a face (or, by rank, of the rank's four faces), in increasing id."""
    # shifts, not a division by n_faces (1 or 4): an integer division costs tens of cycles
    if by_rank:
        return (k & 3) * 8 + match + 32 * (k >> 2)
    return match + 32 * k


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _copy_key(S, c, loc_a, loc_b, loc_c, forbid, n_out):
    """How good a choice copy ``c`` is (``_pick``), or -1 if it may not be chosen: not at
    loc_a, loc_b or loc_c, blocked by ``forbid``, or already among O_BUF[:n_out]."""
    loc = S[unsigned(O_LOC + c)]
    h = S[unsigned(O_HIST + c)]
    taken = False
    for j in range(n_out):
        taken |= S[O_BUF + j] == c
    ok = (((loc == loc_a) | (loc == loc_b) | (loc == loc_c)) & ((h & forbid) == 0)
          & (not taken))
    return (S[unsigned(O_MARK + c)] * 32 + _popcount8(h) * 2
            + (1 if loc >= LOC_TABLE else 0)) if ok else -1


CAND_MAX = 16      # copies of a rank: four suits of up to four packs


@njit(error_model="numpy", cache=True, _nrt=False)
def _pick_many(S, packs, loc_a, loc_b, loc_c, match, by_rank, forbid, n_out, count):
    """``count`` successive ``_pick`` calls for the same face (or rank), into
    O_BUF[n_out:n_out + count]; returns n_out + count. The candidates are looked at once:
    their keys do not change between picks, so taking the best remaining one each time (ties:
    lowest id, the candidates being in increasing id) is what ``_pick`` would choose. Four of
    a kind made by four scans of eight copies each was most of the Polish compound's cost."""
    ids = O_CNT                      # scratch: candidate ids, then their keys
    keys = O_CNT + CAND_MAX
    m = 0
    n_faces = 4 if by_rank else 1
    for k in range(n_faces * packs):
        c = _copy(k, match, by_rank)
        key = _copy_key(S, c, loc_a, loc_b, loc_c, forbid, n_out)
        S[ids + m] = c
        S[keys + m] = key
        m += 1 if key >= 0 else 0
    for i in range(count):
        best = -1
        best_key = -1
        for j in range(m):
            key = S[keys + j]
            better = key > best_key
            best = j if better else best
            best_key = key if better else best_key
        if best < 0:
            S[O_BUF + n_out + i] = NO_CARD
        else:
            S[O_BUF + n_out + i] = S[ids + best]
            S[keys + best] = -1          # taken
    return n_out + count


@njit(error_model="numpy", cache=True, _nrt=False)
def _ensure_new_to_bezique_class(S, packs, loc_a, loc_b, loc_c, n_out, bq, bj):
    """R1.9 rule 3 for a double or triple: if every chosen copy already scored in class B,
    swap one for a held copy that never did."""
    for j in range(n_out):
        if (S[O_HIST + S[O_BUF + j]] & H_CLASS_B) == 0:
            return
    for k in range(2 * packs):
        f = bq if k % 2 == 0 else bj
        c = f + 32 * (k // 2)
        loc = S[O_LOC + c]
        if (loc == loc_a or loc == loc_b or loc == loc_c) and (S[O_HIST + c] & H_CLASS_B) == 0:
            for j in range(n_out):
                if S[O_BUF + j] & 31 == f:
                    S[O_BUF + j] = c
                    return


@njit(error_model="numpy", cache=True, _nrt=False)
def select_copies(params, S, seat, code):
    """Copies from the seat's hand, shown or not, that make ``code`` (ordinary game); a
    partner's double or triple may add pairs the other partner shows (R4.2)."""
    loc_c = -1
    if params[PR_PARTNERS] and code_kind(code) >= K_DOUBLE_BEZIQUE and (
            code_kind(code) <= K_QUADRUPLE_BEZIQUE):
        loc_c = LOC_TABLE + ((seat + 2) & 3)
    return select_copies_at(params, S, LOC_HAND + seat, LOC_TABLE + seat, loc_c, code)


@njit(error_model="numpy", cache=True, _nrt=False)
def select_copies_at(params, S, loc_a, loc_b, loc_c, code):
    """Choose the copies lying at loc_a, loc_b or loc_c (-1: none) that make combination
    ``code`` into O_BUF; return how many."""
    packs = params[PR_PACKS]
    kind = code_kind(code)
    s = code_suit(code)
    trump = S[O_SC + SC_TRUMP]
    n = 0
    if kind == K_COMMON_MARRIAGE or kind == K_ROYAL_MARRIAGE:
        forbid = marriage_forbid(params)
        S[O_BUF] = _pick(S, packs, loc_a, loc_b, loc_c, s * 8 + KING, False, forbid, 0)
        S[O_BUF + 1] = _pick(S, packs, loc_a, loc_b, loc_c, s * 8 + QUEEN, False, forbid, 1)
        n = 2
    elif kind == K_SEQUENCE or kind == K_PLAIN_SEQUENCE:
        forbid = sequence_forbid(params)
        suit = trump if (kind == K_SEQUENCE and trump >= 0) else s
        for r in (ACE, TEN, KING, QUEEN, JACK):
            S[O_BUF + n] = _pick(S, packs, loc_a, loc_b, loc_c, suit * 8 + r, False, forbid, n)
            n += 1
    elif kind == K_BEZIQUE:
        bq, bj = bezique_faces(params, trump)
        forbid = single_forbid(params)
        S[O_BUF] = _pick(S, packs, loc_a, loc_b, loc_c, bq, False, forbid, 0)
        S[O_BUF + 1] = _pick(S, packs, loc_a, loc_b, loc_c, bj, False, forbid, 1)
        n = 2
    elif kind == K_DOUBLE_BEZIQUE or kind == K_TRIPLE_BEZIQUE or kind == K_QUADRUPLE_BEZIQUE:
        bq, bj = bezique_faces(params, trump)
        level = 2 if kind == K_DOUBLE_BEZIQUE else (3 if kind == K_TRIPLE_BEZIQUE else 4)
        forbid = bezique_forbid(params, level)
        for f in (bq, bj):
            n = _pick_many(S, packs, loc_a, loc_b, loc_c, f, False, forbid, n, level)
        if level <= 3 and not params[PR_OPEN_CARDS] and params[PR_REUSE] == REUSE_ORDINARY:
            _ensure_new_to_bezique_class(S, packs, loc_a, loc_b, loc_c, n, bq, bj)
    else:
        r = ACE
        if kind == K_FOUR_KINGS:
            r = KING
        elif kind == K_FOUR_QUEENS:
            r = QUEEN
        elif kind == K_FOUR_JACKS:
            r = JACK
        n = _pick_many(S, packs, loc_a, loc_b, loc_c, r, True, H_FOUR, 0, 4)
    return n


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
    return H_FOUR


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def suit_extra(kind, code):
    """The suit recorded with an event (+1; 0 for none): marriages and plain sequences."""
    if kind <= K_ROYAL_MARRIAGE or kind == K_PLAIN_SEQUENCE:
        return (code & 3) + 1
    return 0


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
            at = _pend_at(seat, i)
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


# --- combinations shown "to score" (R1.10) ---------------------------------------------------

@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _pend_at(seat, i):
    return O_PEND + (seat * PENDING_MAX + i) * PENDING_WIDTH


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_index(S, seat, code):
    for i in range(S[O_PEND_N + seat]):
        if S[_pend_at(seat, i)] == code:
            return i
    return -1


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_remove(S, seat, i):
    last = S[O_PEND_N + seat] - 1
    for k in range(PENDING_WIDTH):
        S[_pend_at(seat, i) + k] = S[_pend_at(seat, last) + k]
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
        at = _pend_at(seat, S[O_PEND_N + seat])
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
    code = S[_pend_at(seat, i)]
    kind = code_kind(code)
    record_event(S, hand_no, trick, seat, kind, EV_LOST, suit_extra(kind, code), 0)
    pending_remove(S, seat, i)


@njit(error_model="numpy", cache=True, _nrt=False)
def pending_on_play(S, seat, card, hand_no, trick):
    """A played card kills every 'to score' combination it belonged to."""
    i = 0
    while i < S[O_PEND_N + seat]:
        at = _pend_at(seat, i)
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
