"""Scores: one row per game (winner, margin, length) and the run's headline means.

A game's sides are its seats, or the two teams of a partnership game (R4.2), whose
``score_i`` columns repeat the team's score for each seat. Rubicon games are one hand each
and are settled by R6.8: their ``stake`` is what the winner scores, and ``rubicon_outcomes``
is where the rubicon rate, drawn games and settlement are computed for every report and
command. Shares of games won are of the games decided (``bezsim.analysis.wins``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bezsim.analysis.load import Run, n_hands
from bezsim.analysis.stats import Estimate, mean_ci, wilson
from bezsim.analysis.wins import first_leader, wins_by_first_position


def side_scores(run: Run) -> np.ndarray:
    """Final scores per game and side, shape (games, sides) (Rubicon: the hand's points)."""
    games = run.table("games", [f"score_{s}" for s in range(run.sides)])
    return games.to_numpy(np.int64)


def per_game(run: Run) -> pd.DataFrame:
    """One row per game: hands, winner (side, -1 for a drawn Rubicon game), the winner's and
    the best other side's final score, margin, stake, double game, rubicon, whether the side
    that led the game's first trick won (1.0 or 0.0; NaN for a drawn game, which nobody
    won), and mean points per seat and hand."""
    games = run.games
    scores = side_scores(run)
    winner = games["winner"].to_numpy(np.int64)
    decided = winner >= 0
    rows = np.arange(len(games))
    win_score = np.where(decided, scores[rows, np.maximum(winner, 0)], np.nan)
    others = scores.astype(np.float64)
    others[rows[decided], winner[decided]] = -np.inf
    runner_up = np.where(decided, others.max(axis=1), np.nan)
    leader = first_leader(games["first_dealer"], run.partners, run.sides)
    hand_points = run.table("hands", ["game_id", "points"]).groupby("game_id")["points"].sum()
    seat_hands = games["hands"].to_numpy(np.int64) * run.players
    return pd.DataFrame({
        "game_id": games["game_id"].to_numpy(),
        "hands": games["hands"].to_numpy(np.int64),
        "winner": winner,
        "winner_score": win_score,
        "runner_up_score": runner_up,
        "margin": win_score - runner_up,
        # a drawn Rubicon game settles nothing (R6.8): no stake to average
        "stake": np.where(decided | (not run.one_hand_game),
                          games["stake"].to_numpy(np.float64), np.nan),
        "double_game": games["double_game"].to_numpy(bool),
        "rubicon": games["rubicon"].to_numpy(bool),
        "first_leader_won": np.where(decided, (winner == leader).astype(np.float64), np.nan),
        "points_per_seat_hand": hand_points.reindex(games["game_id"]).to_numpy() / seat_hands,
    })


def hand_points(run: Run) -> pd.DataFrame:
    """One row per hand: the points of all seats together and per seat (mean of the seats)."""
    hands = run.table("hands", ["game_id", "hand", "points"])
    total = hands.groupby(["game_id", "hand"], sort=True)["points"].sum()
    return pd.DataFrame({"total": total, "per_seat": total / run.players}).reset_index()


def score_summary(run: Run) -> dict[str, Estimate | int]:
    """The run's headline numbers, each with its 95% interval (hands are the units of the
    per-hand means, games those of the per-game ones)."""
    g = per_game(run)
    hp = hand_points(run)
    n = len(g)
    decided = g[g["winner"] >= 0]
    out: dict[str, Any] = {
        "games": n,
        "hands": n_hands(run),
        "points_per_seat_hand": mean_ci(hp["per_seat"].to_numpy()),
    }
    if run.one_hand_game:
        outcomes = rubicon_outcomes(run)
        for key in ("settlement", "rubicon_rate", "draw_rate"):
            out[key] = outcomes[key]
        out["winner_points"] = mean_ci(decided["winner_score"].to_numpy())
        out["loser_points"] = mean_ci(decided["runner_up_score"].to_numpy())
    else:
        out["hands_per_game"] = mean_ci(g["hands"].to_numpy(np.float64))
        out["winner_score"] = mean_ci(decided["winner_score"].to_numpy())
        out["margin"] = mean_ci(decided["margin"].to_numpy())
        if run.options.get("double_game", "off") != "off":
            out["double_game_rate"] = wilson(int(g["double_game"].sum()), n)
        out["first_leader_wins"] = wins_by_first_position(run)[0]
    return out


def rubicon_outcomes(run: Run) -> dict[str, Any]:
    """How the Rubicon games ended (R6.8): rubicons and their share of all games, drawn
    games and their share, and the mean settlement of the games decided (a draw settles
    nothing). The one computation behind ``bezsim rubicon``, the report's key numbers and
    its Rubicon section."""
    games = run.table("games", ["winner", "stake", "rubicon"])
    n = len(games)
    decided = games["winner"].to_numpy(np.int64) >= 0
    rubicons = int(games["rubicon"].sum())
    draws = int(n - decided.sum())
    return {"rubicons": rubicons, "rubicon_rate": wilson(rubicons, n), "draws": draws,
            "draw_rate": wilson(draws, n),
            "settlement": mean_ci(games["stake"].to_numpy(np.float64)[decided])}


def quantiles(values: np.ndarray, qs: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
              ) -> dict[str, float]:
    """Named quantiles (``p5``, ``p50``...) of a distribution, for tables beside histograms."""
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return {f"p{round(q * 100)}": float("nan") for q in qs}
    return {f"p{round(q * 100)}": float(np.quantile(x, q)) for q in qs}
