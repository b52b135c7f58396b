"""Who won the games: every share of games won is a share of the games *decided*.

A drawn Rubicon game (R6.8) has no winner; leaving drawn games out makes the shares of all
sides add up to 1 and compare with the fair share 1/sides. In every other variant each game
is decided, so the shares are of all games. ``bezsim seats``, ``lead_value``,
``score_summary``, ``policy_comparison`` and the report take them from here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bezsim.analysis.load import Run
from bezsim.analysis.stats import Estimate, wilson


def decided_games(run: Run) -> pd.DataFrame:
    """``game_id``, ``first_dealer`` and ``winner`` of the games that have a winner."""
    games = run.table("games", ["game_id", "first_dealer", "winner"])
    return games[games["winner"] >= 0]


def first_leader(first_dealer: np.ndarray | pd.Series, partners: bool, sides: int
                 ) -> np.ndarray:
    """The side (seat, or team in a partnership) that led the first trick of the game: the
    one on the first dealer's left."""
    dealer_side = np.asarray(first_dealer, dtype=np.int64)
    if partners:
        dealer_side = dealer_side % 2
    return (dealer_side + 1) % sides


def wins_by_side(run: Run) -> list[Estimate]:
    """Share of the games decided won by each side (seat, or team)."""
    games = decided_games(run)
    winner = games["winner"].to_numpy(np.int64)
    return [wilson(int((winner == s).sum()), len(games)) for s in range(run.sides)]


def wins_by_first_position(run: Run) -> list[Estimate]:
    """Share of the games decided won by the side at each position from the dealer's left
    in the game's first hand (position 0 led the game's first trick)."""
    games = decided_games(run)
    leader = first_leader(games["first_dealer"], run.partners, run.sides)
    position = (games["winner"].to_numpy(np.int64) - leader) % run.sides
    return [wilson(int((position == p).sum()), len(games)) for p in range(run.sides)]
