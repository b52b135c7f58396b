"""What each copy may still serve: the class rules (R1.9, R6.6) as forbid masks over a
copy's declaration history, and the per-seat counts of copies free for each combination
(the scratch counts O_CNT) that the offer reads.
"""

from bezsim.engine.constants import (
    BEZ_PAIR_BY_TRUMP,
    BEZ_PAIR_TRUMP_QUEEN,
    CLUBS,
    DIAMONDS,
    DOUBLE_BEZ_ALL_AT_ONCE,
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
    H_TRUMP_FOUR,
    HEARTS,
    JACK,
    K_BEZIQUE,
    K_DOUBLE_BEZIQUE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_TRIPLE_BEZIQUE,
    KING,
    LOC_TABLE,
    MAX_HAND,
    PR_BEZ_LEVELS,
    PR_BEZ_PAIR,
    PR_DOUBLE_BEZ,
    PR_MARR_TO_SEQ,
    PR_NO_SEVEN,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PLAIN_SEQUENCE,
    PR_PLAYERS,
    PR_REUSE,
    PR_TRUMP_FOURS,
    QUEEN,
    REUSE_LATER_CLASS,
    REUSE_ORDINARY,
    SC_TRUMP,
    SEVEN,
    SPADES,
    TEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    CNT_WIDTH,
    O_HAND_CNT,
    O_HAND_N,
    O_HANDS,
    O_HIST,
    O_LOC,
    O_N_COUNTS,
    O_ROLE_CACHE,
    O_ROLE_MASK,
    O_ROLE_N,
    O_ROLE_SLOT,
    O_SC,
    O_TRACK_HAND,
    ROLE_CACHE_WIDTH,
    ROLE_TABLE,
    ROLES_FIXED,
    ROLES_PER_FACE,
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
CN_TFOUR = 42      # + rank (A..J): copies of that rank in trumps free for its four (R7)
CN_NONE = 47       # where faces feeding nothing are counted (never read)
CN_SIZE = 48

BEZ_KINDS = (K_BEZIQUE, K_DOUBLE_BEZIQUE, K_TRIPLE_BEZIQUE, K_QUADRUPLE_BEZIQUE)
BEZ_BITS = (H_BEZ1, H_BEZ2, H_BEZ3, H_BEZ4)
FOUR_KINDS = (K_FOUR_ACES, -1, K_FOUR_KINGS, K_FOUR_QUEENS, K_FOUR_JACKS)
H_FOURS = H_FOUR | H_TRUMP_FOUR            # the class of fours (R6.6 class F)


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


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def suit_extra(kind, code):
    """The suit recorded with an event (+1; 0 for none): marriages and plain sequences."""
    if kind <= K_ROYAL_MARRIAGE or kind == K_PLAIN_SEQUENCE:
        return (code & 3) + 1
    return 0


@njit(error_model="numpy", cache=True, _nrt=False)
def bezique_faces(params, trump):
    """(queen face, jack face) of a bezique under the rules table ``params``."""
    return pair_faces(params[PR_BEZ_PAIR], trump)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def pair_faces(pair, trump):
    """(queen face, jack face) of a bezique of pair rule ``pair`` (BEZ_PAIR_*): Q♠ J♦; with
    option ``bezique_pair=by_trump`` Q♣ J♥ when spades or diamonds are trumps (R9); in
    six-pack the queen of trumps and the jack of the other colour's suit paired with it, ♠
    with ♦ and ♥ with ♣ (R7), and no bezique while trumps are undecided (-1, -1: no face).
    Policies read it from the public rules table."""
    if pair == BEZ_PAIR_TRUMP_QUEEN:
        if trump < 0:
            return -1, -1
        return trump * 8 + QUEEN, (trump ^ 2) * 8 + JACK
    if pair == BEZ_PAIR_BY_TRUMP and (trump == SPADES or trump == DIAMONDS):
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
        return _ever(H_CLASS_B | H_FOURS)
    if klass == 1:
        return _ever(H_FOURS)
    return 0


@njit(error_model="numpy", cache=True, _nrt=False)
def four_forbid(params):
    """A four of a rank: not from a copy in an intact four of its rank; in six-pack (R7) not
    from one that was ever in a four in trumps either, the higher four of the class (no
    downward step within a class, R6.6)."""
    if params[PR_TRUMP_FOURS]:
        return H_FOUR | _ever(H_TRUMP_FOUR)
    return H_FOUR


@njit(error_model="numpy", cache=True, _nrt=False)
def trump_four_forbid(params):
    """A four of a rank in trumps (R7): not from a copy in an intact one; a plain four's
    copies may step up to it (same class upward, R6.6)."""
    return H_TRUMP_FOUR


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
    trump_fours = params[PR_TRUMP_FOURS] != 0
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
            at = _role(S, at, CN_FOUR + r, four_forbid(params))
        if trump_fours and s == trump and r <= JACK:
            at = _role(S, at, CN_TFOUR + r, trump_four_forbid(params))
        if seven and s == trump and r == SEVEN:
            at = _role(S, at, CN_SEVEN, H_SEVEN)
        S[O_ROLE_N + f] = at - base
    S[O_N_COUNTS] = (CN_NONE if trump_fours else CN_COMMON if (not plain and levels <= 2)
                     else CN_TFOUR)


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
