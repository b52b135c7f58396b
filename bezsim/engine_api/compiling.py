"""Saying when the engine compiles, and timing it apart from the games.

The first run after an install or an engine change compiles the kernels for this machine
(tens of seconds), later runs load them from the on-disk cache in about a second. numba
fires its ``numba:compile`` event only for a kernel it compiles, never for one it loads
from the cache, so listening to that event tells the two apart without compiling anything
twice.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from numba.core import event

# Cold compiles into an empty cache on the 2-core CI machine (benchmarks/startup.py), by
# the entry kernel a command calls: a run's kernels without expert, with it, with learned
# (and so expert; timed on one machine), and with the function slots of search and
# plug-ins; the step API's replay with every built-in compiled
# in (bezsim play: 1.8 times a plain run's compile, timed on one machine); the position
# kernels (bezsim explain) and a traced game once the run kernels of its policies are cached
# (bezsim replay), which shares all they compile: each about a second in eight of that
# plain run, imports included.
ESTIMATE_SECONDS = {"plain": 45, "expert": 75, "learned": 165, "external": 150,
                    "external_learned": 240, "step": 80, "position": 5, "trace": 5}


@dataclass
class CompileClock:
    """Seconds spent compiling inside an ``announce_compiles`` block."""

    seconds: float = 0.0
    compiled: bool = False


class _Listener(event.Listener):
    def __init__(self, clock: CompileClock, say: Callable[[str], None] | None,
                 message: Callable[[], str]) -> None:
        self.clock, self.say, self.message = clock, say, message
        self.depth = 0            # compiles nest (a kernel compiles what it calls)
        self.began = 0.0

    def on_start(self, ev: event.Event) -> None:
        self.depth += 1
        if self.depth == 1:
            self.began = time.perf_counter()
            if not self.clock.compiled and self.say is not None:
                self.say(self.message())
            self.clock.compiled = True

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.clock.seconds += time.perf_counter() - self.began


def kernel_set(policy_specs: Sequence[str]) -> str:
    """Which compiled engine a run of these policies uses (engine/external.py)."""
    from bezsim.policy_specs.registry import parse_spec

    infos = [parse_spec(spec)[0] for spec in policy_specs]
    if any(info.function is not None for info in infos):
        return ("external_learned" if any(info.name == "learned" for info in infos)
                else "external")
    if any(info.name == "learned" for info in infos):
        return "learned"             # learned values cards with expert's valuations: both
    return "expert" if any(info.name == "expert" for info in infos) else "plain"


Need = tuple[str, Sequence[str]]   # (entry kernel, the policies it plays), see ENTRIES


def _set_type(run_set: str) -> Any:
    """numba's type of a run's policy set (engine/external.py): the ``fns`` argument that the
    kernels are compiled for, known without compiling any policy."""
    import numba
    from numba.core import types

    from bezsim.engine.external import EXTERNAL_SIGNATURE, N_FUNCTION_SLOTS, policy_set

    if run_set.startswith("external"):
        learned = types.int64 if run_set == "external_learned" else types.none
        return types.Tuple((types.int64, types.UniTuple(types.FunctionType(EXTERNAL_SIGNATURE),
                                                        N_FUNCTION_SLOTS), learned))
    return numba.typeof(policy_set(run_set == "expert", None, run_set == "learned"))


def _on_disk(function: Any, run_set: str | None = None) -> bool:
    """Whether numba's on-disk cache holds ``function`` (a dispatcher, or the Python function
    of a policy slot) for this machine, compiled for the policy set ``run_set`` (None: any).
    Unknown counts as no."""
    try:
        from numba.core.caching import FunctionCache
        from numba.core.registry import cpu_target

        py_func = getattr(function, "py_func", function)
        index = FunctionCache(py_func)._cache_file._load_index()   # {} when the source changed
        magic = cpu_target.target_context.codegen().magic_tuple()
        wanted = None if run_set is None else _set_type(run_set)
    except Exception:          # no cache (NUMBA_DISABLE_JIT), or numba's inside moved on
        return False
    return any(key[1] == magic and (wanted is None or wanted in key[0]) for key in index)


def entry_cached(entry: str, run_set: str) -> bool:
    """Whether the entry kernel ``entry`` for policy set ``run_set`` loads from the cache."""
    if entry == "step":
        from bezsim.engine.stepping import step_game

        return _on_disk(step_game)
    if entry == "position":
        from bezsim.engine.offers import legal_declarations

        return _on_disk(legal_declarations)
    from bezsim.engine.game_loop import run_serial, trace_game

    if entry == "run" and run_set.startswith("external"):
        from bezsim.policies.search import slot_source  # search compiles in its own

        return _on_disk(run_serial, run_set) and _on_disk(slot_source())
    return _on_disk(run_serial if entry == "run" else trace_game, run_set)


def compile_estimate(needs: Sequence[Need],
                     cached: Callable[[str, str], bool] | None = None) -> int:
    """Seconds a cold compile of what a command calls takes (``needs``: entry kernels and
    the policies each plays), leaving out what the on-disk cache holds (``cached``, by
    default ``entry_cached``); 0 when only small kernels are left to compile."""
    cached = cached or entry_cached
    seconds = 0
    seen = set()
    for entry, specs in needs:
        run_set = kernel_set(specs) if specs else "plain"
        key = (entry, run_set if entry in ("run", "trace") else "")
        if key in seen or cached(*key):
            continue
        seen.add(key)
        if entry == "run":
            seconds += ESTIMATE_SECONDS[run_set]
        elif entry == "trace":      # a traced game shares what the run kernels compile
            shared = cached("run", run_set) or ("run", run_set) in seen
            seconds += ESTIMATE_SECONDS["trace" if shared else run_set]
        else:
            seconds += ESTIMATE_SECONDS[entry]
    return seconds


def compile_message(needs: Sequence[Need],
                    cached: Callable[[str, str], bool] | None = None) -> str:
    """The line said when a command's first kernel starts compiling, with an estimate for
    what it will compile (kernels the cache holds count nothing)."""
    seconds = compile_estimate(needs, cached)
    if seconds == 0:
        return "compiling a small part of the engine for this machine (once, a few seconds)…"
    return f"compiling the engine for this machine (once, about {seconds} s)…"


def say_on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


_SAYING = [0]     # announcing blocks open in this process: an inner one leaves the line


@contextmanager
def announce_compiles(say: Callable[[str], None] | None,
                      message: Callable[[], str]) -> Iterator[CompileClock]:
    """Call ``say(message())`` when the first kernel starts compiling in this block (not
    when kernels load from the cache), and add up the compile time in the clock it
    yields. Inside another block that says a line (a command announces for all it does),
    this one only keeps time: the line is said once."""
    clock = CompileClock()
    inner = _SAYING[0] > 0
    listener = _Listener(clock, None if inner else say, message)
    event.register("numba:compile", listener)
    if say is not None:
        _SAYING[0] += 1
    try:
        yield clock
    finally:
        if say is not None:
            _SAYING[0] -= 1
        event.unregister("numba:compile", listener)


@contextmanager
def compiles_said(needs: Sequence[Need], say: bool = True) -> Iterator[CompileClock]:
    """A command's block: one line on stderr when its first kernel compiles, estimated from
    ``needs`` (entry kernels and their policies) against what the cache holds."""
    message = compile_message(needs) if say else ""
    with announce_compiles(say_on_stderr if say else None, lambda: message) as clock:
        yield clock
