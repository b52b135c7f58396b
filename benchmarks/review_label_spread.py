"""How large the losses of strong play are: the spread that the review's labels are set from.

    python benchmarks/review_label_spread.py [--games 20] [--variants ordinary,rubicon,...]
                                             [--deals 96] [--seed 77]

Reviews every seat of ``--games`` games of learned self-play per variant (the run's seed
``--seed``, games 0 to N-1) at the review's default budget, and prints per variant: the
decisions reviewed, the share with a loss, and the percentiles of the losses that were
counted (the 50th, 90th and 99th) with the largest. The review's label thresholds
(bezsim/review/game_review.py, LABEL_POINTS) are those percentiles, rounded: a loss that
learned makes about half the time it loses anything is an inaccuracy, one in ten a mistake,
one in a hundred a blunder. One JSON line per variant.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bezsim.review.game_review import review_record
from bezsim.review.record import record_of_run
from bezsim.rules import VARIANT_DEFINITIONS, Rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--variants", default=",".join(VARIANT_DEFINITIONS))
    ap.add_argument("--deals", type=int, default=96)
    ap.add_argument("--seed", type=int, default=77)
    args = ap.parse_args()
    for variant in args.variants.split(","):
        rules = Rules.make(variant)
        losses, decisions = [], 0
        for game in range(args.games):
            record = record_of_run(rules, ["learned"] * rules.players, args.seed, game)
            review = review_record(record, deals=args.deals, seed=game)
            for d in review.decisions:
                if d.values is not None:
                    decisions += 1
                    if d.loss > 0:
                        losses.append(d.loss)
        spread = np.percentile(losses, [50, 90, 99]).round(1).tolist() if losses else []
        print(json.dumps({"variant": variant, "games": args.games, "decisions": decisions,
                          "with_loss": len(losses),
                          "share_with_loss": round(len(losses) / max(1, decisions), 4),
                          "p50_p90_p99": spread,
                          "largest": round(max(losses), 1) if losses else None}), flush=True)


if __name__ == "__main__":
    main()
