"""The OpenSpiel game (bezsim/rl/openspiel.py): OpenSpiel's random-simulation test, the deal of
the chance node is simulate's, information states hide what the seat cannot see, and
OpenSpiel's ISMCTS bot plays it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import bezsim.openspiel  # noqa: F401
from bezsim.engine import constants as C
from bezsim.engine.api import run_games
from bezsim.policies.builtin import EXPERT, choose
from bezsim.policies.registry import policy_params
from bezsim.rules import Rules


@pytest.mark.parametrize("variant", ["ordinary", "polish", "rubicon", "six_pack"])
def test_openspiel_random_simulation_test_passes(variant):
    game = pyspiel.load_game("python_bezique", {"variant": variant, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_a_hand_played_by_expert_is_the_first_hand_simulate_plays():
    """Deal i at the chance node is hand 0 of game i of the seed: expert in both seats
    through OpenSpiel scores what simulate's first hand scores."""
    rules = Rules.make("ordinary")
    game = pyspiel.load_game("python_bezique", {"variant": "ordinary", "seed": 17})
    rows = policy_params(["expert", "expert"], "ordinary")
    ref = run_games(rules, ["expert", "expert"], 17, 4, 1, threads=1)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(4)
    while not state.is_terminal():
        index = choose(EXPERT, state._S.copy(), state.current_player(), rows,
                       np.zeros((3, 4), np.uint64))
        state.apply_action(next(a for a, i in state._offer().items() if i == index))
    assert state._points == ref.hand_seat[0, 0, :, C.HS_POINTS].tolist()
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_resampling_keeps_the_information_state_and_moves_hidden_cards():
    game = pyspiel.load_game("python_bezique", {"variant": "rubicon", "seed": 5})
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    me = state.current_player()
    key = state.information_state_string(me)
    other = state.information_state_string(1 - me)
    moved = 0
    for _ in range(5):
        r = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0., 1.))
        assert r.information_state_string(me) == key
        assert r.legal_actions() == state.legal_actions()
        moved += r.information_state_string(1 - me) != other
    assert moved >= 4


def test_openspiel_ismcts_plays_a_hand():
    game = pyspiel.load_game("python_bezique", {"variant": "polish", "seed": 2})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8,
                           random_state=rng, allow_inconsistent_action_sets=True)
    state = game.new_initial_state()
    state.apply_action(1)
    while not state.is_terminal():
        action = bot.step(state) if state.current_player() == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0
