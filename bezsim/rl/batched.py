"""A batched environment: N games of one variant stepped together by one compiled call.

    from bezsim.rl import batched_env
    env = batched_env(variant="ordinary", num_envs=1024, seed=7, opponents="expert")
    state = env.reset()
    while training:
        actions = agent(state["observation"], state["action_mask"])    # one per game
        state = env.step(actions)

Every array has one row per game (slot). ``reset()`` and ``step(actions)`` return a dict:

* ``observation`` [N, OBSERVATION_SIZE] float32: the deciding seat's view
  (bezsim/env_kernels/observation.py; never another hand or the stock);
* ``action_mask`` [N, N_ACTIONS] bool: its legal actions (the action map of
  bezsim/env_kernels/actions.py, as PettingZoo and OpenSpiel use);
* ``seat`` [N] int: the seat to decide, always one the agent drives;
* ``game`` [N] int: the game index the slot is playing;
* after a step, ``reward`` [N, players] float32 and ``done`` [N] bool: a game that ended
  with this step gives +1 to each seat of the winning side (the seat, or the partnership),
  -1 to the others, 0 to all for a draw, and its slot starts its next game in the same call
  (the observation is then the new game's first decision).

``opponents``: None (the agent drives every seat), a policy spec (the agent drives seat 0,
that policy every other seat), or one entry per seat (None for a seat the agent drives).
Built-in engine policies only: they play inside the compiled call. Slot i plays games i,
i + N, i + 2N, ... of ``seed``; a game is a pure function of the seed, its index and the
agent's actions, so it is the same game whatever N and however many threads step the
slots (blocks of slots, one a thread: the kernels release the GIL), and a game stepped with
the built-in policies' own choices (``policy_actions``) is the game ``bezsim simulate`` writes
(tests/test_batched.py). The last game each slot finished keeps its outcome rows, as
simulate's tables hold them, in ``final_hand_seat``, ``final_hand_info`` and
``final_game_info`` (its index in ``final_game``); the per-game events are not kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.script import TAIL_WORDS
from bezsim.env_kernels.actions import N_ACTIONS
from bezsim.env_kernels.observation import OBSERVATION_SIZE
from bezsim.errors import BezsimError
from bezsim.rules import Rules

MAX_ENVS = 1 << 20


class BatchedEnv:
    """N games stepped together (module docstring)."""

    def __init__(self, rules: Rules, num_envs: int, seed: int,
                 opponents: str | Sequence[str | None] | None = None,
                 threads: int | None = None) -> None:
        from bezsim.policies.builtin import SCRIPT
        from bezsim.policy_specs.registry import EXTERNAL, parse_policies, parse_spec, policy_params

        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise BezsimError(f"num_envs must be a whole number from 1 to {MAX_ENVS}, "
                              f"got {num_envs!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
                or not 0 <= seed < 2**64:
            raise BezsimError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
        players = rules.players
        if opponents is None:
            seats: list[str | None] = [None] * players
        elif isinstance(opponents, str):
            seats = [None] + [opponents] * (players - 1)
        else:
            seats = list(opponents)
            if len(seats) != players:
                raise BezsimError(f"{rules.variant} has {players} seats; opponents gives "
                                  f"{len(seats)}")
        if all(s is not None for s in seats):
            raise BezsimError("opponents fills every seat: leave at least one seat (None) "
                              "for the agent")
        specs = parse_policies([s if s is not None else "random" for s in seats], players)
        ids = []
        for s, spec in zip(seats, specs, strict=True):
            info = parse_spec(spec)[0]
            if s is not None and info.policy_id == EXTERNAL:
                raise BezsimError(f"opponent {s!r} is not a built-in engine policy: the "
                                  "batched environment plays only those")
            ids.append(SCRIPT if s is None else info.policy_id)
        self.rules = rules
        self.num_envs = int(num_envs)
        self.seed = int(seed)
        self.players = players
        self.opponents = [None if s is None else spec for s, spec in zip(seats, specs,
                                                                          strict=True)]
        self.driven_seats = [p for p, s in enumerate(seats) if s is None]
        self._params = rules.params()
        self._ids = np.array(ids, np.int64)
        self._pp = policy_params(specs, rules.variant)
        self._seed_u = np.uint64(self.seed)
        n = self.num_envs
        hand_cap = int(self._params[C.PR_HAND_CAP])
        self.hand_seat = np.zeros((n, hand_cap, players, C.HS_SIZE), np.int32)
        self.hand_info = np.zeros((n, hand_cap, C.HI_SIZE), np.int32)
        self.game_info = np.zeros((n, C.GI_SIZE), np.int64)
        self._events = np.zeros((n, 0), np.int64)
        self._S = np.zeros((n, st.S_BASE + TAIL_WORDS), np.int32)
        self._rng = np.zeros((n, 1 + players, 4), np.uint64)
        self._seat = np.zeros(n, np.int64)
        self._index_of = np.full((n, N_ACTIONS), -1, np.int8)
        self._proposed = np.full((n, 2), -1, np.int64)     # policy_actions: action, index
        self._games = np.arange(n, dtype=np.int64)
        self._started = False
        self.threads = _threads_for(n, threads)
        self._blocks = [(b * n // self.threads, (b + 1) * n // self.threads)
                        for b in range(self.threads)]
        self._pool = None
        # the last game each slot finished: its index and outcome rows (as simulate's)
        self.final_game = np.full(n, -1, np.int64)
        self.final_hand_seat = np.zeros_like(self.hand_seat)
        self.final_hand_info = np.zeros_like(self.hand_info)
        self.final_game_info = np.zeros_like(self.game_info)

    def reset(self) -> dict[str, np.ndarray]:
        """Slot i back to game i, at its first decision."""
        from bezsim.env_kernels.batch_step import reset_batch

        n = self.num_envs
        self._games[:] = np.arange(n)
        self._proposed[:] = -1
        obs, mask = self._outputs()

        def block(lo: int, up: int) -> int:
            bad = reset_batch(self._params, self._ids, self._pp, self._seed_u,
                              self._games[lo:up], self.hand_seat[lo:up],
                              self.hand_info[lo:up], self.game_info[lo:up],
                              self._events[lo:up], self._S[lo:up], self._rng[lo:up],
                              self._seat[lo:up], self._index_of[lo:up], obs[lo:up],
                              mask[lo:up])
            return bad if bad < 0 else lo + bad

        for bad in self._in_blocks(block):
            if bad >= 0:
                raise BezsimError(f"game {int(self._games[bad])} could not be started")
        self._started = True
        return {"observation": obs, "action_mask": mask, "seat": self._seat.copy(),
                "game": self._games.copy()}

    def step(self, actions: Any) -> dict[str, np.ndarray]:
        """Each slot's deciding seat takes its action (an int per slot, from the mask)."""
        from bezsim.env_kernels.batch_step import first_illegal, step_batch

        if not self._started:
            raise BezsimError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise BezsimError(f"actions must be {self.num_envs} whole numbers (one per game), "
                              f"got an array of shape {acts.shape} and type {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)
        bad = first_illegal(self._index_of, acts)
        if bad >= 0:
            raise BezsimError(f"action {int(acts[bad])} is not legal in game slot {bad} "
                              "(see its action_mask); no game was stepped")
        obs, mask = self._outputs()
        reward = np.zeros((self.num_envs, self.players), np.float32)
        done = np.zeros(self.num_envs, np.bool_)

        def block(lo: int, up: int) -> int:
            part = slice(lo, up)
            bad = step_batch(*self._step_args(part, acts[part], obs[part], mask[part],
                                              reward[part], done[part]))
            return bad if bad < 0 else lo + bad

        if self.threads == 1:              # the arrays themselves: no views to make
            stuck_slots = [step_batch(*self._step_args(None, acts, obs, mask, reward, done))]
        else:
            stuck_slots = self._in_blocks(block)
        for stuck in stuck_slots:
            if stuck >= 0:
                raise BezsimError(f"game {int(self._games[stuck])} stopped without a "
                                  "decision")
        return {"observation": obs, "action_mask": mask, "seat": self._seat.copy(),
                "game": self._games.copy(), "reward": reward, "done": done}

    def policy_actions(self, spec: str, where: Any = None) -> np.ndarray:
        """The action built-in policy ``spec`` would take in each slot (or in the slots
        where the bool array ``where`` is true; -1 in the others), drawn from the deciding
        seat's own random stream as when that policy sits there: stepping with them plays
        the game ``simulate`` plays with ``spec`` in those seats (taking a proposed action
        plays the very copy of the card the policy chose; any other action plays its face's
        first offered copy). A teacher for imitation, or a baseline's moves. Ask only for
        the slots whose seat ``spec`` plays: a policy that draws moves its seat's stream
        on."""
        from bezsim.env_kernels.batch_step import policy_batch
        from bezsim.policy_specs.registry import EXTERNAL, parse_policies, parse_spec, policy_params

        if not self._started:
            raise BezsimError("call reset() before policy_actions()")
        specs = parse_policies([spec] * self.players, self.players)
        info = parse_spec(specs[0])[0]
        if info.policy_id == EXTERNAL:
            raise BezsimError(f"{spec!r} is not a built-in engine policy")
        asked = np.ones(self.num_envs, np.bool_) if where is None else np.asarray(where)
        if asked.shape != (self.num_envs,) or asked.dtype != np.bool_:
            raise BezsimError(f"where must be {self.num_envs} booleans (one per game)")
        out = np.zeros(self.num_envs, np.int64)
        policy_batch(info.policy_id, policy_params(specs, self.rules.variant), self._S,
                     self._rng, self._seat, asked, np.empty(self._S.shape[1], np.int32),
                     self._proposed, out)
        return out

    def _step_args(self, part: slice | None, *outputs: np.ndarray) -> tuple:
        """step_batch's arguments for the slots ``part`` (None: all of them)."""
        slots = (self._games, self.hand_seat, self.hand_info, self.game_info, self._events,
                 self._S, self._rng, self._seat, self._index_of, self._proposed)
        finals = (self.final_game, self.final_hand_seat, self.final_hand_info,
                  self.final_game_info)
        if part is not None:
            slots = tuple(a[part] for a in slots)
            finals = tuple(a[part] for a in finals)
        games, hs, hi, gi, ev, S, rng, seat, index_of, proposed = slots
        return (self._params, self._ids, self._pp, self._seed_u, games, self.num_envs, hs, hi,
                gi, ev, S, rng, seat, index_of, proposed, *outputs, *finals)

    def _in_blocks(self, block) -> list[int]:
        """``block(lo, up)`` over the slots' blocks, on the environment's threads."""
        if self.threads == 1:
            return [block(0, self.num_envs)]
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(self.threads)
        return list(self._pool.map(lambda bounds: block(*bounds), self._blocks))

    def close(self) -> None:
        """Let the threads go (an environment on one thread holds none)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _outputs(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.empty((self.num_envs, OBSERVATION_SIZE), np.float32),
                np.empty((self.num_envs, N_ACTIONS), np.bool_))


def _threads_for(num_envs: int, threads: int | None) -> int:
    """Threads to step on: ``threads``, or every core numba may use given THREAD_SLOTS slots
    a thread (fewer do not repay handing the blocks to threads: on two cores 2,048 slots
    step 1.4 times as fast on two threads, 512 no faster)."""
    import numba

    from bezsim.engine_api.games import check_threads

    if threads is None:
        return max(1, min(numba.get_num_threads(), num_envs // THREAD_SLOTS))
    return min(check_threads(threads), num_envs)


THREAD_SLOTS = 512


def batched_env(variant: str = "ordinary", num_envs: int = 256, seed: int = 0,
                opponents: str | Sequence[str | None] | None = None,
                options: dict[str, Any] | None = None,
                threads: int | None = None) -> BatchedEnv:
    """``num_envs`` games of ``variant`` (with rule ``options``) stepped together, on
    ``threads`` threads (None: every core, given 512 games a thread); see the module
    docstring for the arrays and ``opponents``."""
    return BatchedEnv(Rules.make(variant, options or {}), num_envs, seed, opponents, threads)
