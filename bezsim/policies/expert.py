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


from numba import njit

from bezsim.engine.constants import (
    A_STOP,
    ACE,
    BEZ_PAIR_BY_TRUMP,
    CLUBS,
    D_PLAY,
    DIAMONDS,
    DOUBLE_BEZ_ADD_PAIR,
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
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
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
    V_UNSEEN,
)
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_APTS,
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
N_EXPERT = 14
# untuned starting values, in that order (bezsim/policies/expert_defaults holds the tuned
# set per preset; the registry reads it)
BASE_WEIGHTS = (1.0, 0.85, 0.5, 6.0, 4.0, 0.6, 0.5, 6.0, 0.55, 0.7, 12.0, 2.0, 1.0, 0.5)

_NIB = 4
KEEP_ALL = 0
KEEP_MB = 1
KEEP_M = 2


@njit(cache=True, inline="always", _nrt=False)
def _get(lo, hi, f):
    """Count of face ``f`` in a packed pair (four bits a face)."""
    if f < 16:
        return (lo >> (f * _NIB)) & 15
    return (hi >> ((f - 16) * _NIB)) & 15


@njit(cache=True, inline="always", _nrt=False)
def _bit(f):
    return 1 << ((f & 15) * _NIB)


@njit(cache=True, inline="always", _nrt=False)
def _at_least(m, u, p):
    """Chance of at least ``m`` of ``u`` unseen copies coming to us, each with chance ``p``."""
    if m <= 0:
        return 1.0
    if m > u:
        return 0.0
    q = 1.0 - p
    term = q ** u                      # P(none)
    if m == 1:
        return 1.0 - term
    below = term
    r = p / q
    for k in range(m - 1):
        term *= (u - k) / (k + 1) * r
        below += term
    return max(0.0, 1.0 - below)


@njit(cache=True, _nrt=False)
def _scan(S, seat, packs, rubicon, any_class, m2s):
    """One pass over the seat's knowledge row: packed counts by face of its cards (all, and
    those still free to marry, to make a sequence, a higher bezique, a four), of copies it
    can never hold (played, on the trick, another seat's), and how many cards are unseen.
    Freedom follows R1.9 (ordinary) or R6.6 (Rubicon: low history bits mean 'in an intact
    combination', bits << H_EVER_SHIFT 'ever declared in')."""
    row = O_SEEN + seat * N_MAX
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
    out_lo = 0
    out_hi = 0
    unseen = 0
    later_lock = H_CLASS_B | H_FOUR
    for c in range(32 * packs):
        v = S[row + c]
        f = c & 31
        b = _bit(f)
        hi = f >= 16
        if v == V_MINE or v == V_MINE_SHOWN:
            h = S[O_HIST + c]
            if rubicon:
                ever = h >> H_EVER_SHIFT
                lock = 0 if any_class else ever & later_lock
                can_m = (h & H_MARRIAGE) == 0 and (ever & H_SEQUENCE) == 0 and lock == 0
                can_s = ((ever & H_SEQUENCE) == 0 and lock == 0
                         and (m2s or (ever & H_MARRIAGE) == 0))
                can_b = ((h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0
                         and (any_class or (ever & H_FOUR) == 0))
                can_f = (h & H_FOUR) == 0
            else:
                can_m = (h & (H_MARRIAGE | H_SEQUENCE)) == 0
                can_s = (h & H_SEQUENCE) == 0 and (m2s or (h & H_MARRIAGE) == 0)
                can_b = (h & (H_BEZ2 | H_BEZ3 | H_BEZ4)) == 0
                can_f = (h & H_FOUR) == 0
            if hi:
                mine_hi += b
                mar_hi += b * can_m
                seq_hi += b * can_s
                bez_hi += b * can_b
                four_hi += b * can_f
            else:
                mine_lo += b
                mar_lo += b * can_m
                seq_lo += b * can_s
                bez_lo += b * can_b
                four_lo += b * can_f
        elif v == V_UNSEEN:
            unseen += 1
        else:                          # played, on the trick, the turn-up, another seat's
            if hi:
                out_hi += b
            else:
                out_lo += b
    return (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo,
            four_hi, out_lo, out_hi, unseen)


@njit(cache=True, inline="always", _nrt=False)
def _unseen(f, packs, mine_lo, mine_hi, out_lo, out_hi):
    u = packs - _get(mine_lo, mine_hi, f) - _get(out_lo, out_hi, f)
    return max(u, 0)


@njit(cache=True, _nrt=False)
def _bez_faces(S, trump):
    if S[O_RULES + PR_BEZ_PAIR] == BEZ_PAIR_BY_TRUMP and (trump == SPADES or trump == DIAMONDS):
        return CLUBS * 8 + QUEEN, HEARTS * 8 + JACK
    return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK


@njit(cache=True, _nrt=False)
def _bez_value(S, a, b, ua, ub, p, levels, cash, first):
    """Chance-weighted points of the bezique levels from ``first`` up still to make,
    holding ``a`` queens and ``b`` jacks free for them."""
    v = 0.0
    for lv in range(first, levels + 1):
        pts = S[O_RULES + PR_POINTS + K_BEZIQUE + lv - 1]
        v += pts * cash * _at_least(lv - a, ua, p) * _at_least(lv - b, ub, p)
    return v


@njit(cache=True, _nrt=False)
def _keep_value(S, w, card, packs, trump, counts, p, rubicon, bq, bj, levels, cash,
                brisque_pts, mode):
    """Points the card is worth kept in a stage-1 hand: its marginal share of the
    combinations still reachable, the trick value of trumps and aces, its brisque.
    ``mode`` KEEP_ALL; KEEP_MB: only its marriages, sequences and beziques (what a four
    would lock away, R6.6); KEEP_M: only its marriages and sequences (what a bezique would)."""
    (mine_lo, mine_hi, mar_lo, mar_hi, seq_lo, seq_hi, bez_lo, bez_hi, four_lo, four_hi,
     out_lo, out_hi, _u) = counts
    f = card & 31
    r = f & 7
    s = f >> 3
    v = (7 - r) * w[E_RANK]
    undecided = trump == NO_TRUMP
    uf = _unseen(f, packs, mine_lo, mine_hi, out_lo, out_hi)
    redraw = _at_least(1, uf, p)       # the chance of replacing this copy if it goes
    keep = 1.0 - redraw
    combo = 0.0
    if mode != KEEP_ALL:
        v = 0.0
    elif r == ACE or r == TEN:
        v += w[E_BRISQUE] * brisque_pts
    if mode != KEEP_ALL:
        pass
    elif s == trump:
        v += w[E_TRUMP]
        if r == SEVEN and S[O_RULES + PR_NO_SEVEN] == 0 and (S[O_HIST + card] & H_SEVEN) == 0:
            combo += S[O_RULES + PR_POINTS + K_SEVEN_DECLARE] * cash
    elif r == ACE:
        v += w[E_ACE]
    # marriage: K with Q of its suit
    if r == KING or r == QUEEN:
        mine_f = _get(mar_lo, mar_hi, f)
        if mine_f > 0:
            g = s * 8 + (QUEEN if r == KING else KING)
            pts = 40 if (s == trump or undecided) else 20
            if _get(mar_lo, mar_hi, g) >= mine_f:
                combo += pts * cash * keep
            else:
                ug = _unseen(g, packs, mine_lo, mine_hi, out_lo, out_hi)
                combo += pts * cash * _at_least(1, ug, p) * keep
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
                    chance *= _at_least(1, _unseen(g, packs, mine_lo, mine_hi, out_lo, out_hi), p)
            combo += pts * cash * chance * keep
    # beziques: single, double (triple, quadruple)
    if (f == bq or f == bj) and mode != KEEP_M:
        a = _get(bez_lo, bez_hi, bq)
        b = _get(bez_lo, bez_hi, bj)
        if (a if f == bq else b) > 0:
            ua = _unseen(bq, packs, mine_lo, mine_hi, out_lo, out_hi)
            ub = _unseen(bj, packs, mine_lo, mine_hi, out_lo, out_hi)
            first = 2 if S[O_HIST + card] & H_CLASS_B else 1   # its single is made
            full = _bez_value(S, a, b, ua, ub, p, levels, cash, first)
            if f == bq:
                less = _bez_value(S, a - 1, b, ua, ub, p, levels, cash, first)
            else:
                less = _bez_value(S, a, b - 1, ua, ub, p, levels, cash, first)
            combo += (full - less) * keep
    # fours: A K Q J of any suits
    if mode == KEEP_ALL and r <= JACK and r != TEN and _get(four_lo, four_hi, f) > 0:
        have = 0
        u = 0
        for ss in range(4):
            g = ss * 8 + r
            have += _get(four_lo, four_hi, g)
            u += _unseen(g, packs, mine_lo, mine_hi, out_lo, out_hi)
        if have <= 4:
            kind = K_FOUR_ACES if r == ACE else (K_FOUR_KINGS if r == KING else (
                K_FOUR_QUEENS if r == QUEEN else K_FOUR_JACKS))
            pts = S[O_RULES + PR_POINTS + kind] * cash
            gain = _at_least(4 - have, u, p) - _at_least(5 - have, u, p)
            combo += pts * gain * keep
    return v + w[E_COMBO] * combo


@njit(cache=True, _nrt=False)
def _ready_value(S, counts, trump, bq, bj, levels, rubicon):
    """Points of the best combination the seat could score on a win now (R1.10: one)."""
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
        if a >= lv and b >= lv:
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
    if _is_sequence(ka) and _is_marriage(kb):
        return sa == sb or (ka == K_SEQUENCE and kb == K_ROYAL_MARRIAGE)
    if _is_marriage(ka) and _is_sequence(kb):
        return S[O_RULES + PR_MARR_TO_SEQ] == 0 and (
            sa == sb or (kb == K_SEQUENCE and ka == K_ROYAL_MARRIAGE))
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
        if _is_marriage(kb):
            return (bq >> 3) == sb or (bj >> 3) == sb or trump < 0
        if _is_sequence(kb):
            return True
    return False


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
                    least = min(least, _keep_value(S, w, f, packs, trump, counts, p, True, bq,
                                                   bj, levels, cash, 0.0, KEEP_MB))
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
                cost += lost * _keep_value(S, w, f, packs, trump, counts, p, True, bq, bj,
                                           levels, cash, 0.0, KEEP_M)
    return cost


@njit(cache=True, _nrt=False)
def _declare(S, seat, w, packs, rubicon, any_class, counts, p):
    """Which offered declaration to score (the last offer is A_STOP): points now, plus what
    the best of the others, shown "to score", is still worth if this one does not block it
    (R1.9, R6.6), with a bonus in Rubicon for fixing trumps where a sequence is likeliest."""
    n = S[O_N_ACTS]
    trump = S[O_SC + SC_TRUMP]
    players = S[O_SC + SC_PLAYERS]
    tricks_left = S[O_SC + SC_STOCK_LEFT] / players
    later = w[E_CASH] * min(1.0, tricks_left / max(w[E_DEFER], 0.5))
    bq, bj = _bez_faces(S, trump)
    (mine_lo, mine_hi, _m1, _m2, seq_lo, seq_hi, _b1, _b2, _f1, _f2,
     out_lo, out_hi, _u) = counts
    best = n - 1
    best_v = 0.0
    for i in range(n):
        code = S[O_ACTS + i]
        if code == A_STOP:
            continue
        kind = code >> 2
        v = float(S[O_APTS + i])
        if kind >= 12:                 # the seven: always taken, unless it is the declaration
            if S[O_RULES + PR_SEVEN_IS_DECL] == 0:
                v += 1000.0
        else:
            rest = 0.0
            for j in range(n):
                other = S[O_ACTS + j]
                if j == i or other == A_STOP or (other >> 2) >= 12:
                    continue
                if not _blocks(S, code, other, trump, rubicon, any_class, bq, bj):
                    rest = max(rest, float(S[O_APTS + j]))
            v += later * rest
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
                        chance *= _at_least(1, _unseen(g, packs, mine_lo, mine_hi, out_lo,
                                                       out_hi), p)
                v += w[E_TRUMP_SUIT] * 100.0 * chance
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, _nrt=False)
def _sure(S, card, trump, packs, counts):
    """No copy we cannot see beats ``card`` (higher in its suit, or a trump on a plain suit),
    counting ours (in the offer) as seen."""
    (mine_lo, mine_hi, _m1, _m2, _s1, _s2, _b1, _b2, _f1, _f2, out_lo, out_hi, _u) = counts
    f = card & 31
    s = f >> 3
    r = f & 7
    for rr in range(r):
        if _unseen(s * 8 + rr, packs, mine_lo, mine_hi, out_lo, out_hi) > 0:
            return False
    if s != trump and trump >= 0:
        for rr in range(8):
            if _unseen(trump * 8 + rr, packs, mine_lo, mine_hi, out_lo, out_hi) > 0:
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
def expert_policy(S, seat, w, rng):
    n = S[O_N_ACTS]
    packs = S[O_SC + SC_PACKS]
    rubicon = S[O_RULES + PR_BRISQUES_ASIDE] != 0
    any_class = S[O_RULES + PR_REUSE] == REUSE_ANY_CLASS
    m2s = S[O_RULES + PR_MARR_TO_SEQ] != 0
    trump = S[O_SC + SC_TRUMP]
    t = trump if trump != NO_TRUMP else -1
    counts = _scan(S, seat, packs, rubicon, any_class, m2s)
    unseen = counts[12]
    players = S[O_SC + SC_PLAYERS]
    draws = S[O_SC + SC_STOCK_LEFT] / players
    p = min(0.95, draws / unseen) if unseen > 0 else 0.0
    if S[O_DECISION] != D_PLAY:
        return _declare(S, seat, w, packs, rubicon, any_class, counts, p)
    if n == 1:
        return 0
    stage2 = S[O_SC + SC_STAGE] == 2
    brisque_pts = w[E_RUB_BRISQUE] if rubicon else float(S[O_RULES + PR_BRISQUE_VALUE])
    polish = S[O_RULES + PR_OPEN_CARDS] != 0
    bq, bj = _bez_faces(S, t)
    levels = S[O_RULES + PR_BEZ_LEVELS]
    cash = w[E_CASH]
    n_trick = S[O_SC + SC_N_TRICK]
    partners = S[O_RULES + PR_PARTNERS] != 0
    pairs = partners and stage2 and S[O_RULES + PR_STAGE2_PAIRS] != 0
    n_in = 2 if pairs else players
    after = n_in - n_trick - 1
    # what winning this trick brings beyond its cards: a declaration (stage 1), denying one
    win_bonus = 0.0
    lose_cost = 0.0
    if not stage2 or polish:
        ready = _ready_value(S, counts, t, bq, bj, levels, rubicon)
        win_bonus = w[E_DECLARE_WIN] * ready
        opp = 0.0
        for q in range(players):
            if q != seat and not (partners and q == ((seat + 2) & 3)):
                opp = max(opp, w[E_DENY] * _pending_best(S, q) + w[E_OPP_DECL])
        lose_cost = opp
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
        if stage2 and not polish:
            keep = _stage2_value(w, c, t, brisque_pts)
        else:
            keep = _keep_value(S, w, c, packs, t, counts, p, rubicon, bq, bj,
                               levels, cash, brisque_pts, KEEP_ALL)
        cb = _brisque(c)
        if n_trick == 0:
            # leading: the opponent may take a led brisque; a sure winner keeps it
            if _sure(S, c, t, packs, counts):
                v = -keep + (cb * brisque_pts + win_bonus) * (0.5 if not stage2 else 1.0)
            else:
                v = -keep - cb * brisque_pts * w[E_LEAD_RISK]
        else:
            pot = (trick_b + cb) * brisque_pts
            if beats(c, lead_card, t):
                hold = 1.0
                if after > 0 and not _sure(S, c, t, packs, counts):
                    hold = w[E_OVERTAKE] ** after
                v = -keep + hold * (pot + win_bonus) - (1.0 - hold) * (pot + lose_cost)
            elif winner_is_partner:
                v = -keep + pot * (1.0 if after == 0 else w[E_OVERTAKE])
            else:
                v = -keep - pot - lose_cost
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


