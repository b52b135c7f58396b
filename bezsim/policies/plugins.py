"""Compiled functions for the seats whose policy is external: ``search`` and user plug-ins.

A user policy is named ``package.module:function``: an ``@njit`` function with the built-in
contract's signature (bezsim/policies/builtin.py)

    policy(S: int32[::1], seat: int64, params: float64[::1], rng: uint64[::1]) -> int64

where ``params`` is its (zero) parameter row and ``rng`` its own random stream (pass it to
``bezsim.engine.rng.below``). It is compiled once for that signature as a C callback, so the
engine's kernels never recompile for it (engine/external.py).
"""

from __future__ import annotations

import functools
import importlib
import warnings

from numba.core import config
from numba.core.errors import NumbaExperimentalFeatureWarning

from bezsim.engine.external import EXTERNAL_SIGNATURE, N_FUNCTION_SLOTS
from bezsim.engine.jit import njit
from bezsim.errors import BezsimError

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


class PluginError(BezsimError, ValueError):
    """A user policy that cannot be loaded or compiled."""


def _no_policy(S, seat, params, rng):
    return -1          # never called: only seats with the EXTERNAL id reach their slot


def compile_external(py_func, name: str):
    """``py_func`` compiled for the external-policy signature (a first-class function)."""
    if config.DISABLE_JIT:
        return py_func        # plain-Python runs call it directly
    from numba import cfunc

    try:
        return cfunc(EXTERNAL_SIGNATURE, cache=True)(py_func)
    except Exception as exc:      # numba's typing errors are many lines: keep the first
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PluginError(f"policy {name!r} does not compile as policy(S, seat, params, rng) "
                          f"-> int: {first}") from None


@njit(cache=True)
def call_compiled(fn, S, seat, params, stream):
    """Call a policy compiled for the external slot from Python: through its function
    pointer, so nothing of the policy compiles again here."""
    return fn(S, seat, params, stream)


@functools.cache
def no_policy():
    return compile_external(_no_policy, "none")


def load_user_policy(spec: str):
    """Import ``module:function`` and check it is an njit function."""
    from numba.core.registry import CPUDispatcher

    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise PluginError(f"policy {spec!r}: cannot import module {module_name!r} "
                          f"({type(exc).__name__}: {exc})") from None
    func = getattr(module, attr, None)
    if func is None:
        raise PluginError(f"policy {spec!r}: module {module_name!r} has no {attr!r}")
    if config.DISABLE_JIT:
        return func
    if not isinstance(func, CPUDispatcher):
        raise PluginError(f"policy {spec!r} is not an @njit function (decorate it with "
                          "numba.njit)")
    return func


@functools.cache
def user_function(spec: str):
    """The user's policy compiled for the external slot (its Python source, as a cfunc)."""
    func = load_user_policy(spec)
    return compile_external(getattr(func, "py_func", func), spec)


def function_slots(functions: list) -> tuple:
    """Four slots (engine/external.py), the seats' functions first, the rest unused."""
    filler = no_policy()
    slots = [f if f is not None else filler for f in functions]
    return tuple(slots + [filler] * (N_FUNCTION_SLOTS - len(slots)))
