"""What a card or a ready combination is worth to expert, in points: a stage-1 card kept (its
marginal share of the combinations still reachable, its worth in tricks, its brisque), a
stage-2 card (tricks only), the best combination ready to score or shown "to score".
"""

from bezsim.engine.constants import (
    ACE,
    H_CLASS_B,
    H_SEVEN,
    JACK,
    K_BEZIQUE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_FOUR_TRUMP_ACES,
    K_SEVEN_DECLARE,
    KING,
    NO_TRUMP,
    PR_BEZ_PAIR,
    PR_NO_SEVEN,
    PR_PLAIN_SEQUENCE,
    PR_POINTS,
    PR_TRUMP_FOURS,
    QUEEN,
    SEVEN,
    TEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.roles import pair_faces
from bezsim.engine.state import (
    O_HIST,
    O_PEND,
    O_PEND_N,
    O_RULES,
    PENDING_MAX,
    PENDING_WIDTH,
)
from bezsim.policies.expert.counts import _at_least, _get
from bezsim.policies.expert.weights import E_ACE, E_BRISQUE, E_COMBO, E_RANK, E_SHARE, E_TRUMP

KEEP_ALL = 0
KEEP_MB = 1
KEEP_M = 2


@njit(cache=True, _nrt=False)
def _bez_faces(S, trump):
    """The bezique's queen and jack faces under the public rules table (R1.8, R9, R7.3)."""
    return pair_faces(S[O_RULES + PR_BEZ_PAIR], trump)


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
    # six-pack (R7.3): four of a rank in trumps, copies of this one face
    if (mode == KEEP_ALL and s == trump and S[O_RULES + PR_TRUMP_FOURS] != 0
            and _get(four_lo, four_hi, f) > 0):
        have = _get(four_lo, four_hi, f)
        if have <= 4:
            pts = S[O_RULES + PR_POINTS + K_FOUR_TRUMP_ACES + r] * cash
            complete = _at_least(4 - have, uf, p)
            combo += pts * (complete - _at_least(5 - have, uf, p)) * keep
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
    a = _get(bez_lo, bez_hi, bq) if bq >= 0 else 0
    b = _get(bez_lo, bez_hi, bj) if bj >= 0 else 0
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
    if S[O_RULES + PR_TRUMP_FOURS] != 0 and not undecided:    # six-pack (R7.3)
        for r in range(5):
            if _get(four_lo, four_hi, trump * 8 + r) >= 4:
                best = max(best, S[O_RULES + PR_POINTS + K_FOUR_TRUMP_ACES + r])
    return best


@njit(cache=True, _nrt=False)
def _pending_best(S, p):
    """Points of the best combination seat ``p`` has shown "to score" (public, R1.10)."""
    best = 0
    for i in range(S[O_PEND_N + p]):
        code = S[O_PEND + (p * PENDING_MAX + i) * PENDING_WIDTH]
        best = max(best, S[O_RULES + PR_POINTS + (code >> 2)])
    return best


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
