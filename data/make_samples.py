"""Write the committed sample runs, one per variant, into data/samples/<variant>/.

    python data/make_samples.py            # all variants (a few seconds once compiled)
    python data/make_samples.py polish     # one

They are small on purpose (a few MB in all): enough for notebooks, tests and a readable
``bezsim report``, not for tight intervals; simulate more for real questions. Each is an
ordinary run directory, a pure function of the settings below, so a test re-runs one and
compares it with the committed tables.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent / "samples"
SEED = 8
# variant -> (policies, games). The ordinary sample mixes two policies so that reports and
# notebooks have a policy comparison to show.
SPECS: dict[str, tuple[str, int]] = {
    "ordinary": ("heuristic,greedy", 3000),
    "three_handed": ("greedy", 800),
    "four_handed": ("greedy", 600),
    "four_handed_partners": ("greedy", 1000),
    "polish": ("greedy", 1500),
    "rubicon": ("greedy", 6000),
    "six_pack": ("greedy", 3000),
}


def make_sample(variant: str, out: Path) -> Path:
    """Simulate the sample of ``variant`` into ``out`` (replacing what is there)."""
    from bezsim.policy_specs.registry import parse_policies
    from bezsim.rules import Rules
    from bezsim.running.simulation import run_simulation

    policies, games = SPECS[variant]
    rules = Rules.make(variant)
    if out.exists():
        shutil.rmtree(out)
    run_simulation(rules, parse_policies(policies, rules.players), SEED, games, out,
                   threads=1, progress=False)
    return out


def main(argv: list[str]) -> None:
    variants = argv or list(SPECS)
    for variant in variants:
        if variant not in SPECS:
            raise SystemExit(f"unknown variant {variant!r} (samples: {', '.join(SPECS)})")
        path = make_sample(variant, SAMPLES / variant)
        size = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        print(f"{variant}: {path} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main(sys.argv[1:])
