"""The ``search`` policy (bezsim/policies/search.py): exact two-handed endings (R1.6, R2.5),
every variant, determinism. Its sampled deals and play-outs are checked against real games in
test_hidden_information.py; the solver against a full game tree in test_solver.py."""

from __future__ import annotations

import numpy as np
import pytest

from bezsim.cards import parse_card
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.tricks import legal_plays
from bezsim.engine_api.games import run_games
from bezsim.policies.heuristic import DEFAULT_WEIGHTS, heuristic_policy
from bezsim.policies.search import search_decision
from bezsim.policy_specs.registry import parse_policies, policy_params
from bezsim.rules import Rules


def endgame(mine: list[str], theirs: list[str], trump: int, led: str | None = None,
            options: dict | None = None) -> np.ndarray:
    """A two-handed stage-2 position, seat 0 to play (stock empty, every other card played):
    the state a search seat sees, its legal cards offered."""
    params = Rules.make("ordinary", options or {}).params()
    S = st.new_state(0, 0)
    st.load_rules(S, params)
    sc = st.O_SC
    S[sc + C.SC_PACKS], S[sc + C.SC_PLAYERS], S[sc + C.SC_TRUMP] = 2, 2, trump
    S[sc + C.SC_STAGE], S[sc + C.SC_TRICK] = 2, 33 - len(mine)
    S[st.CTR_STOCK_POS] = 64
    held = []
    for seat, cards in ((0, mine), (1, theirs)):
        for text in cards:
            c = parse_card(text, 2)
            st.give(S, seat, c)
            held.append(c)
    lead = parse_card(led, 2) if led else -1
    for c in range(64):
        if c not in held:
            code = C.V_TRICK if c == lead else C.V_PLAYED
            S[st.O_LOC + c] = C.LOC_TRICK if c == lead else C.LOC_PLAYED
            S[st.O_SEEN + c] = code
            S[st.O_SEEN + st.N_MAX + c] = code
    if led:
        S[st.O_TRICK] = lead
        S[sc + C.SC_N_TRICK], S[sc + C.SC_LEADER] = 1, 1
    n = legal_plays(S, 0, int(S[sc + C.SC_N_TRICK]), trump, 2, params[C.PR_STAGE2_DUTY])
    S[st.O_N_ACTS], S[st.O_DECISION] = n, C.D_PLAY
    return S


def search_card(S: np.ndarray, spec: str = "search") -> int:
    row = policy_params(parse_policies([spec, "random"], 2))[0]
    idx = search_decision(S, 0, row, np.array([1, 2, 3, 4], np.uint64))
    assert 0 <= idx < S[st.O_N_ACTS]
    return int(S[st.O_ACTS + idx])


def heuristic_card(S: np.ndarray) -> int:
    w = np.zeros(16)
    w[:len(DEFAULT_WEIGHTS)] = DEFAULT_WEIGHTS
    return int(S[st.O_ACTS + heuristic_policy(S, 0, w, np.zeros((3, 4), np.uint64))])


def test_search_solves_a_two_card_ending_the_heuristic_misplays():
    """Trumps hearts; I hold A♠ 7♣, they hold 10♠ K♣, I lead. Leading A♠ takes their 10♠
    (they must follow and cannot win): 20 brisque points, then they win K♣ over 7♣ and the
    last trick, 10: margin +10. Leading 7♣, they must win with K♣ (no points), then lead
    10♠ into my A♠ under duty: I take 20 and the last trick 10: +30 — leading the low card is
    worth 20 more (R1.6 duty, R2.5 last trick)."""
    S = endgame(["A♠", "7♣"], ["10♠", "K♣"], C.HEARTS)
    assert search_card(S) == parse_card("7♣", 2)
    assert heuristic_card(S) == parse_card("A♠", 2)      # the leader of a sure winner
    assert search_card(S, "search(exact_stage2=0,samples=2)") in (parse_card("7♣", 2),
                                                                   parse_card("A♠", 2))


def test_search_follows_with_the_card_duty_allows():
    """They lead K♠ (trumps hearts); I hold A♦ 7♣ 7♥ and must trump (void in spades, R1.6):
    the only legal card is 7♥, and search plays it."""
    S = endgame(["A♦", "7♣", "7♥"], ["10♦", "8♣"], C.HEARTS, led="K♠")
    assert S[st.O_N_ACTS] == 1
    assert search_card(S) == parse_card("7♥", 2)


def test_search_gives_up_the_smaller_loss():
    """Trumps clubs; I hold 10♣ 9♠, they hold A♣ 8♠, I lead. Leading 10♣: they must win it
    with A♣ (R1.6), 20 brisque points to them, then lead 8♠ and I must take it with 9♠ and the
    last trick, 10 (R2.5): margin -10. Leading 9♠: they follow with 8♠ (cannot beat it), I
    win nothing, then lead 10♣ into A♣: they take 20 and the last trick: -30. So 10♣."""
    S = endgame(["10♣", "9♠"], ["A♣", "8♠"], C.CLUBS)
    assert search_card(S) == parse_card("10♣", 2)


@pytest.mark.parametrize("variant, options, policies", [
    ("ordinary", {}, ["search(samples=2)", "heuristic"]),
    ("ordinary", {}, ["search(samples=2,rollout=4)", "heuristic"]),
    ("polish", {}, ["heuristic", "search(samples=2)"]),
    ("rubicon", {}, ["search(samples=2)", "greedy"]),
    ("three_handed", {"target": 600}, ["search(samples=1)", "greedy", "random"]),
    ("four_handed", {"target": 500}, ["random", "search(samples=1)", "greedy", "heuristic"]),
    ("four_handed_partners", {"target": 800}, ["search(samples=1)", "greedy",
                                               "search(samples=1)", "greedy"]),
    ("four_handed_partners", {"target": 800, "partnership_stage2": "all_four"},
     ["greedy", "search(samples=1)", "heuristic", "random"]),
])
def test_search_plays_every_variant(variant, options, policies):
    """A whole game with a search seat in every preset: legal throughout (a fault raises),
    and the same tables on one thread and two (a run is a pure function of its seed)."""
    rules = Rules.make(variant, options)
    one = run_games(rules, policies, 5, 0, 2, threads=1)
    two = run_games(rules, policies, 5, 0, 2, threads=2)
    assert (one.game_info[:, C.GI_HANDS] > 0).all()
    assert (one.game_info[:, C.GI_OVERFLOW] == 0).all()
    for a, b in ((one.hand_seat, two.hand_seat), (one.game_info, two.game_info),
                 (one.events, two.events)):
        assert np.array_equal(a, b)


def test_the_confidence_gate_needs_a_gain_beyond_the_prior():
    """z > 0: another card replaces the base policy's only when its mean paired gain over the
    same sampled deals clears ``prior`` by z standard errors. In the two-card ending above
    (stage 2 sampled, not solved: every deal is the same, so the gain of 7♣ over the
    heuristic's A♠ is exactly 20 with no spread) a prior of 19 lets 7♣ through and 21 keeps
    A♠, whatever z."""
    S = endgame(["A♠", "7♣"], ["10♠", "K♣"], C.HEARTS)
    for z in (0.5, 3, 50):
        spec = f"search(rollout=2,exact_stage2=0,samples=6,z={z},first=0,prior="
        assert search_card(S, spec + "19)") == parse_card("7♣", 2)
        assert search_card(S, spec + "21)") == parse_card("A♠", 2)


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_no_stage1_search_before_the_horizon(variant):
    """horizon=0: stage 1 is left to the base policy (expert, rollout=3), and with stage 2
    sampled behind a prior no card can clear, the search seat plays expert's games exactly;
    a horizon that lets search in changes them."""
    rules = Rules.make(variant, {})
    blocked = "search(rollout=3,exact_stage2=0,prior=1000000,z=1,horizon=0)"
    ref = run_games(rules, ["expert", "expert"], 11, 0, 3, threads=1)
    gated = run_games(rules, [blocked, "expert"], 11, 0, 3, threads=1)
    assert np.array_equal(ref.game_info, gated.game_info)
    assert np.array_equal(ref.events, gated.events)
    free = run_games(rules, ["search(rollout=3,samples=4,prior=0,z=0.5,horizon=1000)",
                             "expert"], 11, 0, 3, threads=1)
    assert not np.array_equal(ref.events, free.events)


# --- every decision, the race, ISMCTS ---------------------------------------------

@pytest.fixture(scope="module")
def declaring_points(tmp_path_factory):
    """Declaring decision points of real games (hidden_info_helpers.capture) with a choice."""
    from hidden_info_helpers import capture

    snaps = capture(tmp_path_factory.mktemp("search_snapshots"))
    return [s for s in snaps if s.decision == C.D_DECLARE and s.n_actions > 1]


def oracle_choice(snap, row, stream):
    """The values search compares with one sampled deal and no gate: each offered action
    played out from the decision in the deal search draws first by seats of its rollout
    policy, learned (rollout=4) or expert (its side's margin at the end of the hand)."""
    from bezsim.engine.resume import resume_after_decision
    from bezsim.policies.builtin import EXPERT, LEARNED
    from bezsim.policies.deals import determinize, hand_value, rules_of
    from bezsim.policies.search_params import N_ROLLOUT_WEIGHTS, P_ROLLOUT, P_ROLLOUT_WEIGHTS

    S, seat = snap.S, snap.seat
    rules = rules_of(S)
    base = np.empty(st.S_BASE, np.int32)
    assert determinize(S, base, seat, rules, stream.copy(), np.zeros(st.N_MAX, np.int32),
                       np.zeros(C.MAX_HAND, np.int32))
    players = snap.players
    pp = np.zeros((players, N_ROLLOUT_WEIGHTS))
    pp[:, :] = row[P_ROLLOUT_WEIGHTS:P_ROLLOUT_WEIGHTS + N_ROLLOUT_WEIGHTS]
    policy = LEARNED if row[P_ROLLOUT] == 4 else EXPERT
    values = []
    for i in range(snap.n_actions):
        W = base.copy()
        resume_after_decision(rules, W, np.zeros((1 + players, 4), np.uint64),
                              np.full(players, policy, np.int64), pp, None, seat,
                              np.int64(S[st.O_ACTS + i]))   # as learned's recorder calls it
        values.append(int(hand_value(W, seat, rules, False)))
    return values


def test_search_decides_declarations_by_their_play_outs(declaring_points):
    """A declaration, a seven, a Polish exchange or a partner's turn is searched like a card:
    with one deal and no gate (z=0, prior 0), search takes an action whose play-out from
    that decision (its rollout policy's seats, the deal it sampled) ends with the best
    margin, with learned play-outs (the default) and with expert's. Checked on
    declaring
    decisions of every variant against play-outs made here, action by action."""
    from bezsim.policy_specs.registry import policy_params

    checked, differ = 0, 0
    for k, snap in enumerate(declaring_points[::2]):
        spec = f"search(rollout={3 + k % 2},samples=1,z=0,prior=0,first=0,horizon=1000)"
        row = policy_params(parse_policies([spec] * snap.players, snap.players),
                            "ordinary")[0]
        stream = np.array([3, 1, 4, 1], np.uint64)
        values = oracle_choice(snap, row, stream)
        best = max(values)
        got = search_decision(snap.S.copy(), snap.seat, row, stream.copy())
        assert values[got] == best, (snap.case, values, got)
        checked += 1
        differ += len(set(values)) > 1
    assert checked > 40 and differ > 10, (checked, differ)


def test_cards_only_search_leaves_declarations_to_expert(declaring_points):
    """every=0 (card plays only): a declaring decision is the base policy's, here expert
    (rollout=3, whose row search carries), whatever the play-outs say."""
    from bezsim.policies.builtin import EXPERT, choose
    from bezsim.policy_specs.registry import policy_params

    for snap in declaring_points[::4]:
        spec = "search(every=0,rollout=3,samples=2,z=0,prior=-1000000000)"
        row = policy_params(parse_policies([spec] * snap.players, snap.players),
                            "ordinary")[0]
        expert_rows = np.tile(row[16:48], (snap.players, 1))
        want = choose(EXPERT, snap.S.copy(), snap.seat, expert_rows,
                      np.zeros((1 + snap.players, 4), np.uint64))
        assert search_decision(snap.S.copy(), snap.seat, row,
                             np.array([3, 1, 4, 1], np.uint64)) == want


def test_the_race_stops_early_without_changing_a_clear_choice():
    """The race drops actions that cannot clear the gate: in the two-card ending (stage 2
    sampled: every deal alike, the gain of 7♣ over A♠ exactly 20) it still finds 7♣ with a
    prior of 19 and keeps A♠ with 21, as the full budget does."""
    S = endgame(["A♠", "7♣"], ["10♠", "K♣"], C.HEARTS)
    for first in (0, 2, 4):
        spec = f"search(rollout=2,exact_stage2=0,samples=32,z=3,first={first},drop=0,prior="
        assert search_card(S, spec + "19)") == parse_card("7♣", 2)
        assert search_card(S, spec + "21)") == parse_card("A♠", 2)


@pytest.mark.parametrize("variant, policies", [
    ("ordinary", ["search(method=1,samples=2)", "expert"]),
    ("polish", ["expert", "search(method=1,samples=2)"]),
    ("four_handed_partners", ["search(method=1,samples=1)", "greedy", "search", "greedy"]),
])
def test_ismcts_plays_whole_games_deterministically(variant, policies):
    """search(method=1), information-set MCTS: legal throughout, and the same games on one
    thread and two."""
    rules = Rules.make(variant, {"target": 600} if variant != "ordinary" else {})
    one = run_games(rules, policies, 3, 0, 2, threads=1)
    two = run_games(rules, policies, 3, 0, 2, threads=2)
    for a, b in ((one.game_info, two.game_info), (one.events, two.events)):
        assert np.array_equal(a, b)


def test_ismcts_finds_the_two_card_ending():
    """The two-card ending with stage 2 sampled: 7♣ gains 20 in every deal, so the tree's
    visits go to it."""
    S = endgame(["A♠", "7♣"], ["10♠", "K♣"], C.HEARTS)
    assert search_card(S, "search(method=1,exact_stage2=0,samples=16)") == parse_card("7♣", 2)


def test_the_tree_policy_counts_availability():
    """UCB1 with availability (policies/tree.py): an untried offered action is expanded
    first (expert's before others), then the best bound among the children; every child
    offered gains one availability."""
    from bezsim.policies import tree as T

    S = endgame(["A♠", "7♣", "9♦"], ["10♠", "K♣", "8♦"], C.HEARTS)
    W = np.zeros(st.S_BASE + int(T.tree_words(8)), np.int32)
    W[:st.S_BASE] = S
    W[st.S_BASE + T.T_CAP] = 8
    W[st.S_BASE + T.T_EXPLORE] = 0
    root = T.new_node(W, -1, 0, -1)
    assert T.ucb_choice(W, root, 0, 1) == 1                 # expert's untried card first
    assert W[st.S_BASE + T.T_CUR] == -1                      # expanded: the tree is left
    assert T.ucb_choice(W, root, 0, 1) == 0                  # then the first untried
    assert T.ucb_choice(W, root, 0, 1) == 2
    for i, value in ((0, 10), (1, 30), (2, 20)):             # one visit each
        at = T.node_at(T.find_child(W, root, T.action_key(W, 0, i)))
        W[at + T.N_VISITS], W[at + T.N_VALUE] = 1, value
    assert T.ucb_choice(W, root, 0, 0) == 1                  # no exploration: best mean
    avail = [W[T.node_at(T.find_child(W, root, T.action_key(W, 0, i))) + T.N_AVAIL]
             for i in range(3)]
    assert avail == [3, 4, 2]


def test_a_run_records_the_values_search_plays_with():
    """search's defaults may change and its play-outs use expert's tuned set, so
    a run records both (registry.resolved_values, the manifest's identity): a run made with
    other defaults is not resumed as the same run. The old games stay reachable by name."""
    from bezsim.policy_specs.registry import SEARCH_CARDS_HEURISTIC, resolved_values, tuned_defaults

    values = resolved_values(["search", "search(rollout=3)", f"search({SEARCH_CARDS_HEURISTIC})"],
                             "rubicon")
    now = values["search"]
    assert (now["samples"], now["rollout"], now["every"], now["first"]) == (32, 4, 1, 4)
    assert now["rollout.brisque"] == tuned_defaults("learned", "rubicon")["brisque"]
    with_expert = values["search(rollout=3)"]
    assert with_expert["rollout.settle"] == tuned_defaults("expert", "rubicon")["settle"]
    old = values[f"search({SEARCH_CARDS_HEURISTIC})"]
    assert (old["samples"], old["rollout"], old["every"], old["first"]) == (12, 2, 0, 0)
    assert not any(k.startswith("rollout.") for k in old)


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_the_tree_plays_expert_below_the_tree_whatever_the_rollout(variant):
    """method=1's tree policy is expert: with learned play-outs (the default) its rows are
    the expert rows learned carries, the same as search(rollout=3) gives it but for
    learned's own ``endgame`` (the shipped Rubicon set's 0)."""
    from bezsim.policies.expert.weights import E_ENDGAME
    from bezsim.policies.search import playout_seats, tree_rows
    from bezsim.policy_specs.registry import tuned_defaults

    weights = np.array(DEFAULT_WEIGHTS, np.float64)
    rows = {}
    for rollout in (3, 4):
        params = policy_params([f"search(rollout={rollout},method=1)"], variant)[0]
        _, pp = playout_seats(params, 2, weights)
        tree_rows(pp, params[1])
        rows[rollout] = pp
    own = tuned_defaults("learned", variant).get("endgame", -1.0)
    if own >= 0:
        assert (rows[4][:, E_ENDGAME] == own).all()
        rows[4][:, E_ENDGAME] = rows[3][:, E_ENDGAME]
    assert rows[3].any() and np.array_equal(rows[3], rows[4])
