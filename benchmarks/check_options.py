"""The independent conformance checker over many hands of each option set of a variant (the
soak, benchmarks/soak.py, plays the presets only). Each option set is played by several
line-ups, each on its own seed, split into chunks over worker processes; every game's trace is
walked by the rules referee (bezsim.referee) and replay = batch is checked per chunk.

    python benchmarks/check_options.py [--variant rubicon] [--hands 10000] [--seed 1]
        [--workers N] [--option NAME=VALUE ...]

Without ``--option`` the variant's built-in option sets are checked: the preset itself and the
sets bezsim.referee.option_sets names for it. With ``--option`` (repeatable), that one set.
Prints hands and violations per set (each violation with its reproduction); exit status 1 if
any.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import soak  # noqa: E402  (the soak's chunk checker, a script beside this one)

LINE_UPS = (("greedy", "greedy"), ("random", "greedy"), ("heuristic", "heuristic"),
            ("heuristic", "random"))
GAMES_PER_CHUNK = 200


def option_sets(variant: str) -> list[dict[str, str]]:
    """The preset, then the non-default sets the conformance tests check for ``variant``."""
    from bezsim.referee import option_sets as known

    named = {"ordinary": known.OPTION_SETS, "polish": known.POLISH_OPTION_SETS,
             "rubicon": known.RUBICON_OPTION_SETS,
             "six_pack": known.SIX_PACK_OPTION_SETS}.get(variant, [])
    return [{}] + [dict(o) for o in named]


def _chunk(job: tuple) -> dict:
    variant, policies, seed, start, games, options = job
    return soak.check_chunk(variant, policies, seed, start, games, options=options)


def check_set(pool, variant: str, options: dict[str, str], hands: int, seed: int) -> dict:
    """At least ``hands`` hands of ``options``, spread over LINE_UPS (seed + i each)."""
    per_game = soak.hands_per_game(variant)
    per_line_up = math.ceil(hands / len(LINE_UPS))
    jobs = []
    for i, policies in enumerate(LINE_UPS):
        games = math.ceil(per_line_up / per_game)
        for start in range(0, games, GAMES_PER_CHUNK):
            jobs.append((variant, policies, seed + i, start, min(GAMES_PER_CHUNK, games - start),
                         tuple(sorted(options.items()))))
    results = pool.map(_chunk, jobs)
    return {"options": options, "hands": sum(r["hands"] for r in results),
            "games": sum(r["games"] for r in results),
            "violations": [v for r in results for v in r["violations"]]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rubicon")
    parser.add_argument("--hands", type=int, default=10_000, help="hands per option set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    from bezsim.errors import BezsimError
    from bezsim.rules import Rules

    try:
        sets = ([Rules.from_strings(args.variant, args.option).options] if args.option
                else option_sets(args.variant))
        for options in sets:
            Rules.make(args.variant, options)
    except BezsimError as exc:
        print(f"check_options: error: {exc}", file=sys.stderr)
        return 2
    failed = 0
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for options in sets:
            start = time.perf_counter()
            result = check_set(pool, args.variant, options, args.hands, args.seed)
            label = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "preset"
            print(f"{args.variant} [{label}]: {result['hands']:,} hands in {result['games']:,} "
                  f"games, {len(result['violations'])} violations "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
            for v in result["violations"][:soak.SHOWN_VIOLATIONS]:
                print(f"  {v}")
            failed += bool(result["violations"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
