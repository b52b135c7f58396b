"""learned's decision. A card play is scored by the weighted sum of its features (features.py)
and the best score is played; a declaration is expert's choice with two of its terms weighed
by learned's row; the last card of a stage-2 trick (outside Polish and partnerships) is
expert's. With the default weights learned plays expert's
cards. No allocation: learned runs inside the engine's allocation-free kernels."""

from bezsim.engine.constants import (
    D_PLAY,
    PR_OPEN_CARDS,
    PR_PARTNERS,
    SC_N_TRICK,
    SC_PLAYERS,
    SC_STAGE,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import O_ACTS, O_DECISION, O_N_ACTS, O_RULES, O_SC
from bezsim.policies.expert.policy import (
    card_context,
    declaring_weighed,
    expert_policy,
    play_scalars,
)
from bezsim.policies.expert.polish import polish_context
from bezsim.policies.expert.weights import N_EXPERT
from bezsim.policies.learned.features import card_features, polish_features
from bezsim.policies.learned.weights import (
    DECLARE_LATER,
    DECLARE_LOCK,
    EXPERT_COLUMN,
    FEATURE_COLUMN,
    N_FEATURES,
)


@njit(cache=True, inline="always", _nrt=False)
def learned_scores_apply(S, seat):
    """Is this a decision learned scores by its features (a card play with a choice, not the
    last card of a stage-2 trick outside Polish and partnerships)?"""
    if S[O_DECISION] != D_PLAY or S[O_N_ACTS] < 2:
        return False
    if S[O_RULES + PR_OPEN_CARDS] != 0:
        return True
    players = S[O_SC + SC_PLAYERS]
    return not (S[O_SC + SC_STAGE] == 2 and S[O_SC + SC_N_TRICK] == players - 1
                and S[O_RULES + PR_PARTNERS] == 0)


@njit(cache=True, inline="always", _nrt=False)
def play_setting(S, seat, ew):
    """The scalars every card's features share, and expert's card context (outside
    Polish)."""
    packs, t, stage2, rubicon, brisque_pts, players = play_scalars(S, seat, ew)
    ctx = card_context(S, seat, ew, packs, rubicon, t, players, stage2, brisque_pts)
    return packs, t, stage2, rubicon, brisque_pts, players, ctx


@njit(cache=True, inline="always", _nrt=False)
def weighted(w, f):
    """The score of a card: its features ``f`` weighted by learned's row ``w``."""
    score = 0.0
    for k in range(N_FEATURES):
        score += w[FEATURE_COLUMN + k] * f[k]
    return score


@njit(cache=True, _nrt=False)
def learned_policy(S, seat, w, rng):
    ew = w[EXPERT_COLUMN:EXPERT_COLUMN + N_EXPERT]
    if S[O_DECISION] != D_PLAY:
        return declaring_weighed(S, seat, ew, w[DECLARE_LOCK], w[DECLARE_LATER])
    if not learned_scores_apply(S, seat):
        return expert_policy(S, seat, ew, rng)
    if S[O_RULES + PR_OPEN_CARDS] != 0:
        return _polish_best(S, seat, w, ew)
    packs, t, stage2, rubicon, brisque_pts, players, ctx = play_setting(S, seat, ew)
    best_i = 0
    best = -1e300
    for i in range(S[O_N_ACTS]):
        score = weighted(w, card_features(S, seat, ew, S[O_ACTS + i], packs, t, stage2, rubicon,
                                          brisque_pts, ctx, players))
        if score > best:
            best = score
            best_i = i
    return best_i


@njit(cache=True, _nrt=False)
def _polish_best(S, seat, w, ew):
    """The Polish card of the best weighted sum of its features."""
    packs, t, stage2, rubicon, brisque_pts, players = play_scalars(S, seat, ew)
    pctx = polish_context(S, seat, ew, t, packs)
    best_i = 0
    best = -1e300
    for i in range(S[O_N_ACTS]):
        score = weighted(w, polish_features(S, ew, S[O_ACTS + i], t, stage2, brisque_pts,
                                            pctx, players))
        if score > best:
            best = score
            best_i = i
    return best_i
