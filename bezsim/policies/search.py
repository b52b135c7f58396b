"""The ``search`` policy: Monte Carlo over the seat's information set with policy play-outs,
and an exact solver for two-handed stage 2.

Every decision is searched: the card, which declaration to score (the others are then shown
"to score", R1.10), the seven of trumps, a Polish seven exchange, the partner's declarations
and the R4.2 pairs ending (``every=0``: card plays only). A decision
samples deals of the cards the seat has not seen (other seats' concealed cards and the stock,
in the counts it knows), the same deals for every candidate action, and plays each one out
to the end of the hand from that very decision (engine/resume.py), by the engine's own rules
and built-in players (``rollout``: learned, the default, or expert at its tuned defaults for
the variant; greedy or heuristic). Every seat of a play-out decides on what it can see in
that deal, so no player there uses cards it could not know. An action's worth is its side's
hand margin (points minus the best other side's; ``settlement=1`` in Rubicon: the R6.8 stake
instead).

The base policy's action (the play-outs' player's) stands unless another's mean paired gain
over the same deals clears ``prior`` by ``z`` standard errors. The race: from the ``first``
deal on, an action whose mean gain plus ``drop`` standard errors falls below the prior gets
no more deals; with no rival left the base action is played, and a lone rival that clears
the gate is played at once. Most decisions end after a few deals, which is where the cost
went. Stage 1 is searched only once the stock holds at most ``horizon`` cards; once the
stock is empty in a two-handed game without open cards, a player who remembers the cards
knows both hands, and policies/solver.py plays the last tricks exactly.

``method=1`` replaces the per-action play-outs by information-set MCTS
(policies/tree.py), kept as a parameter for comparison: at equal or greater cost it is
weaker (analyses/search_budget.py).
"""

import functools

import numpy as np

from bezsim.compile_cache import compile_all
from bezsim.engine.constants import (
    D_PLAY,
    MAX_HAND,
    PR_OPEN_CARDS,
    PR_PARTNERS,
    PR_PLAYERS,
    PR_STAGE2_DUTY,
    PR_STAGE2_PAIRS,
    SC_N_TRICK,
    SC_STAGE,
    SC_STOCK_LEFT,
    SC_TRUMP,
)
from bezsim.engine.external import policy_set
from bezsim.engine.jit import njit
from bezsim.engine.resume import resume_after_decision
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_DECISION,
    O_N_ACTS,
    O_SC,
    S_BASE,
)
from bezsim.engine.tricks import legal_plays
from bezsim.policies.builtin import EXPERT, GREEDY, GREEDY_DEFAULTS, HEURISTIC, LEARNED, TREE
from bezsim.policies.common import distinct_offers
from bezsim.policies.deals import determinize, hand_value, hide_cards, rules_of
from bezsim.policies.expert import expert_policy
from bezsim.policies.heuristic import DEFAULT_WEIGHTS, heuristic_policy
from bezsim.policies.learned import learned_policy
from bezsim.policies.learned.record import recorder_policy
from bezsim.policies.learned.weights import EXPERT_COLUMN
from bezsim.policies.search_params import (
    EVAL_ACTS,
    EVAL_AT,
    EVAL_BASE,
    EVAL_BEST,
    EVAL_DEALS,
    EVAL_N,
    EVAL_VALUES,
    LONG_MODE,
    LUCK,
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
    RECORD,
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
def _base(S, seat, rollout, weights, row, rng):
    """The base policy's decision: expert's (rollout=3), learned's (rollout=4) or the
    heuristic's."""
    if rollout == 4:
        return learned_policy(S, seat, row, rng)
    if rollout == 3:
        return expert_policy(S, seat, row, rng)
    return heuristic_policy(S, seat, weights, rng)


@njit(cache=True, _nrt=False)
def _gain_stats(total, gain2, j, hj, k):
    """Mean paired gain of candidate j over the base candidate hj after k deals, and its
    standard error."""
    mean = (total[j] - total[hj]) / k
    var = gain2[j] / k - mean * mean
    if k > 1:
        var = var * k / (k - 1)
    return mean, np.sqrt(max(var, 0.0) / k)


@njit(cache=True, _nrt=False)
def gated_choice(total, gain2, alive, hj, k, z, prior):
    """Search's verdict after k deals (``total``: each candidate's summed value, ``gain2``:
    its summed squared paired gain over the base candidate ``hj``): the base stands unless
    another's mean paired gain clears ``prior`` by ``z`` standard errors (the largest such
    gain wins); with z = 0, the largest total once the base gets ``prior`` a deal."""
    best = hj
    if z > 0:
        # a few noisy play-outs must not trade a sound action away
        best_gain = 0.0
        for j in range(total.shape[0]):
            if j == hj or not alive[j]:
                continue
            mean, se = _gain_stats(total, gain2, j, hj, k)
            if mean - z * se > prior and mean > best_gain:
                best_gain = mean
                best = j
        return best
    # with few samples the estimates are noisy, and the prior keeps search from trading a
    # sound action for a lucky one
    total[hj] += int(prior * k)
    for j in range(total.shape[0]):
        if total[j] > total[best]:
            best = j
    return best


@njit(cache=True)
def ismcts(S, seat, rules, stream, expert_choice, iterations, explore, pp, ids, settlement,
           fns):
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
        resume_after_decision(rules, W, rr, ids, pp, fns, seat, np.int64(S[O_ACTS + i]))
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
def playout_seats(params, players, weights):
    """The play-outs' players: every seat the ``rollout`` policy, each with its row (expert's
    or learned's from column P_ROLLOUT_WEIGHTS, greedy's defaults or the heuristic's
    ``weights``)."""
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
    return ids, pp


@njit(cache=True, _nrt=False)
def tree_rows(pp, rollout):
    """The tree policy plays expert below the tree (policies/tree.py): with learned's rows
    (rollout=4) each row becomes the expert row learned carries at EXPERT_COLUMN."""
    if rollout != 4:
        return
    for p in range(pp.shape[0]):
        for i in range(N_ROLLOUT_WEIGHTS):
            pp[p, i] = pp[p, EXPERT_COLUMN + i] if EXPERT_COLUMN + i < N_ROLLOUT_WEIGHTS else 0.0


@njit(cache=True)
def evaluate_into(S, seat, rules, params, stream, fns):
    """Every listed action's play-out value in every deal, written into the row (EVAL_AT,
    search_params.py): the same deals for every action and no race, so each action's value
    has its own interval; and at EVAL_BEST the action search plays given those values (its
    verdict over them, the base action at EVAL_BASE). Returns the number of deals played
    (fewer only if the seat's knowledge does not add up). ``fns``: the play-outs' policy
    set (playout_set)."""
    players = rules[PR_PLAYERS]
    ids, pp = playout_seats(params, players, np.zeros(16))
    settlement = params[P_SETTLEMENT] != 0
    n = int(params[EVAL_N])
    hj = int(params[EVAL_BASE])
    rr = np.zeros((1 + players, 4), np.uint64)
    base = np.empty(S_BASE, np.int32)
    W = np.empty(S_BASE, np.int32)
    known = np.empty(MAX_HAND, np.int32)
    pool = np.empty(N_MAX, np.int32)
    margin = np.zeros(n, np.int64)
    total = np.zeros(n, np.int64)
    gain2 = np.zeros(n)
    acts = np.empty(n, np.int32)       # the play-outs take an action as search's other callers
    for j in range(n):                 # do (one compiled play-out engine for all of them)
        acts[j] = int(params[EVAL_ACTS + j])
    played = int(params[EVAL_DEALS])
    for k in range(played):
        if not determinize(S, base, seat, rules, stream, pool, known):
            played = k
            break
        for j in range(n):
            for i in range(S_BASE):
                W[i] = base[i]
            resume_after_decision(rules, W, rr, ids, pp, fns, seat, np.int64(acts[j]))
            margin[j] = hand_value(W, seat, rules, settlement)
            total[j] += margin[j]
            params[EVAL_VALUES + k * n + j] = margin[j]
        for j in range(n):
            d = float(margin[j] - margin[hj])
            gain2[j] += d * d
    if played > 0:
        params[EVAL_BEST] = gated_choice(total, gain2, np.ones(n, np.bool_), hj, played,
                                         params[P_Z], params[P_PRIOR])
    return played


@njit(cache=True)
def luck_into(S, seat, rules, params, stream, fns):
    """What the cards listed at EVAL_ACTS (EVAL_N of them, concealed in the seat's hand at
    this play decision) are worth to it: in each sampled deal the hand is played out by the
    play-outs' player from here as dealt, and again with those cards exchanged for cards the
    seat has not seen (hide_cards), the seat's own card chosen anew by that player; the two
    values go to EVAL_VALUES + 2k and + 2k + 1. Their mean difference is the luck of having
    drawn them (review/luck.py). Returns the number of deals played."""
    players = rules[PR_PLAYERS]
    weights = np.zeros(16)
    for i in range(len(DEFAULT_WEIGHTS)):
        weights[i] = DEFAULT_WEIGHTS[i]
    ids, pp = playout_seats(params, players, weights)
    base_kind = int(params[P_ROLLOUT])
    base_row = np.zeros(N_ROLLOUT_WEIGHTS)
    for i in range(N_ROLLOUT_WEIGHTS):
        base_row[i] = params[P_ROLLOUT_WEIGHTS + i]
    settlement = params[P_SETTLEMENT] != 0
    n_listed = int(params[EVAL_N])
    cards = np.empty(MAX_HAND, np.int32)
    for i in range(n_listed):
        cards[i] = int(params[EVAL_ACTS + i])
    rr = np.zeros((1 + players, 4), np.uint64)
    base = np.empty(S_BASE, np.int32)
    W = np.empty(S_BASE, np.int32)
    known = np.empty(MAX_HAND, np.int32)
    pool = np.empty(N_MAX, np.int32)
    hidden = np.empty(N_MAX, np.int32)
    n_trick = S[O_SC + SC_N_TRICK]
    trump = S[O_SC + SC_TRUMP]
    stage = S[O_SC + SC_STAGE]
    played = int(params[EVAL_DEALS])
    for k in range(played):
        if not determinize(S, base, seat, rules, stream, pool, known):
            played = k
            break
        for j in range(2):
            for i in range(S_BASE):
                W[i] = base[i]
            if j == 1:
                hide_cards(W, seat, cards, n_listed, rules, stream, hidden)
                W[O_N_ACTS] = legal_plays(W, seat, n_trick, trump, stage,
                                          rules[PR_STAGE2_DUTY])
            h = _base(W, seat, base_kind, weights, base_row, rr)
            resume_after_decision(rules, W, rr, ids, pp, fns, seat, np.int64(W[O_ACTS + h]))
            params[EVAL_VALUES + 2 * k + j] = hand_value(W, seat, rules, settlement)
    return played


# What a compiled slot of search holds (slot_source): every mode in plain Python, and each
# compiled slot only its own, so that a command compiles only what it calls (a decision by
# play-outs, by ISMCTS, the values of a position's actions, bezsim learn's records)
SLOT_ALL, SLOT_PLAY, SLOT_TREE, SLOT_EVALUATE, SLOT_RECORD = 0, 1, 2, 3, 4
SLOT_KINDS = {"play": SLOT_PLAY, "tree": SLOT_TREE, "evaluate": SLOT_EVALUATE,
              "record": SLOT_RECORD}
SLOT = SLOT_ALL     # a compile-time constant of each slot: numba prunes the other modes
PLAYOUTS = None     # the play-outs' policy set, a compile-time constant of each slot
SHAPES = ("all", "plain", "open", "pairs")     # the variant code a slot's play-outs carry


def playout_shape(open_cards: bool, partners: bool) -> str:
    """The variant code search's play-outs need: Polish open cards, the R4.2 pairs ending
    (partnerships), or neither."""
    return "open" if open_cards else "pairs" if partners else "plain"


def playout_set(kind: str, shape: str):
    """The play-outs' policy set (engine/external.py) of a slot: every play-out player, the
    tree policy only for ISMCTS, the variant code of ``shape`` (SHAPES; "all": None, every
    built-in and every variant's code)."""
    if shape == "all":
        return None
    return policy_set(True, None, True, open_cards=shape == "open", pairs=shape == "pairs",
                      tree=kind == "tree")


def search_policy(S, seat, params, stream):
    """The search policy (see the module docstring): returns an index into the offer; with
    a row longer than EVAL_AT, the values of the actions it lists (evaluate_into) or a
    recorded decision for bezsim learn (learned/record.py). Compiled only as a slot
    (search_function), each slot with its own mode."""
    rules = rules_of(S)
    if params.shape[0] > EVAL_AT:
        if SLOT == SLOT_ALL or SLOT == SLOT_RECORD:
            if params[LONG_MODE] == RECORD:
                return recorder_policy(S, seat, params, stream)
        if SLOT == SLOT_ALL or SLOT == SLOT_EVALUATE:
            if params[LONG_MODE] == LUCK:
                return luck_into(S, seat, rules, params, stream, PLAYOUTS)
            return evaluate_into(S, seat, rules, params, stream, PLAYOUTS)
        return -1
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
    ids, pp = playout_seats(params, players, weights)
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
    if SLOT == SLOT_TREE or (SLOT == SLOT_ALL and params[P_METHOD] == 1):
        for p in range(players):
            ids[p] = TREE
        tree_rows(pp, params[P_ROLLOUT])
        return ismcts(S, seat, rules, stream, h, samples * n_cand, params[P_EXPLORE], pp,
                      ids, settlement, PLAYOUTS)
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
            resume_after_decision(rules, W, rr, ids, pp, PLAYOUTS, seat, np.int64(acts[j]))
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
    return cand[gated_choice(total, gain2, alive, hj, k, z, prior)]


@functools.cache
def search_function(kind: str = "play", shape: str = "all"):
    """search compiled for the engine's external-policy slot, once a process for each
    ``kind`` of SLOT_KINDS: ``play`` decides by play-outs, ``tree`` by ISMCTS (method=1),
    ``evaluate`` values a position's actions (bezsim explain --evaluate), ``record`` is
    bezsim learn's recorder; its play-outs carry the variant code of ``shape`` (SHAPES,
    playout_shape). Python asks search through this same compiled code (search_decision),
    so a process compiles each slot once. Each slot is compiled from a copy of search_policy
    under its own name, so slots never share numba's cache entries."""
    from bezsim.policies.plugins import compile_external

    return compile_external(slot_source(kind, shape), slot_name(kind, shape))


def slot_kind(values) -> str:
    """The slot a search seat plays with: ISMCTS for method=1, else play-outs."""
    return "tree" if values.get("method", 0) == 1 else "play"


def slot_name(kind: str, shape: str = "all") -> str:
    return f"search_slot_{kind}" if shape == "all" else f"search_slot_{kind}_{shape}"


def slot_source(kind: str = "play", shape: str = "all"):
    """The Python function a slot is compiled from: search_policy's, under its own name, its
    mode fixed (SLOT) so that the others are never compiled into it, and its play-outs'
    policy set (PLAYOUTS) that of ``shape``."""
    import types

    if kind not in SLOT_KINDS or shape not in SHAPES:
        raise ValueError(f"no search slot {kind!r} for {shape!r}")
    body = search_policy
    names = dict(body.__globals__, SLOT=SLOT_KINDS[kind], PLAYOUTS=playout_set(kind, shape))
    slot = types.FunctionType(body.__code__, names, slot_name(kind, shape),
                              body.__defaults__, body.__closure__)
    slot.__qualname__ = slot_name(kind, shape)
    return slot


def search_decision(S, seat: int, params, stream) -> int:
    """search's decision at ``S`` for ``seat`` (an index into the offer), or with a long row
    its evaluation (evaluate_into) or record, called from Python through the compiled slot of
    that kind, its play-outs carrying the code of the position's variant."""
    from bezsim.policies.plugins import call_compiled

    if params.shape[0] > EVAL_AT:
        kind = "record" if params[LONG_MODE] == RECORD else "evaluate"
    else:
        kind = "tree" if params[P_METHOD] == 1 else "play"
    rules = rules_of(S)
    shape = ("all" if compile_all()
             else playout_shape(rules[PR_OPEN_CARDS] != 0, rules[PR_PARTNERS] != 0))
    return int(call_compiled(search_function(kind, shape), S, seat, params, stream))
