"""The recording seat of ``bezsim learn`` (bezsim/learn/): it plays learned's choice (the
policy being improved) and, at the card plays learned scores, writes down each distinct
card's features (features.py) and search's value of playing it: the mean, over sampled deals
of the cards the seat has not seen, of its side's hand margin after that card with every seat
then played by learned (the play-outs of search, policies/search.py, at a fixed budget and
without the race, so every card gets every deal).

The recorder is a mode of search (search_policy with a long row in RECORD mode, see
search_params.py), so it runs on search's compiled code. The records go into the seat's own
parameter row: the driver (bezsim/learn/generate.py) gives every thread its own rows, so
nothing is shared between threads. The layout: learned's row where search keeps its
play-outs' row (BASE), the R_* columns past search's row, then the records from RECORDS on,
STRIDE floats each.
"""

import numpy as np

from bezsim.engine.constants import (
    MAX_HAND,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PLAYERS,
    SC_PLAYERS,
    SC_STAGE,
    SC_STOCK_LEFT,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.resume import resume_after_decision
from bezsim.engine.rng import below
from bezsim.engine.state import N_MAX, O_ACTS, O_N_ACTS, O_RULES, O_SC, O_SEEN, S_BASE
from bezsim.policies.builtin import LEARNED
from bezsim.policies.common import distinct_offers
from bezsim.policies.deals import determinize, hand_value, rules_of
from bezsim.policies.expert.policy import play_scalars
from bezsim.policies.expert.polish import polish_context
from bezsim.policies.learned.features import card_features, polish_features
from bezsim.policies.learned.policy import (
    learned_policy,
    learned_scores_apply,
    play_setting,
)
from bezsim.policies.learned.weights import EXPERT_COLUMN, N_FEATURES, ROW_WIDTH
from bezsim.policies.search_params import EVAL_AT, P_ROLLOUT_WEIGHTS

R_COUNT = EVAL_AT + 1        # records written (EVAL_AT: search's mode, RECORD)
R_CAPACITY = EVAL_AT + 2     # records the row holds
R_DEALS = EVAL_AT + 3        # sampled deals per recorded decision
R_EARLY = EVAL_AT + 4        # chance of recording a decision while the stock is longer than
#                              the horizon
R_HORIZON = EVAL_AT + 5      # stock cards at or below which every decision is recorded
R_SETTLEMENT = EVAL_AT + 6   # 1: value a Rubicon play-out by its settlement
BASE = P_ROLLOUT_WEIGHTS     # learned's row (ROW_WIDTH) starts here
RECORDS = EVAL_AT + 8
if BASE + ROW_WIDTH > EVAL_AT:
    raise ValueError("learned's row would overlap the recorder's columns")
MAX_ACTIONS = MAX_HAND
STRIDE = 2 + MAX_ACTIONS * (1 + N_FEATURES)   # n cards, learned's pick, then per card: value,
#                                               features


def record_row_width(capacity: int) -> int:
    return RECORDS + capacity * STRIDE


@njit(cache=True)
def card_values(S, seat, rules, stream, acts, n_cand, deals, row, settlement, out):
    """out[j] := the mean value of playing acts[j] over ``deals`` sampled deals (one when the
    seat has seen every card: the deal is then known), every seat then playing learned with
    ``row``. False when the deal could not be sampled."""
    players = rules[PR_PLAYERS]
    ids = np.full(players, LEARNED, np.int64)
    pp = np.zeros((players, ROW_WIDTH))
    for p in range(players):
        for i in range(ROW_WIDTH):
            pp[p, i] = row[i]
    rr = np.zeros((1 + players, 4), np.uint64)
    base = np.empty(S_BASE, np.int32)
    W = np.empty(S_BASE, np.int32)
    known = np.empty(MAX_HAND, np.int32)
    pool = np.empty(N_MAX, np.int32)
    for j in range(n_cand):
        out[j] = 0.0
    known_deal = unseen_count(S, seat, rules) == 0     # every deal would be the same one
    k = 0
    while k < deals:
        if not determinize(S, base, seat, rules, stream, pool, known):
            return False
        for j in range(n_cand):
            for i in range(S_BASE):
                W[i] = base[i]
            resume_after_decision(rules, W, rr, ids, pp, None, seat, np.int64(acts[j]))
            out[j] += hand_value(W, seat, rules, settlement)
        k += 1
        if known_deal:
            break
    for j in range(n_cand):
        out[j] /= k
    return True


@njit(cache=True, _nrt=False)
def unseen_count(S, seat, rules):
    n = 0
    row = O_SEEN + seat * N_MAX
    for c in range(rules[PR_PACKS] * 32):
        n += S[row + c] == V_UNSEEN
    return n


@njit(cache=True)
def recorder_policy(S, seat, row, stream):
    """learned's choice with learned's row at row[BASE:]; on the way, the record described in
    the module docstring, when the decision is one learned scores and the row has room."""
    lrow = row[BASE:BASE + ROW_WIDTH]
    players = S[O_SC + SC_PLAYERS]
    rng = np.zeros((1 + players, 4), np.uint64)
    choice = learned_policy(S, seat, lrow, rng)
    count = int(row[R_COUNT])
    if count >= row[R_CAPACITY] or not learned_scores_apply(S, seat):
        return choice
    if S[O_SC + SC_STAGE] == 1 and S[O_SC + SC_STOCK_LEFT] > row[R_HORIZON]:
        if below(stream, 1 << 20) >= row[R_EARLY] * (1 << 20):
            return choice
    n = S[O_N_ACTS]
    cand = np.empty(n, np.int64)
    n_cand = distinct_offers(S, n, True, cand)
    if n_cand < 2:
        return choice
    acts = np.empty(n_cand, np.int32)
    for j in range(n_cand):
        acts[j] = S[O_ACTS + cand[j]]
    values = np.empty(n_cand)
    rules = rules_of(S)
    if not card_values(S, seat, rules, stream, acts, n_cand, int(row[R_DEALS]), lrow,
                       row[R_SETTLEMENT] != 0, values):
        return choice
    ew = lrow[EXPERT_COLUMN:]
    at = RECORDS + count * STRIDE
    row[at] = n_cand
    pick = 0
    for j in range(n_cand):
        if acts[j] & 31 == S[O_ACTS + choice] & 31:
            pick = j
    row[at + 1] = pick
    for j in range(n_cand):
        row[at + 2 + j * (1 + N_FEATURES)] = values[j]
    if S[O_RULES + PR_OPEN_CARDS] != 0:
        _polish_features_into(S, seat, ew, acts, n_cand, row, at)
    else:
        _card_features_into(S, seat, ew, acts, n_cand, row, at)
    row[R_COUNT] = count + 1
    return choice


@njit(cache=True)
def _card_features_into(S, seat, ew, acts, n_cand, row, at):
    packs, t, stage2, rubicon, brisque_pts, players, ctx = play_setting(S, seat, ew)
    for j in range(n_cand):
        f = card_features(S, seat, ew, acts[j], packs, t, stage2, rubicon, brisque_pts, ctx,
                          players)
        base = at + 3 + j * (1 + N_FEATURES)
        for k in range(N_FEATURES):
            row[base + k] = f[k]


@njit(cache=True)
def _polish_features_into(S, seat, ew, acts, n_cand, row, at):
    packs, t, stage2, rubicon, brisque_pts, players = play_scalars(S, seat, ew)
    pctx = polish_context(S, seat, ew, t, packs)
    for j in range(n_cand):
        f = polish_features(S, ew, acts[j], t, stage2, brisque_pts, pctx, players)
        base = at + 3 + j * (1 + N_FEATURES)
        for k in range(N_FEATURES):
            row[base + k] = f[k]

