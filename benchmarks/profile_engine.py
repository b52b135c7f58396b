"""Where the engine spends its time, per compiled function, with Linux ``perf``.

    perf record -e cpu-clock -F 4000 -o /tmp/bezsim.perf \\
        python benchmarks/profile_engine.py --variant ordinary --hands 1000000 [--policy expert]
    python benchmarks/profile_engine.py --report /tmp/bezsim.perf

The first command compiles the engine afresh in a temporary cache (about 2 minutes: code loaded
from numba's on-disk cache carries no symbols), writes ``/tmp/perf-<pid>.map`` naming every
compiled function so perf can attribute samples to them, copies each function's machine code
to ``/tmp/bezsim-jit-<pid>/``, then plays hands in one loop. The second prints each bezsim
function's share of the samples spent in compiled code (functions numba inlined count toward
their caller). ``cpu-clock`` is a software event, so this works on machines whose hardware
counters are not available.

    python benchmarks/profile_engine.py --hot /tmp/bezsim.perf --jit /tmp/bezsim-jit-<pid>

goes down to instructions: the hottest 64-byte stretches of the hottest functions,
disassembled (objdump) with the samples on each instruction. Offsets into the state array
name its regions (bezsim/engine/state.py, 4 bytes a slot); this is how the wrap-around of
signed indices showed up (README, "Speed").
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import json
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
    jit_dir = f"/tmp/bezsim-jit-{os.getpid()}"
    os.makedirs(jit_dir, exist_ok=True)
    index = {}
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(ordered):
            size = min(ordered[i + 1][0] - address if i + 1 < len(ordered) else 4096, 1 << 20)
            out.write(f"{address:x} {size:x} {name}\n")
            path = os.path.join(jit_dir, f"{i}.bin")
            with open(path, "wb") as code:
                code.write(ctypes.string_at(address, size))
            index[name] = [address, size, path]
    with open(os.path.join(jit_dir, "index.json"), "w") as out:
        json.dump(index, out)
    return len(ordered)


def play(variant: str, hands: int, policy: str = "random") -> None:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bezsim-profile-")
    import numpy as np
    from numba import njit

    from bezsim.engine import state as st
    from bezsim.engine.hand import play_hand
    from bezsim.policy_specs.registry import parse_policies, policy_params
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
    specs = parse_policies([policy] * players, players)
    pp = policy_params(specs, variant)           # the built-in's row, at the variant's defaults
    from bezsim.policy_specs.registry import POLICY_IDS, parse_spec
    ids = np.full(players, POLICY_IDS[parse_spec(specs[0])[0].name], np.int64)
    loop(params, S, rng, ids, pp, 100)
    print(f"perf map: {write_perf_map([loop])} functions, code in /tmp/bezsim-jit-{os.getpid()}; "
          f"playing {hands:,} hands", flush=True)
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


def hot(path: str, jit_dir: str, functions: int, windows: int) -> None:
    """The hottest 64-byte stretches of the hottest functions, disassembled."""
    with open(os.path.join(jit_dir, "index.json")) as handle:
        index = json.load(handle)
    script = subprocess.run(["perf", "script", "-i", path, "-F", "ip"], capture_output=True,
                            text=True, check=True).stdout
    samples = collections.Counter(int(word, 16) for word in script.split())
    by_function = {name: {ip: n for ip, n in samples.items() if a <= ip < a + size}
                   for name, (a, size, _) in index.items()}
    total = sum(sum(ips.values()) for ips in by_function.values()) or 1
    ranked = sorted(by_function.items(), key=lambda kv: -sum(kv[1].values()))[:functions]
    for name, ips in ranked:
        address, _, code = index[name]
        print(f"{100 * sum(ips.values()) / total:5.1f}%  {name[:100]}")
        listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                                  f"--adjust-vma={address:#x}", code], capture_output=True,
                                 text=True, check=True).stdout
        # "address:<tab>bytes<tab>instruction"; long instructions continue their bytes on
        # a line of their own, without an instruction
        lines = [line for line in listing.splitlines()
                 if re.match(r"\s+[0-9a-f]+:\t", line) and line.count("\t") >= 2]
        stretches = collections.Counter()
        for ip, n in ips.items():
            stretches[(ip - address) // 64] += n
        for stretch, n in stretches.most_common(windows):
            print(f"    +{stretch * 64:#x}: {100 * n / total:.2f}% of compiled-code samples")
            lo, hi = address + stretch * 64, address + stretch * 64 + 64
            for line in lines:
                at = int(line.split(":")[0], 16)
                if lo <= at < hi:
                    print(f"      {samples.get(at, 0):6d}  {line.split(chr(9))[-1][:80]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--policy", default="random", help="a built-in policy in every seat")
    ap.add_argument("--report", metavar="PERF_DATA")
    ap.add_argument("--hot", metavar="PERF_DATA", help="instruction-level: needs --jit")
    ap.add_argument("--jit", metavar="DIR", help="the /tmp/bezsim-jit-<pid> of the run")
    ap.add_argument("--functions", type=int, default=3)
    ap.add_argument("--windows", type=int, default=8)
    args = ap.parse_args()
    if args.hot:
        if not args.jit:
            ap.error("--hot needs --jit /tmp/bezsim-jit-<pid> (printed by the playing run)")
        hot(args.hot, args.jit, args.functions, args.windows)
    elif args.report:
        report(args.report)
    else:
        play(args.variant, args.hands, args.policy)


if __name__ == "__main__":
    main()
