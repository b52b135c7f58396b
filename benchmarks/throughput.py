"""Throughput of bezsim: hands per second per core of the engine and of the whole simulate
path (Parquet included), and the ratio to the same engine run as plain Python.

    python benchmarks/throughput.py [--hands 350000] [--simulate-hands 2000000]
        [--python-games 20] [--policies random,greedy] [--skip-simulate]
        [--variants ordinary,three_handed,four_handed,four_handed_partners,polish,rubicon,six_pack]

Prints one JSON line per case. "per core" divides by the threads used; the engine cases on
one thread measure a core directly. Each case keeps the best of --repeat runs (the machine
may be busy with something else during one of them). The simulate case also gives its rate
as a share of the engine's: each simulate run is paired with an engine run just before it,
and the median of the pairs' ratios is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

PURE_PYTHON_SNIPPET = """
import json, sys, time, warnings
warnings.simplefilter("ignore")   # numpy warns on the uint64 wrap-around the RNG relies on
from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.rules import Rules
games, policies, variant = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[3]
t = time.perf_counter()
batch = run_games(Rules.make(variant), policies, 1, 0, games, parallel=False)
dt = time.perf_counter() - t
print(json.dumps({"hands": int(batch.game_info[:, C.GI_HANDS].sum()), "seconds": dt}))
"""


def emit(case: str, hands: int, seconds: float, threads: int, **extra) -> dict:
    row = {"case": case, "hands": hands, "seconds": round(seconds, 4), "threads": threads,
           "hands_per_s": round(hands / seconds), "hands_per_s_per_core":
           round(hands / seconds / threads), **extra}
    print(json.dumps(row), flush=True)
    return row


def best_engine_run(rules: Rules, policies: list[str], games: int, threads: int,
                    repeat: int) -> tuple[int, float]:
    best = float("inf")
    hands = 0
    for _ in range(repeat):
        t = time.perf_counter()
        batch = run_games(rules, policies, 1, 0, games, threads=threads)
        best = min(best, time.perf_counter() - t)
        hands = int(batch.game_info[:, C.GI_HANDS].sum())
    return hands, best


def pure_python(variant: str, policies: list[str], games: int) -> tuple[int, float]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", PURE_PYTHON_SNIPPET, str(games),
                          ",".join(policies), variant], env=env, check=True,
                         capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return result["hands"], result["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=350000,
                        help="about this many hands per engine case (games are sized from a "
                             "pilot run)")
    parser.add_argument("--simulate-hands", type=int, default=2_000_000,
                        help="about this many hands per simulate case: a dozen shards, so "
                             "the first shard's compute and the last one's write, which "
                             "nothing overlaps, do not dominate")
    parser.add_argument("--python-games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variants", default="ordinary,three_handed,four_handed,"
                                               "four_handed_partners,polish,rubicon,six_pack")
    parser.add_argument("--policies", default="random,greedy",
                        help="self-play cases per variant, e.g. expert or heuristic,expert")
    parser.add_argument("--skip-simulate", action="store_true",
                        help="only the engine and plain-Python cases")
    args = parser.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS

    t = time.perf_counter()
    run_games(Rules.make("ordinary"), ["random"], 1, 0, 10)    # compile, or load the cache
    print(json.dumps({"case": "first_call_seconds", "seconds": round(time.perf_counter() - t, 3)}))

    for variant in args.variants.split(","):
        rules = Rules.make(variant)
        pilot = run_games(rules, ["random"], 1, 0, 500)
        games = max(1, round(args.hands * 500 / int(pilot.game_info[:, C.GI_HANDS].sum())))
        for policy in args.policies.split(","):
            policies = [policy] * rules.players
            name = f"{variant}_{policy}_vs_{policy}"
            py_hands, py_seconds = pure_python(variant, policies, args.python_games)
            py_rate = py_hands / py_seconds
            for threads in sorted({1, cores}):
                hands, seconds = best_engine_run(rules, policies, games, threads,
                                                 args.repeat)
                emit(f"engine_{name}", hands, seconds, threads,
                     ratio_to_pure_python=round(hands / seconds / threads / py_rate))
            emit(f"pure_python_{name}", py_hands, py_seconds, 1)

        if args.skip_simulate:
            continue
        sim_games = max(1, round(args.simulate_hands * 500
                                 / int(pilot.game_info[:, C.GI_HANDS].sum())))
        policies = ["random"] * rules.players
        with tempfile.TemporaryDirectory() as tmp:
            best = float("inf")
            shares = []
            for i in range(args.repeat):
                # each simulate run right after an engine run of its own: on a shared
                # machine whose speed drifts within minutes, the pair's ratio is steadier
                # than the ratio of two bests taken minutes apart
                hands, seconds = best_engine_run(rules, policies, games, cores, 1)
                summary = run_simulation(rules, policies, 1, sim_games,
                                         os.path.join(tmp, f"run{i}"), threads=cores,
                                         progress=False)
                best = min(best, summary.elapsed)
                shares.append(summary.hands / summary.elapsed / (hands / seconds))
            emit(f"simulate_{variant}_random_vs_random_with_parquet", summary.hands, best,
                 cores, share_of_engine_paired=[round(x, 3) for x in shares],
                 share_of_engine_median=round(statistics.median(shares), 3))


if __name__ == "__main__":
    main()
