"""What a game review costs (bezsim review), and what a larger budget buys.

    python benchmarks/review_cost.py [--games 3] [--deals 32,96,384]
                                     [--variants ordinary,rubicon]

Reviews one seat of ``--games`` whole games of learned against expert per variant, at each
budget of ``--deals`` (sampled deals a decision), after one small review has compiled what
a review uses. Prints per variant and budget the seconds a game, the reviewed decisions a
game, and the median half-width of the options' 95% intervals (sampled decisions only):
the time a review takes and the precision it buys. One JSON line per case.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bezsim.review.game_review import review_record
from bezsim.review.record import record_of_run
from bezsim.rules import Rules

POLICIES = ["learned", "expert"]
SEED = 2026


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--deals", default="32,96,384")
    ap.add_argument("--variants", default="ordinary,rubicon")
    args = ap.parse_args()
    budgets = [int(d) for d in args.deals.split(",")]
    for variant in args.variants.split(","):
        rules = Rules.make(variant)
        records = [record_of_run(rules, POLICIES, SEED, g) for g in range(args.games)]
        review_record(records[0], seats=[0], deals=2)          # compiled, not timed
        for deals in budgets:
            seconds, decisions, widths = [], [], []
            for record in records:
                began = time.perf_counter()
                review = review_record(record, seats=[0], deals=deals)
                seconds.append(time.perf_counter() - began)
                decisions.append(review.summaries[0].decisions)
                widths += [(o.high - o.low) / 2 for d in review.decisions
                           if d.values is not None and d.values.method == "sampled"
                           for o in d.values.options]
            print(json.dumps({
                "variant": variant, "deals": deals, "games": len(records),
                "seconds_a_game": round(statistics.mean(seconds), 2),
                "slowest_game": round(max(seconds), 2),
                "decisions_a_game": round(statistics.mean(decisions), 1),
                "median_half_width": round(statistics.median(widths), 2) if widths else None,
            }), flush=True)


if __name__ == "__main__":
    main()
