"""Policies outside the compiled dispatch: the search policy and user plug-ins.

The engine receives one first-class function per seat (numba ``FunctionType`` of
``EXTERNAL_SIGNATURE``), always a tuple of four, so one compiled kernel serves every choice of
external policies and stays in the on-disk cache. A seat whose policy is external has the id
EXTERNAL; its function is called with the same arguments as a built-in policy (contract in
bezsim/policies/builtin.py), its parameter row and its own random stream.

``fns``, the run's policy set, is what the kernels are compiled for:
* ``None``: every built-in policy and no external one. Search rollouts replay the engine's
  own hand functions so (no external seat can occur in them): a separate specialisation,
  which keeps the search cacheable and breaks the cycle search -> hand -> decide -> search.
* ``(with_expert, slots, with_learned)``: ``with_expert`` is None when no seat plays
  ``expert`` or ``learned``, whose compile is a third of the engine's, so a run without them
  never compiles it (builtin.expert_in_set); ``with_learned`` is None when no seat plays
  ``learned`` (which values cards with expert's valuations and as much code again);
  ``slots`` is None or the tuple of four functions.
"""

from numba import types
from numba.core.extending import overload

EXTERNAL = 200          # policy id: call the seat's function from the tuple
EXTERNAL_SIGNATURE = types.int64(types.int32[::1], types.int64, types.float64[::1],
                                 types.uint64[::1])
N_FUNCTION_SLOTS = 4    # one per seat, whatever the variant (the tuple's length is its type)


def call_external(fns, S, seat, params, stream):
    """The seat's external policy; -1 (a contract fault) when there is none."""
    if fns is None or fns[1] is None:
        return -1
    return fns[1][seat](S, seat, params, stream)


def policy_set(with_expert: bool, slots: tuple | None, with_learned: bool = False) -> tuple:
    """The ``fns`` value of a run (module docstring); learned brings expert's code with it."""
    return (0 if with_expert or with_learned else None, slots, 0 if with_learned else None)


@overload(call_external, jit_options={"cache": True})
def _call_external_impl(fns, S, seat, params, stream):
    if isinstance(fns, types.NoneType) or isinstance(fns.types[1], types.NoneType):
        def none_impl(fns, S, seat, params, stream):
            return -1
        return none_impl

    def impl(fns, S, seat, params, stream):
        return fns[1][seat](S, seat, params, stream)
    return impl
