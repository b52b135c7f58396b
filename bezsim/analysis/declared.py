"""What counts as declared: the one definition every figure that counts declarations uses.

A combination is *declared* when it scores (docs/rules.md R1.10, R8): at once (status
``scored``) or on a later win after being shown "to score" (``scored_pending``). One shown
"to score" and forfeited (status ``lost``, 0 points) was never declared: it counts only as
*lost*. ``bezsim rubicon``, ``bezsim seats``, ``bezsim compounds``, ``bezsim report`` and the
notebooks all select declarations through this module, so they count the same rows.

    from bezsim.analysis.declared import declared, read_declared
    declared(run.declarations)                      # the rows that scored
    read_declared(run, ["game_id", "hand"], kinds=["triple_bezique"])
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pandas as pd

from bezsim.analysis.load import Run
from bezsim.io.reader import read_shards

DECLARED = ("scored", "scored_pending")
LOST = "lost"


def is_declared(status: pd.Series | np.ndarray) -> np.ndarray:
    """True where a declarations row's ``status`` says it scored."""
    return np.isin(np.asarray(status, dtype=str), DECLARED)


def declared(events: pd.DataFrame) -> pd.DataFrame:
    """The rows of a declarations table that were declared (scored)."""
    return events[is_declared(events["status"])]


def lost(events: pd.DataFrame) -> pd.DataFrame:
    """The rows shown "to score" and never scored: not declarations."""
    return events[~is_declared(events["status"])]


def read_declared(run: Run | str | os.PathLike, columns: Sequence[str],
                  kinds: Sequence[str] | None = None) -> pd.DataFrame:
    """The declared rows of a run (of ``kinds`` when given), only ``columns``: filtered
    while reading, so a big run's millions of other rows are never loaded."""
    path = run.path if isinstance(run, Run) else run
    filters = [("status", "in", list(DECLARED))]
    if kinds is not None:
        filters.append(("kind", "in", list(kinds)))
    return read_shards(path, "declarations", columns=list(columns), filters=filters)


def count_lost(run: Run | str | os.PathLike, kind: str) -> int:
    """How many combinations of ``kind`` were shown "to score" and never scored."""
    path = run.path if isinstance(run, Run) else run
    rows = read_shards(path, "declarations", columns=["game_id"],
                       filters=[("status", "==", LOST), ("kind", "==", kind)])
    return len(rows)
