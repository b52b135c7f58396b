"""Start-up time of ``bezsim simulate``: the cold first run (compiling every kernel into an
empty cache) and the warm runs after it (kernels loaded from the on-disk cache).

    python benchmarks/startup.py [--warm-runs 3] [--variant ordinary] [--policies random]

Each run is ``bezsim simulate --games 1`` in a fresh process with its own empty output
directory, timed from process start to exit: an upper bound on the time to the first game.
Prints one JSON line per run. The cold run uses a temporary NUMBA_CACHE_DIR, so the cache
you normally use is left alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def timed_run(env: dict[str, str], out: str, variant: str, policies: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bezsim", "simulate", "--variant", variant,
                    "--policies", policies, "--games", "1", "--seed", "1", "--out", out,
                    "--no-progress"], env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warm-runs", type=int, default=3)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--policies", default="random",
                    help="what the run plays: random (a plain simulate), expert, or search "
                         "compile different kernels (bezsim/engine/external.py)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        for k in range(1 + args.warm_runs):
            seconds = timed_run(env, os.path.join(tmp, f"run{k}"), args.variant,
                                args.policies)
            print(json.dumps({"run": "cold" if k == 0 else "warm", "variant": args.variant,
                              "policies": args.policies, "seconds": round(seconds, 2)}),
                  flush=True)


if __name__ == "__main__":
    main()
