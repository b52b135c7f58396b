"""What a decision costs through the step API (bezsim/step/game.py).

    python benchmarks/step_cost.py [--variants ordinary,rubicon] [--games 3]

Plays ``--games`` games per variant with seat 0 open (always its first offered action)
against expert, through ``StepGame.step``, and again with expert deciding for seat 0
through ``StepGame.play_with``; prints milliseconds per open decision. Each decision
replays the game from its start, so the cost grows with the game's length.
"""

from __future__ import annotations

import argparse
import json
import time

from bezsim.rules import Rules
from bezsim.step.game import StepGame


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="ordinary,rubicon")
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    for variant in args.variants.split(","):
        rules = Rules.make(variant)
        StepGame(rules, 0, 0, [None] + ["expert"] * (rules.players - 1))      # compile
        for how in ("step", "play_with"):
            n, seconds = 0, 0.0
            for game in range(args.games):
                t = time.perf_counter()
                g = StepGame(rules, 1, game, [None] + ["expert"] * (rules.players - 1))
                while not g.over:
                    if how == "step":
                        g.step(0)
                    else:
                        g.play_with("expert")
                    n += 1
                seconds += time.perf_counter() - t
            print(json.dumps({"variant": variant, "driver": how, "games": args.games,
                              "decisions": n, "ms_per_decision": round(1000 * seconds / n, 3)}),
                  flush=True)


if __name__ == "__main__":
    main()
