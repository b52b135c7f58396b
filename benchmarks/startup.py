"""Start-up time of a bezsim command: the cold first run (compiling every kernel it calls into
an empty cache) and the warm runs after it (kernels loaded from the on-disk cache).

    python benchmarks/startup.py [--command simulate] [--warm-runs 3] [--variant ordinary]
                                 [--policies random] [--games 1]

Commands: ``simulate`` (``--games`` games; ``--games 2000`` is the README's first command),
``tournament`` (``--games`` deals of ``--policies``, e.g. ``search,expert``), ``play`` (the
first screen, then quit), ``explain`` (a small position), ``replay`` (a seeded game's
transcript; ``--after-run`` first fills the cache with the run kernels of its policies, as a
simulate would, and times the replay alone). Each run is one fresh process with its own
output, timed from start to exit: an upper bound on the time to the first game or screen.
The cold run uses a temporary NUMBA_CACHE_DIR, so the cache you normally use is left alone.
One JSON line per run. The reference figures that compile estimates start from
(bezsim/engine_api/compiling.py, REFERENCE_SECONDS) come from these runs; ``--calibration``
prints this machine's calibration compile, which scales them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

POSITION = ('{"variant": "ordinary", "trumps": "♥", "turnup": "9♥", "stock": 20, "trick": 12, '
            '"phase": "declare", "seats": [{"hand": ["K♥", "Q♥", "J♦", "Q♠"]}, {"hand": []}]}')


def command_line(args, tmp: str, k: int) -> tuple[list[str], str | None]:
    """The bezsim arguments of run k, and its standard input."""
    rules = ["--variant", args.variant]
    if args.command == "simulate":
        return (["simulate", *rules, "--policies", args.policies, "--games", str(args.games),
                 "--seed", "1", "--out", os.path.join(tmp, f"run{k}"), "--no-progress"], None)
    if args.command == "tournament":
        return (["tournament", *rules, "--policies", args.policies, "--games", str(args.games),
                 "--seed", "1", "--no-progress"], None)
    if args.command == "play":
        return (["play", *rules, "--against", args.policies, "--seed", "1", "--save",
                 os.path.join(tmp, f"game{k}.json")], "q\n")
    if args.command == "explain":
        path = os.path.join(tmp, "position.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(POSITION)
        return ["explain", path], None
    return ["replay", *rules, "--policies", args.policies, "--seed", "1"], None


def timed_run(env: dict[str, str], argv: list[str], stdin: str | None) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bezsim", *argv], env=env, check=True,
                   capture_output=True, text=True, input=stdin)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--command", default="simulate",
                    choices=("simulate", "tournament", "play", "explain", "replay"))
    ap.add_argument("--games", type=int, default=1,
                    help="games of a simulate, deals of a tournament")
    ap.add_argument("--warm-runs", type=int, default=3)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--policies", default="random",
                    help="what the run plays (for play: the opponents): random (a plain "
                         "simulate), expert, or search compile different kernels "
                         "(bezsim/engine/external.py)")
    ap.add_argument("--after-run", action="store_true",
                    help="first compile the run kernels of --policies (untimed)")
    ap.add_argument("--calibration", action="store_true",
                    help="print the calibration compile's seconds on this machine and stop")
    args = ap.parse_args()
    if args.calibration:
        from bezsim.engine_api.compiling import calibration_seconds

        print(json.dumps({"calibration_seconds": round(calibration_seconds(), 4)}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        if args.after_run:
            subprocess.run([sys.executable, "-m", "bezsim", "simulate", "--variant",
                            args.variant, "--policies", args.policies, "--games", "1",
                            "--seed", "1", "--out", os.path.join(tmp, "warm-up"),
                            "--no-progress"], env=env, check=True, capture_output=True)
        for k in range(1 + args.warm_runs):
            argv, stdin = command_line(args, tmp, k)
            seconds = timed_run(env, argv, stdin)
            print(json.dumps({"command": args.command, "run": "cold" if k == 0 else "warm",
                              "variant": args.variant, "policies": args.policies,
                              "games": args.games, "cores": os.cpu_count(),
                              "after_run": args.after_run, "seconds": round(seconds, 2)}),
                  flush=True)


if __name__ == "__main__":
    main()
