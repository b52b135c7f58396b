"""How often do compound declarations happen (R5.2), of what size, worth how much?

    from bezsim.analysis.compounds import compound_stats
    compound_stats("data/runs/polish-1")        # or: bezsim compounds DIR

A declaration is the set of combinations scored on one trick won; a compound is one with two
or more. Rates are per hand (both seats together); intervals are 95%.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bezsim.analysis.load import finished_run
from bezsim.analysis.stats import format_ci, mean_ci, wilson
from bezsim.errors import BezsimError
from bezsim.io.reader import read_shards


def load_declarations(run_dir: str | Path) -> tuple[pd.DataFrame, int]:
    """One row per declaration (game, hand, seat, compound): its size and points; and the
    number of hands in the run."""
    # compounds exist only in Polish (R5.2): elsewhere one combination scores per trick
    finished_run(run_dir, ("polish",), "compound statistics")
    run = Path(run_dir)
    if not (run / "declarations").is_dir() or not (run / "games").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no declarations/games)")
    games = read_shards(run, "games", columns=["hands"])
    events = read_shards(
        run, "declarations",
        columns=["game_id", "hand", "seat", "points", "compound_id", "compound_size"],
        filters=[("compound_size", ">=", 1)])
    grouped = events.groupby(["game_id", "hand", "seat", "compound_id"], observed=True)
    decl = grouped.agg(size=("compound_size", "first"), points=("points", "sum")).reset_index()
    return decl, int(games["hands"].sum())


def _per_hand(decl: pd.DataFrame, n_hands: int) -> np.ndarray:
    """Declarations of each hand (hands without one count 0): the units of a per-hand mean."""
    counts = np.zeros(n_hands)
    per_hand = decl.groupby(["game_id", "hand"]).size()
    counts[:per_hand.size] = per_hand.to_numpy()
    return counts


def compound_stats(run_dir: str | Path) -> dict[str, Any]:
    """Per-hand rate of compound declarations, their size distribution and mean value."""
    decl, n_hands = load_declarations(run_dir)
    if n_hands == 0:
        raise BezsimError(f"{run_dir} holds no hands")
    compounds = decl[decl["size"] >= 2]
    per_hand = compounds.groupby(["game_id", "hand"]).size()
    counts = _per_hand(compounds, n_hands)
    sizes = compounds["size"].value_counts().sort_index()
    return {
        "hands": n_hands,
        "declarations": int(len(decl)),
        "compounds": int(len(compounds)),
        "compounds_per_hand": mean_ci(counts),
        "hands_with_a_compound": wilson(int(per_hand.size), n_hands),
        "declarations_per_hand": mean_ci(_per_hand(decl, n_hands)),
        "size_count": {int(size): int(k) for size, k in sizes.items()},
        "size_share": {int(size): wilson(int(k), len(compounds)) for size, k in sizes.items()},
        "compound_points": mean_ci(compounds["points"].to_numpy()),
        "declaration_points": mean_ci(decl["points"].to_numpy()),
    }


def format_stats(stats: dict[str, Any]) -> str:
    def ci(triple: tuple[float, ...], fmt: str = ".4f") -> str:
        return format_ci(triple, fmt)

    lines = [
        f"hands: {stats['hands']:,}   declarations: {stats['declarations']:,}   "
        f"compounds (2+ combinations on one trick): {stats['compounds']:,}",
        f"compounds per hand:        {ci(stats['compounds_per_hand'])}",
        f"hands with a compound:     {ci(stats['hands_with_a_compound'])}",
        f"mean points of a compound: {ci(stats['compound_points'], '{:.1f}')}",
        "compound size (share of compounds):",
    ]
    for size, share in stats["size_share"].items():
        lines.append(f"  {size} combinations: {ci(share)}  ({stats['size_count'][size]:,})")
    lines.append("(95% intervals: Wilson for shares, normal for means)")
    return "\n".join(lines)


def compounds_per_hand(run_dir: str | Path) -> np.ndarray:
    """Compound declarations of each hand (both seats), hands in game order: the units of
    the per-hand rate, for convergence plots and differences between runs."""
    run = Path(run_dir)
    if not (run / "hands").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no hands table)")
    hands = read_shards(run, "hands", columns=["game_id", "hand", "compounds"])
    return hands.groupby(["game_id", "hand"], sort=True)["compounds"].sum().to_numpy(np.float64)


STAGE1_TRICKS = 24      # two-handed: 24 tricks with the stock, then 8 (R1.6, R5.4)


def stage2_share(run_dir: str | Path) -> tuple[float, float, float]:
    """Share of compound declarations made in stage 2 (after the stock is gone), when open
    cards still complete combinations (R5.2: declarations continue through stage 2)."""
    run = Path(run_dir)
    if not (run / "declarations").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no declarations)")
    events = read_shards(run, "declarations",
                         columns=["game_id", "hand", "seat", "trick", "compound_id"],
                         filters=[("compound_size", ">=", 2)])
    tricks = events.groupby(["game_id", "hand", "seat", "compound_id"])["trick"].first()
    return wilson(int((tricks > STAGE1_TRICKS).sum()), len(tricks))
