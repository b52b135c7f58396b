"""Engine speed of two checkouts of bezsim, measured alternately, for an A/B of an engine change.

    python benchmarks/compare_engines.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 4] [--threads 1]
        [--variants ordinary,polish,four_handed,rubicon] [--hands 350000] [--policy random]

On a shared machine whose speed drifts by 10% or more within minutes, two benchmark runs taken
apart compare the hours as much as the code. Here each round runs the old checkout, then the
new one, each in a fresh process (its own numba cache: compile each checkout once first, e.g.
with one ``bezsim simulate --games 10`` there), and the rounds' medians and per-round ratios are
printed. Each process plays the variant's games three times and keeps its best rate; it also
prints a digest of its outcome arrays, which must be equal in both checkouts when the change
is meant to leave every game as it was. ``--policy`` puts one policy in every seat (e.g.
``expert`` for a change to it; ``--hands 8000`` then keeps a round short).

For a second checkout: ``git worktree add /tmp/old <commit>``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import hashlib, json, sys, time
import numpy as np
from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.rules import Rules
variant, hands, threads, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rules = Rules.make(variant)
policies = [policy] * rules.players
pilot = run_games(rules, policies, 7, 0, 200, threads=threads)
digest = hashlib.sha1(b"".join(np.ascontiguousarray(a).tobytes() for a in (
    pilot.game_info, pilot.hand_seat, pilot.hand_info, pilot.events))).hexdigest()[:12]
games = max(1, round(hands * 200 / int(pilot.game_info[:, C.GI_HANDS].sum())))
best = 0.0
for _ in range(3):
    start = time.perf_counter()
    batch = run_games(rules, policies, 1, 0, games, threads=threads)
    rate = int(batch.game_info[:, C.GI_HANDS].sum()) / (time.perf_counter() - start) / threads
    best = max(best, rate)
    del batch
print(json.dumps({"rate": round(best), "digest": digest}))
"""


def measure(checkout: str, variant: str, hands: int, threads: int, policy: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    done = subprocess.run([sys.executable, "-c", CHILD, variant, str(hands), str(threads),
                           policy],
                          env=env, capture_output=True, text=True, cwd=checkout)
    if done.returncode != 0:
        sys.exit(f"{checkout}: {variant} failed: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hands", type=int, default=350_000)
    ap.add_argument("--variants", default="ordinary,polish,four_handed,rubicon")
    ap.add_argument("--policy", default="random")
    args = ap.parse_args()
    for checkout in (args.old, args.new):
        if not os.path.isdir(os.path.join(checkout, "bezsim")):
            sys.exit(f"{checkout}: not a bezsim checkout (no bezsim/ folder)")
    for variant in args.variants.split(","):
        old, new, digests = [], [], set()
        for _ in range(args.rounds):
            a = measure(args.old, variant, args.hands, args.threads, args.policy)
            b = measure(args.new, variant, args.hands, args.threads, args.policy)
            old.append(a["rate"])
            new.append(b["rate"])
            digests |= {a["digest"], b["digest"]}
        print(json.dumps({
            "variant": variant, "policy": args.policy, "threads": args.threads,
            "old_median": statistics.median(old), "new_median": statistics.median(new),
            "ratio_of_medians": round(statistics.median(new) / statistics.median(old), 3),
            "ratios_by_round": [round(b / a, 3) for a, b in zip(old, new, strict=True)],
            "same_games": len(digests) == 1}), flush=True)


if __name__ == "__main__":
    main()
