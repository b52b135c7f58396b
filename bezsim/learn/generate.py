"""Training data for learned: games of learned self-play in which every seat records, at the
card plays learned scores, each distinct card's features and search's value of it
(record.py). A shard of games is a pure function of (rules, learned's row, seed, game range,
budget), so shards are written once and a run resumes by skipping the shards on disk.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from bezsim.compile_cache import compile_all
from bezsim.engine import constants as C
from bezsim.engine.external import EXTERNAL, policy_set
from bezsim.policies.learned import record as R
from bezsim.policies.learned.weights import N_FEATURES, ROW_WIDTH
from bezsim.policies.search_params import LONG_MODE, RECORD


@dataclass(frozen=True)
class Budget:
    """How the recording seats value a decision."""

    deals: int = 16            # sampled deals per recorded decision
    horizon: int = 20          # every decision recorded once the stock holds this many cards
    early: float = 0.25        # chance of recording a decision before that
    settlement: bool = False   # Rubicon: value play-outs by the settlement


@dataclass
class Records:
    """Recorded decisions: decision d's cards are rows start[d] .. start[d] + n[d] - 1 of
    ``value`` and ``features``; ``pick`` is learned's card among them, ``game`` the game."""

    game: np.ndarray           # int64 [decisions]
    n: np.ndarray              # int32 [decisions]
    pick: np.ndarray           # int32 [decisions]
    value: np.ndarray          # float64 [cards]
    features: np.ndarray       # float64 [cards, N_FEATURES]

    @property
    def start(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.n)[:-1]]).astype(np.int64)

    @staticmethod
    def concat(parts: list[Records]) -> Records:
        if not parts:
            return Records(np.zeros(0, np.int64), np.zeros(0, np.int32),
                           np.zeros(0, np.int32), np.zeros(0),
                           np.zeros((0, N_FEATURES)))
        return Records(*(np.concatenate([getattr(p, f) for p in parts])
                         for f in ("game", "n", "pick", "value", "features")))

    def save(self, path) -> None:
        np.savez_compressed(path, game=self.game, n=self.n, pick=self.pick, value=self.value,
                            features=self.features)

    @staticmethod
    def load(path) -> Records:
        with np.load(path) as z:
            return Records(z["game"], z["n"], z["pick"], z["value"], z["features"])


CAPACITY = 512        # records per seat and game (a longer game records its first ones)


def _rows(players: int, learned_row: np.ndarray, budget: Budget) -> np.ndarray:
    rows = np.zeros((players, R.record_row_width(CAPACITY)))
    rows[:, LONG_MODE] = RECORD               # search's code, recording (record.py)
    rows[:, R.R_CAPACITY] = CAPACITY
    rows[:, R.R_DEALS] = budget.deals
    rows[:, R.R_EARLY] = budget.early
    rows[:, R.R_HORIZON] = budget.horizon
    rows[:, R.R_SETTLEMENT] = 1.0 if budget.settlement else 0.0
    rows[:, R.BASE:R.BASE + ROW_WIDTH] = learned_row[:ROW_WIDTH]
    return rows


def _take(rows: np.ndarray, game: int) -> Records:
    """The records the seats wrote in one game, seat by seat."""
    games, ns, picks, values, feats = [], [], [], [], []
    for row in rows:
        for r in range(int(row[R.R_COUNT])):
            at = R.RECORDS + r * R.STRIDE
            n = int(row[at])
            block = row[at + 2:at + 2 + n * (1 + N_FEATURES)].reshape(n, 1 + N_FEATURES)
            games.append(game)
            ns.append(n)
            picks.append(int(row[at + 1]))
            values.append(block[:, 0].copy())
            feats.append(block[:, 1:].copy())
    if not games:
        return Records.concat([])
    return Records(np.array(games, np.int64), np.array(ns, np.int32),
                   np.array(picks, np.int32), np.concatenate(values), np.concatenate(feats))


def record_games(rules, learned_row: np.ndarray, seed: int, games: range, budget: Budget,
                 threads: int = 2, on_game=None) -> Records:
    """Play ``games`` (indices) of learned self-play with every seat recording."""
    from bezsim.engine.game_loop import run_serial
    from bezsim.engine_api.games import NO_TRACE, _alloc
    from bezsim.policies.plugins import function_slots
    from bezsim.policies.search import search_function

    params = rules.params()
    players = rules.players
    hand_cap = int(params[C.PR_HAND_CAP])
    ids = np.full(players, EXTERNAL, np.int64)
    # the search runs' engine (registry.policy_functions; with BEZSIM_COMPILE_ALL, the one
    # with everything in)
    fns = policy_set(True, function_slots([search_function("record")] * players),
                     compile_all())
    seed_u = np.uint64(seed)
    order = list(games)

    def worker(k: int) -> list[tuple[int, Records]]:
        out = []
        hs, hi, gi, ev = _alloc(1, hand_cap, players, 64 * hand_cap)
        for g in order[k::threads]:
            rows = _rows(players, learned_row, budget)
            run_serial(params, ids, rows, fns, seed_u, g, hs, hi, gi, ev, NO_TRACE)
            if gi[0, C.GI_OVERFLOW] == 2:
                raise RuntimeError(f"the recording seat chose outside the offer in game {g}")
            out.append((g, _take(rows, g)))
            if on_game is not None:
                on_game()
        return out

    with ThreadPoolExecutor(max_workers=threads) as pool:
        parts = [p for chunk in pool.map(worker, range(threads)) for p in chunk]
    parts.sort(key=lambda p: p[0])
    return Records.concat([p[1] for p in parts])
