"""The ``search`` policy: Monte Carlo over the seat's information set with policy play-outs,
and an exact solver for two-handed stage 2.

Every decision is searched: the card, which declaration to score (the others are then shown
"to score", R1.10), the seven of trumps, a Polish seven exchange, the partner's declarations
and the R4.2 pairs ending (``every=0``: card plays only). A decision
samples deals of the cards the seat has not seen (other seats' concealed cards and the stock,
in the counts it knows), the same deals for every candidate action, and plays each one out
to the end of the hand from that very decision (engine/resume.py), by the engine's own rules
and built-in players (``rollout``: expert at its tuned defaults for the variant; greedy or
heuristic). Every seat of a play-out decides on what it can see in that deal, so no player
there uses cards it could not know. An action's worth is its side's hand margin (points
minus the best other side's; ``settlement=1`` in Rubicon: the R6.8 stake instead).

The base policy's action (expert's) stands unless another's mean paired gain over the same
deals clears ``prior`` by ``z`` standard errors. The race: from the ``first`` deal on, an
action whose mean gain plus ``drop`` standard errors falls below the prior gets no more
deals; with no rival left the base action is played, and a lone rival that clears the gate
is played at once. Most decisions end after a few deals, which is where the cost went. Stage
1 is searched only once the stock holds at most ``horizon`` cards; once the stock is empty in
a two-handed game without open cards, a player who remembers the cards knows both hands, and
policies/solver.py plays the last tricks exactly.

``method=1`` replaces the per-action play-outs by information-set MCTS
(policies/tree.py), kept as a parameter for comparison: at equal or greater cost it is
weaker (analyses/search_budget.py).
"""

import functools

import numpy as np

from bezsim.engine.constants import (
    D_PLAY,
    LOC_STOCK,
    MAX_HAND,
    PARAMS_SIZE,
    PR_BRISQUE_BONUS,
    PR_CLOSE_BY_POINTS,
    PR_ONE_HAND_GAME,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PARTNERS,
    PR_PLAYERS,
    PR_STAGE2_PAIRS,
    SC_HAND_POINTS,
    SC_SCORE,
    SC_STAGE,
    SC_STOCK_LEFT,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.resume import resume_after_decision
from bezsim.engine.rng import below
from bezsim.engine.settlement import settle
from bezsim.engine.state import (
    CNT_WIDTH,
    CTR_STOCK_POS,
    N_MAX,
    O_ACTS,
    O_BRISQ_TAKEN,
    O_DECISION,
    O_EV_CAP,
    O_HAND_CNT,
    O_HAND_N,
    O_HANDS,
    O_LOC,
    O_N_ACTS,
    O_RULES,
    O_SC,
    O_SEEN,
    O_STOCK,
    O_TR_CAP,
    S_BASE,
    give,
)
from bezsim.policies.builtin import EXPERT, GREEDY, GREEDY_DEFAULTS, HEURISTIC, LEARNED, TREE
from bezsim.policies.common import distinct_offers
from bezsim.policies.expert import expert_policy
from bezsim.policies.heuristic import DEFAULT_WEIGHTS, heuristic_policy
from bezsim.policies.learned import learned_policy
from bezsim.policies.search_params import (
    N_ROLLOUT_WEIGHTS,
    P_DROP,
    P_EVERY,
    P_EXACT_STAGE2,
    P_EXPLORE,
    P_FIRST,
    P_HORIZON,
    P_METHOD,
    P_PRIOR,
    P_ROLLOUT,
    P_ROLLOUT_WEIGHTS,
    P_SAMPLES,
    P_SETTLEMENT,
    P_Z,
)
from bezsim.policies.solver import solve_endgame
from bezsim.policies.tree import (
    N_ACTOR,
    N_VALUE,
    N_VISITS,
    T_CAP,
    T_EXPLORE,
    T_PATH,
    T_PATH_N,
    T_USED,
    action_key,
    find_child,
    new_node,
    node_at,
    tree_words,
    ucb_choice,
)


@njit(cache=True)
def rules_of(S):
    """The rules table the engine put in the public region (state.load_rules)."""
    rules = np.zeros(PARAMS_SIZE, np.int64)
    for i in range(PARAMS_SIZE):
        rules[i] = S[O_RULES + i]
    return rules


@njit(cache=True, _nrt=False)
def determinize(S, W, seat, rules, stream, pool, known):
    """W := S with the cards ``seat`` has not seen dealt again at random into the places it
    cannot see (other seats' concealed cards, the stock), in the same numbers. Built from the
    seat's knowledge only: other seats' known cards, sorted, then sampled ones, so the result
    does not depend on where the hidden cards really are. False if the counts disagree."""
    players = rules[PR_PLAYERS]
    n_cards = rules[PR_PACKS] * 32
    for i in range(S_BASE):
        W[i] = S[i]
    W[O_EV_CAP] = 0           # play-outs keep no events and no trace
    W[O_TR_CAP] = 0
    mine = O_SEEN + seat * N_MAX
    n_pool = 0
    for c in range(n_cards):
        if S[mine + c] == V_UNSEEN:
            pool[n_pool] = c
            n_pool += 1
    for i in range(n_pool - 1, 0, -1):
        j = below(stream, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    stock_pos = S[CTR_STOCK_POS]
    need = n_cards - stock_pos
    for p in range(players):
        if p != seat:
            base = O_HANDS + p * MAX_HAND
            for i in range(S[O_HAND_N + p]):
                need += S[mine + S[base + i]] == V_UNSEEN
    if need != n_pool:
        return False
    for p in range(players):
        if p != seat:
            for i in range(n_pool):
                W[O_SEEN + p * N_MAX + pool[i]] = V_UNSEEN
    used = 0
    for p in range(players):
        if p == seat:
            continue
        base = O_HANDS + p * MAX_HAND
        n_hand = S[O_HAND_N + p]
        n_known = 0
        for i in range(n_hand):
            c = S[base + i]
            if S[mine + c] != V_UNSEEN:
                j = n_known                       # insertion sort by card id
                while j > 0 and known[j - 1] > c:
                    known[j] = known[j - 1]
                    j -= 1
                known[j] = c
                n_known += 1
        W[O_HAND_N + p] = 0
        for k in range(CNT_WIDTH):
            W[O_HAND_CNT + p * CNT_WIDTH + k] = 0
        for i in range(n_known):
            c = known[i]
            give(W, p, c)
            W[O_LOC + c] = S[O_LOC + c]           # shown on the table, or a drawn turn-up
            W[O_SEEN + p * N_MAX + c] = S[O_SEEN + p * N_MAX + c]
        for _ in range(n_hand - n_known):
            give(W, p, pool[used])
            used += 1
    for pos in range(stock_pos, n_cards):
        c = pool[used]
        used += 1
        W[O_STOCK + pos] = c
        W[O_LOC + c] = LOC_STOCK
    return True


@njit(cache=True, inline="always", _nrt=False)
def side_margin(W, seat, rules):
    """The seat's side's points this hand minus the best other side's."""
    players = rules[PR_PLAYERS]
    pts = O_SC + SC_HAND_POINTS
    if rules[PR_PARTNERS]:
        us = W[pts + seat] + W[pts + ((seat + 2) & 3)]
        return us - (W[pts + ((seat + 1) & 3)] + W[pts + ((seat + 3) & 3)])
    best = -(1 << 30)
    for p in range(players):
        if p != seat and W[pts + p] > best:
            best = W[pts + p]
    return W[pts + seat] - best


@njit(cache=True)
def _base(S, seat, rollout, weights, row, rng):
    """The base policy's decision: expert's (rollout=3), learned's (rollout=4) or the
    heuristic's."""
    if rollout == 4:
        return learned_policy(S, seat, row, rng)
    if rollout == 3:
        return expert_policy(S, seat, row, rng)
    return heuristic_policy(S, seat, weights, rng)


@njit(cache=True, _nrt=False)
def hand_value(W, seat, rules, settlement):
    """What a play-out's end is worth to the seat: its side's hand margin, or with
    ``settlement`` in Rubicon (one hand is the game) the signed stake of R6.8."""
    if settlement and rules[PR_ONE_HAND_GAME] and rules[PR_PLAYERS] == 2:
        pts = O_SC + SC_HAND_POINTS
        score = O_SC + SC_SCORE
        winner, _, _, _, stake = settle(W[score] + W[pts], W[score + 1] + W[pts + 1],
                                        W[O_BRISQ_TAKEN], W[O_BRISQ_TAKEN + 1],
                                        rules[PR_BRISQUE_BONUS], rules[PR_CLOSE_BY_POINTS])
        if winner < 0:
            return 0
        return stake if winner == seat else -stake
    return side_margin(W, seat, rules)


@njit(cache=True, _nrt=False)
def _gain_stats(total, gain2, j, hj, k):
    """Mean paired gain of candidate j over the base candidate hj after k deals, and its
    standard error."""
    mean = (total[j] - total[hj]) / k
    var = gain2[j] / k - mean * mean
    if k > 1:
        var = var * k / (k - 1)
    return mean, np.sqrt(max(var, 0.0) / k)


@njit(cache=True)
def ismcts(S, seat, rules, stream, expert_choice, iterations, explore, pp, ids, settlement):
    """Information-set MCTS from the current decision (policies/tree.py): ``iterations``
    play-outs, each in a fresh deal of the unseen cards, every seat the tree policy. Returns
    the offer index of the most visited action at the root (expert's on a tie)."""
    players = rules[PR_PLAYERS]
    nodes = iterations + 1
    W = np.empty(S_BASE + tree_words(nodes), np.int32)
    base = np.empty(S_BASE, np.int32)
    known = np.empty(MAX_HAND, np.int32)
    pool = np.empty(N_MAX, np.int32)
    rr = np.zeros((1 + players, 4), np.uint64)
    W[S_BASE + T_USED] = 0
    W[S_BASE + T_CAP] = nodes
    W[S_BASE + T_EXPLORE] = int(explore)
    root = new_node(W, -1, 0, -1)
    for _ in range(iterations):
        if not determinize(S, base, seat, rules, stream, pool, known):
            return expert_choice
        for i in range(S_BASE):
            W[i] = base[i]
        W[S_BASE + T_PATH_N] = 0
        i = ucb_choice(W, root, seat, expert_choice)
        resume_after_decision(rules, W, rr, ids, pp, None, seat, S[O_ACTS + i])
        for k in range(W[S_BASE + T_PATH_N]):
            at = node_at(W[S_BASE + T_PATH + k])
            W[at + N_VISITS] += 1
            W[at + N_VALUE] += hand_value(W, W[at + N_ACTOR], rules, settlement)
    best = expert_choice
    most = W[node_at(find_child(W, root, action_key(S, seat, expert_choice))) + N_VISITS]
    for i in range(S[O_N_ACTS]):
        c = find_child(W, root, action_key(S, seat, i))
        if c >= 0 and W[node_at(c) + N_VISITS] > most:
            most = W[node_at(c) + N_VISITS]
            best = i
    return best


@njit(cache=True)
def search_policy(S, seat, params, stream):
    """The search policy (see the module docstring): returns an index into the offer."""
    rules = rules_of(S)
    players = rules[PR_PLAYERS]
    n = S[O_N_ACTS]
    weights = np.zeros(16)
    for i in range(len(DEFAULT_WEIGHTS)):
        weights[i] = DEFAULT_WEIGHTS[i]
    # rollout=3 (expert) or 4 (learned): that policy plays the play-outs and also makes the
    # decisions search leaves to its base policy (the prior card, fallbacks), with its row
    # from column P_ROLLOUT_WEIGHTS; otherwise the heuristic
    base_kind = int(params[P_ROLLOUT])
    base_row = np.zeros(N_ROLLOUT_WEIGHTS)
    for i in range(N_ROLLOUT_WEIGHTS):
        base_row[i] = params[P_ROLLOUT_WEIGHTS + i]
    every = params[P_EVERY] != 0
    play = S[O_DECISION] == D_PLAY
    stage = S[O_SC + SC_STAGE]
    pairs_ending = stage == 2 and rules[PR_STAGE2_PAIRS] != 0 and players == 4
    if n == 1 or (not every and (not play or pairs_ending)):
        return _base(S, seat, base_kind, weights, base_row,
                     np.zeros((1 + players, 4), np.uint64))
    if (play and stage == 2 and players == 2 and rules[PR_OPEN_CARDS] == 0
            and params[P_EXACT_STAGE2] != 0):
        i = solve_endgame(S, seat, MAX_HAND)
        if i >= 0:
            return i
    # distinct candidates (identical copies of a card play alike)
    cand = np.empty(n, np.int64)
    n_cand = distinct_offers(S, n, play, cand)
    if n_cand == 1:
        return cand[0]
    if stage == 1 and S[O_SC + SC_STOCK_LEFT] > params[P_HORIZON]:
        return _base(S, seat, base_kind, weights, base_row,
                     np.zeros((1 + players, 4), np.uint64))
    acts = np.empty(n_cand, np.int32)
    for j in range(n_cand):
        acts[j] = S[O_ACTS + cand[j]]
    rollout = (GREEDY if params[P_ROLLOUT] == 1 else HEURISTIC if params[P_ROLLOUT] == 2
               else LEARNED if params[P_ROLLOUT] == 4 else EXPERT)
    ids = np.full(players, rollout, np.int64)
    pp = np.zeros((players, N_ROLLOUT_WEIGHTS))   # wide enough for every policy's row
    for p in range(players):
        if rollout == GREEDY:
            pp[p, 0] = GREEDY_DEFAULTS[0]
            pp[p, 1] = GREEDY_DEFAULTS[1]
        elif rollout == EXPERT or rollout == LEARNED:
            for i in range(N_ROLLOUT_WEIGHTS):
                pp[p, i] = params[P_ROLLOUT_WEIGHTS + i]
        else:
            for i in range(weights.shape[0]):
                pp[p, i] = weights[i]
    rr = np.zeros((1 + players, 4), np.uint64)
    # the base action (the base policies draw nothing from their stream, so asking first
    # changes no play-out)
    h = _base(S, seat, base_kind, weights, base_row, rr)
    hj = 0
    for j in range(n_cand):
        if (S[O_ACTS + h] & 31 == acts[j] & 31) if play else cand[j] == h:
            hj = j
    samples = max(1, int(params[P_SAMPLES]))
    settlement = params[P_SETTLEMENT] != 0
    if params[P_METHOD] == 1:
        for p in range(players):
            ids[p] = TREE
        return ismcts(S, seat, rules, stream, h, samples * n_cand, params[P_EXPLORE], pp,
                      ids, settlement)
    base = np.empty(S_BASE, np.int32)
    known = np.empty(MAX_HAND, np.int32)
    W = np.empty(S_BASE, np.int32)
    pool = np.empty(N_MAX, np.int32)
    total = np.zeros(n_cand, np.int64)
    margin = np.zeros(n_cand, np.int64)
    gain2 = np.zeros(n_cand)          # sum of squared paired gains over the base action
    alive = np.ones(n_cand, np.bool_)
    first = int(params[P_FIRST])
    z = params[P_Z]
    prior = params[P_PRIOR]
    k = 0
    while k < samples:
        if not determinize(S, base, seat, rules, stream, pool, known):
            return _base(S, seat, base_kind, weights, base_row, rr)
        for j in range(n_cand):
            if not alive[j]:
                continue
            for i in range(S_BASE):
                W[i] = base[i]
            resume_after_decision(rules, W, rr, ids, pp, None, seat, acts[j])
            margin[j] = hand_value(W, seat, rules, settlement)
            total[j] += margin[j]
        for j in range(n_cand):
            d = float(margin[j] - margin[hj])
            gain2[j] += d * d
        k += 1
        if first > 0 and z > 0 and k >= first and k < samples:
            # the race: an action whose gain could hardly clear the gate leaves it; with no
            # rival left the base action stands, and a lone rival that clears it wins now
            rivals = 0
            last = -1
            for j in range(n_cand):
                if j == hj or not alive[j]:
                    continue
                mean, se = _gain_stats(total, gain2, j, hj, k)
                if mean + params[P_DROP] * se < prior:
                    alive[j] = False
                else:
                    rivals += 1
                    last = j
            if rivals == 0:
                return cand[hj]
            if rivals == 1:
                mean, se = _gain_stats(total, gain2, last, hj, k)
                if mean - z * se > prior:
                    return cand[last]
    best = hj
    if z > 0:
        # the base action stays unless another's mean paired gain (same deals) clears the
        # prior by z standard errors: a few noisy play-outs must not trade a sound one away
        best_gain = 0.0
        for j in range(n_cand):
            if j == hj or not alive[j]:
                continue
            mean, se = _gain_stats(total, gain2, j, hj, k)
            if mean - z * se > prior and mean > best_gain:
                best_gain = mean
                best = j
        return cand[best]
    # the base policy's own action keeps its place unless another beats it by ``prior``
    # points a sample: with few samples the estimates are noisy, and the prior keeps search
    # from trading a sound action for a lucky one
    total[hj] += int(prior * k)
    for j in range(n_cand):
        if total[j] > total[best]:
            best = j
    return cand[best]


def _search_entry(S, seat, params, rng):
    return search_policy(S, seat, params, rng)


@functools.cache
def search_function():
    """The search policy compiled for the engine's external-policy slot (once a process)."""
    from bezsim.policies.plugins import compile_external

    return compile_external(_search_entry, "search")
