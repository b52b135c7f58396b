"""Policies outside the compiled dispatch: the search policy and user plug-ins.

The engine receives one first-class function per seat (numba ``FunctionType`` of
``EXTERNAL_SIGNATURE``), always a tuple of four, so one compiled kernel serves every choice of
external policies and stays in the on-disk cache. A seat whose policy is external has the id
EXTERNAL; its function is called with the same arguments as a built-in policy (contract in
bezsim/policies/builtin.py), its parameter row and its own random stream.

``fns``, the run's policy set, is what the kernels are compiled for:
* ``None``: every built-in policy, every variant's code and no external policy. Search
  rollouts replay the engine's own hand functions so (no external seat can occur in them): a
  separate specialisation, which keeps the search cacheable and breaks the cycle search ->
  hand -> decide -> search.
* a tuple of SET_SIZE entries, each None (left out: never compiled) or present, at the
  indices below: ``SET_EXPERT`` (expert or learned plays: their compile is a third of the
  engine's), ``SET_SLOTS`` (the tuple of four functions, or None), ``SET_LEARNED`` (learned
  values cards with expert's valuations and as much code again), ``SET_GREEDY`` and
  ``SET_HEURISTIC`` (a seat plays them), ``SET_OPEN_CARDS`` (the variant plays Polish open
  cards, R5), ``SET_PAIRS`` (the variant may end in R4.2 pairs) and ``SET_TREE`` (the ISMCTS
  tree policy: search's play-outs with method=1 only). A run compiles only what its seats and
  its variant use (builtin.choose_among, hand.play_rest), and so do search's play-outs
  (policies/search.py, playout_set).
"""

from numba import types
from numba.core.extending import overload

EXTERNAL = 200          # policy id: call the seat's function from the tuple
EXTERNAL_SIGNATURE = types.int64(types.int32[::1], types.int64, types.float64[::1],
                                 types.uint64[::1])
N_FUNCTION_SLOTS = 4    # one per seat, whatever the variant (the tuple's length is its type)
SET_EXPERT, SET_SLOTS, SET_LEARNED, SET_GREEDY, SET_HEURISTIC = range(5)
SET_OPEN_CARDS, SET_PAIRS, SET_TREE = range(5, 8)
SET_SIZE = 8


def call_external(fns, S, seat, params, stream):
    """The seat's external policy; -1 (a contract fault) when there is none."""
    if fns is None or fns[SET_SLOTS] is None:
        return -1
    return fns[SET_SLOTS][seat](S, seat, params, stream)


def policy_set(with_expert: bool, slots: tuple | None, with_learned: bool = False, *,
               greedy: bool = True, heuristic: bool = True, open_cards: bool = True,
               pairs: bool = True, tree: bool = False) -> tuple:
    """The ``fns`` value of a run (module docstring); learned brings expert's code with it.
    Left to their defaults, the simple policies and every variant's code are compiled in,
    the tree policy left out."""
    def present(flag: bool) -> int | None:
        return 0 if flag else None

    return (present(with_expert or with_learned), slots, present(with_learned),
            present(greedy), present(heuristic), present(open_cards), present(pairs),
            present(tree))


def in_set(fns, index: int) -> bool:
    """At typing time (an overload's ``fns`` type): whether the policy set compiles entry
    ``index`` in (``fns`` None: everything)."""
    return isinstance(fns, types.NoneType) or not isinstance(fns.types[index], types.NoneType)


@overload(call_external, jit_options={"cache": True})
def _call_external_impl(fns, S, seat, params, stream):
    if isinstance(fns, types.NoneType) or isinstance(fns.types[SET_SLOTS], types.NoneType):
        def none_impl(fns, S, seat, params, stream):
            return -1
        return none_impl

    def impl(fns, S, seat, params, stream):
        return fns[SET_SLOTS][seat](S, seat, params, stream)
    return impl
