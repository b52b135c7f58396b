"""Saying when the engine compiles, and timing it apart from the games.

The first run after an install or an engine change compiles the kernels for this machine
(tens of seconds), later runs load them from the on-disk cache in about a second. numba
fires its ``numba:compile`` event only for a kernel it compiles, never for one it loads
from the cache, so listening to that event tells the two apart without compiling anything
twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from numba.core import event

# Cold compiles measured on the 2-core CI machine (benchmarks/startup.py): the kernels
# without expert, with it, and the search policy's on top of the function-slot engine
ESTIMATE_SECONDS = {"plain": 45, "expert": 75, "external": 150}


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
    from bezsim.policies.registry import parse_spec

    infos = [parse_spec(spec)[0] for spec in policy_specs]
    if any(info.function is not None for info in infos):
        return "external"
    return "expert" if any(info.name == "expert" for info in infos) else "plain"


def compile_message(policy_specs: Sequence[str]) -> str:
    seconds = ESTIMATE_SECONDS[kernel_set(policy_specs)]
    return f"compiling the engine for this machine (once, about {seconds} s)…"


@contextmanager
def announce_compiles(say: Callable[[str], None] | None,
                      message: Callable[[], str]) -> Iterator[CompileClock]:
    """Call ``say(message())`` when the first kernel starts compiling in this block (not
    when kernels load from the cache), and add up the compile time in the clock it
    yields."""
    clock = CompileClock()
    listener = _Listener(clock, say, message)
    event.register("numba:compile", listener)
    try:
        yield clock
    finally:
        event.unregister("numba:compile", listener)
