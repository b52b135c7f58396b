"""What the seat knows of the cards, packed: counts per card face of its cards (all, and
those still free for each kind of combination), of the copies still unseen, and the chance
of drawing them; whether a card can still be beaten; the partner's bezique cards on the table.

Counts per face are packed four bits a face into two int64 words (faces 0-15, 16-31), so a
decision needs no array: the kernels run without numba's runtime.
"""

from bezsim.engine.constants import (
    H_BEZ2,
    H_BEZ3,
    H_BEZ4,
    H_CLASS_B,
    H_EVER_SHIFT,
    H_FOUR,
    H_MARRIAGE,
    H_SEQUENCE,
    H_TRUMP_FOUR,
    V_MINE,
    V_MINE_SHOWN,
    V_SHOWN,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_HIST,
    O_N_ACTS,
    O_SEEN,
)

H_FOURS = H_FOUR | H_TRUMP_FOUR   # class F: the fours, and six-pack's fours in trumps
_NIB = 4
_ONES = 0x1111111111111111     # a one in every face's four bits


@njit(cache=True, inline="always", _nrt=False)
def _get(lo, hi, f):
    """Count of face ``f`` in a packed pair (four bits a face). (``int`` keeps plain Python,
    where a card read from S is an int32, from overflowing.)"""
    f = int(f)
    if f < 16:
        return (int(lo) >> (f * _NIB)) & 15
    return (int(hi) >> ((f - 16) * _NIB)) & 15


@njit(cache=True, inline="always", _nrt=False)
def _bit(f):
    return 1 << ((int(f) & 15) * _NIB)


@njit(cache=True, inline="always", _nrt=False)
def _at_least(m, u, p):
    """Chance of at least ``m`` of ``u`` unseen copies coming to us, each with chance ``p``."""
    if m <= 0:
        return 1.0
    if m > u:
        return 0.0
    q = 1.0 - p
    if u <= 4:                         # P(none); most counts are small
        term = 1.0
        for _ in range(u):
            term *= q
    else:
        term = q ** u
    if m == 1:
        return 1.0 - term
    below = term
    r = p / q
    for k in range(m - 1):
        term *= (u - k) / (k + 1) * r
        below += term
    return max(0.0, 1.0 - below)


@njit(cache=True, inline="always", _nrt=False)
def _free(h, rubicon, any_class, m2s):
    """May a copy with declaration history ``h`` still serve a marriage, a sequence, a
    higher bezique, a four? R1.9 (ordinary) or R6.6 (Rubicon: low history bits mean 'in an
    intact combination', bits << H_EVER_SHIFT 'ever declared in')."""
    if rubicon:
        ever = h >> H_EVER_SHIFT
        lock = 0 if any_class else ever & (H_CLASS_B | H_FOURS)
        can_m = ((h & H_MARRIAGE) == 0) & ((ever & H_SEQUENCE) == 0) & (lock == 0)
        can_s = (((ever & H_SEQUENCE) == 0) & (lock == 0)
                 & (m2s | ((ever & H_MARRIAGE) == 0)))
        can_b = ((h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0) & (any_class | ((ever & H_FOURS) == 0))
    else:
        can_m = (h & (H_MARRIAGE | H_SEQUENCE)) == 0
        can_s = ((h & H_SEQUENCE) == 0) & (m2s | ((h & H_MARRIAGE) == 0))
        can_b = (h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0
    can_f = (h & H_FOURS) == 0     # six-pack: a four in trumps' cards as neither four (R7.4)
    return can_m, can_s, can_b, can_f


@njit(cache=True, inline="always", _nrt=False)
def _scan_half(S, row, packs, half, rubicon, any_class, m2s):
    """Counts over the 16 faces of one packed word (``half`` 0: spades and hearts, 16:
    diamonds and clubs), every pack: mine, free to marry, to make a sequence, a higher
    bezique, a four; never ours; unseen. Without branches on the cards (which are random):
    a mispredicted branch per card cost more than the test."""
    mine = 0
    mar = 0
    seq = 0
    bez = 0
    four = 0
    out = 0
    unseen = 0
    for i in range(16 * packs):
        f = i & 15
        c = (i >> 4) * 32 + half + f
        v = S[row + c]
        h = S[O_HIST + c]
        b = 1 << (f * _NIB)
        can_m, can_s, can_b, can_f = _free(h, rubicon, any_class, m2s)
        m = (v == V_MINE) | (v == V_MINE_SHOWN)
        u = v == V_UNSEEN
        bm = b * m
        mine += bm
        mar += bm * can_m
        seq += bm * can_s
        bez += bm * can_b
        four += bm * can_f
        out += b * ((not m) & (not u))     # played, on the trick, the turn-up, another's
        unseen += u
    return mine, mar, seq, bez, four, out, unseen


@njit(cache=True, _nrt=False)
def _scan(S, seat, packs, rubicon, any_class, m2s):
    """One pass over the seat's knowledge row: packed counts by face of its cards (all, and
    those still free to marry, to make a sequence, a higher bezique, a four), of copies it
    can never hold (played, on the trick, another seat's), and how many cards are unseen.
    Freedom follows R1.9 (ordinary) or R6.6 (Rubicon: low history bits mean 'in an intact
    combination', bits << H_EVER_SHIFT 'ever declared in')."""
    row = O_SEEN + seat * N_MAX
    lo = _scan_half(S, row, packs, 0, rubicon, any_class, m2s)
    hi = _scan_half(S, row, packs, 16, rubicon, any_class, m2s)
    # copies unseen, face by face: the packs less ours less those we can never hold (each
    # count fits its four bits, so the words subtract without borrows)
    full = int(packs) * _ONES
    return (lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], lo[3], hi[3], lo[4], hi[4],
            full - lo[0] - lo[5], full - hi[0] - hi[5], lo[6] + hi[6])


@njit(cache=True, _nrt=False)
def _scan_offer(S, seat, packs, rubicon, any_class, m2s):
    """_scan's counts when the offer is the whole hand (a card to play in stage 1, or a lead:
    no duty, R1.6): the seat's cards come from the offer, so the row is read only for which
    copies are unseen, and the declaration history only for the eight or nine cards held.
    Same counts, a third of the work (measured: _scan was 18% of an expert hand)."""
    row = O_SEEN + seat * N_MAX
    known_lo = 0
    known_hi = 0
    unseen = 0
    for i in range(16 * packs):
        c = (i >> 4) * 32 + (i & 15)
        b = 1 << ((i & 15) * _NIB)
        u_lo = S[row + c] == V_UNSEEN
        u_hi = S[row + c + 16] == V_UNSEEN
        known_lo += b * (not u_lo)
        known_hi += b * (not u_hi)
        unseen += u_lo                 # (two additions: in plain Python two numpy bools
        unseen += u_hi                 # would add as a logical or)
    mine_lo = 0
    mine_hi = 0
    mar_lo = 0
    mar_hi = 0
    seq_lo = 0
    seq_hi = 0
    bez_lo = 0
    bez_hi = 0
    four_lo = 0
    four_hi = 0
    for j in range(S[O_N_ACTS]):
        c = int(S[O_ACTS + j])         # (int: plain Python would shift an int32)
        f = c & 31
        can_m, can_s, can_b, can_f = _free(S[O_HIST + c], rubicon, any_class, m2s)
        high = f >> 4
        b = 1 << ((f & 15) * _NIB)
        b_lo = b * (1 - high)
        b_hi = b * high
        mine_lo += b_lo
        mine_hi += b_hi
        mar_lo += b_lo * can_m
        mar_hi += b_hi * can_m
        seq_lo += b_lo * can_s
        seq_hi += b_hi * can_s
        bez_lo += b_lo * can_b
        bez_hi += b_hi * can_b
        four_lo += b_lo * can_f
        four_hi += b_hi * can_f
    full = int(packs) * _ONES
    return (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo, four_hi,
            full - known_lo, full - known_hi, unseen)


@njit(cache=True, _nrt=False)
def _partner_bez(S, seat, packs, bq, bj):
    """The partner's bezique queens and jacks on the table (declared or shown "to score"),
    not yet in a double or higher: a double or triple bezique of ours may take them (R4.2)."""
    row = O_SEEN + seat * N_MAX
    shown = V_SHOWN + ((seat + 2) & 3)
    pq = 0
    pj = 0
    for k in range(packs):
        for f in (bq, bj):
            c = k * 32 + f
            if S[row + c] == shown and (S[O_HIST + c] & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0:
                if f == bq:
                    pq += 1
                else:
                    pj += 1
    return pq, pj


@njit(cache=True, _nrt=False)
def _trumps_unseen(trump, packs, counts):
    """Could a seat we cannot see still hold a trump?"""
    if trump < 0:
        return False
    (mine_lo, mine_hi, _m1, _m2, _s1, _s2, _b1, _b2, _f1, _f2, un_lo, un_hi, _u) = counts
    for rr in range(8):
        if _get(un_lo, un_hi, trump * 8 + rr) > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _sure(card, trump, packs, counts, trumps_unseen):
    """No copy we cannot see beats ``card`` (higher in its suit, or a trump on a plain suit),
    counting ours (in the offer) as seen."""
    f = card & 31
    s = f >> 3
    if s != trump and trumps_unseen:
        return False
    (mine_lo, mine_hi, _m1, _m2, _s1, _s2, _b1, _b2, _f1, _f2, un_lo, un_hi, _u) = counts
    for rr in range(f & 7):
        if _get(un_lo, un_hi, s * 8 + rr) > 0:
            return False
    return True
