"""Saying when the engine compiles, how long it will take here, and that it is alive.

The first run after an install or an engine change compiles the kernels for this machine
(tens of seconds to minutes), later runs load them from the on-disk cache in about a second.
numba fires its ``numba:compile`` event only for a kernel it compiles, never for one it loads
from the cache, so listening to that event tells the two apart without compiling anything
twice. The estimate said is a measurement of this machine: the seconds a compile took when
it last ran here (kept beside the cache), or else the reference machine's figure, each scaled
by how long a small calibration kernel takes to compile now against then, so that a slower
or busier machine is told a longer wait.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from numba.core import event

# Cold commands into an empty cache on the reference machine (2 cores), by the entry kernel
# a command calls (benchmarks/startup.py), the two-handed game's engines: a run's kernels
# without expert (simulate --games 2000: 58 s), with expert (simulate --policies expert:
# 139 s), with the function slots of search and plug-ins (tournament --policies
# search,expert: 161 s, search's slot compiled beside the run engine,
# engine_api/compile_aside.py), and the step API's replay with every built-in compiled in
# (play --against expert: 276 s). Those with learned and the position kernels (bezsim
# explain) are upper bounds measured on an engine that compiled every variant's code into
# each. An engine with a variant's own code (Polish, the pairs ending) starts from its
# policy set's figure. Each is scaled by the calibration compile here and now
# against REFERENCE_CALIBRATION, and replaced by this machine's own measurement once it
# has one (TIMES_FILE).
REFERENCE_SECONDS = {"plain": 58, "expert": 139, "learned": 350, "external": 161,
                     "external_learned": 290, "step": 276, "position": 10}
REFERENCE_CALIBRATION = 0.13   # seconds the calibration compile takes there (startup.py
#                                --calibration)
WHAT = {"plain": "the engine", "expert": "the engine with expert's player",
        "learned": "the engine with learned's and expert's players",
        "external": "the engine with search's seat and search's play-out engine",
        "external_learned": "the engine with search's and learned's seats and search's "
                            "play-out engine",
        "step": "the step engine with every built-in player",
        "position": "the position kernels"}
TIMES_FILE = "compile_times.json"   # beside the versioned caches: measured here, by key
TICK_SECONDS = 1.0                  # a terminal's line is refreshed this often
LINE_SECONDS = 30.0                 # elsewhere (a log), a line this often


@dataclass
class CompileClock:
    """Seconds spent compiling inside an ``announce_compiles`` block."""

    seconds: float = 0.0
    compiled: bool = False


class _Ticker:
    """Shows that a long compile is alive: on a terminal one line refreshed every
    TICK_SECONDS (seconds so far, of about the estimate), elsewhere a line every
    LINE_SECONDS; on a terminal the line is replaced by the time taken when it ends."""

    def __init__(self, estimate: int, stream: Any = None) -> None:
        self.estimate, self.stream = estimate, stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.began = time.perf_counter()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bezsim-compile-ticker",
                                       daemon=True)

    def _line(self) -> str:
        spent = time.perf_counter() - self.began
        about = f" of about {self.estimate} s" if self.estimate else ""
        return f"  still compiling: {spent:.0f} s{about}"

    def _run(self) -> None:
        period = TICK_SECONDS if self.tty else LINE_SECONDS
        while not self.done.wait(period):
            with contextlib.suppress(OSError, ValueError):
                if self.tty:
                    self.stream.write("\r" + self._line() + "\033[K")
                else:
                    self.stream.write(self._line() + "\n")
                self.stream.flush()

    def start(self) -> None:
        self.began = time.perf_counter()
        self.thread.start()

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        self.done.set()
        self.thread.join()
        if self.tty:
            spent = time.perf_counter() - self.began
            with contextlib.suppress(OSError, ValueError):
                self.stream.write(f"\r  compiled in {spent:.0f} s\033[K\n")
                self.stream.flush()


class _Listener(event.Listener):
    def __init__(self, clock: CompileClock, say: Callable[[str], None] | None,
                 message: Callable[[], str], ticker: _Ticker | None = None) -> None:
        self.clock, self.say, self.message, self.ticker = clock, say, message, ticker
        self.depth = 0            # compiles nest (a kernel compiles what it calls)
        self.began = 0.0

    def on_start(self, ev: event.Event) -> None:
        self.depth += 1
        if self.depth == 1:
            self.began = time.perf_counter()
            if not self.clock.compiled and self.say is not None:
                self.say(self.message())
                if self.ticker is not None:
                    self.ticker.start()
            self.clock.compiled = True

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.clock.seconds += time.perf_counter() - self.began


def kernel_set(policy_specs: Sequence[str]) -> str:
    """Which compiled engine a run of these policies uses (engine/external.py; with
    BEZSIM_COMPILE_ALL set, the one with everything in)."""
    from bezsim.compile_cache import compile_all
    from bezsim.policy_specs.registry import parse_spec

    if compile_all():
        return "external_learned"
    infos = [parse_spec(spec)[0] for spec in policy_specs]
    if any(info.function is not None for info in infos):
        return ("external_learned" if any(info.name == "learned" for info in infos)
                else "external")
    if any(info.name == "learned" for info in infos):
        return "learned"             # learned values cards with expert's valuations: both
    return "expert" if any(info.name == "expert" for info in infos) else "plain"


Need = tuple[str, Sequence[str]]   # (entry kernel, the policies it plays), see ENTRIES
Flags = dict[str, bool]            # what a run's policy set compiles in (registry.set_flags)


def run_flags(specs: Sequence[str], rules: Any = None, compile_with: Sequence[str] = ()
              ) -> Flags:
    """What the run kernels of these policies compile in for ``rules`` (None: every
    variant's code): the simple policies the seats (or ``compile_with``) play and the
    variant's own code (registry.set_flags)."""
    from bezsim.policy_specs.registry import set_flags

    return set_flags(specs, None if rules is None else rules.definition, compile_with)


def _set_type(run_set: str, flags: Flags | None = None) -> Any:
    """numba's type of a run's policy set (engine/external.py): the ``fns`` argument that the
    kernels are compiled for, known without compiling any policy. ``flags`` (run_flags)
    default to everything compiled in."""
    import numba
    from numba.core import types

    from bezsim.engine.external import EXTERNAL_SIGNATURE, N_FUNCTION_SLOTS, policy_set

    flags = flags or {}
    if run_set.startswith("external"):
        every = numba.typeof(policy_set(True, None, run_set == "external_learned", **flags))
        slots = types.UniTuple(types.FunctionType(EXTERNAL_SIGNATURE), N_FUNCTION_SLOTS)
        return types.Tuple((every.types[0], slots, *every.types[2:]))
    return numba.typeof(policy_set(run_set == "expert", None, run_set == "learned", **flags))


def _on_disk(function: Any, run_set: str | None = None, flags: Flags | None = None) -> bool:
    """Whether numba's on-disk cache holds ``function`` (a dispatcher, or the Python function
    of a policy slot) for this machine, compiled for the policy set ``run_set`` with
    ``flags`` (None: any). Unknown counts as no."""
    try:
        from numba.core.caching import FunctionCache
        from numba.core.registry import cpu_target

        py_func = getattr(function, "py_func", function)
        index = FunctionCache(py_func)._cache_file._load_index()   # {} when the source changed
        magic = cpu_target.target_context.codegen().magic_tuple()
        wanted = None if run_set is None else _set_type(run_set, flags)
    except Exception:          # no cache (NUMBA_DISABLE_JIT), or numba's inside moved on
        return False
    return any(key[1] == magic and (wanted is None or wanted in key[0]) for key in index)


def entry_cached(entry: str, run_set: str, flags: Flags | None = None) -> bool:
    """Whether the entry kernel ``entry`` for policy set ``run_set`` (with ``flags``,
    run_flags; None: everything compiled in) loads from the cache."""
    if entry == "step":
        from bezsim.engine.stepping import step_game

        return _on_disk(step_game)
    if entry == "position":
        from bezsim.engine.offers import legal_declarations

        return _on_disk(legal_declarations)
    from bezsim.engine.game_loop import run_serial

    if entry == "run" and run_set.startswith("external"):
        from bezsim.policies.search import playout_shape, slot_source  # compiled on its own

        open_cards, pairs = (flags or {}).get("open_cards", True), (flags or {}).get("pairs", True)
        shape = "all" if open_cards and pairs else playout_shape(open_cards, pairs)
        return _on_disk(run_serial, run_set, flags) and _on_disk(slot_source("play", shape))
    return _on_disk(run_serial, run_set, flags)


def _calibration_kernel_source() -> str:
    return (
        "def calibrate(a, b):\n"
        "    total = 0\n"
        "    for i in range(a.shape[0]):\n"
        "        for j in range(b.shape[0]):\n"
        "            if a[i] > b[j]:\n"
        "                total += a[i] * 3 - b[j]\n"
        "            elif a[i] == b[j]:\n"
        "                total -= 1\n"
        "    return total\n")


@functools.cache
def calibration_seconds() -> float:
    """Seconds this machine takes now to compile a small fixed kernel (the best of three
    fresh copies, never cached): what the estimates scale by."""
    import numba
    import numpy as np

    best = float("inf")
    args = (np.zeros(4, np.int64), np.zeros(4, np.int64))
    for _ in range(3):
        space: dict[str, Any] = {}
        exec(_calibration_kernel_source(), space)       # a new function: compiled afresh
        began = time.perf_counter()
        numba.njit(space["calibrate"])(*args)
        best = min(best, time.perf_counter() - began)
    return best


def _times_path() -> Path | None:
    """The file of compile times measured on this machine (beside the versioned caches)."""
    from numba.core import config

    cache = getattr(config, "CACHE_DIR", "")
    return Path(cache).parent / TIMES_FILE if cache else None


def measured_times() -> dict[str, dict[str, float]]:
    """Compile times measured here: {key: {"seconds": s, "calibration": c}}."""
    path = _times_path()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if path is not None and path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            return {k: v for k, v in data.items()
                    if isinstance(v, dict) and v.get("seconds", 0) > 0
                    and v.get("calibration", 0) > 0}
    return {}


def record_time(key: str, seconds: float, calibration: float) -> None:
    """Keep a measured compile time for later estimates (best effort: a read-only cache
    keeps nothing)."""
    path = _times_path()
    if path is None or seconds <= 0 or calibration <= 0:
        return
    times = measured_times()
    times[key] = {"seconds": round(seconds, 2), "calibration": round(calibration, 4)}
    with contextlib.suppress(OSError):
        temporary = path.with_name(f".{TIMES_FILE}.{os.getpid()}")
        temporary.write_text(json.dumps(times, indent=1, sort_keys=True), encoding="utf-8")
        temporary.replace(path)


def _time_key(run_set: str, flags: Flags) -> str:
    """The key a run engine's compile time is kept under: its policy set, and the variant
    code it carries besides the two-handed game's."""
    extra = [name for name in ("open_cards", "pairs") if flags.get(name, True)]
    return "+".join([run_set, *extra])


def _uncached(needs: Sequence[Need], cached: Callable[..., bool],
              rules: Any = None, compile_with: Sequence[str] = ()) -> list[str]:
    """The keys of the compiles a command will do, in order, each once (a key of
    REFERENCE_SECONDS, or one with the variant code it carries, _time_key): what the cache
    holds counts nothing (a traced game is its policies' run kernel, engine/game_loop.py
    run_serial)."""
    keys: list[str] = []
    seen: set[tuple] = set()
    for entry, specs in needs:
        run_set = kernel_set(specs) if specs else "plain"
        flags = run_flags(specs, rules, compile_with) if entry == "run" else {}
        key = (entry, run_set if entry == "run" else "")
        seen_key = (*key, tuple(sorted(flags.items())))
        if seen_key in seen or cached(*key, flags):
            continue
        seen.add(seen_key)
        if entry == "run":
            keys.append(_time_key(run_set, flags))
        else:
            keys.append(entry)
    return keys


def _base(key: str) -> str:
    return key.split("+")[0]


def _seconds(keys: list[str], calibration: float | None,
             measured: dict[str, dict[str, float]] | None) -> int:
    """Seconds these keys take to compile here now (0 for none): a key measured here, else
    its policy set measured here with other variant code, else the reference figure."""
    if not keys:
        return 0
    now = calibration_seconds() if calibration is None else calibration
    times = measured_times() if measured is None else measured
    seconds = 0.0
    for key in keys:
        here = times.get(key) or times.get(_base(key))
        if here:
            seconds += here["seconds"] * now / here["calibration"]
        else:
            seconds += REFERENCE_SECONDS[_base(key)] * now / REFERENCE_CALIBRATION
    return max(1, int(round(seconds)))


def _line(keys: list[str], seconds: int) -> str:
    if not keys:
        return "compiling a small part of the engine for this machine (once, a few seconds)…"
    what = "; ".join(dict.fromkeys(WHAT[_base(k)] for k in keys))
    return f"compiling {what} for this machine (once, about {seconds} s here)…"


def compile_estimate(needs: Sequence[Need],
                     cached: Callable[..., bool] | None = None,
                     calibration: float | None = None,
                     measured: dict[str, dict[str, float]] | None = None,
                     rules: Any = None, compile_with: Sequence[str] = ()) -> int:
    """Seconds a cold compile of what a command calls takes on this machine now (``needs``:
    entry kernels and the policies each plays), leaving out what the on-disk cache holds
    (``cached``, by default ``entry_cached``); 0 when only small kernels are left to compile.
    ``calibration`` (seconds) and ``measured`` (times measured here) default to this
    machine's; with ``calibration=REFERENCE_CALIBRATION`` and no measurements, the reference
    figures."""
    keys = _uncached(needs, cached or entry_cached, rules, compile_with)
    return _seconds(keys, calibration, measured)


def compile_message(needs: Sequence[Need],
                    cached: Callable[..., bool] | None = None,
                    calibration: float | None = None,
                    measured: dict[str, dict[str, float]] | None = None,
                    rules: Any = None, compile_with: Sequence[str] = ()) -> str:
    """The line said when a command's first kernel starts compiling: what compiles, and
    about how long it takes on this machine now (kernels the cache holds count nothing)."""
    keys = _uncached(needs, cached or entry_cached, rules, compile_with)
    return _line(keys, _seconds(keys, calibration, measured))


def say_on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


_SAYING = [0]     # announcing blocks open in this process: an inner one leaves the line


@contextmanager
def announce_compiles(say: Callable[[str], None] | None, message: Callable[[], str],
                      estimate: int | None = None) -> Iterator[CompileClock]:
    """Call ``say(message())`` when the first kernel starts compiling in this block (not
    when kernels load from the cache), and add up the compile time in the clock it
    yields. Inside another block that says a line (a command announces for all it does),
    this one only keeps time: the line is said once. With an ``estimate`` (seconds), a
    ticker on stderr shows the compile is alive until the block ends."""
    clock = CompileClock()
    inner = _SAYING[0] > 0
    ticker = _Ticker(estimate) if estimate is not None and say is not None and not inner \
        else None
    listener = _Listener(clock, None if inner else say, message, ticker)
    event.register("numba:compile", listener)
    if say is not None:
        _SAYING[0] += 1
    try:
        yield clock
    finally:
        if say is not None:
            _SAYING[0] -= 1
        event.unregister("numba:compile", listener)
        if ticker is not None:
            ticker.stop()


@contextmanager
def compiles_said(needs: Sequence[Need], say: bool = True, rules: Any = None,
                  compile_with: Sequence[str] = ()) -> Iterator[CompileClock]:
    """A command's block: one line on stderr when its first kernel compiles, saying what
    compiles and an estimate measured on this machine, a ticker while it compiles, and the
    time it took kept for the next estimate here. ``rules`` and ``compile_with`` say which
    run kernels the needs' policies use (run_flags; no rules: every variant's code)."""
    if not say:
        with announce_compiles(None, lambda: "") as clock:
            yield clock
        return
    keys = _uncached(needs, entry_cached, rules, compile_with)    # the cache is read once
    seconds = _seconds(keys, None, None)
    message = _line(keys, seconds)
    with announce_compiles(say_on_stderr, lambda: message, seconds if keys else None) as clock:
        yield clock
    if clock.compiled and len(keys) == 1 and clock.seconds > 2:
        record_time(keys[0], clock.seconds, calibration_seconds())
