"""Seat and position questions: how much is leading first worth, do seats (or teams) win
equally often, how often is a triple bezique declared (R3, R4)? ``bezsim seats DIR`` prints
them; intervals are 95%. Shares of games won are of the games decided
(``bezsim.analysis.wins``); triple bezique counts what was declared
(``bezsim.analysis.declared``), with the ones shown "to score" and lost apart.

Positions count from the dealer's left: position 0 leads the first trick of the hand, the
last position is the dealer. In a partnership game (R4.2) the sides are the two teams and the
position is the team's: 0 for the team on the dealer's left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bezsim.analysis.combinations import kind_frequency
from bezsim.analysis.load import finished_run, n_hands
from bezsim.analysis.stats import Estimate, format_ci, mean_ci, wilson
from bezsim.analysis.wins import decided_games, wins_by_first_position, wins_by_side
from bezsim.errors import BezsimError
from bezsim.io.reader import read_shards


def _read(run: Path, table: str, columns: list[str], **kw) -> pd.DataFrame:
    if not (run / table).is_dir():
        raise BezsimError(f"{run} is not a bezsim run directory (no {table} table)")
    return read_shards(run, table, columns=columns, **kw)


def position_points(run_dir: str | Path) -> tuple[np.ndarray, int, bool]:
    """Each hand's points by position from the dealer's left: an array (hands, sides) whose
    column 0 is the side that leads first and the last column the dealer('s team); and the
    number of players and whether sides are teams."""
    finished_run(run_dir, what="seat statistics")   # every variant, but the whole run
    run = Path(run_dir)
    hands = _read(run, "hands", ["game_id", "hand", "seat", "team", "dealer", "points"])
    if hands.empty:
        raise BezsimError(f"{run_dir} holds no games")
    players = int(hands["seat"].max()) + 1
    partners = bool((hands["team"] != hands["seat"]).any())
    sides = 2 if partners else players
    side = hands["team"] if partners else hands["seat"]
    dealer_side = hands["dealer"] % 2 if partners else hands["dealer"]
    hands["position"] = (side - dealer_side - 1) % sides
    per_side = hands.groupby(["game_id", "hand", "position"], observed=True)["points"].sum()
    return per_side.to_numpy(np.int64).reshape(-1, sides), players, partners


def seat_stats(run_dir: str | Path) -> dict[str, Any]:
    points, players, partners = position_points(run_dir)    # rows: hands, cols: position
    about = finished_run(run_dir)
    games = _read(Path(run_dir), "games", ["game_id"])
    if games.empty:
        raise BezsimError(f"{run_dir} holds no games")
    sides = points.shape[1]
    hands = n_hands(about)
    best = points.max(axis=1, keepdims=True)
    top = points == best
    single_top = top.sum(axis=1) == 1
    hand_wins = (top & single_top[:, None]).sum(axis=0)
    triple = kind_frequency(about, "triple_bezique")
    return {
        "players": players,
        "partners": partners,
        "sides": sides,
        "games": len(games),
        "games_decided": len(decided_games(about)),
        "hands": hands,
        "game_wins_by_side": wins_by_side(about),
        "game_wins_by_first_position": wins_by_first_position(about),
        "hand_top_by_position": [wilson(int(hand_wins[p]), hands) for p in range(sides)],
        "hand_points_by_position": [mean_ci(points[:, p].astype(np.float64))
                                    for p in range(sides)],
        "hands_tied_at_top": wilson(int((~single_top).sum()), hands),
        "hands_with_triple_bezique": triple.hands_with,
        "triple_beziques": triple.declared,
        "triple_beziques_lost": triple.lost,
        # seats dealt at random and playing alike should win alike; with different policies
        # the seat figures compare the policies instead
        "same_policy_every_seat": len(set(about.policies)) == 1,
        "triple_bezique_possible": about.rules().packs >= 3,     # three copies of Q♠ J♦
    }


def format_stats(stats: dict[str, Any]) -> str:
    def ci(t: tuple[float, ...], fmt: str = ".4f") -> str:
        return format_ci(t, fmt)

    side = "team" if stats["partners"] else "seat"
    last = stats["sides"] - 1
    names = ["leads first" if p == 0 else ("dealer" if p == last and not stats["partners"]
                                           else f"position {p}") for p in range(stats["sides"])]
    if stats["partners"]:
        names = ["team on the dealer's left (leads first)", "dealer's team"]
    drawn = stats["games"] - stats["games_decided"]
    lines = [f"games: {stats['games']:,}   hands: {stats['hands']:,}   "
             f"players: {stats['players']}{' (two teams)' if stats['partners'] else ''}",
             f"games won by {side}, share of the {stats['games_decided']:,} games decided ("
             + (f"{drawn:,} drawn; " if drawn else "")
             + ("seats are dealt at random, so these should agree):"
                if stats.get("same_policy_every_seat", True) else
                "the seats play different policies: these compare them):")]
    lines += [f"  {side} {s}: {ci(t)}" for s, t in enumerate(stats["game_wins_by_side"])]
    lines.append("games won by position at the first hand of the game, share of the games "
                 "decided:")
    lines += [f"  {names[p]}: {ci(t)}" for p, t in enumerate(stats["game_wins_by_first_position"])]
    lines.append("hands with the most points, by position from the dealer's left:")
    lines += [f"  {names[p]}: {ci(t)}" for p, t in enumerate(stats["hand_top_by_position"])]
    lines.append(f"  tied at the top: {ci(stats['hands_tied_at_top'])}")
    lines.append("mean points per hand, by position:")
    lines += [f"  {names[p]}: {ci(t, '{:.1f}')}"
              for p, t in enumerate(stats["hand_points_by_position"])]
    if stats.get("triple_bezique_possible", True):
        lines.append(f"hands with a triple bezique: "
                     f"{ci(stats['hands_with_triple_bezique'], '{:.6f}')}"
                     f"  ({stats['triple_beziques']:,} declared; "
                     f"{stats['triple_beziques_lost']:,} shown to score and lost)")
    lines.append("(95% intervals: Wilson for shares, normal for means)")
    return "\n".join(lines)


def lead_value(run_dir: str | Path) -> dict[str, Any]:
    """What leading first is worth: per hand, the leader's points minus the dealer's and
    minus the other positions' mean (paired within the hand, so the deal's luck cancels),
    and the share of decided games won by the side that led the game's first trick, against
    the fair share 1/sides (drawn Rubicon games left out, as in every share of games won:
    ``bezsim.analysis.wins``)."""
    points, players, partners = position_points(run_dir)
    sides = points.shape[1]
    leader = points[:, 0].astype(np.float64)
    others = points[:, 1:].mean(axis=1)
    stats = seat_stats(run_dir)
    won = stats["game_wins_by_first_position"][0]
    fair = 1 / sides
    return {
        "sides": sides,
        "partners": partners,
        "hands": points.shape[0],
        "games": stats["games"],
        "games_decided": stats["games_decided"],
        "leader_points": mean_ci(leader),
        "dealer_points": mean_ci(points[:, -1].astype(np.float64)),
        "leader_minus_dealer": mean_ci(leader - points[:, -1]),
        "leader_minus_others": mean_ci(leader - others),
        "leader_tops_hand": stats["hand_top_by_position"][0],
        "first_leader_wins_game": won,
        "fair_share": fair,
        "game_edge": Estimate(won[0] - fair, won[1] - fair, won[2] - fair),
    }
