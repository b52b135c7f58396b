"""How often do compound declarations happen (R5.2), of what size, worth how much?

    from bezsim.analysis.compounds import compound_stats
    compound_stats("data/runs/polish-1")        # or: bezsim compounds DIR

A declaration is the set of combinations declared (``bezsim.analysis.declared``: scored) on
one trick won; a compound is one with two or more. Rates are per hand (both seats together);
intervals are 95%. ``compound_stats``, ``compounds_per_hand`` and ``stage2_share`` read the
declarations through ``load_declarations``, so they count the same ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bezsim.analysis.combinations import COMBINATION_KINDS
from bezsim.analysis.declared import read_declared
from bezsim.analysis.load import finished_run
from bezsim.analysis.stats import format_ci, mean_ci, wilson
from bezsim.errors import BezsimError
from bezsim.io.reader import read_shards

DECLARATION = ["game_id", "hand", "seat", "trick"]     # one declaration: one trick won


def load_declarations(run_dir: str | Path) -> tuple[pd.DataFrame, pd.MultiIndex]:
    """One row per declaration (game, hand, seat, trick won): how many combinations it
    declared (``size``) and their points; and every hand of the run, in game order."""
    # compounds exist only in Polish (R5.2): elsewhere one combination scores per trick
    run = finished_run(run_dir, "open_cards", "compound statistics")
    path = Path(run_dir)
    if not (path / "declarations").is_dir() or not (path / "hands").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no declarations/hands)")
    hands = read_shards(path, "hands", columns=["game_id", "hand"]).drop_duplicates()
    index = pd.MultiIndex.from_frame(hands.sort_values(["game_id", "hand"], kind="stable"))
    events = read_declared(run, [*DECLARATION, "points"], kinds=COMBINATION_KINDS)
    decl = events.groupby(DECLARATION, sort=True).agg(
        size=("points", "size"), points=("points", "sum")).reset_index()
    return decl, index


def per_hand_counts(decl: pd.DataFrame, hands: pd.MultiIndex) -> np.ndarray:
    """How many of ``decl`` each hand holds (hands without one count 0), hands in game
    order: the units of every per-hand rate of this module."""
    counts = decl.groupby(["game_id", "hand"]).size()
    return counts.reindex(hands, fill_value=0).to_numpy(np.float64)


def compound_stats(run_dir: str | Path) -> dict[str, Any]:
    """Per-hand rate of compound declarations, their size distribution and mean value."""
    decl, hands = load_declarations(run_dir)
    if len(hands) == 0:
        raise BezsimError(f"{run_dir} holds no hands")
    compounds = decl[decl["size"] >= 2]
    counts = per_hand_counts(compounds, hands)
    sizes = compounds["size"].value_counts().sort_index()
    return {
        "hands": len(hands),
        "declarations": int(len(decl)),
        "compounds": int(len(compounds)),
        "compounds_per_hand": mean_ci(counts),
        "hands_with_a_compound": wilson(int((counts > 0).sum()), len(hands)),
        "declarations_per_hand": mean_ci(per_hand_counts(decl, hands)),
        "size_count": {int(size): int(k) for size, k in sizes.items()},
        "size_share": {int(size): wilson(int(k), len(compounds)) for size, k in sizes.items()},
        "compound_points": mean_ci(compounds["points"].to_numpy(np.float64)),
        "declaration_points": mean_ci(decl["points"].to_numpy(np.float64)),
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
    ``compound_stats``'s per-hand rate, for convergence plots and differences between runs."""
    decl, hands = load_declarations(run_dir)
    return per_hand_counts(decl[decl["size"] >= 2], hands)


STAGE1_TRICKS = 24      # two-handed: 24 tricks with the stock, then 8 (R1.6, R5.4)


def stage2_share(run_dir: str | Path) -> tuple[float, float, float]:
    """Share of compound declarations made in stage 2 (after the stock is gone), when open
    cards still complete combinations (R5.2: declarations continue through stage 2)."""
    decl, _ = load_declarations(run_dir)
    compounds = decl[decl["size"] >= 2]
    return wilson(int((compounds["trick"] > STAGE1_TRICKS).sum()), len(compounds))
