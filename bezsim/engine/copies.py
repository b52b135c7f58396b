"""Which physical copies a declaration takes: copies that already scored in other kinds and
cards already on the table first, so fresh copies stay free for later combinations (R1.9).
"""

from bezsim.engine.constants import (
    ACE,
    H_CLASS_B,
    JACK,
    K_BEZIQUE,
    K_COMMON_MARRIAGE,
    K_DOUBLE_BEZIQUE,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_FOUR_TRUMP_ACES,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_TRIPLE_BEZIQUE,
    KING,
    LOC_HAND,
    LOC_TABLE,
    NO_CARD,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PARTNERS,
    PR_REUSE,
    QUEEN,
    REUSE_ORDINARY,
    SC_TRUMP,
    TEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.roles import (
    bezique_faces,
    bezique_forbid,
    code_kind,
    code_suit,
    four_forbid,
    marriage_forbid,
    sequence_forbid,
    single_forbid,
    trump_four_forbid,
)
from bezsim.engine.state import (
    O_BUF,
    O_CNT,
    O_HIST,
    O_LOC,
    O_MARK,
    O_SC,
    unsigned,
)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def _popcount8(h):
    """Bits set in the history word (18 bits), without a data-dependent loop."""
    h = h & 0x3FFFF
    h = h - ((h >> 1) & 0x15555)
    h = (h & 0x33333) + ((h >> 2) & 0x33333)
    h = (h + (h >> 4)) & 0x30F0F
    return (h + (h >> 8) + (h >> 16)) & 0x1F


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


CAND_MAX = 24      # copies of a rank: four suits of up to six packs


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
    elif kind >= K_FOUR_TRUMP_ACES:             # six-pack (R7): a four in trumps
        n = _pick_many(S, packs, loc_a, loc_b, loc_c, trump * 8 + kind - K_FOUR_TRUMP_ACES,
                       False, trump_four_forbid(params), 0, 4)
    else:
        r = ACE
        if kind == K_FOUR_KINGS:
            r = KING
        elif kind == K_FOUR_QUEENS:
            r = QUEEN
        elif kind == K_FOUR_JACKS:
            r = JACK
        n = _pick_many(S, packs, loc_a, loc_b, loc_c, r, True, four_forbid(params), 0, 4)
    return n
