"""bezsim.analysis: loading runs, intervals for differences, comparisons, convergence,
combinations and policies, each checked against a direct computation."""

import math

import numpy as np
import pandas as pd
import pytest

from bezsim.analysis import (
    Estimate,
    combination_table,
    compare_runs,
    convergence,
    hand_points,
    load_run,
    load_runs,
    mean_ci,
    mean_difference,
    paired_difference,
    per_game,
    policy_comparison,
    rate_difference,
    sample_path,
    sample_run,
    score_summary,
    stack,
    wilson,
)
from bezsim.analysis.stats import Z95, paired_relative_difference
from bezsim.errors import BezsimError
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

# --- intervals --------------------------------------------------------------------------------


@pytest.mark.parametrize("k1, n1, k2, n2, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:873, table II, method 10 (hybrid score)
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (6, 7, 2, 7, 0.0582, 0.8062),
    (5, 56, 0, 29, -0.0381, 0.1926),
])
def test_rate_difference_matches_newcombes_published_intervals(k1, n1, k2, n2, low, high):
    d = rate_difference(k1, n1, k2, n2)
    assert d.value == pytest.approx(k1 / n1 - k2 / n2)
    assert (round(d.low, 4), round(d.high, 4)) == (low, high)


def test_wilson_bounds_are_exact_at_zero_and_all():
    assert wilson(0, 20).low == 0.0 and wilson(20, 20).high == 1.0
    # hand computation of the upper bound at 0/20: z^2 / (n + z^2)
    assert wilson(0, 20).high == pytest.approx(Z95**2 / (20 + Z95**2))


def test_mean_and_paired_differences_by_hand():
    a = np.array([3.0, 5.0, 7.0, 9.0])
    b = np.array([1.0, 2.0, 2.0, 3.0, 4.0])
    d = mean_difference(a, b)
    half = Z95 * math.sqrt(np.var(a, ddof=1) / 4 + np.var(b, ddof=1) / 5)
    assert d == pytest.approx((6.0 - 2.4, 3.6 - half, 3.6 + half))
    p = paired_difference(a, b[:4])          # differences 2, 3, 5, 6
    half = Z95 * np.std([2, 3, 5, 6], ddof=1) / 2
    assert p == pytest.approx((4.0, 4.0 - half, 4.0 + half))
    with pytest.raises(ValueError):
        paired_difference(a, b)
    assert Estimate(1.0, 0.5, 1.5).format(".1f") == "1.0 [0.5, 1.5]"


def test_paired_relative_difference_is_the_ratio_of_means_less_one():
    a = np.array([3.0, 5.0, 7.0, 9.0])
    b = np.array([1.0, 2.0, 2.0, 3.0])        # means 6 and 2: a is 200% above b
    half = Z95 * np.std(a - 3 * b, ddof=1) / (2 * 2.0)     # residuals 0, -1, 1, 0
    assert paired_relative_difference(a, b) == pytest.approx((2.0, 2.0 - half, 2.0 + half))
    assert paired_relative_difference(2 * b, b) == pytest.approx((1.0, 1.0, 1.0))
    with pytest.raises(ValueError):
        paired_relative_difference(a, b[:3])


def test_convergence_ends_at_the_full_estimate():
    rng = np.random.default_rng(3)
    x = rng.normal(10, 3, size=500)
    conv = convergence(x, "mean", points=25)
    assert conv["n"].iloc[-1] == 500 and conv["n"].is_monotonic_increasing
    assert tuple(conv.iloc[-1][["value", "low", "high"]]) == pytest.approx(mean_ci(x))
    n5 = int(conv["n"].iloc[4])
    assert conv["value"].iloc[4] == pytest.approx(x[:n5].mean())
    flags = x > 10
    rate = convergence(flags, "rate")
    assert tuple(rate.iloc[-1][["value", "low", "high"]]) == pytest.approx(
        wilson(int(flags.sum()), 500))
    # the band narrows as 1/sqrt(n)
    width = (conv["high"] - conv["low"]).to_numpy()
    assert width[-1] < width[5] / 2


# --- loading ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def option_runs(tmp_path_factory):
    """Two ordinary runs on one seed (paired) and one on another seed (independent)."""
    root = tmp_path_factory.mktemp("layer")
    out = {}
    for label, options, seed in [("preset", {}, 4), ("played", {"seven_scores_when": "played"}, 4),
                                 ("other_seed", {}, 5)]:
        run_simulation(Rules.make("ordinary", options), ["greedy", "random"], seed, 120,
                       root / label, progress=False)
        out[label] = root / label
    return out


def test_load_runs_and_stack(option_runs):
    runs = load_runs([option_runs["preset"], option_runs["played"]])
    assert [r.label for r in runs] == ["preset", "played"]
    assert runs[0].n_games == 120 and runs[0].policies == ["greedy", "random"]
    games = stack(runs, "games")
    assert list(games["run"].cat.categories) == ["preset", "played"]
    assert len(games) == 240 and games.columns[0] == "run"
    assert games[games["run"] == "played"]["score_0"].tolist() == runs[1].games["score_0"].tolist()
    with pytest.raises(BezsimError, match="distinct labels"):
        load_runs([option_runs["preset"], option_runs["preset"]])


def test_load_run_refuses_what_is_not_a_run(tmp_path, option_runs):
    with pytest.raises(BezsimError, match="not a bezsim run directory"):
        load_run(tmp_path)
    # an interrupted run: a manifest promising more games than the tables hold
    import json
    import shutil
    copy = tmp_path / "short"
    shutil.copytree(option_runs["preset"], copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["games"] = 500
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(BezsimError, match="incomplete"):
        load_run(copy).check_complete()


# --- comparisons -----------------------------------------------------------------------------


def test_compare_runs_pairs_games_of_one_seed(option_runs):
    a, b = load_run(option_runs["played"]), load_run(option_runs["preset"])
    table = compare_runs(a, b, ["points_per_seat_hand", "hands", "first_leader_won"])
    assert set(table["method"]) == {"paired"}
    ga, gb = a.games, b.games
    pph = lambda run: (run.hands.groupby("game_id")["points"].sum()  # noqa: E731
                       / (run.games.set_index("game_id")["hands"] * 2)).to_numpy()
    direct = paired_difference(pph(a), pph(b))
    row = table.set_index("metric").loc["points_per_seat_hand"]
    assert (row["diff"], row["diff_low"], row["diff_high"]) == pytest.approx(tuple(direct))
    hands = table.set_index("metric").loc["hands"]
    assert hands["diff"] == pytest.approx((ga["hands"] - gb["hands"]).mean())
    assert hands["value_a"] == pytest.approx(ga["hands"].mean())


def test_compare_runs_of_two_seeds_are_independent(option_runs):
    a, b = load_run(option_runs["preset"]), load_run(option_runs["other_seed"])
    table = compare_runs(a, b, ["hands", "first_leader_won"]).set_index("metric")
    assert table.loc["hands", "method"] == "welch"
    welch = mean_difference(a.games["hands"], b.games["hands"])
    assert tuple(table.loc["hands", ["diff", "diff_low", "diff_high"]]) == pytest.approx(welch)
    assert table.loc["first_leader_won", "method"] == "newcombe"
    ka = int(per_game(a)["first_leader_won"].sum())
    kb = int(per_game(b)["first_leader_won"].sum())
    assert tuple(table.loc["first_leader_won", ["diff", "diff_low", "diff_high"]]) == \
        pytest.approx(rate_difference(ka, 120, kb, 120))
    with pytest.raises(BezsimError, match="unknown metric"):
        compare_runs(a, b, ["nonsense"])


def test_policy_comparison_on_the_mixed_sample():
    run = sample_run("ordinary")                       # heuristic (seat 0) against greedy
    table, diffs = policy_comparison(run)
    games = run.games
    heuristic = table.set_index("policy").loc["heuristic"]
    assert heuristic["win_rate"] == pytest.approx((games["winner"] == 0).mean())
    per_seat = run.hands.pivot_table(index="game_id", columns="seat", values="points",
                                     aggfunc="sum").to_numpy() / games[["hands"]].to_numpy()
    assert heuristic["pph"] == pytest.approx(per_seat[:, 0].mean())
    d = diffs.iloc[0]
    assert (d["policy"], d["against"]) == ("greedy", "heuristic")
    expected = paired_difference(per_seat[:, 1], per_seat[:, 0])
    assert (d["pph_diff"], d["pph_diff_low"], d["pph_diff_high"]) == pytest.approx(expected)
    assert d["pph_diff_high"] < 0           # the heuristic is the stronger policy
    with pytest.raises(BezsimError, match="one policy"):
        policy_comparison(sample_run("polish"))


# --- scores and combinations -------------------------------------------------------------------


def test_score_summary_and_combinations_against_pandas():
    run = sample_run("polish")
    summary = score_summary(run)
    games, hands, decl = run.games, run.hands, run.declarations
    assert summary["games"] == len(games) and summary["hands"] == games["hands"].sum()
    per_hand = hands.groupby(["game_id", "hand"])["points"].sum() / 2
    assert tuple(summary["points_per_seat_hand"]) == pytest.approx(mean_ci(per_hand))
    assert summary["hands_per_game"][0] == pytest.approx(games["hands"].mean())
    winner_score = np.where(games["winner"] == 0, games["score_0"], games["score_1"])
    assert summary["winner_score"][0] == pytest.approx(winner_score.mean())
    assert summary["double_game_rate"][0] == pytest.approx(games["double_game"].mean())
    assert hand_points(run)["total"].sum() == hands["points"].sum()

    table = combination_table(run).set_index("kind")
    scored = decl[decl["status"] != "lost"]
    n = int(games["hands"].sum())
    for kind in ("four_kings", "sequence", "double_bezique"):
        mine = scored[scored["kind"] == kind]
        row = table.loc[kind]
        assert row["scored"] == len(mine)
        assert row["per_hand"] == pytest.approx(len(mine) / n)
        with_one = len(mine[["game_id", "hand"]].drop_duplicates())
        assert (row["hands_with"], row["hands_with_low"], row["hands_with_high"]) == \
            pytest.approx(tuple(wilson(with_one, n)))
        counts = np.zeros(n)
        counts[:with_one] = mine.groupby(["game_id", "hand"]).size().to_numpy()
        assert (row["per_hand_low"], row["per_hand_high"]) == pytest.approx(
            tuple(mean_ci(counts))[1:])
        assert row["points_per_hand"] == pytest.approx(mine["points"].sum() / n)
    assert table["share_of_points"].sum() == pytest.approx(1.0)
    assert table.loc["brisques", "group"] == "other"


def test_sample_path_names_the_missing_variant(monkeypatch, tmp_path):
    assert (sample_path("rubicon") / "manifest.json").is_file()
    monkeypatch.setenv("BEZSIM_SAMPLES", str(tmp_path))
    with pytest.raises(BezsimError, match="no sample run for 'rubicon'"):
        sample_path("rubicon")


def test_stack_keeps_columns_of_different_widths():
    runs = [sample_run("ordinary"), sample_run("three_handed")]
    games = stack(runs, "games", ["game_id", "winner", "score_0"])
    assert len(games) == 3000 + 800
    assert isinstance(games, pd.DataFrame) and list(games.columns) == [
        "run", "game_id", "winner", "score_0"]
