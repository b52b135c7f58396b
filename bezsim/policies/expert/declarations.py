"""Which declaration expert scores: the points now plus what the others shown "to score" are
still worth if this one does not block them (R1.9, R6.6), less what a Rubicon four or
bezique locks away from earlier classes, and a bonus for fixing Rubicon trumps where a
sequence is likeliest.
"""

from bezsim.engine.constants import (
    A_STOP,
    ACE,
    DOUBLE_BEZ_ADD_PAIR,
    JACK,
    K_BEZIQUE,
    K_COMMON_MARRIAGE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_FOUR_TRUMP_ACES,
    K_FOUR_TRUMP_JACKS,
    K_PLAIN_SEQUENCE,
    K_QUADRUPLE_BEZIQUE,
    K_ROYAL_MARRIAGE,
    K_SEQUENCE,
    K_SEVEN_PLAYED,
    K_SEVEN_TURNUP,
    KING,
    NO_TRUMP,
    PR_BEZ_LEVELS,
    PR_DOUBLE_BEZ,
    PR_MARR_TO_SEQ,
    PR_POINTS,
    PR_SEVEN_IS_DECL,
    QUEEN,
    SC_PLAYERS,
    SC_STOCK_LEFT,
    SC_TRUMP,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    O_ACTS,
    O_APTS,
    O_N_ACTS,
    O_RULES,
    O_SC,
)
from bezsim.policies.expert.counts import _at_least, _get
from bezsim.policies.expert.settlement_play import _doomed
from bezsim.policies.expert.values import KEEP_M, KEEP_MB, _bez_faces, _keep_value
from bezsim.policies.expert.weights import E_CASH, E_DEFER, E_LATER, E_TRUMP_SUIT


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
    """A four of a rank, plain or (six-pack, R7.3) in trumps."""
    return ((kind >= K_FOUR_ACES and kind <= K_FOUR_JACKS)
            or (kind >= K_FOUR_TRUMP_ACES and kind <= K_FOUR_TRUMP_JACKS))


@njit(cache=True, inline="always", _nrt=False)
def _is_seven(kind):
    return kind >= K_SEVEN_TURNUP and kind <= K_SEVEN_PLAYED


@njit(cache=True, _nrt=False)
def _four_rank(kind):
    if kind >= K_FOUR_TRUMP_ACES:
        return kind - K_FOUR_TRUMP_ACES
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
    if ka >= K_FOUR_TRUMP_ACES and _is_four(kb) and kb < K_FOUR_TRUMP_ACES:
        return _four_rank(ka) == _four_rank(kb)    # six-pack: no step down in class F (R7.4)
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
        in_trumps = kind >= K_FOUR_TRUMP_ACES      # six-pack: copies of the trump face only
        need = 4
        for s in range(4):             # copies that lose nothing
            if in_trumps and s != trump:
                continue
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
                if in_trumps and s != trump:
                    continue
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
def _declare(S, seat, w, packs, rubicon, any_class, counts, p, lock_scale, later_scale):
    """Which offered declaration to score (the last offer is A_STOP): points now, plus what
    the best of the others, shown "to score", is still worth if this one does not block it
    (R1.9, R6.6), with a bonus in Rubicon for fixing trumps where a sequence is likeliest.
    ``lock_scale`` and ``later_scale`` weigh the lock cost and the others' worth (expert: 1;
    learned tunes them)."""
    n = S[O_N_ACTS]
    trump = S[O_SC + SC_TRUMP]
    players = S[O_SC + SC_PLAYERS]
    tricks_left = S[O_SC + SC_STOCK_LEFT] / players
    later = later_scale * w[E_LATER] * min(1.0, tricks_left / max(w[E_DEFER], 0.5))
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
        if _is_seven(kind):            # the seven: always taken, unless it is the declaration
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
                    if (j == i or other == A_STOP or _is_seven(other >> 2)
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
                v -= lock_scale * _lock_cost(S, w, code, packs, trump, counts, p, bq, bj,
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
