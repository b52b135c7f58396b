"""A shard's work, the same on one machine (runner.py) and as a Dask task (dask_runner.py):
its games played in engine calls sized to about a second each, and its tables written.

A shard is a range of consecutive game ids; its three Parquet files carry the run's
identity and the range (io/shards.py), so a resumed run recognises the shards it has.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bezsim.engine import constants as C
from bezsim.engine_api import games as api
from bezsim.engine_api.plugin_faults import run_games_checked
from bezsim.io.schema import TABLE_NAMES
from bezsim.io.shards import shard_metadata, write_shard_table
from bezsim.io.tables import batches_table
from bezsim.rules import Rules

# Games of the first engine call of a run, and the fewest per call. Later calls are sized
# from the measured rate to take about CHUNK_SECONDS: short enough that the progress bar
# moves and Ctrl-C is noticed between calls (a signal waits for the compiled call to return),
# while fast policies compute a whole shard in one call, which saves joining chunks
# (measured +3% on the simulate path against fixed 4096-game calls).
COMPUTE_CHUNK = 64
CHUNK_SECONDS = 1.0


@dataclass(frozen=True)
class Shard:
    index: int
    game_start: int
    n_games: int


def plan_shards(games: int, shard_size: int) -> list[Shard]:
    """Shard k holds games k*shard_size .. (k+1)*shard_size - 1 (the last one may be short)."""
    return [Shard(k, start, min(shard_size, games - start))
            for k, start in enumerate(range(0, games, shard_size))]


def compute_shard(rules: Rules, policies: list[str], seed: int, shard: Shard,
                  threads: int | None, advance: Callable[[int], Any],
                  sizer: ChunkSizer | None = None) -> list[api.GameBatch]:
    """The shard's games, as the batches of the engine calls that played them (consecutive
    game ranges). They are written as they are: joining them here would copy every outcome
    array on the main thread while the engine waits (a quarter of a three-handed shard's
    compute time)."""
    batches = []
    stop = shard.game_start + shard.n_games
    start = shard.game_start
    sizer = sizer or ChunkSizer()
    from bezsim.policy_specs.policy_set import resolve_policies

    policies = resolve_policies(policies, rules)       # once for the shard's chunks
    while start < stop:
        n = min(sizer.games, stop - start)
        began = time.perf_counter()
        # a plug-in that raises or answers outside the offer ends the run, named
        batch = run_games_checked(rules, policies, seed, start, n, threads)
        if batch.n_games != n or batch.game_start != start:
            raise RuntimeError(f"engine returned {batch.n_games} games from {batch.game_start} "
                               f"when asked for {n} from {start}")
        sizer.took(n, time.perf_counter() - began)
        batches.append(batch)
        advance(n)
        start += n
    return batches


def count_hands(batches: list[api.GameBatch]) -> int:
    """Hands played in these batches (the run summary's count)."""
    return sum(int(batch.game_info[:, C.GI_HANDS].sum()) for batch in batches)


class ChunkSizer:
    """Games per engine call: COMPUTE_CHUNK first, then about CHUNK_SECONDS' worth at the
    rate the last call measured (never fewer than COMPUTE_CHUNK)."""

    def __init__(self) -> None:
        self.games = COMPUTE_CHUNK

    def took(self, games: int, seconds: float) -> None:
        rate = games / max(seconds, 1e-6)
        self.games = max(COMPUTE_CHUNK, min(int(rate * CHUNK_SECONDS), 1 << 22))


def write_tables(out, shard: Shard, batches: list[api.GameBatch], policies: list[str],
                 identity: dict[str, Any], names: tuple[str, ...] = TABLE_NAMES) -> None:
    """Convert and write the tables ``names`` of a computed shard."""
    metadata = shard_metadata(identity, shard.index, shard.game_start, shard.n_games)
    for name in names:
        write_shard_table(out, shard.index, name, batches_table(batches, policies, name),
                          metadata)
