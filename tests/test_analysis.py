"""Analyses over run directories: compound declarations (Polish, R5.2) and the intervals."""

import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bezsim.analysis.compounds import compound_stats
from bezsim.analysis.stats import mean_ci, wilson
from bezsim.cli import cli
from bezsim.errors import BezsimError
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation


def test_wilson_and_mean_intervals_known_values():
    p, low, high = wilson(5, 10)
    assert p == 0.5 and low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[1] == 0.0 and wilson(0, 20)[2] == pytest.approx(0.1611, abs=1e-4)
    mean, low, high = mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    half = 1.959963984540054 * np.std([1, 2, 3, 4], ddof=1) / 2
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert math.isnan(wilson(0, 0)[0])


@pytest.fixture(scope="module")
def polish_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "polish"
    run_simulation(Rules.make("polish"), ["random", "random"], 9, 300, out, progress=False)
    return out


def test_compound_stats_agree_with_the_hands_table(polish_run):
    stats = compound_stats(polish_run)
    hands = pd.read_parquet(polish_run / "hands")
    per_hand = hands.groupby(["game_id", "hand"])["compounds"].sum()
    assert stats["hands"] == len(per_hand)
    assert stats["compounds"] == int(hands["compounds"].sum()) > 0
    assert stats["declarations"] == int(hands["declaring_tricks"].sum())
    assert stats["compounds_per_hand"][0] == pytest.approx(per_hand.mean())
    assert stats["hands_with_a_compound"][0] == pytest.approx((per_hand > 0).mean())
    shares = stats["size_share"]
    assert min(shares) == 2 and sum(s[0] for s in shares.values()) == pytest.approx(1.0)
    low, high = stats["compound_points"][1:]
    assert low < stats["compound_points"][0] < high


def test_compounds_command(polish_run, tmp_path):
    result = CliRunner().invoke(cli, ["compounds", str(polish_run)])
    assert result.exit_code == 0, result.output
    assert "compounds per hand:" in result.output and "2 combinations:" in result.output
    bad = CliRunner().invoke(cli, ["compounds", str(tmp_path)])
    assert bad.exit_code == 2
    assert bad.stderr.strip().startswith("bezsim: error:") and "not a bezsim run" in bad.stderr
    with pytest.raises(BezsimError):
        compound_stats(tmp_path)


# --- seats and positions (R3, R4): bezsim seats ----------------------------------------------

@pytest.fixture(scope="module", params=["three_handed", "four_handed_partners"])
def multi_run(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / request.param
    rules = Rules.make(request.param)
    run_simulation(rules, ["greedy"] * rules.players, 5, 120, out, progress=False)
    return request.param, out


def _hand_points_by_position(hands: pd.DataFrame, partners: bool) -> pd.DataFrame:
    """Independent of bezsim.analysis.seats: one row per hand, one column per position from
    the dealer's left (0 leads first), with the side's points, row by row in Python."""
    sides = 2 if partners else int(hands["seat"].max()) + 1
    rows = {}
    for (game, hand), group in hands.groupby(["game_id", "hand"]):
        dealer = int(group["dealer"].iloc[0])
        points = [0] * sides
        for seat, pts in zip(group["seat"], group["points"], strict=True):
            side = seat % 2 if partners else seat
            dealer_side = dealer % 2 if partners else dealer
            points[(side - dealer_side - 1) % sides] += int(pts)
        rows[(game, hand)] = points
    return pd.DataFrame.from_dict(rows, orient="index")


def test_seat_stats_agree_with_the_tables(multi_run):
    from bezsim.analysis.seats import seat_stats

    variant, run = multi_run
    partners = variant == "four_handed_partners"
    stats = seat_stats(run)
    hands = pd.read_parquet(run / "hands")
    games = pd.read_parquet(run / "games")
    table = _hand_points_by_position(hands, partners)
    sides = table.shape[1]
    assert (stats["partners"], stats["sides"]) == (partners, sides)
    assert stats["hands"] == len(table) and stats["games"] == len(games) == 120
    best = table.max(axis=1)
    single = (table.eq(best, axis=0).sum(axis=1) == 1)
    for p in range(sides):
        wins = int((single & (table[p] == best)).sum())
        assert stats["hand_top_by_position"][p][0] == pytest.approx(wins / len(table))
        assert stats["hand_points_by_position"][p][0] == pytest.approx(table[p].mean())
    assert stats["hands_tied_at_top"][0] == pytest.approx((~single).mean())
    for s in range(sides):
        assert stats["game_wins_by_side"][s][0] == pytest.approx((games["winner"] == s).mean())
    first = games["first_dealer"] % 2 if partners else games["first_dealer"]
    position = (games["winner"] - first - 1) % sides
    for p in range(sides):
        assert stats["game_wins_by_first_position"][p][0] == pytest.approx((position == p).mean())
    events = pd.read_parquet(run / "declarations")
    triples = events[(events["kind"] == "triple_bezique") & (events["status"] != "lost")]
    assert stats["triple_beziques"] == len(triples)


def test_seats_command(multi_run, tmp_path):
    variant, run = multi_run
    result = CliRunner().invoke(cli, ["seats", str(run)])
    assert result.exit_code == 0, result.output
    assert "leads first" in result.output and "hands with a triple bezique" in result.output
    assert ("two teams" in result.output) == (variant == "four_handed_partners")
    bad = CliRunner().invoke(cli, ["seats", str(tmp_path)])
    assert bad.exit_code == 2 and bad.stderr.strip().startswith("bezsim: error:")
