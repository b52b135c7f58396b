"""The batched environment as a Gymnasium vector environment (``pip install 'bezsim[rl]'``).

    from bezsim.rl import gym_vector_env
    envs = gym_vector_env(variant="ordinary", num_envs=256, opponents="expert", seed=7)
    obs, info = envs.reset()
    obs, reward, terminated, truncated, info = envs.step(actions)

One agent, in the one seat ``opponents`` leaves open (seat 0 when it names one policy):
Gymnasium's vector interface is for a single agent. Each observation is a dict of the
observation vector and the action mask, batched over the games; the reward is the agent's
seat's (+1, -1 or 0 when its game ends); a game that ends starts again in the same step
(Gymnasium's same-step autoreset), and ``info["final_game"]`` then names the game index that
ended. Everything else is bezsim.rl.batched_env's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bezsim.env_kernels.actions import N_ACTIONS
from bezsim.env_kernels.observation import OBSERVATION_SIZE
from bezsim.errors import BezsimError
from bezsim.rl.batched import batched_env

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:          # pragma: no cover - the extra is not installed
    raise ImportError("bezsim.rl.gym_vector needs Gymnasium 1.1 or later: "
                      "pip install 'bezsim[rl]'") from exc


class BeziqueVectorEnv(VectorEnv):
    """N games, one agent seat each (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, variant: str = "ordinary", num_envs: int = 64, seed: int = 0,
                 opponents: str | Sequence[str | None] = "random",
                 options: dict[str, Any] | None = None) -> None:
        self._make = {"variant": variant, "num_envs": num_envs, "opponents": opponents,
                      "options": options}
        self._env = batched_env(seed=seed, **self._make)
        if len(self._env.driven_seats) != 1:
            raise BezsimError("a Gymnasium vector environment has one agent: opponents must "
                              "leave exactly one seat open")
        self._seat = self._env.driven_seats[0]
        self.num_envs = self._env.num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 10.0, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.MultiBinary(N_ACTIONS)})
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Every game back to its first decision; ``seed`` starts the games of that seed."""
        if seed is not None:
            self._env = batched_env(seed=seed, **self._make)
        state = self._env.reset()
        return self._obs(state), {"game": state["game"]}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        state = self._env.step(actions)
        done = state["done"]
        info = {"game": state["game"],
                "final_game": np.where(done, self._env.final_game, -1)}
        return (self._obs(state), state["reward"][:, self._seat], done,
                np.zeros(self.num_envs, np.bool_), info)

    @staticmethod
    def _obs(state: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"observation": state["observation"],
                "action_mask": state["action_mask"].view(np.int8)}


def gym_vector_env(**kwargs: Any) -> BeziqueVectorEnv:
    """A BeziqueVectorEnv (its arguments: variant, num_envs, seed, opponents, options)."""
    return BeziqueVectorEnv(**kwargs)
