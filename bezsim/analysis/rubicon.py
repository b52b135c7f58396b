"""Rubicon questions (R6): how often is the loser rubiconed, how often does carte blanche
happen and what is it worth, how often are triple and quadruple bezique made, what is the
mean settlement? ``bezsim rubicon DIR`` prints them; intervals are 95%.
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


def rubicon_stats(run_dir: str | Path) -> dict[str, Any]:
    # rubicons, carte blanche and the settlement are Rubicon's (R6); elsewhere all zero
    finished_run(run_dir, ("rubicon",), "rubicon statistics")
    run = Path(run_dir)
    if not (run / "games").is_dir() or not (run / "declarations").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no games/declarations)")
    games = read_shards(run, "games", columns=["game_id", "winner", "stake", "rubicon"])
    events = read_shards(run, "declarations", columns=["game_id", "trick", "seat", "kind"],
                         filters=[("kind", "in", ["carte_blanche", "triple_bezique",
                                                  "quadruple_bezique"])])
    n = len(games)
    if n == 0:
        raise BezsimError(f"{run_dir} holds no games")
    kind = events["kind"].astype(str)
    deal_cb = events[(kind == "carte_blanche") & (events["trick"] == 0)]
    all_cb = events[kind == "carte_blanche"]
    decided = games[games["winner"] >= 0]

    def per_game_rate(rows: pd.DataFrame) -> tuple[float, float, float]:
        return wilson(int(rows["game_id"].nunique()), n)

    return {
        "games": n,
        "rubicon": wilson(int(games["rubicon"].sum()), n),
        "draws": wilson(n - len(decided), n),
        "settlement": mean_ci(decided["stake"].to_numpy(np.float64)),
        "carte_blanche_at_deal_per_seat": wilson(len(deal_cb), 2 * n),
        "games_with_carte_blanche": per_game_rate(all_cb),
        "carte_blanche_points_per_game": mean_ci(
            np.bincount(all_cb["game_id"].to_numpy() - games["game_id"].min(),
                        minlength=n)[:n] * 50.0),
        "games_with_triple_bezique": per_game_rate(events[kind == "triple_bezique"]),
        "games_with_quadruple_bezique": per_game_rate(events[kind == "quadruple_bezique"]),
        "triple_beziques": int((kind == "triple_bezique").sum()),
        "quadruple_beziques": int((kind == "quadruple_bezique").sum()),
        "rubicons": int(games["rubicon"].sum()),
    }


def format_stats(stats: dict[str, Any]) -> str:
    def ci(t: tuple[float, ...], fmt: str = ".5f") -> str:
        return format_ci(t, fmt)

    return "\n".join([
        f"games (one hand each): {stats['games']:,}",
        f"loser rubiconed:               {ci(stats['rubicon'])}",
        f"drawn games:                   {ci(stats['draws'])}",
        f"mean settlement (winner):      {ci(stats['settlement'], '{:.1f}')}",
        f"carte blanche at the deal:     {ci(stats['carte_blanche_at_deal_per_seat'])} per seat",
        f"games with a carte blanche:    {ci(stats['games_with_carte_blanche'])}",
        f"carte blanche points per game: {ci(stats['carte_blanche_points_per_game'], '{:.2f}')}",
        f"games with a triple bezique:   {ci(stats['games_with_triple_bezique'])}"
        f"  ({stats['triple_beziques']:,} declared)",
        f"games with a quadruple:        {ci(stats['games_with_quadruple_bezique'])}"
        f"  ({stats['quadruple_beziques']:,} declared)",
        "(95% intervals: Wilson for shares, normal for means)",
    ])
