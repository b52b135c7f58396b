"""Polish card play (R5): a card is worth where it ends, among the open cards of the
trick's winner (R5.1, R5.2), plus its brisque.
"""

from bezsim.engine.constants import (
    ACE,
    H_BEZ1,
    H_BEZ2,
    H_FOUR,
    H_MARRIAGE,
    H_SEQUENCE,
    JACK,
    K_DOUBLE_BEZIQUE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    KING,
    PR_POINTS,
    QUEEN,
    SC_N_TRICK,
    TEN,
    V_MINE,
    V_MINE_SHOWN,
    V_OPEN,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_HIST,
    O_RULES,
    O_SC,
    O_SEEN,
    O_TRICK,
)
from bezsim.engine.tricks import beats, winning_index
from bezsim.policies.expert.counts import _bit, _get
from bezsim.policies.expert.values import _bez_faces, _brisque, _stage2_value
from bezsim.policies.expert.weights import (
    E_ACE,
    E_BRISQUE,
    E_CASH,
    E_LEAD_RISK,
    E_OPEN_POT,
    E_RANK,
    E_TRUMP,
)


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
def polish_context(S, seat, w, trump, packs):
    """What every Polish card's valuation shares: both seats' open cards, the bezique faces,
    what the cards on the trick bring either seat, the trick's brisques and winning card."""
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
    return o, bq, bj, n_trick, mine_now, theirs_now, pot, lead_card


@njit(cache=True, inline="always", _nrt=False)
def polish_card_value(S, w, c, trump, stage2, brisque_pts, pctx):
    """expert's worth of playing Polish card ``c`` and its parts: (value, worth kept, what
    its open card brings us, what it brings the opponent, the trick's brisque points with it,
    1 if it wins the trick as it stands)."""
    o, bq, bj, n_trick, mine_now, theirs_now, pot, lead_card = pctx
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
        return -keep - risk * (g_op + bp) + (1.0 - risk) * (g_me + bp), keep, g_me, g_op, \
            bp, 0
    if beats(c, lead_card, trump):
        return -keep + mine_now + g_me + bp, keep, g_me, g_op, bp, 1
    return -keep - theirs_now - g_op - bp, keep, g_me, g_op, bp, 0


@njit(cache=True, _nrt=False)
def _polish_play(S, seat, w, n, trump, packs, stage2, brisque_pts):
    """Polish card play: a card is worth where it ends, among the open cards of the trick's
    winner (R5.1, R5.2), and its brisque."""
    pctx = polish_context(S, seat, w, trump, packs)
    best_i = 0
    best_v = -1e30
    for i in range(n):
        v = polish_card_value(S, w, S[O_ACTS + i], trump, stage2, brisque_pts, pctx)[0]
        if v > best_v:
            best_v = v
            best_i = i
    return best_i
