"""Plan a run as shards of consecutive game ids, compute them, and write them to Parquet.

The main thread runs the engine (whose threads release the GIL: engine_api/games.py) while two
background threads convert and write the shards already
computed: each shard's declarations are one task and its hands and games another. At most
WRITE_DEPTH shards' writes are pending, so memory holds at most WRITE_DEPTH + 1 shards.
"""

from __future__ import annotations

import collections
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from bezsim.engine_api import games as api
from bezsim.errors import BezsimError
from bezsim.io.manifest import (
    build_manifest,
    check_out_dir,
    check_same_kernels,
    run_identity,
    write_manifest,
)
from bezsim.io.schema import TABLE_NAMES
from bezsim.io.shards import (
    damage_note,
    foreign_files,
    remove_stale_temporaries,
    shard_metadata,
    shard_problems,
)
from bezsim.io.storage import FsspecStore, LocalStore, store_for
from bezsim.io.tables import batches_table
from bezsim.io.writable import check_writable_dir
from bezsim.rules import Rules
from bezsim.running.shard_work import (
    ChunkSizer,
    compute_shard,
    count_hands,
    plan_shards,
    write_tables,
)

MAX_SEED = 2**63 - 1
MAX_GAMES = 2**63 - 1      # game ids are int64 in the engine and the tables
MAX_SHARDS = 1_000_000     # shard files are part-NNNNNN; the plan is a list in memory
# The writer's two threads, and the tables each converts and writes. The declarations table
# is the costliest (Polish: 29 rows a hand); writing it beside the others shortens the
# engine's wait for the previous shard, and the write of the last shard, which nothing
# overlaps.
WRITE_GROUPS: tuple[tuple[str, ...], ...] = (("declarations",), ("hands", "games"))
# Shards whose write may still be pending when the next one has been computed. With one,
# a Polish shard's declarations (29 rows a hand) took one writer thread longer than the
# engine took to play the next shard, so the engine waited and a core idled (13% of a
# Polish run); with two, the other writer thread starts the next shard's declarations.
WRITE_DEPTH = 2


@dataclass(frozen=True)
class RunSummary:
    out_dir: str
    seed: int
    games: int            # games in the whole run
    games_run: int        # computed by this call
    games_skipped: int    # already on disk (resumed)
    shards_run: int
    shards_skipped: int
    hands: int            # hands played in the games computed by this call
    elapsed: float        # seconds, compile included
    hands_per_second: float   # compile excluded
    compile_seconds: float = 0.0   # compiling kernels (0 when they loaded from the cache)
    ignored: tuple[str, ...] = ()  # files in the table folders that bezsim did not write
    damaged: tuple[str, ...] = ()  # shards found started but not whole, played again


def _is_whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _validate(rules: Rules, policies: list[str], seed: int, games: int, shard_size: int,
              threads: int | None, dask: str | None = None) -> list[str]:
    """Refuse a run that cannot be played, before any file is written; returns the policies
    as canonical specs (what the tables and the manifest record)."""
    if not isinstance(rules, Rules):
        raise BezsimError(f"rules must be a bezsim.rules.Rules (Rules.make(variant, options)), "
                          f"got {rules!r}")
    if not _is_whole(games):
        raise BezsimError(f"games must be a whole number, got {games!r}")
    if not 1 <= games <= MAX_GAMES:
        raise BezsimError(f"games must be at least 1, got {games}" if games < 1 else
                          f"games must be at most {MAX_GAMES}, got {games}")
    if not _is_whole(shard_size):
        raise BezsimError(f"shard size must be a whole number, got {shard_size!r}")
    if shard_size < 1:
        raise BezsimError(f"shard size must be at least 1, got {shard_size}")
    if -(-games // shard_size) > MAX_SHARDS:
        raise BezsimError(f"{games} games in shards of {shard_size} make more than "
                          f"{MAX_SHARDS:,} shards; use a larger shard size")
    if threads is not None:
        if not _is_whole(threads):
            raise BezsimError(f"threads must be a whole number, got {threads!r}")
        api.check_threads(threads)
    if not _is_whole(seed) or not 0 <= seed <= MAX_SEED:
        raise BezsimError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
    if not all(isinstance(p, str) for p in policies):
        raise BezsimError(f"policies must be policy names, one per seat, got {policies!r}")
    if len(policies) != rules.players:
        raise BezsimError(f"{rules.players} seats need {rules.players} policies, "
                          f"got {len(policies)} ({','.join(policies)})")
    from bezsim.policy_specs.registry import parse_policies

    specs = parse_policies(policies, rules.players)
    if dask is not None:
        from bezsim.running.dask_cluster import check_target

        if not isinstance(dask, str):
            raise BezsimError(f"dask must be 'local' or a scheduler address, got {dask!r}")
        check_target(dask)
    return specs


def _out_store(out_dir: Any):
    """The store of ``out_dir``; an empty path would silently mean the current directory."""
    if isinstance(out_dir, (LocalStore, FsspecStore)):
        return out_dir
    if not isinstance(out_dir, (str, os.PathLike)) or not os.fspath(out_dir):
        raise BezsimError(f"output directory must be a non-empty path or URL, got {out_dir!r}")
    return store_for(out_dir)


def _policy_list(policies: Any) -> list[str]:
    if isinstance(policies, str) or not isinstance(policies, (list, tuple)):
        raise BezsimError(f"policies must be a list of policy names, one per seat, got "
                          f"{policies!r}")
    return list(policies)


def check_run(rules: Rules, policies: list[str], seed: int, games: int,
              out_dir: str | os.PathLike, threads: int | None = None,
              shard_size: int = 20000, dask: str | None = None) -> None:
    """Raise what ``run_simulation`` would refuse, writing nothing: the CLI checks a run
    before it prints the seed it drew, so that a refused run is one line of error."""
    specs = _validate(rules, _policy_list(policies), seed, games, shard_size, threads, dask)
    out = _out_store(out_dir)
    state = check_out_dir(out, run_identity(rules, specs, int(seed), int(games),
                                            int(shard_size)))
    if state == "new":        # a run to finish is probed once its missing shards are known
        check_writable_dir(str(out))
    _compile_plugins(specs)


def _compile_plugins(specs: list[str]) -> None:
    """Compile the run's plug-ins and search now (or load them from the cache): a plug-in
    that cannot be imported or compiled fails before any file is written. Last of the
    checks, since it may take minutes."""
    from bezsim.policy_specs.registry import policy_functions

    policy_functions(specs)


def _prepare_out_dir(out, identity: dict[str, Any], plan: list
                     ) -> tuple[str, list, tuple[str, ...]]:
    """Whether the run is new or resumed, the shards still to play, and what was wrong with
    each shard that was started but is not whole (played again). Before any game, a place
    that cannot take them is refused (a probe file), so no work is lost to it."""
    state = check_out_dir(out, identity)
    if state == "new":
        check_writable_dir(str(out))
        try:
            out.makedirs(out.root)
        except OSError as exc:
            raise BezsimError(f"cannot create output directory {out}: "
                              f"{exc.strerror or exc}") from exc
        # written before any shard so that an interrupted run can always be resumed
        write_manifest(out, build_manifest(identity))
        return state, list(plan), ()
    todo, damaged = [], []
    for shard in plan:
        problems = shard_problems(out, shard.index, shard_metadata(
            identity, shard.index, shard.game_start, shard.n_games))
        if problems:
            todo.append(shard)
            note = damage_note(problems)
            if note:
                damaged.append(f"shard {shard.index} (games {shard.game_start:,} to "
                               f"{shard.game_start + shard.n_games - 1:,}): {note}")
    if todo:                  # a finished run needs no writing, wherever it lies
        check_writable_dir(str(out))
        check_same_kernels(out)
        remove_stale_temporaries(out)
    return state, todo, tuple(damaged)


def _progress_bar(total: int, done: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                disable=not (enabled and sys.stderr.isatty()), dynamic_ncols=True)


def run_simulation(rules: Rules, policies: list[str], seed: int, games: int,
                   out_dir: str | os.PathLike, threads: int | None = None,
                   shard_size: int = 20000, progress: bool = True,
                   dask: str | None = None) -> RunSummary:
    """Play games 0..games-1 and store them as Parquet shards in ``out_dir``.

    Rerunning the same call resumes: finished shards are kept and skipped. The tables are
    the same whatever ``threads`` or ``shard_size`` (each game depends only on seed and id),
    and the same on a Dask cluster (``dask``: ``local`` or a scheduler address), where each
    shard is a task that writes its own files (bezsim/running/dask_cluster.py).
    """
    policies = _validate(rules, _policy_list(policies), seed, games, shard_size, threads, dask)
    _compile_plugins(policies)
    seed, games, shard_size = int(seed), int(games), int(shard_size)
    threads = None if threads is None else int(threads)
    out = _out_store(out_dir)      # a directory, or an fsspec URL (bezsim/io/storage.py)
    identity = run_identity(rules, policies, seed, games, shard_size)
    plan = plan_shards(games, shard_size)
    state, todo, damaged = _prepare_out_dir(out, identity, plan)
    ignored = () if state == "new" else tuple(foreign_files(out))
    skipped = games - sum(s.n_games for s in todo)

    hands = 0
    started = time.perf_counter()
    compiled = 0.0
    if dask is None and todo:
        compiled = load_kernels_announced(rules, policies, progress)
    if dask is not None:
        from bezsim.running.dask_cluster import run_shards

        with _progress_bar(games, skipped, progress) as bar:
            hands = run_shards(dask, rules, policies, seed, todo, out, identity, threads,
                               bar.update)
        return _summary(out, seed, games, skipped, len(todo), len(plan), hands, started,
                        ignored=ignored, damaged=damaged)
    with _progress_bar(games, skipped, progress) as bar, \
            ThreadPoolExecutor(max_workers=len(WRITE_GROUPS),
                               thread_name_prefix="bezsim-writer") as writer:
        # leaving this block (even on Ctrl-C) waits for the pending writes: those shards are
        # fully computed, and their atomic writes take far less time than recomputing them
        pending: collections.deque[list[Future]] = collections.deque()
        sizer = ChunkSizer()

        def advance(n: int) -> None:
            bar.update(n)
            for writes in pending:
                for write in writes:
                    if write.done():
                        write.result()   # a failed write (disk full) ends the run now

        for shard in todo:
            batches = compute_shard(rules, policies, seed, shard, threads, advance, sizer)
            hands += count_hands(batches)
            while len(pending) >= WRITE_DEPTH:
                for write in pending.popleft():
                    write.result()
            pending.append([writer.submit(write_tables, out, shard, batches, policies, identity,
                                          names) for names in WRITE_GROUPS])
            del batches          # the writes hold the shard's arrays until they are done
        while pending:
            for write in pending.popleft():
                write.result()
    return _summary(out, seed, games, skipped, len(todo), len(plan), hands, started, compiled,
                    ignored, damaged)


def load_kernels_announced(rules: Rules, policies: list[str], progress: bool,
                           compile_with: Sequence[str] = ()) -> float:
    """Compile (or load) the engine before the progress bar starts, so that its rate and
    ETA measure games; with ``progress``, one line on stderr says a compile is under way.
    Returns the seconds spent compiling."""
    from bezsim.engine_api.compiling import compiles_said

    with compiles_said([("run", policies)], say=progress, rules=rules,
                       compile_with=compile_with) as clock:
        nothing = api.load_kernels(rules, policies, compile_with=compile_with)
        for name in TABLE_NAMES:
            batches_table([nothing], policies, name)      # the writer's kernels too
    return clock.seconds


def _summary(out, seed: int, games: int, skipped: int, shards_run: int, shards: int,
             hands: int, started: float, compiled: float = 0.0,
             ignored: tuple[str, ...] = (), damaged: tuple[str, ...] = ()) -> RunSummary:
    elapsed = time.perf_counter() - started
    playing = elapsed - compiled
    return RunSummary(
        out_dir=str(out), seed=seed, games=games,
        games_run=games - skipped, games_skipped=skipped,
        shards_run=shards_run, shards_skipped=shards - shards_run,
        hands=hands, elapsed=elapsed,
        hands_per_second=hands / playing if playing > 0 else 0.0,
        compile_seconds=compiled, ignored=ignored, damaged=damaged,
    )
