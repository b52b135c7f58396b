"""expert's decision: reads the rules and the seat's knowledge, then hands a declaration to
declarations.py, a Polish card to polish.py, and values each offered card here by what it is
worth kept against what the trick it makes brings or costs.
"""

from bezsim.engine.constants import (
    D_PLAY,
    NO_TRUMP,
    PR_BEZ_LEVELS,
    PR_BRISQUE_VALUE,
    PR_BRISQUES_ASIDE,
    PR_BRISQUES_COUNT,
    PR_MARR_TO_SEQ,
    PR_OPEN_CARDS,
    PR_PARTNERS,
    PR_REUSE,
    PR_STAGE2_PAIRS,
    REUSE_ANY_CLASS,
    SC_LEADER,
    SC_N_TRICK,
    SC_PACKS,
    SC_PLAYERS,
    SC_STAGE,
    SC_STOCK_LEFT,
    SC_TRUMP,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    O_ACTS,
    O_DECISION,
    O_N_ACTS,
    O_RULES,
    O_SC,
    O_TRICK,
)
from bezsim.engine.tricks import beats, winning_index
from bezsim.policies.expert.counts import _partner_bez, _scan, _scan_offer, _sure, _trumps_unseen
from bezsim.policies.expert.declarations import _declare
from bezsim.policies.expert.polish import _polish_play
from bezsim.policies.expert.settlement_play import _settle_brisque
from bezsim.policies.expert.values import (
    KEEP_ALL,
    _bez_faces,
    _brisque,
    _keep_value,
    _pending_best,
    _ready_value,
    _stage2_value,
)
from bezsim.policies.expert.weights import (
    E_CASH,
    E_DECLARE_WIN,
    E_DENY,
    E_LEAD_RISK,
    E_OPP_DECL,
    E_OVERTAKE,
    E_PARTNER,
    E_RUB_BRISQUE,
)


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


@njit(cache=True, inline="always", _nrt=False)
def play_brisque_points(S, seat, w, rubicon, players, packs):
    """What a brisque in a trick is worth to expert: its points, or in Rubicon (brisques
    count only toward the settlement, R6.7) a weight, plus what it may decide there; in
    six-pack nothing."""
    brisque_pts = w[E_RUB_BRISQUE] if rubicon else float(S[O_RULES + PR_BRISQUE_VALUE])
    if rubicon and S[O_RULES + PR_BRISQUES_COUNT] == 0:
        return 0.0                     # six-pack: brisques count for nothing (R7.3)
    if rubicon and players == 2:
        brisque_pts += _settle_brisque(S, seat, w, packs)
    return brisque_pts


@njit(cache=True, _nrt=False)
def card_context(S, seat, w, packs, rubicon, t, players, stage2, brisque_pts):
    """What every offered card's valuation shares (a trick-taking card play, not Polish, not
    the last card of a stage-2 trick): the counts, the chance of drawing a missing card, the
    bezique faces, what winning the trick brings (a declaration) or losing it costs, the
    trick so far. Returned as one tuple for card_value."""
    any_class = S[O_RULES + PR_REUSE] == REUSE_ANY_CLASS
    m2s = S[O_RULES + PR_MARR_TO_SEQ] != 0
    n_trick = S[O_SC + SC_N_TRICK]
    if stage2 and n_trick > 0:
        counts = _scan(S, seat, packs, rubicon, any_class, m2s)
    else:                              # the offer is the whole hand
        counts = _scan_offer(S, seat, packs, rubicon, any_class, m2s)
    unseen = counts[12]
    draws = S[O_SC + SC_STOCK_LEFT] / players
    p = min(0.95, draws / unseen) if unseen > 0 else 0.0
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
    lead_card = S[O_TRICK + winning_index(S, n_trick, t)] if n_trick > 0 else -1
    trick_b = 0
    winner_is_partner = False
    if n_trick > 0:
        for k in range(n_trick):
            trick_b += _brisque(S[O_TRICK + k])
        if partners and not pairs:
            winner_seat = (S[O_SC + SC_LEADER] + winning_index(S, n_trick, t)) % players
            winner_is_partner = winner_seat == ((seat + 2) & 3)
    return (counts, p, bq, bj, levels, cash, pq, pj, n_trick, after, win_bonus, lose_cost,
            team_bonus, trumps_unseen, lead_card, trick_b, winner_is_partner)


@njit(cache=True, inline="always", _nrt=False)
def card_value(S, w, c, packs, t, stage2, rubicon, brisque_pts, ctx, want_sure):
    """expert's worth of playing card ``c`` in points, and its parts: (value, worth kept,
    points in the trick with it, 1 if it wins the trick as it stands, chance it holds, 1 if
    no unseen card beats it). expert's own choice needs the last only where it decides the
    value (``want_sure`` False: 0 elsewhere, which saves a scan of the unseen cards)."""
    (counts, p, bq, bj, levels, cash, pq, pj, n_trick, after, win_bonus, lose_cost,
     team_bonus, trumps_unseen, lead_card, trick_b, winner_is_partner) = ctx
    if stage2:
        keep = _stage2_value(w, c, t, brisque_pts)
    else:
        keep = _keep_value(S, w, c, packs, t, counts, p, rubicon, bq, bj,
                           levels, cash, brisque_pts, KEEP_ALL, pq, pj)
    cb = _brisque(c)
    if n_trick == 0:
        # leading: the opponent may take a led brisque; a sure winner keeps it
        pot = cb * brisque_pts
        if _sure(c, t, packs, counts, trumps_unseen):
            return -keep + (pot + win_bonus) * (0.5 if not stage2 else 1.0), keep, pot, 1, \
                1.0, 1
        return -keep - pot * w[E_LEAD_RISK], keep, pot, 0, 0.0, 0
    pot = (trick_b + cb) * brisque_pts
    wins = beats(c, lead_card, t)
    sure = (want_sure or (wins and after > 0)) and _sure(c, t, packs, counts, trumps_unseen)
    if wins:
        hold = 1.0
        if after > 0 and not sure:
            hold = w[E_OVERTAKE] ** after
        return (-keep + hold * (pot + win_bonus) - (1.0 - hold) * (pot + lose_cost), keep,
                pot, 1, hold, int(sure))
    if winner_is_partner:
        return (-keep + (pot + team_bonus) * (1.0 if after == 0 else w[E_OVERTAKE]), keep,
                pot, 0, 0.0, int(sure))
    return -keep - pot - lose_cost, keep, pot, 0, 0.0, int(sure)


@njit(cache=True, inline="always", _nrt=False)
def play_scalars(S, seat, w):
    """(packs, trump or -1, stage 2, Rubicon, brisque points, players) of a card play."""
    packs = S[O_SC + SC_PACKS]
    rubicon = S[O_RULES + PR_BRISQUES_ASIDE] != 0
    trump = S[O_SC + SC_TRUMP]
    t = trump if trump != NO_TRUMP else -1
    players = S[O_SC + SC_PLAYERS]
    stage2 = S[O_SC + SC_STAGE] == 2
    brisque_pts = play_brisque_points(S, seat, w, rubicon, players, packs)
    return packs, t, stage2, rubicon, brisque_pts, players


@njit(cache=True, _nrt=False)
def _declaring(S, seat, w):
    """expert's declaration (declarations.py), from what the seat knows of the cards."""
    return declaring_weighed(S, seat, w, 1.0, 1.0)


@njit(cache=True, _nrt=False)
def declaring_weighed(S, seat, w, lock_scale, later_scale):
    """expert's declaration with its lock cost and the others' worth weighed (learned)."""
    packs = S[O_SC + SC_PACKS]
    rubicon = S[O_RULES + PR_BRISQUES_ASIDE] != 0
    any_class = S[O_RULES + PR_REUSE] == REUSE_ANY_CLASS
    m2s = S[O_RULES + PR_MARR_TO_SEQ] != 0
    players = S[O_SC + SC_PLAYERS]
    counts = _scan(S, seat, packs, rubicon, any_class, m2s)
    unseen = counts[12]
    draws = S[O_SC + SC_STOCK_LEFT] / players
    p = min(0.95, draws / unseen) if unseen > 0 else 0.0
    return _declare(S, seat, w, packs, rubicon, any_class, counts, p, lock_scale, later_scale)


@njit(cache=True, _nrt=False)
def expert_policy(S, seat, w, rng):
    n = S[O_N_ACTS]
    if S[O_DECISION] != D_PLAY:
        return _declaring(S, seat, w)
    if n == 1:
        return 0
    packs, t, stage2, rubicon, brisque_pts, players = play_scalars(S, seat, w)
    if S[O_RULES + PR_OPEN_CARDS] != 0:
        return _polish_play(S, seat, w, n, t, packs, stage2, brisque_pts)
    if stage2 and S[O_SC + SC_N_TRICK] == players - 1 and S[O_RULES + PR_PARTNERS] == 0:
        return _stage2_last(S, w, n, t, brisque_pts)   # the last card of a stage-2 trick
    ctx = card_context(S, seat, w, packs, rubicon, t, players, stage2, brisque_pts)
    # the value of each offered card kept, and the trick it would make
    best_i = 0
    best_v = -1e30
    for i in range(n):
        v = card_value(S, w, S[O_ACTS + i], packs, t, stage2, rubicon, brisque_pts, ctx,
                       False)[0]
        if v > best_v:
            best_v = v
            best_i = i
    return best_i
