"""Comparisons with an interval for the difference: run against run (a rule option against
another, a policy against another) and policy against policy within one run.

Two runs with the same seed and games play the same deal numbers, so their games pair up
by ``game_id``: the difference is then the mean of per-game differences (``paired``), which
cancels what a deal gives both runs. Runs with different seeds are independent samples:
Newcombe's interval for a difference of rates, Welch's for a difference of means.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bezsim.analysis.load import Run
from bezsim.analysis.scores import per_game
from bezsim.analysis.stats import (
    Estimate,
    mean_ci,
    mean_difference,
    paired_difference,
    rate_difference,
    wilson,
)
from bezsim.errors import BezsimError

# per-game metrics of scores.per_game: name -> (kind, label with unit)
GAME_METRICS: dict[str, tuple[str, str]] = {
    "points_per_seat_hand": ("mean", "points per seat and hand"),
    "hands": ("mean", "hands per game"),
    "winner_score": ("mean", "winner's final score (points)"),
    "margin": ("mean", "winning margin (points)"),
    "first_leader_won": ("rate", "games decided won by the side leading the first trick"),
    "double_game": ("rate", "double games (loser under half the target)"),
    "rubicon": ("rate", "games ending in a rubicon"),
    "stake": ("mean", "settlement (points)"),
}


@dataclass(frozen=True)
class Comparison:
    """Metric of run A, of run B, and A - B, each with a 95% interval."""

    metric: str
    label_a: str
    label_b: str
    a: Estimate
    b: Estimate
    diff: Estimate
    method: str          # "paired", "newcombe" or "welch"

    def row(self) -> dict[str, object]:
        return {"metric": self.metric, "a": self.label_a, "b": self.label_b,
                "value_a": self.a.value, "low_a": self.a.low, "high_a": self.a.high,
                "value_b": self.b.value, "low_b": self.b.low, "high_b": self.b.high,
                "diff": self.diff.value, "diff_low": self.diff.low,
                "diff_high": self.diff.high, "method": self.method}


def compare_rates(k_a: int, n_a: int, k_b: int, n_b: int, metric: str = "rate",
                  labels: tuple[str, str] = ("A", "B")) -> Comparison:
    """Two independent rates: Wilson each, Newcombe's hybrid score interval for A - B."""
    return Comparison(metric, *labels, wilson(k_a, n_a), wilson(k_b, n_b),
                      rate_difference(k_a, n_a, k_b, n_b), "newcombe")


def compare_means(a: np.ndarray, b: np.ndarray, metric: str = "mean",
                  labels: tuple[str, str] = ("A", "B"), paired: bool = False) -> Comparison:
    """Two samples' means; ``paired`` when a[i] and b[i] are the same unit (game)."""
    diff = paired_difference(a, b) if paired else mean_difference(a, b)
    return Comparison(metric, *labels, mean_ci(a), mean_ci(b), diff,
                      "paired" if paired else "welch")


def pairable(a: Run, b: Run) -> bool:
    """Same seed and game count: game g of each run has the same deals (while the hands
    last), so per-game differences are the honest unit."""
    return a.seed == b.seed and a.n_games == b.n_games


def compare_runs(a: Run, b: Run, metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per metric: A's value, B's, A - B, with 95% intervals (see module doc)."""
    ga, gb = per_game(a), per_game(b)
    paired = pairable(a, b) and np.array_equal(ga["game_id"], gb["game_id"])
    if metrics is None:
        metrics = [m for m in GAME_METRICS if _applies(m, a) and _applies(m, b)]
    rows = []
    for m in metrics:
        if m not in GAME_METRICS:
            raise BezsimError(f"unknown metric {m!r} (metrics: {', '.join(GAME_METRICS)})")
        rows.append(_compare_metric(m, ga, gb, (a.label, b.label), paired).row())
    return pd.DataFrame(rows)


def _applies(metric: str, run: Run) -> bool:
    if run.one_hand_game:
        return metric in ("points_per_seat_hand", "rubicon", "stake", "margin",
                          "first_leader_won")
    if metric == "double_game":
        return run.options.get("double_game", "off") != "off"
    return metric not in ("rubicon", "stake")


def _compare_metric(metric: str, ga: pd.DataFrame, gb: pd.DataFrame,
                    labels: tuple[str, str], paired: bool) -> Comparison:
    kind, _ = GAME_METRICS[metric]
    xa = ga[metric].to_numpy(np.float64)
    xb = gb[metric].to_numpy(np.float64)
    if paired:
        both = ~(np.isnan(xa) | np.isnan(xb))       # drawn Rubicon games have no margin
        if kind == "rate":       # a drawn game counts in no share of games won
            return Comparison(metric, *labels, _rate(xa), _rate(xb),
                              paired_difference(xa[both], xb[both]), "paired")
        return Comparison(metric, *labels, mean_ci(xa[~np.isnan(xa)]),
                          mean_ci(xb[~np.isnan(xb)]), paired_difference(xa[both], xb[both]),
                          "paired")
    xa, xb = xa[~np.isnan(xa)], xb[~np.isnan(xb)]
    if kind == "rate":
        return compare_rates(int(xa.sum()), xa.size, int(xb.sum()), xb.size, metric, labels)
    return compare_means(xa, xb, metric, labels)


def _rate(x: np.ndarray) -> Estimate:
    """Wilson rate of the 0/1 values of ``x``, NaN (not applicable) left out."""
    known = x[~np.isnan(x)]
    return wilson(int(known.sum()), known.size)


def policy_comparison(run: Run) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Policies that share the games of one run (e.g. ``--policies heuristic,greedy``).

    Returns (per policy: seats, win rate per seat — games won by one of its seats over
    games decided x its seats (``bezsim.analysis.wins``), fair share 1/sides — and points
    per seat and hand), and (each other policy against the first: difference of points per
    seat and hand, paired within games, and of win rate per seat, paired within games
    decided). A partnership's team plays one policy per team only if both partners play
    it; partners' wins count for both seats."""
    policies = run.policies
    names = list(dict.fromkeys(policies))
    if len(names) < 2:
        raise BezsimError(f"run {run.label} plays one policy ({names[0]}); nothing to compare")
    games = run.table("games", ["game_id", "winner"])
    hands = run.table("hands", ["game_id", "seat", "points"])
    winner = games["winner"].to_numpy(np.int64)
    teams = np.arange(run.players) % 2 if run.partners else np.arange(run.players)
    seat_points = hands.pivot_table(index="game_id", columns="seat", values="points",
                                    aggfunc="sum").reindex(games["game_id"]).to_numpy(np.float64)
    hands_per_game = (run.table("games", ["hands"])["hands"].to_numpy(np.float64))[:, None]
    per_seat_hand = seat_points / hands_per_game                 # (games, seats)
    seat_won = winner[winner >= 0][:, None] == teams[None, :]    # (games decided, seats)
    n_decided = len(seat_won)
    rows, per_policy_pph, per_policy_win = [], {}, {}
    for name in names:
        seats = [s for s, p in enumerate(policies) if p == name]
        pph = per_seat_hand[:, seats].mean(axis=1)
        wins = seat_won[:, seats].mean(axis=1)
        per_policy_pph[name], per_policy_win[name] = pph, wins
        win = wilson(int(seat_won[:, seats].sum()), n_decided * len(seats))
        rows.append({"policy": name, "seats": ",".join(map(str, seats)),
                     "win_rate": win.value, "win_low": win.low, "win_high": win.high,
                     "fair_share": 1 / run.sides, **_est("pph", mean_ci(pph))})
    diffs = []
    base = names[0]
    for name in names[1:]:
        d_pph = paired_difference(per_policy_pph[name], per_policy_pph[base])
        d_win = paired_difference(per_policy_win[name], per_policy_win[base])
        diffs.append({"policy": name, "against": base, **_est("pph_diff", d_pph),
                      **_est("win_diff", d_win)})
    return pd.DataFrame(rows), pd.DataFrame(diffs)


def _est(prefix: str, e: Estimate) -> dict[str, float]:
    return {prefix: e.value, f"{prefix}_low": e.low, f"{prefix}_high": e.high}
