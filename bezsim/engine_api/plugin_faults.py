"""Name the user policy that broke the policy contract, and how, as one error.

A plug-in (``--policies package.module:function``) can break the contract two ways. It can
answer outside the offered actions: the engine flags a policy fault (engine/decisions.py)
without saying which seat. Or it can raise: a numba C callback cannot pass an exception on,
so numba reports it to ``sys.unraisablehook`` (by default printing a traceback for every
call) and the callback answers 0, a legal action, and the run would go on with wrong
games. ``run_games_checked`` collects those reports during each engine call and turns either
case into one ``PluginFault`` naming the policy, its seat and the first game concerned.

To name the seat, the game is replayed once per plug-in seat: that seat runs its own
callback, the other plug-ins a copy clamped to what the engine does with a fault (action
0), so every replay takes the faulted game's course. Lives outside bezsim/policies so that
changing it does not invalidate the engine's compiled-kernel cache (bezsim/engine/__init__.py).
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine_api import games as api

if TYPE_CHECKING:
    from bezsim.policy_specs.policy_set import PolicySet


class PluginFault(api.PolicyFault):
    """A user policy raised, or answered outside the actions offered."""


def run_games_checked(rules, policies: PolicySet | Sequence[str], seed: int, game_start: int,
                      n_games: int, threads: int | None = None) -> api.GameBatch:
    """``api.run_games``, but a policy that raised or answered outside the offer ends it
    with a PluginFault naming that policy and the first game it did so in."""
    raised: list[BaseException] = []
    fault: api.PolicyFault | None = None
    try:
        with callback_exceptions(raised):
            batch = api.run_games(rules, policies, seed, game_start, n_games, threads)
    except api.PolicyFault as exc:
        fault = exc
    if raised:        # an exception leaves no mark in the games: find the first game by replay
        game = _first_faulty_game(rules, policies, seed, game_start, n_games, threads)
    elif fault is not None:
        found = re.search(r"in game (\d+)", str(fault))
        if found is None:
            raise fault
        game = int(found.group(1))
    else:
        return batch
    raise PluginFault(explain_fault(rules, policies, seed, game)) from None


@contextlib.contextmanager
def callback_exceptions(caught: list[BaseException]) -> Iterator[None]:
    """Keep the first exception numba's C callbacks report, instead of printing each one (a
    policy that always raises reports once per decision: keeping them all could fill memory)."""
    previous = sys.unraisablehook

    def keep(unraisable) -> None:
        if "numba" not in repr(unraisable.object) or unraisable.exc_value is None:
            previous(unraisable)
        elif not caught:
            caught.append(unraisable.exc_value)

    sys.unraisablehook = keep
    try:
        yield
    finally:
        sys.unraisablehook = previous


def _faulty(rules, policies: list[str], seed: int, start: int, stop: int,
            threads: int | None) -> bool:
    raised: list[BaseException] = []
    try:
        with callback_exceptions(raised):
            api.run_games(rules, policies, seed, start, stop - start, threads)
    except api.PolicyFault:
        return True
    return bool(raised)


def _first_faulty_game(rules, policies: list[str], seed: int, start: int, n: int,
                       threads: int | None) -> int:
    """Bisect [start, start + n), which holds a faulty game: each game is a pure function of
    (seed, game), so halves can be replayed alone."""
    lo, hi = start, start + n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _faulty(rules, policies, seed, lo, mid, threads):
            hi = mid
        else:
            lo = mid
    return lo


def _is_plugin(spec: str) -> bool:
    return ":" in spec.partition("(")[0]


def explain_fault(rules, policies: list[str], seed: int, game: int) -> str:
    """One line naming the policy (and seat) that raised or answered outside the offer."""
    from bezsim.policy_specs.registry import parse_policies

    specs = parse_policies(list(policies), rules.players)
    seats = [seat for seat, spec in enumerate(specs) if _is_plugin(spec)]
    if not seats:
        return (f"a built-in policy ({', '.join(specs)}) chose an action outside the ones "
                f"offered in game {game}; this is a bezsim bug, please report it")
    for seat in seats:
        raised, outside = _replay_seat(rules, specs, seed, game, seat)
        where = f"policy {specs[seat]!r} (seat {seat})"
        if raised is not None:
            text = " ".join(str(raised).split())
            return (f"{where} raised {type(raised).__name__} in game {game}"
                    + (f": {text}" if text else ""))
        if outside:
            return f"{where} chose an action outside the ones offered in game {game}"
    culprits = ", ".join(sorted({specs[seat] for seat in seats}))
    return (f"a policy ({culprits}) raised or chose an action outside the ones offered in "
            f"game {game}")


def _replay_seat(rules, specs: list[str], seed: int, game: int,
                 seat: int) -> tuple[BaseException | None, bool]:
    """Replay ``game`` with only ``seat``'s plug-in unclamped: (the first exception it
    raised, whether it answered outside the offer)."""
    from bezsim.compile_cache import compile_all
    from bezsim.engine.external import policy_set
    from bezsim.engine.game_loop import run_serial
    from bezsim.engine.state import FAULT_POLICY
    from bezsim.policies.plugins import function_slots
    from bezsim.policy_specs.registry import (
        policy_ids,
        policy_params,
        set_flags,
        spec_of,
        variant_shape,
    )

    functions = []
    for s, spec in enumerate(specs):
        parsed = spec_of(spec)
        if s != seat and _is_plugin(spec):
            functions.append(_clamped(spec))
        else:
            functions.append(parsed.info.function(parsed.values,
                                                  variant_shape(rules.definition))
                             if parsed.info.function is not None else None)
    # the run's own engine (registry.policy_functions), the plug-ins' slots swapped
    learned = compile_all() or any(spec_of(spec).info.name == "learned" for spec in specs)
    params = rules.params()
    players, hand_cap = rules.players, int(params[C.PR_HAND_CAP])
    hs = np.zeros((1, hand_cap, players, C.HS_SIZE), np.int32)
    hi = np.zeros((1, hand_cap, C.HI_SIZE), np.int32)
    gi = np.zeros((1, C.GI_SIZE), np.int64)
    ev = np.zeros((1, api.EVENTS_PER_HAND * hand_cap), np.int64)
    caught: list[BaseException] = []
    with callback_exceptions(caught):
        run_serial(params, policy_ids(specs), policy_params(specs, rules.variant),
                  policy_set(True, function_slots(functions), learned,
                             **set_flags(specs, rules.definition)),
                  np.uint64(seed), game, hs, hi, gi, ev, api.NO_TRACE)
    return (caught[0] if caught else None), bool(gi[0, C.GI_OVERFLOW] == FAULT_POLICY)


@functools.cache
def _clamped(spec: str):
    """A user policy as the engine treats a faulty one: an exception, or an answer outside
    the offer, becomes action 0. Compiled only to explain a fault (about half a second)."""
    from numba import cfunc, types

    from bezsim.engine.external import EXTERNAL_SIGNATURE
    from bezsim.engine.state import O_N_ACTS
    from bezsim.policies.plugins import load_user_policy

    user = load_user_policy(spec)
    offered = O_N_ACTS
    user.compile(EXTERNAL_SIGNATURE.args)
    returns = user.overloads[EXTERNAL_SIGNATURE.args].signature.return_type
    if isinstance(returns, types.NoneType):
        def clamped(S, seat, params, rng):
            return 0         # it never returns (it always raises): the engine plays 0
    else:
        def clamped(S, seat, params, rng):
            try:
                idx = user(S, seat, params, rng)
            except Exception:
                return 0
            if idx < 0 or idx >= S[offered]:
                return 0
            return idx

    return cfunc(EXTERNAL_SIGNATURE)(clamped)
