"""The ``search`` policy (bezsim/policies/search.py): exact two-handed endings (R1.6, R2.5),
every variant, determinism. Its sampled deals and play-outs are checked against real games in
test_hidden_information.py; the solver against a full game tree in test_solver.py."""

from __future__ import annotations

import numpy as np
import pytest

from bezsim.cards import parse_card
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.api import run_games
from bezsim.engine.tricks import legal_plays
from bezsim.policies.heuristic import DEFAULT_WEIGHTS, heuristic_policy
from bezsim.policies.registry import parse_policies, policy_params
from bezsim.policies.search import search_policy
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
    idx = search_policy(S, 0, row, np.array([1, 2, 3, 4], np.uint64))
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
