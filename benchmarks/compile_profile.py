"""Where a cold compile's time goes: one bezsim command run in this process into an empty
kernel cache, every compile numba does timed by kernel (its own time, without the kernels it
compiles inside it) and added up by family (the engine, each policy, search, the
environments).

    python benchmarks/compile_profile.py tournament --policies search,expert --games 20
    python benchmarks/compile_profile.py simulate --games 1 --out /tmp/x --no-progress
    python benchmarks/compile_profile.py --top 30 play --against learned --seed 1  < /dev/null

Prints the wall time of the command, the compile time by family, and the kernels that took
longest with how many times each compiled (once per argument types). The cache is a
temporary folder, so the cache you normally use is left alone.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time


def family(module: str, name: str) -> str:
    """The kernel family a compiled function belongs to, by its module."""
    parts = module.split(".")
    if parts[:2] == ["bezsim", "policies"] and len(parts) > 2:
        if parts[2] in ("search", "deals", "solver", "tree", "search_params", "plugins"):
            return "search"
        return parts[2]                     # expert, learned, heuristic, builtin, common
    if parts[:2] == ["bezsim", "engine"]:
        return "engine." + parts[2] if len(parts) > 2 else "engine"
    if parts[:2] == ["bezsim", "env_kernels"]:
        return "env_kernels"
    return module or name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=20, help="kernels listed, longest first")
    ap.add_argument("--by-engine-module", action="store_true",
                    help="split the engine family by module")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="a bezsim command and its flags")
    args = ap.parse_args()
    if not args.command:
        ap.error("give a bezsim command, e.g. simulate --games 1 --out /tmp/x")
    cache = tempfile.mkdtemp(prefix="bezsim-compile-profile-")
    os.environ["NUMBA_CACHE_DIR"] = cache

    from numba.core import event

    own: dict[str, float] = collections.defaultdict(float)
    count: collections.Counter[str] = collections.Counter()
    fam: dict[str, str] = {}
    stack: list[list] = []     # [name, start, children's time]

    class Timer(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            dispatcher = ev.data["dispatcher"]
            py = getattr(dispatcher, "py_func", None)
            module = getattr(py, "__module__", "") or ""
            name = f"{module}.{getattr(py, '__qualname__', repr(dispatcher))}"
            fam[name] = family(module, name)
            stack.append([name, time.perf_counter(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            name, began, children = stack.pop()
            spent = time.perf_counter() - began
            own[name] += spent - children
            count[name] += 1
            if stack:
                stack[-1][2] += spent

    event.register("numba:compile", Timer())
    from bezsim.cli import main as bezsim_main

    began = time.perf_counter()
    try:
        bezsim_main(args.command)
    except SystemExit as done:
        if done.code not in (0, None):
            print(f"the command exited with {done.code}", file=sys.stderr)
    wall = time.perf_counter() - began
    total = sum(own.values())
    by_family: dict[str, float] = collections.defaultdict(float)
    for name, seconds in own.items():
        key = fam[name]
        if not args.by_engine_module and key.startswith("engine."):
            key = "engine"
        by_family[key] += seconds
    print(f"\nbezsim {' '.join(args.command)}: {wall:.1f} s wall, {total:.1f} s compiling, "
          f"{sum(count.values())} compiles of {len(count)} kernels")
    print("by family (own compile time):")
    for key, seconds in sorted(by_family.items(), key=lambda kv: -kv[1]):
        print(f"  {key:<28} {seconds:7.1f} s  {100 * seconds / max(total, 1e-9):5.1f}%")
    print(f"the {args.top} longest kernels (own time, compiles):")
    for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"  {seconds:7.1f} s  x{count[name]:<3} {name}")


if __name__ == "__main__":
    main()
