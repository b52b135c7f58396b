"""A cold start on two cores: search's slot compiled in a second process beside the run engine.

A run with a search seat compiles two things that never call each other: the run engine with
function slots (the outer games) and search's own slot (its play-out engine). One process
compiles them one after the other; here a second process compiles the slot into the shared
on-disk cache while this one compiles the run engine for the slots' type (a placeholder in
every slot: the type is the slots' signature, not the functions), then this one loads the
slot from the cache. The compiled code is the same either way; only the wall time changes.
A failing helper process changes nothing: this process then compiles the slot itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from numba.core import event

from bezsim.policy_specs.policy_set import PolicySet
from bezsim.policy_specs.registry import PolicySpec

_HELPER = ("import sys\n"
           "from bezsim.policies.search import search_function\n"
           "for kind in sys.argv[2:]:\n"
           "    search_function(kind, sys.argv[1])\n")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:           # not on Linux
        return os.cpu_count() or 1


def _busy_and_total() -> tuple[int, int] | None:
    """The machine's CPU time so far, busy and in all (Linux's /proc/stat), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)      # idle and iowait
    return sum(fields) - idle, sum(fields)


def _idle_cores(window: float = 0.25) -> float:
    """Cores free for a helper now: this process's cores times the share of the machine
    idle over a short window (a helper on a busy machine only slows this process's own
    compile). The load average lags a job that has just ended by a minute, so it is the
    fallback only where /proc/stat is missing."""
    before = _busy_and_total()
    if before is not None:
        time.sleep(window)
        after = _busy_and_total()
        if after is not None and after[1] > before[1]:
            busy = (after[0] - before[0]) / (after[1] - before[1])
            return _cores() * (1.0 - busy)
    try:
        load = os.getloadavg()[0]
    except OSError:                  # no load average (not on Unix)
        load = 0.0
    return _cores() - load


def slots_to_compile(specs: Sequence[PolicySpec], shape: str = "all") -> list[str]:
    """The kinds of search slot these seats play that the on-disk cache lacks, with their
    play-outs of ``shape`` (policies/search.py, SHAPES)."""
    from bezsim.engine_api.compiling import _on_disk
    from bezsim.policies.search import slot_kind, slot_source

    kinds = []
    for spec in specs:
        if spec.info.name == "search":
            kind = slot_kind(spec.values)
            if kind not in kinds and not _on_disk(slot_source(kind, shape)):
                kinds.append(kind)
    return kinds


def _placeholder(rules, specs: list[PolicySpec], compile_with: Sequence[str] = ()) -> PolicySet:
    """The seats as the run kernels read them, every slot holding the empty policy: the
    kernels' type, known before any slot is compiled."""
    from bezsim.compile_cache import compile_all
    from bezsim.engine.external import policy_set
    from bezsim.policies.plugins import function_slots
    from bezsim.policy_specs.registry import policy_ids, policy_params, set_flags

    with_learned = compile_all() or any(spec.info.name == "learned" for spec in specs)
    return PolicySet(tuple(specs), rules.variant, policy_ids(specs),
                     policy_params(specs, rules.variant),
                     policy_set(True, function_slots([]), with_learned,
                                **set_flags(specs, rules.definition, compile_with)))


def compile_run_beside_slots(rules, policies: Sequence[str] | str,
                             compile_run: Callable[[PolicySet], object],
                             compile_with: Sequence[str] = ()) -> bool:
    """With a core to spare (two or more, the machine otherwise idle) and search's slots not
    yet compiled, compile them in a helper process while ``compile_run(placeholder)``
    compiles the run engine here; the wait for the helper counts as compiling (numba's
    compile event). Returns whether it did."""
    from bezsim.engine_api.compiling import entry_cached, kernel_set, run_flags
    from bezsim.policy_specs.registry import parse_policies, variant_shape

    specs = parse_policies(policies, rules.players)
    shape = variant_shape(rules.definition)
    kinds = slots_to_compile(specs, shape)
    if (not kinds or _idle_cores() < 1.5
            or entry_cached("run", kernel_set(specs), run_flags(specs, rules, compile_with))):
        return False
    helper = subprocess.Popen([sys.executable, "-c", _HELPER, shape, *kinds],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        compile_run(_placeholder(rules, specs, compile_with))
        with event.trigger_event("numba:compile", data={"dispatcher": None, "args": (),
                                                         "return_type": None}):
            helper.wait()
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
    return True
