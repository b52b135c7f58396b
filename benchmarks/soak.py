"""Soak: millions of hands over every variant preset and every built-in policy, each
game's trace walked by the rules referee, ``bezsim.referee`` (the conformance
invariants, replay = batch included; legal moves only, no card declared from outside the hand,
table or open cards, reuse rules never broken, scores never negative). Reports hands checked
and violations.

    python benchmarks/soak.py [--hands 10000000] [--seed 1] [--workers N] [--out DIR]
        [--resume [DIR]] [--search-hands N] [--quick] [--no-progress]

Cells are (variant, policy line-up): random, greedy and heuristic self-play and two mixed
line-ups per preset, plus search against heuristic at a small quota (``--search-hands`` per
preset; search costs 0.04-0.3 s a hand). Every preset gets at least a tenth of ``--hands``;
the rest goes to the ordinary game (the reference game, and the fastest to check). A cell's
games are played in chunks on ``--workers`` processes; a violation, or any exception while
tracing or checking a game, is counted with its reproduction (variant, policies, seed, game)
and the soak goes on. Finished chunks are appended to DIR/chunks.jsonl, so ``--resume``
plays only the missing ones; the summary is DIR/soak.json. Exit status 1 if any violation.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import multiprocessing
import os
import queue
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from bezsim import rules

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = rules.VARIANTS      # every preset
SELF_PLAY = ("random", "greedy", "heuristic")
MIXES = (("heuristic", "greedy", "random"), ("random", "heuristic", "greedy"))  # by seat
MIN_SHARE = 0.1            # of --hands, for every preset
EXTRA_VARIANT = "ordinary"  # gets the rest: the reference game, and the fastest to check
DEFAULT_HANDS = 10_000_000
QUICK_HANDS = 3000
SHOWN_VIOLATIONS = 20      # reproductions printed (all are in soak.json)
LOG_SECONDS = 60           # progress line interval when stderr is not a terminal
CHUNK_HANDS = 1000         # hands per chunk (a few seconds): resume and progress granularity
SEARCH_SHARE = 3e-5        # default --search-hands per preset: 300 at 10M hands
MAX_SEED = 2**63 - 1       # bezsim replay's limit, for the printed reproductions
# Hands per CPU-second of one worker (trace, check and replay = batch), measured by
# ``--hands 100000`` on the 2-core development machine; only for the duration
# estimate printed at the start, which assumes the cores are otherwise idle.
RATES = {
    "ordinary": {"random": 2650, "greedy": 1550, "heuristic": 2350, "mixed": 2250,
                 "search": 10},
    "three_handed": {"random": 1700, "greedy": 1050, "heuristic": 1200, "mixed": 1250,
                     "search": 8},
    "four_handed": {"random": 1400, "greedy": 900, "heuristic": 980, "mixed": 1030,
                    "search": 8},
    "four_handed_partners": {"random": 1330, "greedy": 700, "heuristic": 910, "mixed": 920,
                             "search": 7},
    "polish": {"random": 930, "greedy": 930, "heuristic": 900, "mixed": 920, "search": 12},
    "rubicon": {"random": 1330, "greedy": 830, "heuristic": 800, "mixed": 900, "search": 1.5},
}
# a preset not measured yet is estimated from its definition: a one-hand game, or as many
# hands as the slowest multi-handed preset; the slowest measured rates
UNMEASURED_RATES = {"random": 930, "greedy": 700, "heuristic": 800, "mixed": 900, "search": 1.5}
HANDS_PER_GAME = {"ordinary": 6, "three_handed": 17, "four_handed": 17,
                  "four_handed_partners": 9, "polish": 4, "rubicon": 1}


def hands_per_game(variant: str) -> float:
    if variant in HANDS_PER_GAME:
        return HANDS_PER_GAME[variant]
    return 1 if rules.variant_of(variant).one_hand_game else max(HANDS_PER_GAME.values())


def rate(variant: str, kind: str) -> float:
    return RATES.get(variant, UNMEASURED_RATES)[kind]


class UsageError(Exception):
    """A bad argument: reported as one line."""


# --- the plan: cells and their quotas ------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """Games 0, 1, ... of one (variant, line-up) under its own seed, until ``quota`` hands."""

    variant: str
    policies: tuple[str, ...]
    seed: int
    quota: int
    chunk_games: int

    @property
    def key(self) -> str:
        return f"{self.variant}:{','.join(self.policies)}"

    @property
    def kind(self) -> str:
        """The RATES column of the line-up."""
        if "search" in self.policies:
            return "search"
        return self.policies[0] if len(set(self.policies)) == 1 else "mixed"

    def games(self, index: int) -> tuple[int, int]:
        """(first game, games) of chunk ``index``."""
        return index * self.chunk_games, self.chunk_games


def line_ups(players: int) -> list[tuple[str, ...]]:
    """Self-play of each policy, then the mixes (seat i plays mix[i % 3])."""
    out = [(p,) * players for p in SELF_PLAY]
    return out + [tuple(mix[i % len(mix)] for i in range(players)) for mix in MIXES]


def players_of(variant: str) -> int:
    from bezsim.rules import Rules

    return Rules.make(variant).players


def plan(hands: int, seed: int, search_hands: int) -> list[Cell]:
    """Every preset gets MIN_SHARE of ``hands``; the rest goes to EXTRA_VARIANT; a preset's
    hands are split equally among its line-ups; search cells get ``search_hands`` each. Cell i
    plays under seed ``seed + i`` (search cells come last, so the other cells keep their
    seeds whatever ``search_hands``)."""
    extra = hands - len(VARIANTS) * (MIN_SHARE * hands + search_hands)
    if extra < 0:
        raise UsageError(f"--search-hands {search_hands} leaves no room: at most "
                         f"{int((1 - len(VARIANTS) * MIN_SHARE) * hands / len(VARIANTS))} "
                         f"with --hands {hands}")
    specs = []
    for v in VARIANTS:
        share = MIN_SHARE * hands + (extra if v == EXTRA_VARIANT else 0)
        ups = line_ups(players_of(v))
        specs += [(v, up, math.ceil(share / len(ups))) for up in ups]
    if search_hands:
        specs += [(v, ("search",) + ("heuristic",) * (players_of(v) - 1), search_hands)
                  for v in VARIANTS]
    cells = []
    for i, (v, up, quota) in enumerate(specs):
        per_chunk = CHUNK_HANDS if "search" not in up else 1
        games = max(1, round(min(per_chunk, quota) / hands_per_game(v)))
        cells.append(Cell(v, up, seed + i, quota, games))
    return cells


def estimate_seconds(cells: list[Cell], workers: int, done: dict[str, int]) -> float:
    """Wall seconds for the hands still to play (``done``: hands per cell key) at RATES."""
    return sum(max(0, c.quota - done.get(c.key, 0)) / rate(c.variant, c.kind)
               for c in cells) / workers


# --- one chunk: trace and check its games (runs in the worker processes) -------------------

@cache
def rules_of(variant: str, options: tuple[tuple[str, str], ...] = ()):
    from bezsim.rules import Rules

    return Rules.make(variant, dict(options))


def check_chunk(variant: str, policies: tuple[str, ...], seed: int, game_start: int,
                games: int, tracer: Callable | None = None,
                options: tuple[tuple[str, str], ...] = ()) -> dict:
    """Trace and check games ``game_start ..``, then replay = batch; a Violation or any other
    exception in a game is a violation of that game (with its reproduction) and the chunk goes
    on. ``tracer`` (default ``trace_one``) is the seam the tests use to feed the checker a
    broken trace; ``options`` are rule options over the preset, as (name, value) pairs."""
    from bezsim.engine import constants as C
    from bezsim.engine_api.games import trace_one
    from bezsim.referee import Game, Violation

    tracer = tracer or trace_one
    rules = rules_of(variant, tuple(sorted(options)))
    start, cpu = time.perf_counter(), time.process_time()
    hands, violations, traced = 0, [], {}

    def violation(game: int, exc: BaseException) -> None:
        violations.append({"variant": variant, "policies": list(policies), "seed": seed,
                           "game": game, "message": f"{type(exc).__name__}: {exc}"[:2000]}
                          | ({"options": dict(options)} if options else {}))

    collecting = gc.isenabled()
    gc.disable()    # the checker makes no reference cycles; the collector's passes over the
    try:            # thousands of short-lived trace rows cost 10-30% of the time
        for game in range(game_start, game_start + games):
            try:
                batch, trace = tracer(rules, list(policies), seed, game)
                hands += int(batch.game_info[0, C.GI_HANDS])
                Game(rules, trace.tolist(), batch, tuple(policies)).run()
                traced[game] = batch
            except Exception as exc:   # the engine's or the checker's: both are findings
                violation(game, exc)
        try:
            for game, message in replay_differences(rules, policies, seed, game_start, games,
                                                    traced):
                violation(game, Violation(message))
        except Exception as exc:
            violation(game_start, exc)
    finally:
        if collecting:
            gc.enable()
    return {"games": games, "hands": hands, "violations": violations,
            "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def replay_differences(rules, policies: tuple[str, ...], seed: int, game_start: int,
                       games: int, traced: dict) -> list[tuple[int, str]]:
    """Replay = batch (a conformance invariant, as ``bezsim.referee.Sample``): the outcome
    rows of each traced game that passed the checker equal those the batch engine writes for
    the same games; only the rows a game uses are compared. (game, difference) per game."""

    from bezsim.engine_api import games as api
    from bezsim.referee import batch_difference

    batch = api.run_games(rules, list(policies), seed, game_start, games, parallel=False)
    out = []
    for game, one in traced.items():
        name = batch_difference(one, batch, game - game_start)
        if name is not None:
            out.append((game, f"trace_one and run_games differ: {name}"))
    return out


# --- the ledger: config, finished chunks, sessions ------------------------------------------

class Ledger:
    """DIR/config.json (the plan) and DIR/chunks.jsonl (one line per finished chunk and per
    session start), appended and flushed line by line so an interruption loses only the
    chunks in flight."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.config_path = out / "config.json"
        self.chunks_path = out / "chunks.jsonl"

    def exists(self) -> bool:
        return self.config_path.exists()

    def create(self, config: dict) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(json.dumps(config, indent=1) + "\n")
        self.chunks_path.write_text("")

    def config(self) -> dict:
        return json.loads(self.config_path.read_text())

    def lines(self) -> list[dict]:
        """Every whole line; a line cut by a kill is dropped (and cut off the file)."""
        if not self.chunks_path.exists():
            return []
        text = self.chunks_path.read_text()
        whole = text[:text.rfind("\n") + 1]
        if whole != text:
            self.chunks_path.write_text(whole)
        return [json.loads(line) for line in whole.splitlines() if line.strip()]

    def append(self, record: dict) -> None:
        with self.chunks_path.open("a") as f:
            f.write(json.dumps(record) + "\n")
            f.flush()


# --- the scheduler ----------------------------------------------------------------------------

class Progress:
    """Per cell: chunks done (from the ledger and this session), hands done, chunks in flight."""

    def __init__(self, cells: list[Cell], records: list[dict]) -> None:
        self.cells = {c.key: c for c in cells}
        self.done: dict[str, set[int]] = {c.key: set() for c in cells}
        self.hands = dict.fromkeys(self.cells, 0)
        self.games = dict.fromkeys(self.cells, 0)
        self.flying: dict[str, set[int]] = {c.key: set() for c in cells}
        for r in records:
            if r.get("type") == "chunk":
                self.record(r)

    def record(self, r: dict) -> None:
        key = r["cell"]
        if key not in self.cells:
            raise UsageError(f"the ledger names a cell the plan does not hold: {key}")
        if r["index"] not in self.done[key]:
            self.done[key].add(r["index"])
            self.hands[key] += r["hands"]
            self.games[key] += r["games"]

    def expected(self, key: str) -> float:
        """Hands done plus the hands expected from the chunks in flight."""
        cell = self.cells[key]
        per_game = (self.hands[key] / self.games[key] if self.games[key]
                    else hands_per_game(cell.variant))
        return self.hands[key] + len(self.flying[key]) * cell.chunk_games * per_game

    def next_chunk(self) -> tuple[Cell, int] | None:
        """The least advanced cell that still needs hands, and its first chunk neither done
        nor in flight (gaps left by an interruption first)."""
        open_cells = [k for k, c in self.cells.items() if self.expected(k) < c.quota]
        if not open_cells:
            return None
        key = min(open_cells, key=lambda k: self.expected(k) / self.cells[k].quota)
        index = 0
        while index in self.done[key] or index in self.flying[key]:
            index += 1
        return self.cells[key], index



class Meter:
    """Progress in hands (each cell counted up to its quota): a tqdm bar on a terminal, else
    a line every LOG_SECONDS, for the log of a long run in the background."""

    def __init__(self, total: int, done: int, show: bool) -> None:
        from tqdm import tqdm

        self.total, self.done, self.first = total, done, done
        self.show = show
        self.started = self.logged = time.time()
        self.bar = tqdm(total=total, initial=done, unit="hand", unit_scale=True,
                        smoothing=0.02, mininterval=2, dynamic_ncols=True,
                        disable=not (show and sys.stderr.isatty()))

    def update(self, hands: int, violations: int) -> None:
        self.done += hands
        self.bar.update(hands)
        self.bar.set_postfix(violations=violations, refresh=False)
        now = time.time()
        if self.show and self.bar.disable and now - self.logged >= LOG_SECONDS:
            self.logged = now
            rate = (self.done - self.first) / (now - self.started)
            left = (self.total - self.done) / rate if rate else float("nan")
            print(f"soak: {self.done:,} of {self.total:,} hands, {violations} violations, "
                  f"{(now - self.started) / 60:.1f} min, about {left / 60:.0f} min to go",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it terminates the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_chunks(cells: list[Cell], ledger: Ledger, workers: int, show: bool) -> None:
    """Play every chunk the plan still needs; each finished one goes to the ledger at once."""
    records = ledger.lines()
    progress = Progress(cells, records)
    session = time.time()
    ledger.append({"type": "session", "started": session, "workers": workers})
    counted = {c.key: min(progress.hands[c.key], c.quota) for c in cells}
    meter = Meter(sum(c.quota for c in cells), sum(counted.values()), show)
    violations = sum(len(r["violations"]) for r in records if r.get("type") == "chunk")

    def finish(cell: Cell, index: int, result: dict) -> None:
        nonlocal violations
        progress.flying[cell.key].discard(index)
        record = {"type": "chunk", "cell": cell.key, "index": index,
                  "game_start": cell.games(index)[0], **result, "session": session,
                  "finished": time.time()}
        ledger.append(record)
        progress.record(record)
        violations += len(result["violations"])
        now = min(progress.hands[cell.key], cell.quota)
        meter.update(now - counted[cell.key], violations)
        counted[cell.key] = now

    def start(job: tuple[Cell, int]) -> tuple:
        cell, index = job
        progress.flying[cell.key].add(index)
        return cell.variant, cell.policies, cell.seed, *cell.games(index)

    try:
        if workers == 1:                         # in process: tests, debugging, --workers 1
            while (job := progress.next_chunk()) is not None:
                finish(*job, check_chunk(*start(job)))
            return
        results: queue.Queue = queue.Queue()
        context = multiprocessing.get_context("spawn")   # no numba state crosses a fork
        with context.Pool(workers, initializer=ignore_interrupts) as pool:  # exit: terminate
            flying = 0
            while True:
                while flying < 2 * workers and (job := progress.next_chunk()) is not None:
                    pool.apply_async(check_chunk, start(job),
                                     callback=lambda r, job=job: results.put((job, r)),
                                     error_callback=lambda e, job=job: results.put((job, e)))
                    flying += 1
                if not flying:
                    break
                job, result = results.get()
                flying -= 1
                if isinstance(result, BaseException):
                    raise result                 # not a game's fault: the chunk machinery's
                finish(*job, result)
    finally:
        meter.close()


# --- the report -------------------------------------------------------------------------------

def summarize(cells: list[Cell], records: list[dict]) -> dict:
    """Per cell: hands, games, violations, worker seconds (and CPU seconds: the load of other
    processes does not count there) and hands per worker second. In total: the same over
    the cells, the wall time over all sessions and hands per wall second."""
    chunks = [r for r in records if r.get("type") == "chunk"]
    rows = []
    for c in cells:
        mine = {r["index"]: r for r in chunks if r["cell"] == c.key}.values()
        hands = sum(r["hands"] for r in mine)
        seconds = sum(r["seconds"] for r in mine)
        rows.append({"variant": c.variant, "policies": ",".join(c.policies), "seed": c.seed,
                     "quota": c.quota, "hands": hands, "games": sum(r["games"] for r in mine),
                     "violations": sum(len(r["violations"]) for r in mine),
                     "seconds": round(seconds, 1),
                     "cpu_seconds": round(sum(r.get("cpu_seconds", 0) for r in mine), 1),
                     "hands_per_s": round(hands / seconds, 1) if seconds else None,
                     "complete": hands >= c.quota})
    sessions = {r["started"]: r["started"] for r in records if r.get("type") == "session"}
    for r in chunks:
        if r["session"] in sessions:
            sessions[r["session"]] = max(sessions[r["session"]], r["finished"])
    wall = sum(end - start for start, end in sessions.items())
    total = {k: sum(row[k] for row in rows) for k in ("hands", "games", "violations")}
    total.update(wall_seconds=round(wall, 1),
                 hands_per_s=round(total["hands"] / wall, 1) if wall else None,
                 worker_seconds=round(sum(row["seconds"] for row in rows), 1),
                 cpu_seconds=round(sum(row["cpu_seconds"] for row in rows), 1),
                 complete=all(row["complete"] for row in rows))
    by_variant = {v: sum(row["hands"] for row in rows if row["variant"] == v) for v in VARIANTS}
    violations = [v for r in chunks for v in r["violations"]]
    return {"cells": rows, "variants": by_variant, "total": total, "violations": violations}


def table(summary: dict) -> str:
    """Per cell: seconds and hands/s in one worker; total: on the wall clock."""
    head = (f"{'variant':22} {'policies':36} {'hands':>10} {'games':>9} {'viol.':>6} "
            f"{'seconds':>9} {'hands/s':>9}")
    lines = [head, "-" * len(head)]
    for r in summary["cells"]:
        rate = f"{r['hands_per_s']:.0f}" if r["hands_per_s"] else "-"
        lines.append(f"{r['variant']:22} {r['policies']:36} {r['hands']:>10,} {r['games']:>9,} "
                     f"{r['violations']:>6} {r['seconds']:>9.0f} {rate:>9}")
    t = summary["total"]
    lines.append("-" * len(head))
    rate = f"{t['hands_per_s']:.0f}" if t["hands_per_s"] else "-"
    lines.append(f"{'total (wall clock)':59} {t['hands']:>10,} {t['games']:>9,} "
                 f"{t['violations']:>6} {t['wall_seconds']:>9.0f} {rate:>9}")
    lines.append(f"worker seconds {t['worker_seconds']:.0f} (CPU {t['cpu_seconds']:.0f}); "
                 "hands per variant: " + ", ".join(f"{v} {h:,}"
                                                   for v, h in summary["variants"].items()))
    return "\n".join(lines)


def reproduction(v: dict) -> str:
    policies = ",".join(v["policies"])
    return (f"{v['variant']} policies {policies} seed {v['seed']} game {v['game']}: "
            f"{v['message']}\n    transcript: bezsim replay --variant {v['variant']} "
            f"--policies {policies} --seed {v['seed']} --game {v['game']}\n    check: "
            f"python -c \"from bezsim.referee import checked; "
            f"from bezsim.rules import Rules; checked(Rules.make("
            f"'{v['variant']}'), {v['policies']!r}, {v['seed']}, {v['game']})\"")


# --- the command --------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:          # one line, like `bezsim: error: ...`
        print(f"soak: error: {message}", file=sys.stderr)
        sys.exit(2)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    ap = Parser(description="Soak: every variant preset and built-in policy, each "
                "game's trace checked by the rules referee (bezsim.referee).")
    ap.add_argument("--hands", type=int, help=f"hands in all (default {DEFAULT_HANDS:,}; "
                    f"--quick: {QUICK_HANDS:,})")
    ap.add_argument("--seed", type=int, default=1, help="root seed: cell i plays seed + i")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="worker processes (default: all cores)")
    ap.add_argument("--search-hands", type=int,
                    help="hands of search vs heuristic per preset (default: 0.003%% of "
                    "--hands, at least 5)")
    ap.add_argument("--out", type=Path, help="run directory (default data/runs/soak-<seed>)")
    ap.add_argument("--resume", nargs="?", const="", metavar="DIR",
                    help="finish the soak in DIR (default: --out): its plan is kept")
    ap.add_argument("--quick", action="store_true", help="a small smoke run")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap.parse_args(argv)


def setup(args: argparse.Namespace) -> tuple[list[Cell], Ledger]:
    """Validate the arguments; the plan and the ledger, new or resumed."""
    most = 4 * (os.cpu_count() or 1)
    if not 1 <= args.workers <= most:
        raise UsageError(f"--workers must be between 1 and {most}, got {args.workers}")
    default_out = ROOT / "data" / "runs" / (f"soak-{args.seed}" + ("-quick" if args.quick
                                                                  else ""))
    if args.resume is not None:
        out = Path(args.resume) if args.resume else args.out or default_out
        ledger = Ledger(out)
        if not ledger.exists():
            raise UsageError(f"nothing to resume in {out}: no config.json")
        if args.hands is not None or args.search_hands is not None:
            raise UsageError("--resume keeps the run's plan: drop --hands and --search-hands")
        return [Cell(**{**c, "policies": tuple(c["policies"])})
                for c in ledger.config()["cells"]], ledger
    hands = args.hands if args.hands is not None else QUICK_HANDS if args.quick else \
        DEFAULT_HANDS
    if hands < 100:
        raise UsageError(f"--hands must be at least 100, got {hands}")
    search = args.search_hands if args.search_hands is not None else max(
        5, round(hands * SEARCH_SHARE))
    if search < 0:
        raise UsageError(f"--search-hands must not be negative, got {search}")
    if not 0 <= args.seed <= MAX_SEED - 100:
        raise UsageError(f"--seed must be between 0 and {MAX_SEED - 100}, got {args.seed}")
    out = args.out or default_out
    ledger = Ledger(out)
    if ledger.exists() or (out.exists() and (not out.is_dir() or any(out.iterdir()))):
        raise UsageError(f"{out} is not empty: finish that soak with --resume {out}, or "
                         "pick another --out")
    cells = plan(hands, args.seed, search)
    try:
        ledger.create({"hands": hands, "seed": args.seed, "search_hands": search,
                       "created": time.time(), "cells": [asdict(c) for c in cells]})
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    return cells, ledger


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    try:
        cells, ledger = setup(args)
        done = Progress(cells, ledger.lines()).hands
    except (UsageError, ValueError) as exc:       # ValueError: a damaged ledger line
        print(f"soak: error: {exc}", file=sys.stderr)
        return 2
    left = sum(max(0, c.quota - done[c.key]) for c in cells)
    print(f"soak: {len(cells)} cells, {left:,} of {sum(c.quota for c in cells):,} hands to "
          f"play, {args.workers} workers, into {ledger.out}; about "
          f"{estimate_seconds(cells, args.workers, done) / 60:.0f} min on otherwise idle "
          "cores like the development machine's", file=sys.stderr)
    try:
        run_chunks(cells, ledger, args.workers, show=not args.no_progress)
    except KeyboardInterrupt:
        print(f"\nsoak: interrupted; resume with: python benchmarks/soak.py --resume "
              f"{ledger.out}", file=sys.stderr)
        return 130
    summary = summarize(cells, ledger.lines())
    summary["config"] = {k: v for k, v in ledger.config().items() if k != "cells"}
    summary["workers"] = args.workers
    (ledger.out / "soak.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(table(summary))
    for v in summary["violations"][:SHOWN_VIOLATIONS]:
        print("VIOLATION " + reproduction(v))
    if len(summary["violations"]) > SHOWN_VIOLATIONS:
        print(f"... and {len(summary['violations']) - SHOWN_VIOLATIONS} more violations in "
              f"{ledger.out / 'soak.json'}")
    t = summary["total"]
    print(f"soak: {t['hands']:,} hands checked, {t['violations']} violations, "
          f"{t['wall_seconds'] / 60:.1f} min; {ledger.out / 'soak.json'}")
    return 1 if t["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
