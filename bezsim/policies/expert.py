"""The ``expert`` policy: every card and every declaration valued in points, at heuristic speed.

Where ``heuristic`` adds fixed weights, ``expert`` asks what a card is worth in points:

* a card kept is worth the points of the combinations it may still complete times the chance
  of completing them, from the copies still unseen and the draws left (a copy unseen is one
  of ``unseen`` cards, of which ``draws`` will come to this seat), plus what it is worth in
  the tricks (brisques, trumps for stage 2); its *marginal* worth counts, so a third king in
  a hand holding four is worth nothing toward fours;
* a trick is won when the points it brings (its brisques, the declaration it lets us make,
  the declaration it keeps from an opponent who showed one "to score") outweigh what the
  winning card is worth kept; with a partner winning, brisques are fed to him;
* a declaration is chosen by the points it makes now plus what it leaves possible: a royal
  marriage before its sequence and a single bezique before the double (R1.9.2), marriages
  and beziques before fours in Rubicon (R6.6), Rubicon trumps fixed in the suit whose
  sequence is likeliest;
* Polish (R5): cards count where they end, among the open cards of the trick's winner;
* stage 2 of a two-handed game is played on the known hands: lead what surely wins, let go
  what is surely lost.

Counts per card face are packed four bits a face into two int64 words, so a decision needs
no array (the kernels run without numba's runtime). Reads only the seat's knowledge row and
the public regions (policy contract, bezsim/policies/builtin.py). Every weight is a parameter
(names and tuned defaults in bezsim.policies.registry and bezsim/policies/expert_defaults).
"""


from bezsim.engine.constants import (
    A_STOP,
    ACE,
    BEZ_PAIR_BY_TRUMP,
    CLUBS,
    D_PLAY,
    DIAMONDS,
    DOUBLE_BEZ_ADD_PAIR,
    H_BEZ1,
    H_BEZ2,
    H_BEZ3,
    H_BEZ4,
    H_CLASS_B,
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
    K_LAST_TRICK,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_DECLARE,
    KING,
    NO_TRUMP,
    PR_BEZ_LEVELS,
    PR_BEZ_PAIR,
    PR_BRISQUE_VALUE,
    PR_BRISQUES_ASIDE,
    PR_CLOSE_BY_POINTS,
    PR_DOUBLE_BEZ,
    PR_MARR_TO_SEQ,
    PR_NO_SEVEN,
    PR_OPEN_CARDS,
    PR_PARTNERS,
    PR_PLAIN_SEQUENCE,
    PR_POINTS,
    PR_REUSE,
    PR_SEVEN_IS_DECL,
    PR_STAGE2_PAIRS,
    QUEEN,
    REUSE_ANY_CLASS,
    SC_HAND_POINTS,
    SC_LEADER,
    SC_N_TRICK,
    SC_PACKS,
    SC_PLAYERS,
    SC_STAGE,
    SC_STOCK_LEFT,
    SC_TRUMP,
    SEVEN,
    SPADES,
    TEN,
    V_MINE,
    V_MINE_SHOWN,
    V_OPEN,
    V_SHOWN,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_APTS,
    O_BRISQ_TAKEN,
    O_DECISION,
    O_HIST,
    O_N_ACTS,
    O_PEND,
    O_PEND_N,
    O_RULES,
    O_SC,
    O_SEEN,
    O_TRICK,
    PENDING_MAX,
    PENDING_WIDTH,
)
from bezsim.engine.tricks import beats, winning_index

# parameter row layout (names and meanings in bezsim.policies.registry)
E_COMBO = 0          # scale on the chance-weighted combination points a kept card holds
E_CASH = 1           # chance that a complete combination in hand is still scored
E_BRISQUE = 2        # worth of holding an ace or ten, as a share of its brisque points
E_TRUMP = 3          # stage 1: points a trump is worth kept, for the tricks to come
E_ACE = 4            # the same for a plain ace
E_DECLARE_WIN = 5    # share of the best ready declaration that winning a trick is worth
E_DENY = 6           # share of an opponent's best "to score" that beating him is worth
E_DEFER = 7          # stock tricks left at which a deferred combination is surely scored
E_OVERTAKE = 8       # chance a card that can still be beaten holds, per seat still to play
E_LEAD_RISK = 9      # share of a led brisque's points expected lost to the opponent
E_OPP_DECL = 10      # points an opponent is expected to declare when he wins, unshown
E_RUB_BRISQUE = 11   # Rubicon: points a brisque is worth to the settlement (R6.8)
E_TRUMP_SUIT = 12    # Rubicon: weight of the sequence chance when a marriage fixes trumps
E_RANK = 13          # tie-break: points per rank step (a seven cheaper than a nine)
E_OPEN_POT = 14      # Polish: share of a partial combination's points an open card brings
E_SHARE = 15         # weight of a card's equal share of each combination it may complete
E_LATER = 16         # chance that a combination left "to score" still scores, stock long
E_SETTLE = 17        # Rubicon: extra points a brisque is worth while the settlement hangs on
#                      brisques (a loser near the 1000 line, rounded totals level; R6.8)
E_ENDGAME = 18       # Rubicon: stock tricks left from which the settlement is looked at (0: never)
E_PARTNER = 19       # partners: share of the partner's best "to score" that a team win is worth;
#                      above 0, his bezique cards on the table count toward a double (R4.2)
N_EXPERT = 20
# untuned starting values, in that order (bezsim/policies/expert_defaults holds the tuned
# set per preset; the registry reads it)
BASE_WEIGHTS = (1.0, 0.85, 0.5, 6.0, 4.0, 0.6, 0.5, 6.0, 0.55, 0.7, 12.0, 2.0, 1.0, 0.5,
                0.3, 0.0, 0.9, 0.0, 0.0, 0.0)

_NIB = 4
_ONES = 0x1111111111111111     # a one in every face's four bits
KEEP_ALL = 0
KEEP_MB = 1
KEEP_M = 2


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
        lock = 0 if any_class else ever & (H_CLASS_B | H_FOUR)
        can_m = ((h & H_MARRIAGE) == 0) & ((ever & H_SEQUENCE) == 0) & (lock == 0)
        can_s = (((ever & H_SEQUENCE) == 0) & (lock == 0)
                 & (m2s | ((ever & H_MARRIAGE) == 0)))
        can_b = ((h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0) & (any_class | ((ever & H_FOUR) == 0))
    else:
        can_m = (h & (H_MARRIAGE | H_SEQUENCE)) == 0
        can_s = ((h & H_SEQUENCE) == 0) & (m2s | ((h & H_MARRIAGE) == 0))
        can_b = (h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0
    can_f = (h & H_FOUR) == 0
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
def _bez_faces(S, trump):
    if S[O_RULES + PR_BEZ_PAIR] == BEZ_PAIR_BY_TRUMP and (trump == SPADES or trump == DIAMONDS):
        return CLUBS * 8 + QUEEN, HEARTS * 8 + JACK
    return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK


@njit(cache=True, inline="always", _nrt=False)
def _keep_value(S, w, card, packs, trump, counts, p, rubicon, bq, bj, levels, cash,
                brisque_pts, mode, pq=0, pj=0):
    """Points the card is worth kept in a stage-1 hand: its marginal share of the
    combinations still reachable, the trick value of trumps and aces, its brisque.
    ``mode`` KEEP_ALL; KEEP_MB: only its marriages, sequences and beziques (what a four
    would lock away, R6.6); KEEP_M: only its marriages and sequences (what a bezique would).
    ``pq``, ``pj``: the partner's bezique queens and jacks on the table, which a double or
    higher bezique may take (R4.2)."""
    (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo, four_hi,
     un_lo, un_hi, _u) = counts
    f = card & 31
    r = f & 7
    s = f >> 3
    v = 0.0 if mode != KEEP_ALL else (7 - r) * w[E_RANK]
    combo = 0.0                        # marginal: what losing this copy costs
    share = 0.0                        # this copy's equal share of each combination
    if mode == KEEP_ALL:
        if r == ACE or r == TEN:
            v += w[E_BRISQUE] * brisque_pts
        if s == trump:
            v += w[E_TRUMP]
            if (r == SEVEN and S[O_RULES + PR_NO_SEVEN] == 0
                    and (S[O_HIST + card] & H_SEVEN) == 0):
                combo += S[O_RULES + PR_POINTS + K_SEVEN_DECLARE] * cash
        elif r == ACE:
            v += w[E_ACE]
    if r > JACK or (r == TEN and s != trump and not rubicon and trump != NO_TRUMP):
        return v + w[E_COMBO] * combo   # 9, 8, 7 and plain tens complete nothing
    undecided = trump == NO_TRUMP
    uf = _get(un_lo, un_hi, f)
    keep = 1.0 - _at_least(1, uf, p)   # the chance this copy, if it goes, is not replaced
    # marriage: K with Q of its suit
    if r == KING or r == QUEEN:
        mine_f = _get(mar_lo, mar_hi, f)
        if mine_f > 0:
            g = s * 8 + (QUEEN if r == KING else KING)
            pts = 40 if (s == trump or undecided) else 20
            if _get(mar_lo, mar_hi, g) >= mine_f:
                combo += pts * cash * keep
                share += pts * cash * 0.5
            else:
                ug = _get(un_lo, un_hi, g)
                chance = _at_least(1, ug, p)
                combo += pts * cash * chance * keep
                share += pts * cash * chance * 0.5
    # sequence: A 10 K Q J of trumps (Rubicon: of any suit, R6.3)
    if r <= JACK and (s == trump or rubicon or undecided):
        if _get(seq_lo, seq_hi, f) == 1:
            pts = 250 if (s == trump or (undecided and rubicon)) else 150
            if rubicon and undecided:
                pts = 200
            chance = 1.0
            for rr in range(5):
                g = s * 8 + rr
                if g != f and _get(seq_lo, seq_hi, g) == 0:
                    chance *= _at_least(1, _get(un_lo, un_hi, g), p)
            combo += pts * cash * chance * keep
            share += pts * cash * chance * 0.2
    # beziques: single, double (triple, quadruple)
    if (f == bq or f == bj) and mode != KEEP_M:
        a = _get(bez_lo, bez_hi, bq)
        b = _get(bez_lo, bez_hi, bj)
        if (a if f == bq else b) > 0:
            ua = _get(un_lo, un_hi, bq)
            ub = _get(un_lo, un_hi, bj)
            first = 2 if S[O_HIST + card] & H_CLASS_B else 1   # its single is made
            mine_f = a if f == bq else b
            full = 0.0
            less = 0.0
            for lv in range(first, levels + 1):
                pts = S[O_RULES + PR_POINTS + K_BEZIQUE + lv - 1]
                al = a + (pq if lv >= 2 else 0)
                bl = b + (pj if lv >= 2 else 0)
                pa = _at_least(lv - al, ua, p)
                pb = _at_least(lv - bl, ub, p)
                both = pts * cash * pa * pb
                full += both
                if f == bq:
                    less += pts * cash * _at_least(lv - al + 1, ua, p) * pb
                else:
                    less += pts * cash * pa * _at_least(lv - bl + 1, ub, p)
                if mine_f <= lv:
                    share += both / (2 * lv)
            combo += (full - less) * keep
    # fours: A K Q J of any suits
    if mode == KEEP_ALL and r <= JACK and r != TEN and _get(four_lo, four_hi, f) > 0:
        have = 0
        u = 0
        for ss in range(4):
            g = ss * 8 + r
            have += _get(four_lo, four_hi, g)
            u += _get(un_lo, un_hi, g)
        if have <= 4:
            kind = K_FOUR_ACES if r == ACE else (K_FOUR_KINGS if r == KING else (
                K_FOUR_QUEENS if r == QUEEN else K_FOUR_JACKS))
            pts = S[O_RULES + PR_POINTS + kind] * cash
            complete = _at_least(4 - have, u, p)
            combo += pts * (complete - _at_least(5 - have, u, p)) * keep
            share += pts * complete * 0.25
    return v + w[E_COMBO] * combo + w[E_SHARE] * share


@njit(cache=True, _nrt=False)
def _ready_value(S, counts, trump, bq, bj, levels, rubicon, pq=0, pj=0):
    """Points of the best combination the seat could score on a win now (R1.10: one); a
    double or higher bezique may take the partner's ``pq`` queens and ``pj`` jacks shown on
    the table (R4.2)."""
    (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo, four_hi,
     _o1, _o2, _u) = counts
    best = 0
    undecided = trump == NO_TRUMP
    for s in range(4):
        if _get(mar_lo, mar_hi, s * 8 + KING) > 0 and _get(mar_lo, mar_hi, s * 8 + QUEEN) > 0:
            best = max(best, 40 if (s == trump or undecided) else 20)
        if s == trump or rubicon or (undecided and S[O_RULES + PR_PLAIN_SEQUENCE] != 0):
            ok = True
            for rr in range(5):
                ok = ok and _get(seq_lo, seq_hi, s * 8 + rr) > 0
            if ok:
                best = max(best, 250 if (s == trump or undecided) else 150)
    a = _get(bez_lo, bez_hi, bq)
    b = _get(bez_lo, bez_hi, bj)
    for lv in range(1, levels + 1):
        extra_q = pq if lv >= 2 else 0
        extra_j = pj if lv >= 2 else 0
        if a + extra_q >= lv and b + extra_j >= lv and a + b > 0:
            best = max(best, S[O_RULES + PR_POINTS + K_BEZIQUE + lv - 1])
    for r in range(5):
        if r == TEN:
            continue
        have = 0
        for s in range(4):
            have += _get(four_lo, four_hi, s * 8 + r)
        if have >= 4:
            kind = K_FOUR_ACES if r == ACE else (K_FOUR_KINGS if r == KING else (
                K_FOUR_QUEENS if r == QUEEN else K_FOUR_JACKS))
            best = max(best, S[O_RULES + PR_POINTS + kind])
    return best


@njit(cache=True, _nrt=False)
def _pending_best(S, p):
    """Points of the best combination seat ``p`` has shown "to score" (public, R1.10)."""
    best = 0
    for i in range(S[O_PEND_N + p]):
        code = S[O_PEND + (p * PENDING_MAX + i) * PENDING_WIDTH]
        best = max(best, S[O_RULES + PR_POINTS + (code >> 2)])
    return best


@njit(cache=True, inline="always", _nrt=False)
def _is_marriage(kind):
    return kind == K_COMMON_MARRIAGE or kind == K_ROYAL_MARRIAGE


@njit(cache=True, inline="always", _nrt=False)
def _is_sequence(kind):
    return kind == K_SEQUENCE or kind == K_PLAIN_SEQUENCE


@njit(cache=True, inline="always", _nrt=False)
def _is_bezique(kind):
    return kind >= K_BEZIQUE and kind <= K_QUADRUPLE_BEZIQUE


@njit(cache=True, inline="always", _nrt=False)
def _is_four(kind):
    return kind >= K_FOUR_ACES and kind <= K_FOUR_JACKS


@njit(cache=True, _nrt=False)
def _four_rank(kind):
    if kind == K_FOUR_ACES:
        return ACE
    if kind == K_FOUR_KINGS:
        return KING
    if kind == K_FOUR_QUEENS:
        return QUEEN
    return JACK


@njit(cache=True, _nrt=False)
def _blocks(S, a, b, trump, rubicon, any_class, bq, bj):
    """Does scoring offer ``a`` now stop offer ``b`` (shown "to score") from scoring later?
    Within a class only upward (R1.9.2, R6.6); in Rubicon under later_class, a card put into
    a later class never serves an earlier one (R6.6)."""
    ka = a >> 2
    kb = b >> 2
    sa = a & 3
    sb = b & 3
    if trump != NO_TRUMP:              # a sequence in fixed trumps carries no suit code
        if ka == K_SEQUENCE:
            sa = trump
        if kb == K_SEQUENCE:
            sb = trump
    same = sa == sb
    if _is_sequence(ka) and _is_marriage(kb):
        return same
    if _is_marriage(ka) and _is_sequence(kb):
        return S[O_RULES + PR_MARR_TO_SEQ] == 0 and same
    if _is_bezique(ka) and _is_bezique(kb):
        return kb < ka or S[O_RULES + PR_DOUBLE_BEZ] != DOUBLE_BEZ_ADD_PAIR
    if rubicon and not any_class and _is_four(ka):
        r = _four_rank(ka)
        if _is_marriage(kb):
            return r == KING or r == QUEEN
        if _is_sequence(kb):
            return True
        if _is_bezique(kb):
            return r == (bq & 7) or r == (bj & 7)
    if rubicon and not any_class and _is_bezique(ka):
        if _is_marriage(kb):               # its queen may not marry after it
            return (bq >> 3) == sb
        if _is_sequence(kb):               # nor its queen or jack join a sequence
            return (bq >> 3) == sb or (bj >> 3) == sb
    return False


@njit(cache=True, _nrt=False)
def _locked_value(S, w, card, packs, trump, counts, p, bq, bj, levels, cash, mode):
    """``_keep_value`` in Rubicon for ``_lock_cost``, called rather than inlined: inlined at
    its two call sites there it doubled expert's compile time (9 s of a cold start), and
    the lock cost is priced only for a Rubicon four or bezique on offer."""
    return _keep_value(S, w, card, packs, trump, counts, p, True, bq, bj, levels, cash, 0.0,
                       mode)


@njit(cache=True, _nrt=False)
def _lock_cost(S, w, code, packs, trump, counts, p, bq, bj, levels, cash):
    """Rubicon under later_class (R6.6): what the cards a four or a bezique would take were
    still worth in the earlier classes, which they then leave for good. The engine takes
    copies with a history in other kinds first (docs/rules.md R1.9), so copies with no
    earlier-class freedom go first, then the cheapest."""
    (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo, four_hi,
     _o1, _o2, _u) = counts
    kind = code >> 2
    cost = 0.0
    if _is_four(kind):
        r = _four_rank(kind)
        need = 4
        for s in range(4):             # copies that lose nothing
            f = s * 8 + r
            free = _get(four_lo, four_hi, f)
            pot = max(_get(mar_lo, mar_hi, f) if (r == KING or r == QUEEN) else 0,
                      _get(seq_lo, seq_hi, f),
                      _get(bez_lo, bez_hi, f) if (f == bq or f == bj) else 0)
            need -= max(0, free - min(free, pot))
        for _ in range(4):             # then the copies that lose least, one at a time
            if need <= 0:
                break
            least = 1e30
            for s in range(4):
                f = s * 8 + r
                if _get(four_lo, four_hi, f) > 0:
                    least = min(least, _locked_value(S, w, f, packs, trump, counts, p, bq,
                                                     bj, levels, cash, KEEP_MB))
            if least >= 1e29:
                break
            cost += least
            need -= 1
    elif _is_bezique(kind):
        level = kind - K_BEZIQUE + 1
        for f in (bq, bj):
            free = _get(bez_lo, bez_hi, f)
            pot = max(_get(mar_lo, mar_hi, f) if (f & 7) == QUEEN else 0, _get(seq_lo, seq_hi, f))
            lost = level - max(0, free - min(free, pot))
            if lost > 0:
                cost += lost * _locked_value(S, w, f, packs, trump, counts, p, bq, bj,
                                             levels, cash, KEEP_M)
    return cost


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
def _endgame(S, w):
    """Rubicon: is the end of the hand near enough to play for the settlement (R6.8)?"""
    if w[E_ENDGAME] <= 0.0:
        return False
    return (S[O_SC + SC_STAGE] == 2
            or S[O_SC + SC_STOCK_LEFT] <= w[E_ENDGAME] * S[O_SC + SC_PLAYERS])


@njit(cache=True, _nrt=False)
def _brisques_left(S, seat, packs):
    """Brisque points not yet taken by either side, the last trick's points, and each side's
    brisque points (every trick is seen, so what each has taken is public)."""
    bv = S[O_RULES + PR_BRISQUE_VALUE]
    mine = S[O_BRISQ_TAKEN + seat]
    theirs = S[O_BRISQ_TAKEN + 1 - seat]
    return 8 * packs * bv - mine - theirs, S[O_RULES + PR_POINTS + K_LAST_TRICK], mine, theirs


@njit(cache=True, _nrt=False)
def _settle_brisque(S, seat, w, packs):
    """Rubicon near the end (R6.8): the extra worth of a brisque when brisques decide the
    settlement, which is when the rounded totals are level (rubicon_close=brisques) or a
    probable loser under 1000 may still reach it with his brisques (he escapes the rubicon:
    about 2000 points of stake). Winning a trick takes its brisques from the other side, so
    one worth serves both sides' lines."""
    if w[E_SETTLE] == 0.0 or not _endgame(S, w):
        return 0.0
    me = S[O_SC + SC_HAND_POINTS + seat]
    op = S[O_SC + SC_HAND_POINTS + 1 - seat]
    left, last, bm, bo = _brisques_left(S, seat, packs)
    rm = me // 100
    ro = op // 100
    if rm == ro and S[O_RULES + PR_CLOSE_BY_POINTS] == 0:
        return w[E_SETTLE]
    if rm <= ro and me + bm < 1000 <= me + bm + left + last:
        return w[E_SETTLE]
    if ro <= rm and op + bo < 1000 <= op + bo + left + last:
        return w[E_SETTLE]
    return 0.0


@njit(cache=True, _nrt=False)
def _doomed(S, seat, w, packs, pts):
    """Rubicon near the end: would scoring ``pts`` now only raise what a sure rubicon costs?
    A rubiconed loser pays his own rounded total too (R6.8), so a seat that can reach
    neither the other's rounded total nor the 1000 line (its points, its brisques, every
    brisque left and the last trick) does better to keep its rounded total down."""
    if not _endgame(S, w):
        return False
    me = S[O_SC + SC_HAND_POINTS + seat]
    op = S[O_SC + SC_HAND_POINTS + 1 - seat]
    left, last, bm, _bo = _brisques_left(S, seat, packs)
    after = me + pts
    if after + bm + left + last >= 1000 or after // 100 >= op // 100:
        return False
    return max(after // 100, 1) > max(me // 100, 1)


@njit(cache=True, _nrt=False)
def _declare(S, seat, w, packs, rubicon, any_class, counts, p):
    """Which offered declaration to score (the last offer is A_STOP): points now, plus what
    the best of the others, shown "to score", is still worth if this one does not block it
    (R1.9, R6.6), with a bonus in Rubicon for fixing trumps where a sequence is likeliest."""
    n = S[O_N_ACTS]
    trump = S[O_SC + SC_TRUMP]
    players = S[O_SC + SC_PLAYERS]
    tricks_left = S[O_SC + SC_STOCK_LEFT] / players
    later = w[E_LATER] * min(1.0, tricks_left / max(w[E_DEFER], 0.5))
    bq, bj = _bez_faces(S, trump)
    (mine_lo, mine_hi, _m1, _m2, seq_lo, seq_hi, _b1, _b2, _f1, _f2,
     un_lo, un_hi, _u) = counts
    best = n - 1
    best_v = 0.0
    for i in range(n):
        code = S[O_ACTS + i]
        if code == A_STOP:
            continue
        kind = code >> 2
        v = float(S[O_APTS + i])
        if rubicon and players == 2 and _doomed(S, seat, w, packs, S[O_APTS + i]):
            continue                   # points that only raise the stake a rubicon pays
        if kind >= 12:                 # the seven: always taken, unless it is the declaration
            if S[O_RULES + PR_SEVEN_IS_DECL] == 0:
                v += 1000.0
        else:
            # the others shown "to score" that this one leaves possible, best first, each
            # needing a win of its own; a first marriage or sequence fixes trumps (R6.2),
            # and the others are then worth what trumps make them
            fixes = trump == NO_TRUMP and (_is_marriage(kind) or _is_sequence(kind))
            taken = 0
            weight = later
            for _ in range(n):
                top = -1
                top_v = 0.0
                for j in range(n):
                    other = S[O_ACTS + j]
                    if (j == i or other == A_STOP or (other >> 2) >= 12
                            or (taken >> j) & 1):
                        continue
                    if _blocks(S, code, other, trump, rubicon, any_class, bq, bj):
                        continue
                    pts = float(S[O_APTS + j])
                    if fixes and (other & 3) != (code & 3):
                        if _is_marriage(other >> 2):
                            pts = float(S[O_RULES + PR_POINTS + K_COMMON_MARRIAGE])
                        elif (other >> 2) == K_SEQUENCE:
                            pts = float(S[O_RULES + PR_POINTS + K_PLAIN_SEQUENCE])
                    if pts > top_v:
                        top = j
                        top_v = pts
                if top < 0:
                    break
                taken |= 1 << top
                v += weight * top_v
                weight *= later
            if rubicon and not any_class:
                v -= _lock_cost(S, w, code, packs, trump, counts, p, bq, bj,
                                S[O_RULES + PR_BEZ_LEVELS], w[E_CASH])
            if trump == NO_TRUMP and (_is_marriage(kind) or _is_sequence(kind)):
                # Rubicon: this suit becomes trumps; its sequence is then worth 250
                s = code & 3
                chance = 1.0
                for rr in range(5):
                    g = s * 8 + rr
                    if _get(seq_lo, seq_hi, g) == 0:
                        chance *= _at_least(1, _get(un_lo, un_hi, g), p)
                v += w[E_TRUMP_SUIT] * 100.0 * chance
        if v > best_v:
            best_v = v
            best = i
    return best


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


@njit(cache=True, _nrt=False)
def _brisque(card):
    r = card & 7
    return 1 if (r == ACE or r == TEN) else 0


@njit(cache=True, _nrt=False)
def _stage2_value(w, card, trump, brisque_pts):
    """What a card is worth kept in stage 2: only tricks count now."""
    r = card & 7
    v = (7 - r) * 1.0
    if (card & 31) >> 3 == trump:
        v += 8.0
    if r == ACE or r == TEN:
        v += 0.5 * brisque_pts
    return v


@njit(cache=True, _nrt=False)
def _open_scan(S, seat, packs):
    """Polish (R5.1): packed counts by face of the seat's open cards and of the opponent's,
    all and still free for each kind (R1.9 rule 1: a copy scores once in a kind), of the
    copies the seat can never open by winning them in a trick, and the unseen count."""
    row = O_SEEN + seat * N_MAX
    me = V_OPEN + seat
    my_lo = 0
    my_hi = 0
    op_lo = 0
    op_hi = 0
    # free copies: marriage, sequence, bezique, double, four (mine, then the opponent's)
    mm_lo = 0
    mm_hi = 0
    ms_lo = 0
    ms_hi = 0
    mb_lo = 0
    mb_hi = 0
    md_lo = 0
    md_hi = 0
    mf_lo = 0
    mf_hi = 0
    om_lo = 0
    om_hi = 0
    os_lo = 0
    os_hi = 0
    ob_lo = 0
    ob_hi = 0
    od_lo = 0
    od_hi = 0
    of_lo = 0
    of_hi = 0
    gone_lo = 0
    gone_hi = 0
    unseen = 0
    for c in range(32 * packs):
        v = S[row + c]
        f = c & 31
        b = _bit(f)
        hi = f >= 16
        if v >= V_OPEN:
            h = S[O_HIST + c]
            fm = b * ((h & H_MARRIAGE) == 0)
            fs = b * ((h & H_SEQUENCE) == 0)
            fb = b * ((h & H_BEZ1) == 0)
            fd = b * ((h & H_BEZ2) == 0)
            ff = b * ((h & H_FOUR) == 0)
            if v == me:
                if hi:
                    my_hi += b
                    mm_hi += fm
                    ms_hi += fs
                    mb_hi += fb
                    md_hi += fd
                    mf_hi += ff
                else:
                    my_lo += b
                    mm_lo += fm
                    ms_lo += fs
                    mb_lo += fb
                    md_lo += fd
                    mf_lo += ff
            else:
                if hi:
                    op_hi += b
                    om_hi += fm
                    os_hi += fs
                    ob_hi += fb
                    od_hi += fd
                    of_hi += ff
                else:
                    op_lo += b
                    om_lo += fm
                    os_lo += fs
                    ob_lo += fb
                    od_lo += fd
                    of_lo += ff
        elif v == V_UNSEEN:
            unseen += 1
        elif v != V_MINE and v != V_MINE_SHOWN:
            if hi:
                gone_hi += b
            else:
                gone_lo += b
    return (my_lo, my_hi, mm_lo, mm_hi, ms_lo, ms_hi, mb_lo, mb_hi, md_lo, md_hi, mf_lo, mf_hi,
            op_lo, op_hi, om_lo, om_hi, os_lo, os_hi, ob_lo, ob_hi, od_lo, od_hi, of_lo, of_hi,
            unseen)


@njit(cache=True, _nrt=False)
def _open_gain(S, w, f, trump, bq, bj, al, ah, ml, mh, sl, sh, bl, bh, dl, dh, fl, fh):
    """Points a fresh copy of face ``f`` scores at once joining a side's open cards (R5.2:
    every combination it completes), plus a share of the partial ones it adds to."""
    r = f & 7
    s = f >> 3
    now = 0.0
    part = 0.0
    if r == KING or r == QUEEN:
        g = s * 8 + (QUEEN if r == KING else KING)
        pts = 40.0 if s == trump else 20.0
        if _get(ml, mh, g) > 0:
            now += pts
        else:
            part += pts * 0.5
    if s == trump and (r <= JACK):
        have = 0
        for rr in range(5):
            g = s * 8 + rr
            if g != f and _get(sl, sh, g) > 0:
                have += 1
        if have == 4 and _get(sl, sh, f) == 0:
            now += 250.0
        else:
            part += 250.0 * (have / 4.0) ** 2
    if f == bq or f == bj:
        g = bj if f == bq else bq
        if _get(bl, bh, g) > 0:
            now += 40.0
        else:
            part += 20.0
        if _get(dl, dh, f) >= 1 and _get(dl, dh, g) >= 2:
            now += S[O_RULES + PR_POINTS + K_DOUBLE_BEZIQUE]
        else:
            part += S[O_RULES + PR_POINTS + K_DOUBLE_BEZIQUE] * 0.25 * (
                min(_get(dl, dh, f), 1) + min(_get(dl, dh, g), 2)) / 3.0
    if r <= JACK and r != TEN:
        have = 0
        for ss in range(4):
            have += _get(fl, fh, ss * 8 + r)
        kind = K_FOUR_ACES if r == ACE else (K_FOUR_KINGS if r == KING else (
            K_FOUR_QUEENS if r == QUEEN else K_FOUR_JACKS))
        pts = float(S[O_RULES + PR_POINTS + kind])
        if have % 4 == 3:
            now += pts
        else:
            part += pts * ((have % 4) / 3.0) ** 2
    return now + w[E_OPEN_POT] * part


@njit(cache=True, inline="always", _nrt=False)
def _opens(card, trump):
    """A, K, Q, J and the ten of trumps become open cards (R5.1)."""
    r = card & 7
    return r == ACE or r == KING or r == QUEEN or r == JACK or (
        r == TEN and ((card & 31) >> 3) == trump)


@njit(cache=True, _nrt=False)
def _polish_play(S, seat, w, n, trump, packs, stage2, brisque_pts):
    """Polish card play: a card is worth where it ends, among the open cards of the trick's
    winner (R5.1, R5.2), and its brisque."""
    o = _open_scan(S, seat, packs)
    bq, bj = _bez_faces(S, trump)
    n_trick = S[O_SC + SC_N_TRICK]
    mine_now = 0.0
    theirs_now = 0.0
    pot = 0
    for k in range(n_trick):
        x = S[O_TRICK + k]
        pot += _brisque(x)
        if _opens(x, trump):
            mine_now += _open_gain(S, w, x & 31, trump, bq, bj, o[0], o[1], o[2], o[3], o[4],
                                   o[5], o[6], o[7], o[8], o[9], o[10], o[11])
            theirs_now += _open_gain(S, w, x & 31, trump, bq, bj, o[12], o[13], o[14], o[15],
                                     o[16], o[17], o[18], o[19], o[20], o[21], o[22], o[23])
    lead_card = S[O_TRICK + winning_index(S, n_trick, trump)] if n_trick > 0 else -1
    best_i = 0
    best_v = -1e30
    for i in range(n):
        c = S[O_ACTS + i]
        f = c & 31
        g_me = 0.0
        g_op = 0.0
        if _opens(c, trump):
            g_me = _open_gain(S, w, f, trump, bq, bj, o[0], o[1], o[2], o[3], o[4], o[5],
                              o[6], o[7], o[8], o[9], o[10], o[11])
            g_op = _open_gain(S, w, f, trump, bq, bj, o[12], o[13], o[14], o[15], o[16],
                              o[17], o[18], o[19], o[20], o[21], o[22], o[23])
        r = c & 7
        if stage2:
            keep = _stage2_value(w, c, trump, brisque_pts)
        else:
            keep = (7 - r) * w[E_RANK]
            if (f >> 3) == trump:
                keep += w[E_TRUMP]
            elif r == ACE:
                keep += w[E_ACE]
            keep += w[E_BRISQUE] * brisque_pts * _brisque(c)
        keep += w[E_CASH] * g_me           # a card that completes our combination, kept
        bp = (pot + _brisque(c)) * brisque_pts
        if n_trick == 0:
            risk = w[E_LEAD_RISK]
            v = -keep - risk * (g_op + bp) + (1.0 - risk) * (g_me + bp)
        elif beats(c, lead_card, trump):
            v = -keep + mine_now + g_me + bp
        else:
            v = -keep - theirs_now - g_op - bp
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, _nrt=False)
def _stage2_last(S, w, n, trump, brisque_pts):
    """The last card of a stage-2 trick, no partner at the table: win it with the card
    cheapest to lose, or let it go with the cheapest (the offer obeys R1.6)."""
    n_trick = S[O_SC + SC_N_TRICK]
    lead_card = S[O_TRICK + winning_index(S, n_trick, trump)]
    trick_b = 0
    for k in range(n_trick):
        trick_b += _brisque(S[O_TRICK + k])
    best_i = 0
    best_v = -1e30
    for i in range(n):
        c = S[O_ACTS + i]
        keep = _stage2_value(w, c, trump, brisque_pts)
        pot = (trick_b + _brisque(c)) * brisque_pts
        v = -keep + pot if beats(c, lead_card, trump) else -keep - pot
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, _nrt=False)
def expert_policy(S, seat, w, rng):
    n = S[O_N_ACTS]
    packs = S[O_SC + SC_PACKS]
    rubicon = S[O_RULES + PR_BRISQUES_ASIDE] != 0
    any_class = S[O_RULES + PR_REUSE] == REUSE_ANY_CLASS
    m2s = S[O_RULES + PR_MARR_TO_SEQ] != 0
    trump = S[O_SC + SC_TRUMP]
    t = trump if trump != NO_TRUMP else -1
    players = S[O_SC + SC_PLAYERS]
    declaring = S[O_DECISION] != D_PLAY
    if not declaring and n == 1:
        return 0
    stage2 = S[O_SC + SC_STAGE] == 2
    brisque_pts = w[E_RUB_BRISQUE] if rubicon else float(S[O_RULES + PR_BRISQUE_VALUE])
    if rubicon and players == 2 and not declaring:
        brisque_pts += _settle_brisque(S, seat, w, packs)
    polish = S[O_RULES + PR_OPEN_CARDS] != 0
    if polish and not declaring:
        return _polish_play(S, seat, w, n, t, packs, stage2, brisque_pts)
    n_trick = S[O_SC + SC_N_TRICK]
    if (not declaring and stage2 and n_trick == players - 1
            and S[O_RULES + PR_PARTNERS] == 0):
        return _stage2_last(S, w, n, t, brisque_pts)   # the last card of a stage-2 trick
    if declaring or (stage2 and n_trick > 0):
        counts = _scan(S, seat, packs, rubicon, any_class, m2s)
    else:                              # the offer is the whole hand
        counts = _scan_offer(S, seat, packs, rubicon, any_class, m2s)
    unseen = counts[12]
    draws = S[O_SC + SC_STOCK_LEFT] / players
    p = min(0.95, draws / unseen) if unseen > 0 else 0.0
    if declaring:
        return _declare(S, seat, w, packs, rubicon, any_class, counts, p)
    bq, bj = _bez_faces(S, t)
    levels = S[O_RULES + PR_BEZ_LEVELS]
    cash = w[E_CASH]
    partners = S[O_RULES + PR_PARTNERS] != 0
    pairs = partners and stage2 and S[O_RULES + PR_STAGE2_PAIRS] != 0
    n_in = 2 if pairs else players
    after = n_in - n_trick - 1
    # with a partner (R4.2): his bezique cards on the table may serve our double, and a trick
    # either of us wins lets him score what he has shown "to score" when we score nothing
    team = partners and w[E_PARTNER] > 0.0
    pq = 0
    pj = 0
    if team:
        pq, pj = _partner_bez(S, seat, packs, bq, bj)
    # what winning this trick brings beyond its cards: a declaration (stage 1), denying one
    win_bonus = 0.0
    lose_cost = 0.0
    team_bonus = 0.0                   # what the partner's win brings us (team only)
    if not stage2:
        ready = _ready_value(S, counts, t, bq, bj, levels, rubicon, pq, pj)
        win_bonus = w[E_DECLARE_WIN] * ready
        if team:
            win_bonus = max(win_bonus, w[E_PARTNER] * _pending_best(S, (seat + 2) & 3))
            team_bonus = win_bonus
        opp = 0.0
        for q in range(players):
            if q != seat and not (partners and q == ((seat + 2) & 3)):
                opp = max(opp, w[E_DENY] * _pending_best(S, q) + w[E_OPP_DECL])
        lose_cost = opp
    trumps_unseen = (n_trick == 0 or after > 0) and _trumps_unseen(t, packs, counts)
    # the value of each offered card kept, and the trick it would make
    best_i = 0
    best_v = -1e30
    lead_card = S[O_TRICK + winning_index(S, n_trick, t)] if n_trick > 0 else -1
    trick_b = 0
    winner_is_partner = False
    if n_trick > 0:
        for k in range(n_trick):
            trick_b += _brisque(S[O_TRICK + k])
        if partners:
            wi = winning_index(S, n_trick, t)
            if pairs:
                winner_is_partner = False
            else:
                winner_seat = (S[O_SC + SC_LEADER] + wi) % players
                winner_is_partner = winner_seat == ((seat + 2) & 3)
    for i in range(n):
        c = S[O_ACTS + i]
        if stage2:
            keep = _stage2_value(w, c, t, brisque_pts)
        else:
            keep = _keep_value(S, w, c, packs, t, counts, p, rubicon, bq, bj,
                               levels, cash, brisque_pts, KEEP_ALL, pq, pj)
        cb = _brisque(c)
        if n_trick == 0:
            # leading: the opponent may take a led brisque; a sure winner keeps it
            if _sure(c, t, packs, counts, trumps_unseen):
                v = -keep + (cb * brisque_pts + win_bonus) * (0.5 if not stage2 else 1.0)
            else:
                v = -keep - cb * brisque_pts * w[E_LEAD_RISK]
        else:
            pot = (trick_b + cb) * brisque_pts
            if beats(c, lead_card, t):
                hold = 1.0
                if after > 0 and not _sure(c, t, packs, counts, trumps_unseen):
                    hold = w[E_OVERTAKE] ** after
                v = -keep + hold * (pot + win_bonus) - (1.0 - hold) * (pot + lose_cost)
            elif winner_is_partner:
                v = -keep + (pot + team_bonus) * (1.0 if after == 0 else w[E_OVERTAKE])
            else:
                v = -keep - pot - lose_cost
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


