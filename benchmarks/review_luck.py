"""How well a review's luck split explains results: learned self-play games reviewed for
every seat, each seat's result against skill + luck, and the residue.

    python benchmarks/review_luck.py [--variant ordinary] [--games 1000] [--deals 32]
                                     [--luck-deals 256] [--seed 2026] [--workers 2]
                                     [--out FILE.jsonl]

Each game is reviewed for every seat at ``--deals`` sampled deals a decision and
``--luck-deals`` for the luck of each seat's cards. One JSON line per game goes to
``--out`` (a run already there is taken up where it stopped), then a summary: the
residue's mean with its 95% interval, its spread against the result's, and the share of
the results' variance that skill + luck explain. Two-handed results are zero-sum, so
seat 0's figures say it all.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def review_one(args: tuple[str, int, int, int, int]) -> dict:
    from bezsim.review.game_review import review_record
    from bezsim.review.record import record_of_run
    from bezsim.rules import Rules

    variant, seed, game, deals, luck_deals = args
    rules = Rules.make(variant)
    record = record_of_run(rules, ["learned"] * rules.players, seed, game)
    began = time.perf_counter()
    review = review_record(record, seats=None, deals=deals, seed=game,
                           luck_deals=luck_deals)
    return {"game": game, "seconds": round(time.perf_counter() - began, 2),
            "splits": [{k: v for k, v in s.as_json().items() if k != "hands"}
                       for s in review.luck]}


def summary(rows: list[dict], seat: int = 0) -> dict:
    result = [r["splits"][seat]["result"] for r in rows]
    residue = [r["splits"][seat]["residue"] for r in rows]
    explained = [r["splits"][seat]["skill"] + r["splits"][seat]["luck"] for r in rows]
    n = len(rows)
    mean = statistics.mean(residue)
    half = 1.959964 * statistics.stdev(residue) / math.sqrt(n)
    return {"games": n, "seat": seat,
            "result_mean": statistics.mean(result),
            "result_sd": statistics.stdev(result),
            "residue_mean": mean, "residue_low": mean - half, "residue_high": mean + half,
            "residue_sd": statistics.stdev(residue),
            "residue_mean_abs": statistics.mean(abs(x) for x in residue),
            "result_mean_abs": statistics.mean(abs(x) for x in result),
            "variance_explained": 1 - statistics.pvariance(residue) / statistics.pvariance(result),
            "correlation": statistics.correlation(result, explained),
            "seconds_a_game": statistics.mean(r["seconds"] for r in rows)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=32)
    ap.add_argument("--luck-deals", type=int, default=256)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    name = f"review-luck-{args.variant}-{args.deals}-{args.luck_deals}.jsonl"
    out = Path(args.out or f"data/runs/{name}")
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    done = {r["game"] for r in rows}
    todo = [(args.variant, args.seed, g, args.deals, args.luck_deals)
            for g in range(args.games) if g not in done]
    with out.open("a") as f, ProcessPoolExecutor(args.workers) as pool:
        for k, row in enumerate(pool.map(review_one, todo, chunksize=1), 1):
            f.write(json.dumps(row) + "\n")
            f.flush()
            rows.append(row)
            if k % 10 == 0 or k == len(todo):
                print(f"{len(rows)}/{args.games} games", file=sys.stderr, flush=True)
    print(json.dumps(summary(rows), indent=1))


if __name__ == "__main__":
    main()
