"""The frame of an ``analyses/`` script: one question, a fixed seed and size, runs simulated
into ``data/runs/analyses/<name>/``, a report written to ``analyses/reports/<name>.*``.

    python analyses/rubicon_rate.py             # full size: writes analyses/reports/
    python analyses/rubicon_rate.py --quick     # reduced size: analyses/reports/quick/
    python analyses/rubicon_rate.py --check     # recompute in a scratch dir, compare numbers

A study is a pure function of (seed, size): ``--check`` re-simulates at the size the
committed JSON records and compares every number with it, so a committed report can be
shown to be what the code gives. Finished runs are kept (git-ignored), so writing the report
again does not simulate again, unless the engine's or a policy's code changed since: beside
each run lies the digest of the kernel sources it was played with, and a run played with
others is played again.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from bezsim import __version__
from bezsim.analysis.load import Run, load_run
from bezsim.errors import OutputError
from bezsim.io.writable import UnwritableError, check_writable_dir, write_or_keep
from bezsim.report.document import Document
from bezsim.report.render import settled, write_document

REPO = Path(__file__).resolve().parents[2]
REPORTS = REPO / "analyses" / "reports"
RUNS = REPO / "data" / "runs" / "analyses"


@dataclass
class Context:
    """What a study's ``build`` gets: its seed and size, and where to put runs."""

    name: str
    seed: int
    games: int
    quick: bool
    runs_dir: Path
    threads: int = 1

    def log(self, text: str) -> None:
        print(f"[{self.name}] {text}", file=sys.stderr, flush=True)

    def simulate(self, label: str, variant: str, policies: str | Sequence[str], games: int,
                 seed: int | None = None, options: dict[str, Any] | None = None) -> Run:
        """Play (or reuse, if already finished) a run under ``runs_dir/label``."""
        from bezsim.policy_specs.registry import parse_policies
        from bezsim.rules import Rules
        from bezsim.running.simulation import run_simulation

        rules = Rules.make(variant, options or {})
        specs = parse_policies(policies if isinstance(policies, str) else list(policies),
                               rules.players)
        seed = self.seed if seed is None else seed
        out = self.runs_dir / label
        same_kernels(out)
        self.log(f"{label}: {variant}, {games:,} games, {','.join(specs)}, seed {seed}")
        run_simulation(rules, specs, seed, games, out, threads=self.threads, progress=False)
        return load_run(out, label)

    def tournament(self, label: str, variant: str, policies: Sequence[str], deals: int,
                   seed: int | None = None) -> pd.DataFrame:
        """A duplicate-deal round robin, stored as ``tournament.parquet`` and read back."""
        from bezsim import tournament as tour
        from bezsim.rules import Rules

        rules = Rules.make(variant)
        names = tour.check_policies(list(policies))
        seed = self.seed if seed is None else seed
        out = self.runs_dir / label
        same_kernels(out)
        description = tour.describe_run(rules, names, deals, seed)
        stored = out / tour.JSON_NAME
        if not (stored.is_file() and _same_tournament(stored, description)):
            self.log(f"{label}: {variant} tournament {','.join(names)}, {deals:,} deals, "
                     f"seed {seed}")
            frame = tour.run_tournament(rules, names, deals, seed, threads=self.threads)
            tour.write_tournament(frame, out, description)
        return tour.read_tournament(out)


def same_kernels(out: Path) -> None:
    """Remove a stored run played by other kernel sources (or of unknown ones), so it is
    played again: a run's identity is its rules, policies and seed, but a fix to the engine
    or a policy changes its games without changing those. Then record this code's digest
    beside the run (``<run>.kernels``), so an interrupted run of the same code resumes."""
    from bezsim.compile_cache import kernel_digest

    digest = kernel_digest()
    marker = out.with_name(out.name + ".kernels")
    if out.exists() and (not marker.is_file() or marker.read_text().strip() != digest):
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(digest + "\n")


def _same_tournament(path: Path, description: dict[str, Any]) -> bool:
    stored = json.loads(path.read_text())
    keys = ("variant", "options", "policies", "policy_params", "seed", "games")
    return all(stored.get(k, {} if k == "policy_params" else None)
               == json.loads(json.dumps(description[k])) for k in keys)


@dataclass
class Study:
    name: str                 # file stem of the script and its report
    question: str
    seed: int
    games: int                # games (or deals) per run at full size
    quick_games: int          # the reduced size the tests run
    build: Callable[[Context, Document], None]

    def script(self) -> str:
        return f"analyses/{self.name}.py"

    def repository(self) -> Path:
        """The checkout the study's script lives in (its reports and runs go there, so a
        copy of the repository writes into the copy)."""
        return Path(inspect.getsourcefile(self.build)).resolve().parents[1]

    def run(self, games: int, runs_dir: Path, quick: bool = False, threads: int = 1
            ) -> Document:
        """Compute the study at ``games`` and return its report."""
        ctx = Context(self.name, self.seed, games, quick, Path(runs_dir), threads)
        runs_text = f"data/runs/analyses/{self.name}{'-quick' if quick else ''}/"
        doc = Document(self.question,
                       f"`{self.script()}` · seed {self.seed} · {games:,} games (or deals) per "
                       f"run{' (quick size)' if quick else ''} · bezsim {__version__}")
        doc.record("study", self.name)
        doc.record("seed", self.seed)
        doc.record("games", games)
        self.build(ctx, doc)
        flag = " --quick" if quick else (f" --games {games}" if games != self.games else "")
        doc.section("Reproduce").add(
            f"`python {self.script()}{flag}` simulates the runs (seed {self.seed}) into "
            f"`{runs_text}` and writes this report; "
            f"`python {self.script()}{flag} --check` recomputes it from scratch and compares "
            "every number with the committed JSON. A run is a pure function of rules, "
            "policies, seed and games, so the numbers are exact, not approximately equal.")
        return doc

    def main(self, argv: Sequence[str] | None = None) -> int:
        args = _parser(self).parse_args(argv)
        quick = args.quick
        reports = self.repository() / REPORTS.relative_to(REPO)
        default_out = reports / "quick" if quick else reports
        out = Path(args.out) if args.out else default_out
        games = args.games or (self.quick_games if quick else self.games)
        if args.check:
            return self.check(out, quick, args.threads, args.games)
        runs_root = self.repository() / RUNS.relative_to(REPO)
        runs = Path(args.runs) if args.runs else runs_root / (f"{self.name}-quick" if quick
                                                              else self.name)
        try:          # before any game: a study's hours are never lost to its output path
            check_writable_dir(out, "report directory")
            check_writable_dir(runs, "runs directory")
        except UnwritableError as exc:
            print(f"{self.script()}: error: {exc}", file=sys.stderr)
            return 2
        doc = self.run(games, runs, quick, args.threads)
        try:
            paths = write_or_keep(lambda where: write_document(
                doc, where, self.name, figure_prefix=f"{self.name}-"), out, "the report")
        except OutputError as exc:
            print(f"{self.script()}: error: {exc}", file=sys.stderr)
            return 1
        for kind, path in paths.items():
            print(f"{kind}: {path}")
        return 0

    def check(self, out: Path, quick: bool, threads: int, games: int | None = None) -> int:
        """Recompute at the committed size in a scratch directory; 0 if every number
        matches the committed JSON, 1 (and the differences) if not."""
        committed_path = out / f"{self.name}.json"
        if not committed_path.is_file():
            print(f"{self.name}: no committed numbers at {committed_path}", file=sys.stderr)
            return 1
        committed = settled(json.loads(committed_path.read_text(encoding="utf-8")))
        games = games or int(committed["games"])
        with tempfile.TemporaryDirectory(prefix=f"check-{self.name}-") as scratch:
            doc = self.run(games, Path(scratch), quick, threads)
        fresh = json.loads(json.dumps(settled(doc.numbers)))
        differences = compare_numbers(committed, fresh)
        if differences:
            print(f"{self.name}: {len(differences)} numbers differ from {committed_path}:")
            for line in differences[:40]:
                print(f"  {line}")
            return 1
        print(f"{self.name}: all {count_numbers(fresh)} numbers match {committed_path} "
              f"(seed {self.seed}, {games:,} games)")
        return 0


def _parser(study: Study) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=study.script(), description=study.question)
    parser.add_argument("--quick", action="store_true",
                        help=f"reduced size ({study.quick_games:,}) for tests; report goes "
                             "to analyses/reports/quick/")
    parser.add_argument("--games", type=int, default=None,
                        help=f"games (or deals) per run [default {study.games:,}]")
    parser.add_argument("--out", default=None, help="report directory "
                                                    "[default analyses/reports]")
    parser.add_argument("--runs", default=None, help="where runs go "
                                                     "[default data/runs/analyses/NAME]")
    parser.add_argument("--threads", type=int, default=1, help="engine threads [1]")
    parser.add_argument("--check", action="store_true",
                        help="recompute from scratch and compare with the committed numbers")
    return parser


def count_numbers(value: Any) -> int:
    if isinstance(value, dict):
        return sum(count_numbers(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_numbers(v) for v in value)
    return 1


def compare_numbers(expected: Any, actual: Any, path: str = "", rel: float = 1e-9
                    ) -> list[str]:
    """Every place where two JSON trees differ (floats within ``rel``: summation order may
    differ between numpy builds in the last bits)."""
    where = path or "(top)"
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = [f"{path}.{k}: missing in the fresh run" for k in expected if k not in actual]
        out += [f"{path}.{k}: new in the fresh run" for k in actual if k not in expected]
        for k in expected:
            if k in actual:
                out += compare_numbers(expected[k], actual[k], f"{path}.{k}" if path else k, rel)
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} items, fresh run {len(actual)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for d in compare_numbers(e, a, f"{where}[{i}]", rel)]
    if isinstance(expected, float) or isinstance(actual, float):
        if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) \
                and math.isclose(expected, actual, rel_tol=rel, abs_tol=2e-10):   # DECIMALS
            return []
    elif expected == actual:
        return []
    return [f"{where}: committed {expected!r}, fresh {actual!r}"]
