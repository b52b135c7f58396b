"""The kernels' compile decorator: numba's ``njit``, compiled once per argument type.

numba types a constant argument as its own literal type (``Literal[int](0)``), and a jitted
function called from another compiles once for every mix of constants it is passed: the
engine passes constants at dozens of call sites, so a cold start compiled ``trace_add`` 57
times and the whole hand twice (a hand number that starts at 0), 259 compiles in all. Here
a kernel called from compiled code is compiled for the plain types of its arguments, as a
call from Python already is: 134 compiles, and a cold ``bezsim simulate`` a third shorter.
LLVM still sees the constants wherever it inlines a call, so the machine code of the hot
loop is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
from numba.core import types
from numba.core.registry import CPUDispatcher

from bezsim.compile_cache import use_versioned_cache_dir

use_versioned_cache_dir()      # before any kernel is defined, so every kernel caches there


# the engine's own options, for an overload compiled as one of its functions (hand.py)
ENGINE_OPTIONS = {"cache": True, "error_model": "numpy", "_nrt": False}


def _plain_call_template(dispatcher: CPUDispatcher) -> None:
    compiled_for_literals = dispatcher.get_call_template

    def get_call_template(args, kws):
        return compiled_for_literals(tuple(types.unliteral(a) for a in args),
                                     {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def njit(*args: Any, **options: Any) -> Callable:
    """``numba.njit`` with its options; a kernel compiles once per plain argument types."""
    if args and callable(args[0]):
        return njit(**options)(args[0])

    def decorate(func: Callable) -> Callable:
        compiled = numba.njit(*args, **options)(func)
        if isinstance(compiled, CPUDispatcher):     # not under NUMBA_DISABLE_JIT
            _plain_call_template(compiled)
        return compiled

    return decorate
