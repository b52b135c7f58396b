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
from bezsim.engine_api.games import run_games
from bezsim.env_kernels.observation import OBSERVATION_SIZE, observe_into
from bezsim.policies.builtin import EXPERT, choose
from bezsim.policy_specs.registry import policy_params
from bezsim.rules import Rules

VARIANTS = ["ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
            "rubicon", "six_pack"]


@pytest.mark.parametrize("hands", [1, 0], ids=["one hand", "whole game"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation_test_passes(variant, hands):
    game = pyspiel.load_game("python_bezique", {"variant": variant, "seed": 3, "hands": hands})
    assert game.num_players() == Rules.make(variant).players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_tensors_are_the_documented_vector_and_follow_the_information_state():
    """Equal information-state strings give equal tensors; the tensor is the seat's
    observation vector (274 values, env_kernels/observation.py), the same for both tensors."""
    game = pyspiel.load_game("python_bezique", {"variant": "four_handed_partners",
                                                "hands": 2, "seed": 9})
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE]
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    rng = np.random.default_rng(4)
    by_key: dict[str, np.ndarray] = {}
    states = 0
    for deal in (0, 1):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            for p in range(4):
                tensor = np.array(state.information_state_tensor(p), np.float32)
                assert np.array_equal(tensor, state.observation_tensor(p))
                expected = np.empty(OBSERVATION_SIZE, np.float32)
                observe_into(state._S, p, expected)
                assert np.array_equal(tensor, expected)
                key = state.information_state_string(p)
                assert np.array_equal(by_key.setdefault(key, tensor), tensor)
            me = state.current_player()
            r = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0., 1.))
            assert np.array_equal(r.information_state_tensor(me),
                                  state.information_state_tensor(me))
            state.apply_action(int(rng.choice(state.legal_actions())))
            states += 1
    assert states > 200 and len(by_key) > 4 * 200 - 10


def test_a_whole_game_played_by_expert_is_the_game_simulate_plays():
    """hands=0: the whole three-handed game of deal 2, expert in every seat through
    OpenSpiel, ends with simulate's scores, and its returns are zero-sum."""
    rules = Rules.make("three_handed")
    game = pyspiel.load_game("python_bezique", {"variant": "three_handed", "hands": 0,
                                                "seed": 8})
    rows = policy_params(["expert"] * 3, "three_handed")
    ref = run_games(rules, ["expert"] * 3, 8, 2, 1, threads=1)
    state = game.new_initial_state()
    state.apply_action(2)
    while not state.is_terminal():
        index = choose(EXPERT, state._S.copy(), state.current_player(), rows,
                       np.zeros((4, 4), np.uint64))
        state.apply_action(next(a for a, i in state._offer().items() if i == index))
    assert state._scores == ref.game_info[0, C.GI_SCORE:C.GI_SCORE + 3].tolist()
    winner = int(ref.game_info[0, C.GI_WINNER])
    assert state.returns() == [1.0 if p == winner else -0.5 for p in range(3)]


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
    assert state._scores == ref.hand_seat[0, 0, :, C.HS_POINTS].tolist()
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


def test_hands_beyond_the_games_longest_are_the_whole_game_and_negative_is_refused():
    assert pyspiel.load_game("python_bezique", {"variant": "rubicon", "hands": 3}
                             ).max_game_length() == pyspiel.load_game(
        "python_bezique", {"variant": "rubicon", "hands": 0}).max_game_length()
    with pytest.raises(ValueError, match="hands must be 0"):
        pyspiel.load_game("python_bezique", {"variant": "ordinary", "hands": -1})
