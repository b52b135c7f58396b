"""One figure, one value: every figure that two commands, two report sections, or a command
and the report state is the same number through every path that states it (the analysis
function, the text a command prints, its --json, the report's Document.numbers, report.json
and the HTML), and it is the figure the rules book defines, computed here from the raw
tables: "declared" is scored (status scored or scored_pending, docs/rules.md R1.10, R8); a
combination shown "to score" and never scored (lost) is not declared; shares of games won
are of the games decided.

One small run per preset. The Rubicon run is chosen to hold lost triple beziques and drawn
games, so that a path counting lost rows, or drawn games among games won, would disagree.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bezsim.analysis import combination_table, compare_runs, load_run, policy_comparison
from bezsim.analysis.combinations import COMBINATION_KINDS
from bezsim.analysis.compounds import compound_stats, compounds_per_hand
from bezsim.analysis.rubicon_figures import rubicon_stats
from bezsim.analysis.scores import score_summary
from bezsim.analysis.seats import lead_value, seat_stats
from bezsim.analysis.stats import Estimate, format_ci, mean_ci, wilson
from bezsim.cli import cli
from bezsim.report.document import est, jsonable, pct
from bezsim.report.render import settled
from bezsim.report.run_report import build_run_report

# variant -> (policies, games, seed); the Rubicon seed gives lost triple beziques and draws
RUNS = {
    "ordinary": ("expert,heuristic", 80, 3),
    "three_handed": ("heuristic", 200, 1),
    "four_handed": ("heuristic", 120, 1),
    "four_handed_partners": ("heuristic", 120, 2),
    "polish": ("heuristic", 150, 1),
    "rubicon": ("expert,heuristic", 400, 60),
}
VARIANTS = list(RUNS)
TRIPLE = ["three_handed", "four_handed", "four_handed_partners", "rubicon"]   # 3+ packs
DECLARED = ["scored", "scored_pending"]      # the rules book's definition, spelled out here


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), prog_name="bezsim")
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("agree")


@pytest.fixture(scope="module")
def paths(root) -> dict[str, Path]:
    made = {}
    for variant, (policies, games, seed) in RUNS.items():
        out = root / variant
        invoke("simulate", "--variant", variant, "--policies", policies, "--games", str(games),
               "--seed", str(seed), "--out", str(out), "--no-progress", "--threads", "1")
        made[variant] = out
    return made


class Views:
    """Everything that states a run's figures, each computed once."""

    def __init__(self, path: Path, report_dir: Path) -> None:
        self.path = path
        self.run = load_run(path)
        self.hands = pd.read_parquet(path / "hands")
        self.games = pd.read_parquet(path / "games")
        self.events = pd.read_parquet(path / "declarations")
        self.events["kind"] = self.events["kind"].astype(str)
        self.events["status"] = self.events["status"].astype(str)
        self.n_hands = int(self.games["hands"].sum())
        self.table = combination_table(self.run).set_index("kind")
        self.seats = seat_stats(path)
        self.seats_json = json.loads(invoke("seats", str(path), "--json"))
        self.seats_text = invoke("seats", str(path))
        self.lead = lead_value(path)
        self.summary = score_summary(self.run)
        self.doc = build_run_report(path)
        invoke("report", str(path), "--out", str(report_dir))
        self.report_json = json.loads((report_dir / "report.json").read_text())
        self.html = (report_dir / "report.html").read_text(encoding="utf-8")

    def declared(self, kind: str) -> pd.DataFrame:
        e = self.events
        return e[(e["kind"] == kind) & e["status"].isin(DECLARED)]

    def lost(self, kind: str) -> pd.DataFrame:
        e = self.events
        return e[(e["kind"] == kind) & (e["status"] == "lost")]

    def hands_with(self, kind: str) -> Estimate:
        rows = self.declared(kind)
        return wilson(len(rows[["game_id", "hand"]].drop_duplicates()), self.n_hands)

    def rows(self, label: str) -> list[list[str]]:
        """The HTML table rows whose first cell is ``label``, as cell texts."""
        found = []
        for row in re.findall(r"<tr>(.*?)</tr>", self.html):
            cells = [html.unescape(re.sub(r"<[^>]+>", "", c))
                     for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
            if cells and cells[0] == label:
                found.append(cells)
        return found


@pytest.fixture(scope="module")
def views(paths, root):
    @cache
    def get(variant: str) -> Views:
        return Views(paths[variant], root / f"report-{variant}")
    return get


def reported(v: Views, key: str, value: Any) -> None:
    """``value`` is what Document.numbers and report.json hold under ``key``."""
    assert v.doc.numbers[key] == jsonable(value), key
    assert v.report_json[key] == settled(jsonable(value)), key


def same(a: Any, b: Any) -> None:
    """Two statements of one figure: equal numbers (JSON turns tuples into lists)."""
    assert jsonable(a) == jsonable(b)


# --- the runs hold what the figures need, so no agreement holds vacuously ---------------------

def test_the_runs_hold_the_rows_that_tell_definitions_apart(views):
    rubicon = views("rubicon")
    assert len(rubicon.lost("triple_bezique")) >= 1          # shown to score, never scored
    assert len(rubicon.declared("triple_bezique")) >= 1
    assert (rubicon.games["winner"] < 0).sum() >= 1           # drawn games
    assert len(rubicon.declared("carte_blanche")) >= 1
    for variant in TRIPLE:
        assert len(views(variant).declared("triple_bezique")) >= 1, variant
    polish = views("polish").hands
    assert polish["compounds"].sum() >= 1


# --- declared: one definition ----------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_combination_table_counts_declared_and_lost_by_the_rules_book(views, variant):
    v = views(variant)
    for kind, row in v.table.iterrows():
        assert row["scored"] == len(v.declared(kind)), kind
        assert row["lost"] == len(v.lost(kind)), kind
        same(Estimate(row["hands_with"], row["hands_with_low"], row["hands_with_high"]),
             v.hands_with(kind))
        reported(v, f"combinations.{kind}.scored", int(row["scored"]))
    # the engine's per-hand count of combinations scored is the same definition
    combos = v.events[v.events["kind"].isin(COMBINATION_KINDS)
                      & v.events["status"].isin(DECLARED)]
    assert int(v.hands["combinations"].sum()) == len(combos)


@pytest.mark.parametrize("variant", TRIPLE)
def test_triple_bezique_is_one_figure(views, variant):
    v = views(variant)
    count, lost = len(v.declared("triple_bezique")), len(v.lost("triple_bezique"))
    share = v.hands_with("triple_bezique")
    row = v.table.loc["triple_bezique"]
    assert (row["scored"], row["lost"]) == (count, lost)
    same(Estimate(row["hands_with"], row["hands_with_low"], row["hands_with_high"]), share)
    reported(v, "combinations.triple_bezique.hands_with", share)
    reported(v, "combinations.triple_bezique.lost", lost)
    for stats in (v.seats, v.seats_json):
        same(stats["hands_with_triple_bezique"], share)
        assert (stats["triple_beziques"], stats["triple_beziques_lost"]) == (count, lost)
    said = (f"hands with a triple bezique: {format_ci(share, '{:.6f}')}  ({count:,} declared; "
            f"{lost:,} shown to score and lost)")
    assert said in v.seats_text.splitlines()
    assert [r[3] for r in v.rows("triple bezique")] == [pct(share)]     # combinations table
    if v.run.players > 2:
        reported(v, "triple_bezique.hands_with", share)
        reported(v, "triple_bezique.declared", count)
        reported(v, "triple_bezique.lost", lost)
        assert f"declared in {pct(share, 3)} of hands ({count:,} declared; " in v.html
    if variant == "rubicon":
        stats = rubicon_stats(v.path)
        data = json.loads(invoke("rubicon", str(v.path), "--json"))
        for figures in (stats, data):
            same(figures["games_with_triple_bezique"], share)     # a game is one hand
            assert (figures["triple_beziques"], figures["triple_beziques_lost"]) == (count, lost)
        said = (f"games with a triple bezique:    {format_ci(share, '{:.6f}')}  ({count:,} "
                f"declared; {lost:,} shown to score and lost)")
        assert said in invoke("rubicon", str(v.path)).splitlines()
        reported(v, "rubicon.games_with_triple_bezique", share)
        reported(v, "rubicon.triple_beziques", count)
        [section_row] = v.rows("games with a triple bezique declared")
        assert section_row[2] == pct(share)


def test_quadruple_bezique_is_one_figure(views):
    v = views("rubicon")
    count, lost = len(v.declared("quadruple_bezique")), len(v.lost("quadruple_bezique"))
    share = v.hands_with("quadruple_bezique")
    stats = rubicon_stats(v.path)
    data = json.loads(invoke("rubicon", str(v.path), "--json"))
    for figures in (stats, data):
        same(figures["games_with_quadruple_bezique"], share)
        assert (figures["quadruple_beziques"], figures["quadruple_beziques_lost"]) == (count, lost)
    reported(v, "rubicon.games_with_quadruple_bezique", share)
    reported(v, "rubicon.quadruple_beziques", count)
    if count:
        same(v.table.loc["quadruple_bezique", ["hands_with", "hands_with_low",
                                                "hands_with_high"]].tolist(), share)
    assert f"games with a quadruple:         {format_ci(share, '{:.6f}')}" in invoke(
        "rubicon", str(v.path))


# --- carte blanche and brisques (Rubicon) ------------------------------------------------------

def test_carte_blanche_is_one_figure(views):
    v = views("rubicon")
    n = len(v.games)
    shown = v.declared("carte_blanche")
    at_deal = wilson(int((shown["trick"] == 0).sum()), 2 * n)
    games_with = wilson(shown["game_id"].nunique(), n)
    points = v.hands["pts_carte_blanche"].to_numpy()
    assert int(v.hands["carte_blanches"].sum()) == len(shown)       # the engine's count
    stats = rubicon_stats(v.path)
    data = json.loads(invoke("rubicon", str(v.path), "--json"))
    row = v.table.loc["carte_blanche"]
    table_points = Estimate(row["points_per_hand"], row["points_per_hand_low"],
                            row["points_per_hand_high"])
    assert table_points.value == pytest.approx(points.sum() / n, rel=1e-12)
    assert row["scored"] == len(shown)
    for figures in (stats, data):
        same(figures["carte_blanche_at_deal_per_seat"], at_deal)
        same(figures["games_with_carte_blanche"], games_with)
        same(figures["carte_blanche_points_per_game"], table_points)
    same(Estimate(row["hands_with"], row["hands_with_low"], row["hands_with_high"]), games_with)
    reported(v, "rubicon.games_with_carte_blanche", games_with)
    reported(v, "combinations.carte_blanche.hands_with", games_with)
    reported(v, "rubicon.carte_blanche_points_per_game", table_points)
    reported(v, "combinations.carte_blanche.points_per_hand", table_points)
    reported(v, "rubicon.carte_blanche_at_deal_per_seat", at_deal)
    text = invoke("rubicon", str(v.path))
    assert f"carte blanche points per game:  {format_ci(table_points, '{:.2f}')}" in text
    assert f"games with a carte blanche:     {format_ci(games_with, '.5f')}" in text
    assert v.rows("carte blanche")[0][2] == est(table_points, ".2f")   # other points
    assert v.rows("carte blanche points per game")[0][2] == est(table_points, ".2f")


def test_rubicon_brisques_are_aside_and_said_so(views):
    v = views("rubicon")
    assert "brisques" not in v.table.index
    assert not v.hands["pts_brisques"].any()
    aside = v.games[["brisques_0", "brisques_1"]].to_numpy().sum()
    assert aside > 0 and int(v.hands["brisques"].sum()) == aside
    assert "Rubicon counts brisques aside for the settlement (R6.8)" in v.html


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "rubicon"])
def test_brisques_row_is_the_points_of_the_hands_table(views, variant):
    v = views(variant)
    row = v.table.loc["brisques"]
    assert row["points_per_hand"] == pytest.approx(v.hands["pts_brisques"].sum() / v.n_hands,
                                                   rel=1e-12)
    reported(v, "combinations.brisques.points_per_hand",
             Estimate(row["points_per_hand"], row["points_per_hand_low"],
                      row["points_per_hand_high"]))


# --- how Rubicon games end --------------------------------------------------------------------

def test_rubicon_rate_draws_and_settlement_are_one_figure_each(views):
    v = views("rubicon")
    n = len(v.games)
    decided = v.games[v.games["winner"] >= 0]
    expected = {"rubicon": wilson(int(v.games["rubicon"].sum()), n),
                "draws": wilson(n - len(decided), n),
                "settlement": mean_ci(decided["stake"].to_numpy(np.float64))}
    summary_key = {"rubicon": "rubicon_rate", "draws": "draw_rate", "settlement": "settlement"}
    stats = rubicon_stats(v.path)
    data = json.loads(invoke("rubicon", str(v.path), "--json"))
    text = invoke("rubicon", str(v.path))
    for key, value in expected.items():
        same(stats[key], value)
        same(data[key], value)
        same(v.summary[summary_key[key]], value)
        reported(v, f"rubicon.{key}", value)
        reported(v, f"summary.{summary_key[key]}", value)
    assert f"loser rubiconed:                {format_ci(expected['rubicon'], '.5f')}" in text
    assert f"drawn games:                    {format_ci(expected['draws'], '.5f')}" in text
    assert (f"mean settlement, games decided: {format_ci(expected['settlement'], '{:.1f}')}"
            in text)
    # Key numbers and the Rubicon section: the same rows, word for word
    for label, shown in (("games ending in a rubicon (loser under 1000, R6.8)",
                          pct(expected["rubicon"])),
                         ("drawn games (equal rounded totals and brisques)",
                          pct(expected["draws"])),
                         ("settlement the winner scores (R6.8)",
                          est(expected["settlement"], ".1f"))):
        rows = v.rows(label)
        assert len(rows) == 2 and rows[0] == rows[1] and rows[0][2] == shown, label
    # and the distributions table's mean is the key number's
    assert v.rows("settlement")[0][1] == f"{expected['settlement'][0]:.1f}"


# --- games won: shares of the games decided ---------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_games_won_are_shares_of_the_games_decided_everywhere(views, variant):
    v = views(variant)
    run, games = v.run, v.games
    decided = games[games["winner"] >= 0]
    sides = run.sides
    first_dealer = decided["first_dealer"] % 2 if run.partners else decided["first_dealer"]
    position = (decided["winner"] - (first_dealer + 1)) % sides
    by_position = [wilson(int((position == p).sum()), len(decided)) for p in range(sides)]
    by_side = [wilson(int((decided["winner"] == s).sum()), len(decided)) for s in range(sides)]
    for stats in (v.seats, v.seats_json):
        same(stats["game_wins_by_first_position"], by_position)
        same(stats["game_wins_by_side"], by_side)
        assert stats["games_decided"] == len(decided)
    same(v.lead["first_leader_wins_game"], by_position[0])
    if "first_leader_wins" in v.summary:
        same(v.summary["first_leader_wins"], by_position[0])
        reported(v, "summary.first_leader_wins", by_position[0])
    reported(v, "lead.first_leader_wins_game", by_position[0])
    for p in range(sides):
        reported(v, f"positions.{p}.wins_game_from_first_hand", by_position[p])
    for s in range(sides):
        reported(v, f"sides.{s}.wins", by_side[s])
        assert f"  {'team' if run.partners else 'seat'} {s}: {format_ci(by_side[s])}" in \
            v.seats_text.splitlines()
    assert (f"share of the {len(decided):,} games decided" in v.seats_text)
    itself = compare_runs(run, run, ["first_leader_won"]).iloc[0]
    same([itself["value_a"], itself["low_a"], itself["high_a"]], by_position[0])
    if len(set(run.policies)) > 1:          # one policy per seat: its win rate is the seat's
        table = policy_comparison(run)[0].set_index("policy")
        for seat, policy in enumerate(run.policies):
            row = table.loc[policy]
            same([row["win_rate"], row["win_low"], row["win_high"]], by_side[seat])
            reported(v, f"policies.{policy}.win_rate_per_seat", by_side[seat])


# --- positions ------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_points_and_tops_by_position_are_one_figure(views, variant):
    v = views(variant)
    run = v.run
    sides = run.sides
    hands = v.hands.assign(side=v.hands["team"] if run.partners else v.hands["seat"])
    dealer_side = hands["dealer"] % 2 if run.partners else hands["dealer"]
    hands["position"] = (hands["side"] - dealer_side - 1) % sides
    points = hands.pivot_table(index=["game_id", "hand"], columns="position", values="points",
                               aggfunc="sum").to_numpy(np.float64)
    by_position = [mean_ci(points[:, p]) for p in range(sides)]
    for stats in (v.seats, v.seats_json):
        for p in range(sides):
            assert stats["hand_points_by_position"][p] == pytest.approx(by_position[p],
                                                                        rel=1e-12)
        same(stats["hand_points_by_position"], v.seats["hand_points_by_position"])
        same(stats["hand_top_by_position"], v.seats["hand_top_by_position"])
        assert stats["hands"] == v.n_hands
    same(v.lead["leader_points"], v.seats["hand_points_by_position"][0])
    same(v.lead["dealer_points"], v.seats["hand_points_by_position"][-1])
    same(v.lead["leader_tops_hand"], v.seats["hand_top_by_position"][0])
    for p in range(sides):
        reported(v, f"positions.{p}.points_per_hand", v.seats["hand_points_by_position"][p])
        reported(v, f"positions.{p}.tops_hand", v.seats["hand_top_by_position"][p])
    assert v.doc.numbers["hands"] == v.summary["hands"] == v.n_hands


# --- Polish compounds -------------------------------------------------------------------------

def test_compounds_are_one_figure(views):
    v = views("polish")
    e = v.events
    combos = e[e["kind"].isin(COMBINATION_KINDS) & e["status"].isin(DECLARED)]
    decl = combos.groupby(["game_id", "hand", "seat", "trick"]).size()
    compounds = decl[decl >= 2]
    index = v.hands[["game_id", "hand"]].drop_duplicates()
    index = pd.MultiIndex.from_frame(index.sort_values(["game_id", "hand"]))

    def per_hand(groups: pd.Series) -> np.ndarray:
        counts = groups.groupby(level=["game_id", "hand"]).size()
        return counts.reindex(index, fill_value=0).to_numpy(np.float64)

    per_hand_compounds = per_hand(compounds)
    engine = v.hands.groupby(["game_id", "hand"], sort=True)[["compounds", "declaring_tricks"]] \
        .sum().to_numpy()
    assert (engine[:, 0] == per_hand_compounds).all()            # hands.compounds
    assert (engine[:, 1] == per_hand(decl)).all()                # hands.declaring_tricks
    expected = {"hands": len(index), "declarations": len(decl), "compounds": len(compounds),
                "compounds_per_hand": mean_ci(per_hand_compounds),
                "hands_with_a_compound": wilson(int((per_hand_compounds > 0).sum()), len(index)),
                "declarations_per_hand": mean_ci(per_hand(decl))}
    stats = compound_stats(v.path)
    data = json.loads(invoke("compounds", str(v.path), "--json"))
    for key, value in expected.items():
        same(stats[key], value)
        same(data[key], value)
        if key != "hands":
            reported(v, f"compounds.{key}", value)
    same(mean_ci(compounds_per_hand(v.path)), expected["compounds_per_hand"])
    text = invoke("compounds", str(v.path))
    assert f"compounds per hand:        {format_ci(expected['compounds_per_hand'])}" in text
    assert f"hands with a compound:     {format_ci(expected['hands_with_a_compound'])}" in text
    assert (f"hands: {len(index):,}   declarations: {len(decl):,}   compounds (2+ combinations "
            f"on one trick): {len(compounds):,}") in text
    assert v.rows("compounds per hand")[0][1] == est(expected["compounds_per_hand"], ".4f")
    assert v.rows("declarations per hand")[0][1] == est(expected["declarations_per_hand"],
                                                        ".4f")
    assert v.rows("hands with a compound")[0][1] == pct(expected["hands_with_a_compound"])
