"""Rubicon questions (R6): how often is the loser rubiconed, how often does carte blanche
happen and what is it worth, how often are triple and quadruple bezique declared, what is
the mean settlement? ``bezsim rubicon DIR`` prints them; intervals are 95%. "Declared" is
``bezsim.analysis.declared``'s: shown "to score" and lost does not count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bezsim.analysis.combinations import kind_frequency
from bezsim.analysis.declared import read_declared
from bezsim.analysis.load import finished_run
from bezsim.analysis.scores import rubicon_outcomes
from bezsim.analysis.stats import format_ci, wilson
from bezsim.errors import BezsimError


def rubicon_stats(run_dir: str | Path) -> dict[str, Any]:
    """The Rubicon figures. Each is computed where the report computes it: the outcomes by
    ``scores.rubicon_outcomes``, carte blanche and triple/quadruple bezique by
    ``combinations.kind_frequency`` (declared ones; a game is one hand, so games with one are
    the combination table's hands with one)."""
    # rubicons, carte blanche and the settlement are Rubicon's (R6); elsewhere all zero
    run = finished_run(run_dir, "settlement", "rubicon statistics")
    path = Path(run_dir)
    if not (path / "games").is_dir() or not (path / "declarations").is_dir():
        raise BezsimError(f"{run_dir} is not a bezsim run directory (no games/declarations)")
    outcomes = rubicon_outcomes(run)
    n = len(run.table("games", ["game_id"]))
    if n == 0:
        raise BezsimError(f"{run_dir} holds no games")
    at_deal = read_declared(run, ["trick"], kinds=["carte_blanche"])
    carte_blanche = kind_frequency(run, "carte_blanche")
    triple = kind_frequency(run, "triple_bezique")
    quadruple = kind_frequency(run, "quadruple_bezique")
    return {
        "games": n,
        "rubicon": outcomes["rubicon_rate"],
        "draws": outcomes["draw_rate"],
        "settlement": outcomes["settlement"],
        "carte_blanche_at_deal_per_seat": wilson(int((at_deal["trick"] == 0).sum()),
                                                 run.players * n),
        "games_with_carte_blanche": carte_blanche.hands_with,
        "carte_blanche_points_per_game": carte_blanche.points_per_hand,
        "games_with_triple_bezique": triple.hands_with,
        "games_with_quadruple_bezique": quadruple.hands_with,
        "triple_beziques": triple.declared,
        "triple_beziques_lost": triple.lost,
        "quadruple_beziques": quadruple.declared,
        "quadruple_beziques_lost": quadruple.lost,
        "rubicons": outcomes["rubicons"],
        "drawn_games": outcomes["draws"],
    }


def format_stats(stats: dict[str, Any]) -> str:
    def ci(t: tuple[float, ...], fmt: str = ".5f") -> str:
        return format_ci(t, fmt)

    rare = "{:.6f}"    # as bezsim seats prints triple bezique
    return "\n".join([
        f"games (one hand each): {stats['games']:,}",
        f"loser rubiconed:                {ci(stats['rubicon'])}",
        f"drawn games:                    {ci(stats['draws'])}",
        f"mean settlement, games decided: {ci(stats['settlement'], '{:.1f}')}",
        f"carte blanche at the deal:      {ci(stats['carte_blanche_at_deal_per_seat'])} per seat",
        f"games with a carte blanche:     {ci(stats['games_with_carte_blanche'])}",
        f"carte blanche points per game:  {ci(stats['carte_blanche_points_per_game'], '{:.2f}')}",
        f"games with a triple bezique:    {ci(stats['games_with_triple_bezique'], rare)}"
        f"  ({stats['triple_beziques']:,} declared; {stats['triple_beziques_lost']:,} shown "
        "to score and lost)",
        f"games with a quadruple:         {ci(stats['games_with_quadruple_bezique'], rare)}"
        f"  ({stats['quadruple_beziques']:,} declared; {stats['quadruple_beziques_lost']:,} "
        "shown to score and lost)",
        "(95% intervals: Wilson for shares, normal for means)",
    ])
