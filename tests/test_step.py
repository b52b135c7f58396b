"""The step API (bezsim/step/step_game.py): a game driven one decision at a time is exactly the game
the engine plays in one call, in every preset; what a seat is shown is its own view."""

from __future__ import annotations

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.errors import BezsimError
from bezsim.rules import Rules
from bezsim.step.step_game import StepGame

# (variant, options, the lineup simulate plays, the seats left open and driven by play_with)
CASES = [
    ("ordinary", {"target": 400}, ["expert", "random"], (0, 1)),
    ("three_handed", {"target": 300}, ["random", "greedy", "expert"], (0, 2)),
    ("four_handed", {"target": 300}, ["heuristic", "random", "expert", "greedy"], (1, 2)),
    ("four_handed_partners", {"target": 300}, ["expert", "random", "greedy", "heuristic"],
     (0, 1, 2, 3)),
    ("polish", {"target": 400}, ["random", "expert"], (0,)),
    ("rubicon", {}, ["expert", "random"], (0, 1)),
    ("six_pack", {}, ["learned", "heuristic"], (0, 1)),
]


def drive(rules: Rules, lineup: list[str], open_seats: tuple, seed: int, game: int):
    policies = [None if s in open_seats else p for s, p in enumerate(lineup)]
    g = StepGame(rules, seed, game, policies)
    decisions = 0
    hands = [g.hand]
    while not g.over:
        assert g.seat in open_seats
        g.play_with(lineup[g.seat])
        decisions += 1
        hands.append(g.hand)
    assert hands == sorted(hands) and hands[0] == 0     # a hand is over when this moves on
    return g, decisions


@pytest.mark.parametrize("variant, options, lineup, open_seats", CASES,
                         ids=[c[0] for c in CASES])
def test_a_game_stepped_with_the_builtin_policies_is_the_simulated_game(
        variant, options, lineup, open_seats):
    rules = Rules.make(variant, options)
    g, decisions = drive(rules, lineup, open_seats, 11, 2)
    ref = run_games(rules, lineup, 11, 2, 1, threads=1)
    got = g.result()
    hands = int(ref.game_info[0, C.GI_HANDS])
    n_events = int(ref.game_info[0, C.GI_N_EVENTS])
    assert decisions > 30 * len(open_seats)
    assert g.hand == hands
    assert np.array_equal(got.game_info[:, :C.GI_OVERFLOW], ref.game_info[:, :C.GI_OVERFLOW])
    assert np.array_equal(got.hand_seat[0, :hands], ref.hand_seat[0, :hands])
    assert np.array_equal(got.hand_info[0, :hands], ref.hand_info[0, :hands])
    assert np.array_equal(got.events[0, :n_events], ref.events[0, :n_events])


def test_actions_are_named_and_the_observation_is_the_seats_own():
    g = StepGame(Rules.make("ordinary"), 5, 3)
    assert (g.seat, g.decision) == (0, "play")
    actions = g.actions()
    obs = g.observation()
    assert len(actions) == 8 and all(a.kind == "card" for a in actions)
    assert sorted(a.name for a in actions) == sorted(obs["hand"])
    assert obs["stock_left"] == 47 and obs["trick"] == [] and obs["scores"] == [0, 0]
    # the other seat's hand is nowhere in the view
    other = StepGame(Rules.make("ordinary"), 5, 3)
    other.step(0)
    assert other.seat == 1 and other.observation()["hand"] != obs["hand"]
    assert set(other.observation()["hand"]).isdisjoint({"K♦"})        # the turn-up


def test_declarations_are_offered_by_name_with_their_points():
    g = StepGame(Rules.make("ordinary"), 3, 0, [None, "expert"])
    while not g.over and g.decision != "declare":
        g.play_with("expert")
    actions = g.actions()
    assert actions[-1].kind == "stop" and actions[-1].value == C.A_STOP
    assert all(a.kind == "declare" and a.points > 0 and f"({a.points})" in a.name
               for a in actions[:-1])


def test_bad_steps_are_refused_in_one_line():
    g = StepGame(Rules.make("ordinary"), 5, 3)
    with pytest.raises(BezsimError, match="not offered: choose 0 to 7"):
        g.step(8)
    with pytest.raises(BezsimError, match="has 2 seats"):
        StepGame(Rules.make("ordinary"), 1, 0, ["expert"])
