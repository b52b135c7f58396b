"""A small agent that learns Bézique from the batched environment: the research baseline.

The agent is a linear action-value over the observation vector x(s)
(bezsim/env_kernels/observation.py),
a value the actions share plus one row of weights per action:
Q(s, a) = v · x(s) + b[a] + w[a] · x(s). The shared part absorbs how good the cards are, so
the rows learn what tells the actions apart. It plays epsilon-greedy (a random legal action
with probability epsilon, else the legal action of highest Q) from seat 0 of
bezsim.rl.batched_env, and learns by Monte Carlo control: when a game ends, each of the
game's decisions moves its Q(s, a) toward the game's margin, the agent's final score minus
its opponent's in thousands of points: v, b[a] and w[a] each by alpha (margin - Q(s, a))
times their input, over the squared size of all the inputs (normalised least mean squares:
a step the same size whatever the decision's cards, which kept learning stable where a
plain step did not). Learning
needs numpy only: the learning library of bezsim's own learned player (``bezsim[learn]``,
scipy) is not needed for a model this small. Its kernels are plain loops in float64, so a
training run is a pure function of its seed on every machine.

    agent = Agent.new()
    train(agent, opponent="random", games=3000, seed=1)
    wins, losses, draws = evaluate(agent, opponent="random", games=1000, seed=2)

``analyses/rl_baseline.py`` trains it against random and then greedy and reports its
learning curve and win rates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine.rng import seed_stream
from bezsim.env_kernels.actions import N_ACTIONS
from bezsim.env_kernels.linear_learner import act, average, learn
from bezsim.env_kernels.observation import OBSERVATION_SIZE

MAX_DECISIONS = 1024      # a game's decisions the agent remembers (an ordinary game has ~200)
PURPOSE_AGENT = 7         # the agent's own random stream (engine/rng.py purposes are 1-3)


@dataclass
class Agent:
    """The linear action-value: ``value`` [D] shared, ``bias`` [N_ACTIONS] and ``weights``
    [N_ACTIONS, D] per action, as learning leaves them; ``mean_bias`` and ``mean_weights``
    their average over about the last AVERAGE_GAMES training games, which the agent plays
    with when it is measured (one step of learning can upset the latest weights; their
    average moves smoothly)."""

    value: np.ndarray
    bias: np.ndarray
    weights: np.ndarray
    mean_bias: np.ndarray
    mean_weights: np.ndarray

    @classmethod
    def new(cls) -> Agent:
        return cls(np.zeros(OBSERVATION_SIZE), np.zeros(N_ACTIONS),
                   np.zeros((N_ACTIONS, OBSERVATION_SIZE)), np.zeros(N_ACTIONS),
                   np.zeros((N_ACTIONS, OBSERVATION_SIZE)))

    def save(self, path: str | Path) -> None:
        np.savez(path, **{f: getattr(self, f) for f in FIELDS})

    @classmethod
    def load(cls, path: str | Path) -> Agent:
        data = np.load(path)
        return cls(*(data[f].copy() for f in FIELDS))


FIELDS = ("value", "bias", "weights", "mean_bias", "mean_weights")
AVERAGE_GAMES = 10000


def _margins(game_info: np.ndarray, players: int) -> np.ndarray:
    """Seat 0's final score minus the best other seat's, in thousands of points."""
    scores = game_info[:, C.GI_SCORE:C.GI_SCORE + players].astype(np.float64)
    return (scores[:, 0] - scores[:, 1:].max(axis=1)) / 1000.0


def _play(agent: Agent, variant: str, opponent: str, games: int, seed: int, num_envs: int,
          epsilon: float, alpha: float, on_game: Callable[[int, float], None] | None
          ) -> tuple[int, int, int]:
    """``games`` games from seat 0 (learning when alpha > 0); (wins, losses, draws)."""
    from bezsim.rl.batched import batched_env

    env = batched_env(variant=variant, num_envs=num_envs, seed=seed, opponents=opponent)
    stream = np.zeros(4, np.uint64)
    seed_stream(stream, np.uint64(seed), 0, PURPOSE_AGENT, 0)
    traj_x = np.zeros((num_envs, MAX_DECISIONS, OBSERVATION_SIZE), np.float32)
    traj_a = np.zeros((num_envs, MAX_DECISIONS), np.int64)
    lengths = np.zeros(num_envs, np.int64)
    actions = np.zeros(num_envs, np.int64)
    ppm = int(round(epsilon * 1_000_000))
    state = env.reset()
    results = [0, 0, 0]
    finished = 0
    # learning plays the latest weights, a measurement their average
    bias, weights = (agent.bias, agent.weights) if alpha > 0 else (agent.mean_bias,
                                                                  agent.mean_weights)
    while finished < games:
        act(bias, weights, state["observation"], state["action_mask"], ppm, stream, traj_x,
            traj_a, lengths, actions)
        state = env.step(actions)
        done = state["done"]
        if not done.any():
            continue
        margins = _margins(env.final_game_info, env.players)
        if alpha > 0:
            learn(agent.value, agent.bias, agent.weights, traj_x, traj_a, lengths, done,
                  margins, alpha)
            rate = 1.0 - (1.0 - 1.0 / AVERAGE_GAMES) ** int(done.sum())
            average(agent.mean_bias, agent.mean_weights, agent.bias, agent.weights, rate)
        else:
            lengths[done] = 0
        for i in np.flatnonzero(done):
            if finished == games:
                break
            reward = state["reward"][i, 0]
            results[0 if reward > 0 else 1 if reward < 0 else 2] += 1
            finished += 1
            if on_game is not None:
                on_game(finished, float(reward))
    return results[0], results[1], results[2]


def train(agent: Agent, opponent: str, games: int, seed: int, variant: str = "ordinary",
          num_envs: int = 64, epsilon: float = 0.1, alpha: float = 0.005,
          on_game: Callable[[int, float], None] | None = None) -> tuple[int, int, int]:
    """``games`` training games against ``opponent`` in every other seat; the agent's
    (wins, losses, draws) while it learned. ``on_game(n, reward)`` after each game."""
    return _play(agent, variant, opponent, games, seed, num_envs, epsilon, alpha, on_game)


def evaluate(agent: Agent, opponent: str, games: int, seed: int, variant: str = "ordinary",
             num_envs: int = 64) -> tuple[int, int, int]:
    """``games`` games of the agent's averaged weights, greedy (no exploration, no
    learning): (wins, losses, draws)."""
    return _play(agent, variant, opponent, games, seed, num_envs, 0.0, 0.0, None)
