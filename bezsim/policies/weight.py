"""A policy weight, declared once: its name, default, range, meaning and the games that read
it. A policy keeps its weights as one tuple of these records; the kernels' index constants,
the default row, the registry's parameters (and so ``bezsim policies``, spec checking and
``bezsim tune``'s ranges) are all built from that tuple, so a weight is added or changed in
one place. Plain Python, no kernel: numba sees only the ints and floats built from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Weight:
    """One entry of a policy's parameter row (its position is its place in the tuple)."""

    name: str                      # the parameter name a spec uses: expert(name=value)
    default: float                 # the value played unless a spec or a tuned set says else
    meaning: str                   # one line for ``bezsim policies``
    low: float = -math.inf         # values outside low..high are refused (the tuner clips)
    high: float = math.inf
    read_when: str = ""            # a bezsim.rules.Variant feature true in the games that
    #                                read it ("settlement", "open_cards", "partners"; "": all)
    whole: bool = False            # only whole numbers are accepted
    tune_step: float = 0.1         # ``bezsim tune``'s smallest step for it (its natural unit:
    #                                a weight on points moves by tenths, a bonus in points by more)
    names: tuple[str, ...] = ()    # a choice: the names of the whole values low, low + 1, ...
    #                                (a spec may write either; canonical specs write the name)


def index(weights: tuple[Weight, ...]) -> dict[str, int]:
    """Each weight's column in the parameter row, by name (names must be unique)."""
    out = {w.name: i for i, w in enumerate(weights)}
    if len(out) != len(weights):
        raise ValueError(f"duplicate weight names in {[w.name for w in weights]}")
    for w in weights:
        if not w.low <= w.default <= w.high:
            raise ValueError(f"weight {w.name}: default {w.default} outside {w.low}..{w.high}")
    return out


def defaults(weights: tuple[Weight, ...]) -> tuple[float, ...]:
    """The default row, in column order (a tuple of floats: numba freezes it as a constant)."""
    return tuple(float(w.default) for w in weights)
