"""How often each combination is declared and what it is worth (R1.8, R3, R5, R6.3).

    from bezsim.analysis import load_run, combination_table
    combination_table(load_run("data/samples/ordinary"))

One row per scoring kind that occurred: combinations first, then the other sources of
points (sevens, brisques, last trick, carte blanche). Counts are per hand, all seats
together; a combination shown "to score" and scored later counts once (R1.10), one never
scored counts as ``lost``. Hands are the units of the intervals (95%).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bezsim.analysis.load import Run
from bezsim.analysis.stats import Z95, Estimate, wilson
from bezsim.engine.constants import KIND_NAMES

COMBINATION_KINDS = ("common_marriage", "royal_marriage", "sequence", "plain_sequence",
                     "bezique", "double_bezique", "triple_bezique", "quadruple_bezique",
                     "four_aces", "four_kings", "four_queens", "four_jacks")
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


def n_hands(run: Run) -> int:
    return int(run.table("games", ["hands"])["hands"].sum())


def combination_table(run: Run) -> pd.DataFrame:
    """Per kind: scored and lost counts, scored per hand, share of hands with one (Wilson),
    mean points each, points per hand and the kind's share of all points."""
    events = run.table("declarations", ["game_id", "hand", "kind", "points", "status"])
    hands = n_hands(run)
    kind = events["kind"].astype(str).to_numpy()
    lost = events["status"].astype(str).to_numpy() == "lost"
    scored = events[~lost].assign(kind=kind[~lost])
    total_points = float(scored["points"].sum())
    per_hand = scored.groupby(["kind", "game_id", "hand"], sort=False).agg(
        n=("points", "size"), pts=("points", "sum")).reset_index()
    lost_counts = pd.Series(kind[lost]).value_counts()
    rows = []
    for k in (*COMBINATION_KINDS, *OTHER_KINDS):
        mine = per_hand[per_hand["kind"] == k]
        if mine.empty and k not in lost_counts:
            continue
        count = int(mine["n"].sum())
        rate = sparse_mean_ci(mine["n"].to_numpy(), hands)
        share = wilson(len(mine), hands)
        pts = sparse_mean_ci(mine["pts"].to_numpy(), hands)
        rows.append((k, "combination" if k in COMBINATION_KINDS else "other", count,
                     int(lost_counts.get(k, 0)), *rate, *share,
                     float(mine["pts"].sum()) / count if count else float("nan"), *pts,
                     float(mine["pts"].sum()) / total_points if total_points else float("nan")))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def estimate(row: pd.Series, name: str) -> Estimate:
    """The (value, low, high) of one measure of a table row: ``per_hand``, ``hands_with``,
    ``points_per_hand``."""
    return Estimate(float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]))
