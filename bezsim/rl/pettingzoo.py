"""Bézique as a PettingZoo AEC environment (``pip install 'bezsim[rl]'``), over the step API.

    from bezsim.rl import env
    e = env(variant="ordinary")          # every preset; options as in Rules.make
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. Actions are one Discrete space
for every variant: 0..31 play a card of that face (suit * 8 + rank, ranks A 10 K Q J 9 8 7;
copies play alike), 32 + code declare a combination or the seven (code = kind * 4 + suit,
bezsim.engine.constants), and STOP (the last action) declares nothing more. The mask
marks what the rules allow now. The observation is the vector of
bezsim/env_kernels/observation.py: the seat's own knowledge, never another hand or the
stock. Reward at the end of the game: +1 to the winning seat (or both seats of the winning
team), -1 to the others, 0 each for a draw.
``reset(seed)`` plays game 0 of that seed, so the same seed deals the same cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bezsim.engine import constants as C
from bezsim.env_kernels.actions import N_ACTIONS, STOP, action_of, offered
from bezsim.env_kernels.observation import OBSERVATION_SIZE, observe_into, offer_into
from bezsim.rules import Rules
from bezsim.step.step_game import StepGame

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:          # pragma: no cover - the extra is not installed
    raise ImportError("bezsim.rl.pettingzoo needs PettingZoo: pip install 'bezsim[rl]'") from exc

class BeziqueEnv(AECEnv):
    """The AEC environment (module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "bezique_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "ordinary", options: dict[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = Rules.make(variant, options or {})
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self.render_mode = render_mode
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 10.0, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)})
        self._act_space = spaces.Discrete(N_ACTIONS)
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._mask = np.zeros(N_ACTIONS, np.bool_)
        self._index_of = np.full(N_ACTIONS, -1, np.int8)
        self._game: StepGame | None = None

    def observation_space(self, agent: str):
        return self._obs_space

    def action_space(self, agent: str):
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.empty(OBSERVATION_SIZE, np.float32)
        observe_into(self._game.view(), self._seats[agent], obs)
        if not self._game.over and agent == self.agent_selection:
            mask = self._mask.astype(np.int8)
        else:
            mask = np.zeros(N_ACTIONS, np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._game = StepGame(self.rules, int(seed), 0)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """The seat to decide and what it is offered."""
        self.agent_selection = self.possible_agents[self._game.seat]
        offer_into(self._game.view(), self._mask, self._index_of)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = -1
        if action is not None and 0 <= int(action) < N_ACTIONS:
            index = int(self._index_of[int(action)])
        if index < 0:
            raise ValueError(f"action {action} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0
        self._game.step(index)
        if self._game.over:
            self._finish()
        else:
            self._next()
        self._accumulate_rewards()

    def _finish(self) -> None:
        info = self._game.result().game_info[0]
        winner = int(info[C.GI_WINNER])
        for agent in self.agents:
            seat = self._seat(agent)
            side = seat % 2 if self.rules.partners else seat
            self.rewards[agent] = 0 if winner < 0 else (1 if side == winner else -1)
            self.infos[agent] = {"scores": self._game.scores()}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._game is None:
            return None
        if self._game.over:
            return f"game over: scores {self._game.scores()}"
        obs = self._game.observation()
        return (f"seat {self._game.seat} to {self._game.decision}: hand {' '.join(obs['hand'])}"
                f", trick {' '.join(obs['trick']) or '-'}, scores {obs['scores']}")

    def close(self) -> None:
        pass


def raw_env(**kwargs) -> BeziqueEnv:
    return BeziqueEnv(**kwargs)


def env(**kwargs):
    """The environment with PettingZoo's standard checks (illegal actions raise, order)."""
    e = BeziqueEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


__all__ = ["BeziqueEnv", "N_ACTIONS", "STOP", "action_of", "env", "offered", "raw_env"]
