"""How often each combination is declared and what it is worth (R1.8, R3, R5, R6.3).

    from bezsim.analysis import load_run, combination_table
    combination_table(load_run("data/samples/ordinary"))

One row per scoring kind that occurred: combinations first, then the other sources of
points (sevens, brisques, last trick, carte blanche). Counts are per hand, all seats
together, of what was declared (``bezsim.analysis.declared``: a combination shown "to score"
and scored later counts once, R1.10); one shown "to score" and never scored counts only as
``lost``. Hands are the units of the intervals (95%). ``kind_frequency`` gives one kind's
row the same way, for the commands that state it (``bezsim seats``, ``bezsim rubicon``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from bezsim.analysis.declared import count_lost, is_declared, read_declared
from bezsim.analysis.load import Run, n_hands
from bezsim.analysis.stats import Z95, Estimate, wilson
from bezsim.engine import constants as C
from bezsim.engine.constants import KIND_NAMES

COMBINATION_KINDS = tuple(KIND_NAMES[k] for k in C.COMBINATION_KINDS)
OTHER_KINDS = tuple(k for k in KIND_NAMES if k not in COMBINATION_KINDS)
LABELS = {k: k.replace("_", " ") for k in KIND_NAMES}
LABELS |= {"seven_turnup": "seven turned up", "seven_exchange": "seven exchanged",
           "seven_declare": "seven declared", "seven_played": "seven played",
           "last_trick": "last trick"}

COLUMNS = ("kind", "group", "scored", "lost", "per_hand", "per_hand_low", "per_hand_high",
           "hands_with", "hands_with_low", "hands_with_high", "points_each",
           "points_per_hand", "points_per_hand_low", "points_per_hand_high", "share_of_points")


def sparse_mean_ci(values: np.ndarray, n: int, z: float = Z95) -> Estimate:
    """Mean and normal interval of n non-negative values of which only the non-zero ones
    are given; the lower bound is kept at 0 or above (a rare kind's normal interval would
    otherwise dip below zero)."""
    x = np.asarray(values, dtype=np.float64)
    if n <= 1:
        return Estimate(float(x.sum()) / n if n else float("nan"), float("nan"), float("nan"))
    mean = float(x.sum()) / n
    var = max(0.0, (float((x * x).sum()) - n * mean * mean) / (n - 1))
    half = z * float(np.sqrt(var / n))
    return Estimate(mean, max(0.0, mean - half), mean + half)


class KindFrequency(NamedTuple):
    """One scoring kind in a run: declared and lost counts, declared per hand, share of
    hands with one declared, and points per hand (intervals 95%, hands as units)."""

    declared: int
    lost: int
    per_hand: Estimate
    hands_with: Estimate
    points: float
    points_per_hand: Estimate


def frequency(events: pd.DataFrame, lost: int, hands: int) -> KindFrequency:
    """The figures of one kind from its declared rows (``game_id``, ``hand``, ``points``),
    its lost count and the run's hands: the one computation behind the combination table's
    row and ``kind_frequency``, so both state the same numbers."""
    per_hand = events.groupby(["game_id", "hand"], sort=True)["points"].agg(["size", "sum"])
    counts = per_hand["size"].to_numpy()
    points = per_hand["sum"].to_numpy()
    return KindFrequency(int(counts.sum()), lost, sparse_mean_ci(counts, hands),
                         wilson(len(per_hand), hands), float(points.sum()),
                         sparse_mean_ci(points, hands))


def kind_frequency(run: Run, kind: str) -> KindFrequency:
    """One kind's row of ``combination_table`` (reading only that kind's rows)."""
    events = read_declared(run, ["game_id", "hand", "points"], kinds=[kind])
    return frequency(events, count_lost(run, kind), n_hands(run))


def combination_table(run: Run) -> pd.DataFrame:
    """Per kind: declared (``scored``) and lost counts, declared per hand, share of hands
    with one (Wilson), mean points each, points per hand and the kind's share of all
    points."""
    events = run.table("declarations", ["game_id", "hand", "kind", "points", "status"])
    hands = n_hands(run)
    kind = events["kind"].astype(str).to_numpy()
    scored = is_declared(events["status"])
    declared = events[scored]
    declared_kind = kind[scored]
    total_points = float(declared["points"].sum())
    lost_counts = pd.Series(kind[~scored]).value_counts()
    rows = []
    for k in (*COMBINATION_KINDS, *OTHER_KINDS):
        mine = declared[declared_kind == k]
        if mine.empty and k not in lost_counts:
            continue
        f = frequency(mine, int(lost_counts.get(k, 0)), hands)
        rows.append((k, "combination" if k in COMBINATION_KINDS else "other", f.declared,
                     f.lost, *f.per_hand, *f.hands_with,
                     f.points / f.declared if f.declared else float("nan"),
                     *f.points_per_hand,
                     f.points / total_points if total_points else float("nan")))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def estimate(row: pd.Series, name: str) -> Estimate:
    """The (value, low, high) of one measure of a table row: ``per_hand``, ``hands_with``,
    ``points_per_hand``."""
    return Estimate(float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]))
