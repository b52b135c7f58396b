"""The features of a card play: expert's valuation of the card and its parts (its trick-taking
valuation, or in Polish its open-card one), and a few facts about the card and the moment
that expert weighs by fixed rules. learned scores a card by
their weighted sum (policy.py); ``bezsim learn`` records them beside search's values of the
same cards (bezsim/learn/)."""

from bezsim.engine.constants import (
    ACE,
    H_BEZ1,
    H_BEZ2,
    H_BEZ3,
    H_BEZ4,
    H_FOUR,
    H_TRUMP_FOUR,
    JACK,
    K_BEZIQUE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_FOUR_TRUMP_ACES,
    KING,
    PR_HAND_SIZE,
    PR_PACKS,
    PR_POINTS,
    QUEEN,
    SC_STOCK_LEFT,
    TEN,
    V_MINE,
    V_MINE_SHOWN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import N_MAX, O_HIST, O_RULES, O_SC, O_SEEN
from bezsim.policies.expert.policy import card_value
from bezsim.policies.expert.polish import polish_card_value
from bezsim.policies.learned.weights import LATE_STOCK


# expert's valuations are inlined into expert's own loop; learned calls them through these, so
# their bodies compile once here instead of once in every function that scores cards
@njit(cache=True, _nrt=False)
def expert_card_value(S, ew, c, packs, t, stage2, rubicon, brisque_pts, ctx):
    return card_value(S, ew, c, packs, t, stage2, rubicon, brisque_pts, ctx, True)


@njit(cache=True, _nrt=False)
def expert_polish_card_value(S, ew, c, t, stage2, brisque_pts, pctx):
    return polish_card_value(S, ew, c, t, stage2, brisque_pts, pctx)


@njit(cache=True, inline="always", _nrt=False)
def card_facts(S, c, t, players):
    """(rank, 1 if a trump, 1 if a brisque, stock left, share of the stock drawn)."""
    r = c & 7
    trump = 1.0 if (c & 31) >> 3 == t else 0.0
    brisque = 1.0 if (r == ACE or r == TEN) else 0.0
    stock = S[O_SC + SC_STOCK_LEFT]
    full = S[O_RULES + PR_PACKS] * 32 - players * S[O_RULES + PR_HAND_SIZE]
    drawn = 1.0 - stock / full if full > 0 else 1.0
    return r, trump, brisque, stock, drawn


@njit(cache=True, _nrt=False)
def _held_free(S, seat, face, packs, c, bits):
    """Does the seat hold a copy of ``face`` other than ``c`` in no intact combination of
    ``bits``?"""
    for k in range(packs):
        g = k * 32 + face
        seen = S[O_SEEN + seat * N_MAX + g]
        if g != c and (seen == V_MINE or seen == V_MINE_SHOWN) and (S[O_HIST + g] & bits) == 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def reform_points(S, seat, c, packs):
    """Rubicon (R6.6): the points a four or bezique on the table scores again when ``c``, one
    of its cards, goes to the trick and a like card the seat holds stands in for it (it then
    needs a won trick to be declared). In Rubicon a copy's low history bits mark the intact
    combinations it is in."""
    h = S[O_HIST + c]
    r = c & 7
    pts = 0.0
    if h & H_FOUR:
        kind = (K_FOUR_ACES if r == ACE else K_FOUR_KINGS if r == KING
                else K_FOUR_QUEENS if r == QUEEN else K_FOUR_JACKS if r == JACK else -1)
        if kind >= 0:
            for s in range(4):
                if _held_free(S, seat, s * 8 + r, packs, c, H_FOUR):
                    pts += S[O_RULES + PR_POINTS + kind]
                    break
    if h & H_TRUMP_FOUR and _held_free(S, seat, c & 31, packs, c, H_TRUMP_FOUR):
        pts += S[O_RULES + PR_POINTS + K_FOUR_TRUMP_ACES + r]     # six-pack (R7.4)
    bez = h & (H_BEZ1 | H_BEZ2 | H_BEZ3 | H_BEZ4)
    if bez and _held_free(S, seat, c & 31, packs, c, H_BEZ1 | H_BEZ2 | H_BEZ3 | H_BEZ4):
        level = 3 if bez & H_BEZ4 else 2 if bez & H_BEZ3 else 1 if bez & H_BEZ2 else 0
        pts += S[O_RULES + PR_POINTS + K_BEZIQUE + level]
    return pts


@njit(cache=True, inline="always", _nrt=False)
def card_features(S, seat, ew, c, packs, t, stage2, rubicon, brisque_pts, ctx, players):
    """The features of playing card ``c`` (in weights.FEATURES order), expert's row ``ew``
    and ``ctx`` from expert's card_context."""
    v, keep, pot, wins, hold, sure = expert_card_value(S, ew, c, packs, t, stage2, rubicon,
                                                       brisque_pts, ctx)
    n_trick = ctx[8]
    win_bonus = ctx[10]
    lose_cost = ctx[11]
    r, trump, brisque, stock, drawn = card_facts(S, c, t, players)
    w = float(wins)
    lead_b = brisque if n_trick == 0 else 0.0
    if stage2:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                v, keep, w * hold * pot, (1.0 - w) * pot, w, float(sure), trump, brisque,
                float(7 - r), lead_b, 0.0, 0.0, 0.0, 0.0, 0.0)
    late = 1.0 if stock <= LATE_STOCK else 0.0
    reform = reform_points(S, seat, c, packs) if late > 0.0 and rubicon else 0.0
    return (v, keep, w * hold * pot, (1.0 - w) * pot, w, float(sure), trump, brisque,
            float(7 - r), lead_b, keep * drawn, w if stock <= players else 0.0,
            w * win_bonus, (1.0 - w) * lose_cost,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            late * (7 - r), late * brisque, late * w, late * w * win_bonus, reform)


@njit(cache=True, inline="always", _nrt=False)
def polish_features(S, ew, c, t, stage2, brisque_pts, pctx, players):
    """The features of playing Polish card ``c`` (R5: a card counts where it ends, among the
    open cards of the trick's winner), in the same slots: ``won`` what the trick brings us
    when the card wins, ``lost`` what it brings the opponent when it does not,
    ``declare_win`` and ``deny_lose`` what the card's own open card brings us or him."""
    v, keep, g_me, g_op, bp, wins = expert_polish_card_value(S, ew, c, t, stage2, brisque_pts,
                                                             pctx)
    n_trick = pctx[3]
    mine_now = pctx[4]
    theirs_now = pctx[5]
    r, trump, brisque, stock, drawn = card_facts(S, c, t, players)
    w = float(wins)
    won = w * (mine_now + g_me + bp)
    lost = (1.0 - w) * (theirs_now + g_op + bp) if n_trick > 0 else 0.0
    lead_b = brisque if n_trick == 0 else 0.0
    if stage2:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                v, keep, won, lost, w, 0.0, trump, brisque, float(7 - r), lead_b,
                0.0, 0.0, 0.0, 0.0, 0.0)
    late = 1.0 if stock <= LATE_STOCK else 0.0
    return (v, keep, won, lost, w, 0.0, trump, brisque, float(7 - r), lead_b, keep * drawn,
            w if stock <= players else 0.0, g_me, g_op,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            late * (7 - r), late * brisque, late * w, late * g_me, 0.0)
