"""Where the engine spends its time, per compiled function, with Linux ``perf``.

    perf record -e cpu-clock -F 4000 -o /tmp/bezsim.perf \\
        python benchmarks/profile_engine.py --variant ordinary --hands 1000000
    python benchmarks/profile_engine.py --report /tmp/bezsim.perf

The first command compiles the engine afresh in a temporary cache (about 2 minutes: code loaded
from numba's on-disk cache carries no symbols), writes ``/tmp/perf-<pid>.map`` naming every
compiled function so perf can attribute samples to them, then plays hands in one loop. The
second prints each bezsim function's share of the samples spent in compiled code (functions
numba inlined count toward their caller). ``cpu-clock`` is a software event, so this works on
machines whose hardware counters are not available.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile


def write_perf_map(dispatchers) -> int:
    """Address, size and name of every function in the dispatchers' compiled code."""
    entries = {}
    for dispatcher in dispatchers:
        for cres in dispatcher.overloads.values():
            library = cres.library
            engine = library._codegen._engine._ee
            for fn in library._final_module.functions:
                if not fn.is_declaration and fn.name not in entries:
                    address = engine.get_function_address(fn.name)
                    if address:
                        entries[fn.name] = address
    ordered = sorted((a, n) for n, a in entries.items())
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(ordered):
            size = ordered[i + 1][0] - address if i + 1 < len(ordered) else 4096
            out.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return len(ordered)


def play(variant: str, hands: int) -> None:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bezsim-profile-")
    import numpy as np
    from numba import njit

    from bezsim.engine import state as st
    from bezsim.engine.hand import play_hand
    from bezsim.rules import Rules

    @njit
    def loop(params, S, rng, ids, pp, n):
        for h in range(n):
            S[st.CTR_EVENTS] = 0
            play_hand(params, S, rng, ids, pp, None, 0, h % params[1])
        return S[st.O_SC]

    rules = Rules.make(variant)
    params = rules.params()
    players = rules.players
    S = st.new_state(256, 0)
    st.load_rules(S, params)
    rng = np.arange(4 * (1 + players), dtype=np.uint64).reshape(1 + players, 4) + 1
    ids = np.zeros(players, np.int64)            # random play
    pp = np.zeros((players, 16))
    loop(params, S, rng, ids, pp, 100)
    print(f"perf map: {write_perf_map([loop])} functions; playing {hands:,} hands", flush=True)
    loop(params, S, rng, ids, pp, hands)


def report(path: str) -> None:
    text = subprocess.run(["perf", "report", "-i", path, "--stdio", "--sort", "sym"],
                          capture_output=True, text=True, check=True).stdout
    shares: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%.*?_ZN(\S+)", line)
        if not m:
            continue
        parts, s, i = [], m.group(2), 0
        while i < len(s) and s[i].isdigit():
            j = i
            while s[j].isdigit():
                j += 1
            parts.append(s[j:j + int(s[i:j])])
            i = j + int(s[i:j])
        name = ".".join(parts)
        shares[name] = shares.get(name, 0.0) + float(m.group(1))
    total = sum(shares.values()) or 1.0
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1])[:30]:
        print(f"{100 * share / total:5.1f}%  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--report", metavar="PERF_DATA")
    args = ap.parse_args()
    if args.report:
        report(args.report)
    else:
        play(args.variant, args.hands)


if __name__ == "__main__":
    main()
