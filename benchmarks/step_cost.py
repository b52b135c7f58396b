"""What a decision costs through the step API (bezsim/step/step_game.py).

    python benchmarks/step_cost.py [--variants ordinary,rubicon] [--games 20]
                                   [--drivers open,random,expert]

Plays ``--games`` whole games per variant and driver through ``StepGame.step``, a random
offered action at every open decision, and times each ``step`` call alone. Drivers: ``open``
(every seat open), ``random`` or ``expert`` (seat 0 open, that policy in the other seats: a
step then includes their decisions up to seat 0's next one). Prints per variant and driver
the median microseconds a step over all steps, over the first hand of each game and over
its last hand, and their ratio: a step costs the play between two decisions, so the last
hand's steps cost what the first hand's do.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bezsim.rules import Rules
from bezsim.step.step_game import StepGame


def timed_game(rules: Rules, policies: list, seed: int, game: int,
               pick: random.Random) -> list[tuple[int, float]]:
    """(hand, microseconds) of every step of one game."""
    g = StepGame(rules, seed, game, policies)
    out = []
    while not g.over:
        index = pick.randrange(len(g.actions()))
        hand = g.hand
        t = time.perf_counter_ns()
        g.step(index)
        out.append((hand, (time.perf_counter_ns() - t) / 1000))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="ordinary,rubicon")
    ap.add_argument("--drivers", default="open,random,expert")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for variant in args.variants.split(","):
        rules = Rules.make(variant)
        for driver in args.drivers.split(","):
            others = [None if driver == "open" else driver] * (rules.players - 1)
            policies = [None, *others]
            pick = random.Random(args.seed)
            timed_game(rules, policies, args.seed, 10**6, pick)       # compiled, warm
            steps, first, last, hands = [], [], [], []
            for game in range(args.games):
                rows = timed_game(rules, policies, args.seed, game, pick)
                steps += [us for _, us in rows]
                final = rows[-1][0]
                first += [us for h, us in rows if h == 0]
                last += [us for h, us in rows if h == final]
                hands.append(final + 1)
            m_first, m_last = statistics.median(first), statistics.median(last)
            print(json.dumps({
                "variant": variant, "driver": driver, "games": args.games,
                "hands": sum(hands), "steps": len(steps),
                "median_us": round(statistics.median(steps), 2),
                "mean_us": round(statistics.fmean(steps), 2),
                "first_hand_median_us": round(m_first, 2),
                "last_hand_median_us": round(m_last, 2),
                "last_over_first": round(m_last / m_first, 3)}), flush=True)


if __name__ == "__main__":
    main()
