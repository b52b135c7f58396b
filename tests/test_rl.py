"""The PettingZoo environment (bezsim/rl/pettingzoo.py): PettingZoo's own API test in every preset,
action masks that are exactly the offered actions, reproducible seeding, and rewards that
follow the game's winner."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.rl import N_ACTIONS, STOP, action_of, env, raw_env
from bezsim.rules import Rules

PRESETS = ["ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
           "rubicon", "six_pack"]
SHORT = {"target": 300}


def options_for(variant):
    return {} if Rules.make(variant).definition.one_hand_game else SHORT


@pytest.mark.parametrize("variant", PRESETS)
def test_pettingzoo_api_test_passes(variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # its advice on Dict observation spaces
        api_test(env(variant=variant, options=options_for(variant)), num_cycles=200)


def play_out(e, seed, choose):
    e.reset(seed=seed)
    seen = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            seen.append((agent, reward))
            continue
        mask = obs["action_mask"]
        seen.append((agent, obs["observation"].tobytes(), mask.tobytes()))
        e.step(choose(mask))
    return seen


def test_the_same_seed_gives_the_same_game():
    first = lambda m: int(np.flatnonzero(m)[0])        # noqa: E731
    a = play_out(env(variant="polish", options=SHORT), 21, first)
    b = play_out(env(variant="polish", options=SHORT), 21, first)
    c = play_out(env(variant="polish", options=SHORT), 22, first)
    assert a == b and a != c


def test_the_mask_is_the_offer_and_rewards_follow_the_winner():
    """Playing the engine's last offered action everywhere (declining, the last card of the
    hand) through the environment ends as the step API says, with +1 to the winner."""
    e = raw_env(variant="ordinary", options=SHORT)
    e.reset(seed=4)
    while not e._game.over:
        offer = e._game.actions()
        mask = e.observe(e.agent_selection)["action_mask"]
        assert mask.shape == (N_ACTIONS,)
        assert set(np.flatnonzero(mask)) == {action_of(a.kind, a.value) for a in offer}
        if e._game.decision == "declare":
            assert mask[STOP] == 1
        e.step(action_of(offer[-1].kind, offer[-1].value))
    winner = int(e._game.result().game_info[0, C.GI_WINNER])
    assert [e.rewards[f"player_{s}"] for s in range(2)] == [1 if s == winner else -1
                                                              for s in range(2)]


def test_a_game_stepped_with_a_bots_moves_matches_the_engine():
    """The environment is the engine: feeding it expert's choices gives simulate's game 0."""
    rules = Rules.make("rubicon")
    e = raw_env(variant="rubicon")
    e.reset(seed=9)
    while not e._game.over:
        i = e._game.policy_action("expert")
        a = e._game.actions()[i]
        e.step(action_of(a.kind, a.value))
    ref = run_games(rules, ["expert", "expert"], 9, 0, 1, threads=1)
    got = e._game.result()
    assert np.array_equal(got.game_info[:, :C.GI_OVERFLOW], ref.game_info[:, :C.GI_OVERFLOW])
