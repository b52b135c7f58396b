"""The batched environment (bezsim/rl/batched.py): games equal to simulate's, whatever the
number of slots; rewards, masks and observations as documented; bad input refused."""

from __future__ import annotations

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.env_kernels.observation import OBSERVATION_SIZE
from bezsim.errors import BezsimError
from bezsim.rl import N_ACTIONS, batched_env
from bezsim.rules import Rules

pytestmark = pytest.mark.xdist_group("batched")

OUTCOME = [k for k in range(C.GI_SIZE) if k not in (C.GI_OVERFLOW, C.GI_N_EVENTS)]


def finished_games(env, lineup: list[str | None], wanted: int) -> dict[int, tuple]:
    """Step with each driven seat playing its lineup policy until ``wanted`` games ended;
    each finished game's rows by index."""
    state = env.reset()
    out = {}
    while len(out) < wanted:
        actions = np.zeros(env.num_envs, np.int64)
        for seat in env.driven_seats:
            mine = state["seat"] == seat
            actions[mine] = env.policy_actions(lineup[seat], where=mine)[mine]
        state = env.step(actions)
        for i in np.flatnonzero(state["done"]):
            out[int(env.final_game[i])] = (env.final_hand_seat[i].copy(),
                                           env.final_hand_info[i].copy(),
                                           env.final_game_info[i].copy(), state["reward"][i])
    return out


@pytest.mark.parametrize("variant, options, lineup, opponents", [
    ("ordinary", {"target": 400}, ["expert", "random"], [None, "random"]),
    ("three_handed", {"target": 300}, ["random", "greedy", "expert"], [None, "greedy", None]),
    ("four_handed", {"target": 300}, ["greedy", "expert", "random", "heuristic"],
     ["greedy", None, "random", None]),
    ("four_handed_partners", {"target": 300}, ["heuristic", "random", "expert", "greedy"],
     [None, "random", None, "greedy"]),
    ("polish", {"target": 400}, ["expert", "learned"], None),
    ("rubicon", {}, ["greedy", "expert"], None),
    ("six_pack", {}, ["random", "learned"], ["random", None]),
])
def test_stepped_games_are_the_simulated_games_whatever_the_slots(variant, options, lineup,
                                                                 opponents):
    rules = Rules.make(variant, options)
    seed = 23
    by_slots = [finished_games(batched_env(variant=variant, options=options, num_envs=n,
                                           seed=seed, opponents=opponents), lineup, 5)
                for n in (2, 3)]
    common = sorted(set(by_slots[0]) & set(by_slots[1]))
    assert len(common) >= 3
    for game in common:
        ref = run_games(rules, lineup, seed, game, 1, threads=1)
        hands = int(ref.game_info[0, C.GI_HANDS])
        for got in by_slots:
            hs, hi, gi, reward = got[game]
            assert np.array_equal(gi[OUTCOME], ref.game_info[0, OUTCOME])
            assert np.array_equal(hs[:hands], ref.hand_seat[0, :hands])
            assert np.array_equal(hi[:hands], ref.hand_info[0, :hands])
            winner = int(ref.game_info[0, C.GI_WINNER])
            side = [p % 2 if rules.partners else p for p in range(rules.players)]
            expected = [0.0 if winner < 0 else (1.0 if s == winner else -1.0) for s in side]
            assert reward.tolist() == expected


def test_the_arrays_and_their_meaning():
    env = batched_env(variant="three_handed", num_envs=4, seed=5, options={"target": 200},
                      opponents=[None, "greedy", None])
    state = env.reset()
    assert state["observation"].shape == (4, OBSERVATION_SIZE)
    assert state["observation"].dtype == np.float32
    assert state["action_mask"].shape == (4, N_ACTIONS) and state["action_mask"].dtype == bool
    assert state["game"].tolist() == [0, 1, 2, 3]
    assert set(state["seat"].tolist()) <= {0, 2}
    # the first decision is a play from a hand of 8 cards: its faces, and nothing else
    obs, mask = state["observation"], state["action_mask"]
    for i in range(4):
        hand_faces = np.flatnonzero(obs[i, :32])
        assert np.array_equal(np.flatnonzero(mask[i]), hand_faces)
        assert round(float(obs[i, :32].sum()) * 6) == 8
    rng = np.random.default_rng(1)
    games_done = 0
    while games_done < 6:
        mask = state["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        state = env.step(actions)
        assert set(state["seat"].tolist()) <= {0, 2}
        for i in np.flatnonzero(state["done"]):
            games_done += 1
            r = state["reward"][i]
            winner = int(env.final_game_info[i, C.GI_WINNER])
            assert r.tolist() == [1.0 if p == winner else -1.0 for p in range(3)]
            assert state["game"][i] == env.final_game[i] + 4
        assert not state["reward"][~state["done"]].any()


def test_bad_input_is_refused_before_any_game_moves():
    env = batched_env(variant="ordinary", num_envs=3, seed=1)
    with pytest.raises(BezsimError, match="reset"):
        env.step([0, 0, 0])
    state = env.reset()
    good = np.array([np.flatnonzero(m)[0] for m in state["action_mask"]])
    bad = good.copy()
    bad[2] = int(np.flatnonzero(~state["action_mask"][2])[0])
    with pytest.raises(BezsimError, match="not legal in game slot 2"):
        env.step(bad)
    assert np.array_equal(env.step(good)["game"], [0, 1, 2])       # nothing had moved
    with pytest.raises(BezsimError, match="3 whole numbers"):
        env.step([0, 1])
    with pytest.raises(BezsimError, match="3 booleans"):
        env.policy_actions("random", where=[True, False])
    assert env.policy_actions("greedy", where=np.array([True, False, True]))[1] == -1
    for kwargs, message in [({"num_envs": 0}, "num_envs"), ({"seed": -1}, "seed"),
                            ({"opponents": ["random", "random"]}, "every seat"),
                            ({"opponents": ["random"]}, "2 seats"),
                            ({"opponents": "search"}, "built-in"), ({"threads": 0}, "threads")]:
        with pytest.raises(BezsimError, match=message):
            batched_env(variant="ordinary", **{"num_envs": 2, "seed": 0, **kwargs})


def test_the_gymnasium_vector_environment_is_the_batched_one_for_one_agent():
    from bezsim.rl import gym_vector_env

    envs = gym_vector_env(variant="rubicon", num_envs=3, seed=4, opponents=["greedy", None])
    batched = batched_env(variant="rubicon", num_envs=3, seed=4, opponents=["greedy", None])
    obs, info = envs.reset()
    state = batched.reset()
    assert envs.observation_space.contains(obs) and info["game"].tolist() == [0, 1, 2]
    rng = np.random.default_rng(3)
    ended = 0
    while ended < 4:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        assert envs.action_space.contains(actions)
        obs, reward, terminated, truncated, info = envs.step(actions)
        state = batched.step(actions)
        assert np.array_equal(obs["observation"], state["observation"])
        assert np.array_equal(obs["action_mask"], state["action_mask"])
        assert np.array_equal(reward, state["reward"][:, 1]) and not truncated.any()
        assert np.array_equal(terminated, state["done"])
        assert info["final_game"][terminated].tolist() == (info["game"][terminated] - 3).tolist()
        ended += int(terminated.sum())
    with pytest.raises(BezsimError, match="exactly one seat"):
        gym_vector_env(variant="ordinary", num_envs=2, opponents=None)


def test_threads_step_the_same_games():
    """Blocks of slots on two threads give the arrays one thread gives, step for step."""
    envs = [batched_env(variant="polish", num_envs=7, seed=12, opponents=[None, "expert"],
                        threads=t) for t in (1, 2)]
    assert [e.threads for e in envs] == [1, 2]
    states = [e.reset() for e in envs]
    rng = np.random.default_rng(8)
    for _ in range(300):
        assert all(np.array_equal(states[0][k], states[1][k]) for k in states[0])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in states[0]["action_mask"]])
        states = [e.step(actions) for e in envs]
    assert np.array_equal(envs[0].final_game_info, envs[1].final_game_info)
    for e in envs:
        e.close()
