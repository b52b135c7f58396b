"""The features of a card play: expert's valuation of the card and its parts (its trick-taking
valuation, or in Polish its open-card one), and a few facts about the card and the moment
that expert weighs by fixed rules. learned scores a card by
their weighted sum (policy.py); ``bezsim learn`` records them beside search's values of the
same cards (bezsim/learn/)."""

from bezsim.engine.constants import (
    ACE,
    PR_HAND_SIZE,
    PR_PACKS,
    SC_STOCK_LEFT,
    TEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import O_RULES, O_SC
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


@njit(cache=True, inline="always", _nrt=False)
def card_features(S, ew, c, packs, t, stage2, rubicon, brisque_pts, ctx, players):
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
                float(7 - r), lead_b, 0.0, 0.0, 0.0, 0.0)
    late = 1.0 if stock <= LATE_STOCK else 0.0
    return (v, keep, w * hold * pot, (1.0 - w) * pot, w, float(sure), trump, brisque,
            float(7 - r), lead_b, keep * drawn, w if stock <= players else 0.0,
            w * win_bonus, (1.0 - w) * lose_cost,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            late * (7 - r), late * brisque, late * w, late * w * win_bonus)


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
                0.0, 0.0, 0.0, 0.0)
    late = 1.0 if stock <= LATE_STOCK else 0.0
    return (v, keep, won, lost, w, 0.0, trump, brisque, float(7 - r), lead_b, keep * drawn,
            w if stock <= players else 0.0, g_me, g_op,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            late * (7 - r), late * brisque, late * w, late * g_me)
