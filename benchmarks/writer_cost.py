"""What the writer costs per hand, table by table, and the simulate share it allows.

    python benchmarks/writer_cost.py [--hands 300000] [--repeat 5]
        [--variants ordinary,three_handed,four_handed,four_handed_partners,polish,rubicon]

The engine and the writer share the cores (bezsim/running/simulation.py), so once the
engine keeps every core busy, a simulate run costs engine + writer CPU time per hand, and
its rate against the engine's can be at most

    ceiling = engine / (engine + writer)

where "engine" is the engine's CPU time per hand (2 threads, per core) and "writer" is the CPU
time of building each table (flatten kernels + Arrow) and writing it as the runner does
(``write_shard_table``: Parquet, fsync, rename). Each figure is the best of --repeat, in
microseconds of CPU per hand. The measured simulate share (benchmarks/throughput.py) sits a
few points under the ceiling: the first shard's compute and the last shard's write overlap
nothing, and the threads switch.

Prints one JSON line per variant.
"""

from __future__ import annotations

import argparse
import functools
import json
import tempfile
import time

import numba

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.io.schema import TABLE_NAMES
from bezsim.io.shards import shard_metadata, write_shard_table
from bezsim.io.tables import batch_table
from bezsim.rules import Rules


def best_cpu(work, repeat: int) -> float:
    """Fewest CPU seconds of the process over ``repeat`` calls of ``work``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def measure(variant: str, hands: int, repeat: int, cores: int) -> dict:
    """Engine and writer CPU per hand of one variant, random play, and the ceiling."""
    rules = Rules.make(variant)
    policies = ["random"] * rules.players
    pilot = run_games(rules, policies, 1, 0, 500)
    games = max(1, round(hands * 500 / int(pilot.game_info[:, C.GI_HANDS].sum())))
    kept = {}

    def play() -> None:
        kept.clear()            # one batch in memory at a time
        kept["batch"] = run_games(rules, policies, 1, 0, games, threads=cores)

    # process CPU over all engine threads = per-core time when every core is busy
    engine = best_cpu(play, repeat)
    batch = kept["batch"]
    played = int(batch.game_info[:, C.GI_HANDS].sum())
    row = {"variant": variant, "hands": played, "threads": cores,
           "engine_us": round(engine * 1e6 / played, 3)}
    writer = 0.0
    metadata = shard_metadata({"benchmark": variant}, 0, 0, games)
    with tempfile.TemporaryDirectory() as out:
        for name in TABLE_NAMES:
            built = best_cpu(functools.partial(batch_table, batch, policies, name), repeat)
            table = batch_table(batch, policies, name)
            written = best_cpu(functools.partial(write_shard_table, out, 0, name, table,
                                                 metadata), repeat)
            row[f"{name}_rows_per_hand"] = round(table.num_rows / played, 2)
            row[f"{name}_build_us"] = round(built * 1e6 / played, 3)
            row[f"{name}_write_us"] = round(written * 1e6 / played, 3)
            writer += built + written
    row["writer_us"] = round(writer * 1e6 / played, 3)
    row["ceiling_share"] = round(engine / (engine + writer), 3)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300_000,
                        help="about this many hands per variant (a shard's worth or more)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variants", default="ordinary,three_handed,four_handed,"
                                               "four_handed_partners,polish,rubicon")
    args = parser.parse_args()
    for variant in args.variants.split(","):
        row = measure(variant, args.hands, args.repeat, numba.config.NUMBA_NUM_THREADS)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
