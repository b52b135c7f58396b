"""bezsim tournament: duplicate deals, figures recomputed by hand, the Parquet table, the CLI."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim import tournament as T
from bezsim.analysis.stats import mean_ci, wilson
from bezsim.engine import constants as C
from bezsim.engine_api import games as api
from bezsim.rules import Rules

ALIAS = "random_alias"    # plays exactly as random: a policy against itself


@pytest.fixture
def alias(monkeypatch):
    """Register ALIAS as a second name of ``random``: a spec is parsed once, so the name is
    read only by the registry and every later step plays random's id."""
    import dataclasses

    from bezsim.policy_specs import registry

    monkeypatch.setitem(registry.BUILTINS, ALIAS,
                        dataclasses.replace(registry.BUILTINS["random"], name=ALIAS))


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


@pytest.mark.parametrize("players, partners", [(2, False), (3, False), (4, False), (4, True)])
def test_seatings_are_fair(players, partners):
    seatings = T.seatings(players, partners)
    assert len(set(seatings)) == len(seatings)
    # swapping A and B gives the same set: (A, B) and (B, A) play the same games
    assert {tuple(1 - r for r in s) for s in seatings} == set(seatings)
    for seat in range(players):   # each policy sits in every seat equally often
        assert Counter(s[seat] for s in seatings) == {0: len(seatings) // 2,
                                                      1: len(seatings) // 2}
    if partners:
        assert all(s[0] == s[2] and s[1] == s[3] for s in seatings)
    assert len(seatings) == {2: 2, 3: 6, 4: 2 if partners else 8}[players]


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_duplicate_seatings_deal_the_same_cards(variant):
    rules = Rules.make(variant)
    for game in (0, 17):
        rows = []
        for policies in (["random", "greedy"], ["greedy", "random"]):
            _, trace = api.trace_one(rules, policies, 5, game)
            rows.append(trace[(trace[:, 0] == C.TR_DEAL) & (trace[:, 1] == 0)])
        assert len(rows[0]) == 2 * rules.hand_size
        np.testing.assert_array_equal(rows[0], rows[1])


def _by_hand(rules, a, b, games, seed):
    """Per deal margin and points-per-hand difference for A, plus pooled wins, recomputed
    from run_games with plain loops."""
    wins = {a: 0, b: 0, "draw": 0}
    margin = np.zeros(games)
    points = {a: np.zeros(games), b: np.zeros(games)}
    seat_hands = {a: np.zeros(games), b: np.zeros(games)}
    for seating in ([a, b], [b, a]):
        batch = api.run_games(rules, seating, seed, 0, games)
        for g in range(games):
            info = batch.game_info[g]
            winner = int(info[C.GI_WINNER])
            wins[seating[winner] if winner >= 0 else "draw"] += 1
            a_seat = seating.index(a)
            if rules.variant == "rubicon":
                sign = 0 if winner < 0 else (1 if winner == a_seat else -1)
                margin[g] += sign * int(info[C.GI_STAKE])
            else:
                margin[g] += int(info[C.GI_SCORE + a_seat]) - int(info[C.GI_SCORE + 1 - a_seat])
            hands = int(info[C.GI_HANDS])
            for seat, name in enumerate(seating):
                points[name][g] += int(batch.hand_seat[g, :hands, seat, C.HS_POINTS].sum())
                seat_hands[name][g] += hands
    pph = points[a] / seat_hands[a] - points[b] / seat_hands[b]
    return wins, margin / 2, pph


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_figures_match_a_recomputation(variant):
    rules = Rules.make(variant)
    frame = T.run_tournament(rules, "random,greedy", 300, 11)
    wins, margin, pph = _by_hand(rules, "random", "greedy", 300, 11)
    row = frame.iloc[0]
    assert (row.policy_a, row.policy_b, row.deals, row.seatings, row.games) == (
        "random", "greedy", 300, 2, 600)
    assert (row.wins_a, row.wins_b, row.draws) == (wins["random"], wins["greedy"], wins["draw"])
    assert row.wins_a + row.wins_b + row.draws == row.games
    assert (row.win_rate_a, row.win_rate_low, row.win_rate_high) == wilson(
        wins["random"], wins["random"] + wins["greedy"])
    assert (row.margin, row.margin_low, row.margin_high) == mean_ci(margin)
    assert (row.points_per_hand_diff, row.pph_low, row.pph_high) == mean_ci(pph)


def test_swapping_a_and_b_mirrors_the_row():
    rules = Rules.make("polish")      # Polish: both policies win games
    frame = T.run_tournament(rules, "random,greedy", 200, 3)
    ab, ba = frame.iloc[0], frame.iloc[1]
    assert (ba.policy_a, ba.policy_b) == ("greedy", "random")
    assert 0 < ab.wins_a < ab.wins_b
    assert (ba.wins_a, ba.wins_b, ba.draws) == (ab.wins_b, ab.wins_a, ab.draws)
    assert (ba.margin, ba.margin_low, ba.margin_high) == (-ab.margin, -ab.margin_high,
                                                          -ab.margin_low)
    assert (ba.points_per_hand_diff, ba.pph_low, ba.pph_high) == (
        -ab.points_per_hand_diff, -ab.pph_high, -ab.pph_low)
    assert ba.win_rate_a == pytest.approx(1 - ab.win_rate_a, abs=1e-12)
    assert ba.win_rate_low == pytest.approx(1 - ab.win_rate_high, abs=1e-12)
    assert ba.win_rate_high == pytest.approx(1 - ab.win_rate_low, abs=1e-12)
    # listing the policies the other way round plays the very same games
    swapped = T.run_tournament(rules, "greedy,random", 200, 3)
    assert swapped.iloc[0].equals(ba) and swapped.iloc[1].equals(ab)


def test_a_policy_against_itself_cancels_exactly(alias):
    frame = T.run_tournament(Rules.make("ordinary"), f"random,{ALIAS},greedy", 100, 2)
    self_play = frame.iloc[0]
    assert (self_play.policy_a, self_play.policy_b) == ("random", ALIAS)
    # the same policy in both seatings of a deal plays the same games: every deal cancels
    assert self_play.wins_a == self_play.wins_b == 100
    assert self_play.win_rate_low < 0.5 < self_play.win_rate_high
    assert (self_play.margin, self_play.margin_low, self_play.margin_high) == (0, 0, 0)
    # overall rows: pooled wins, margins averaged over the opponents per deal
    overall = frame[frame.policy_b == T.ALL].set_index("policy_a")
    pairs = frame[frame.policy_b != T.ALL]
    assert len(pairs) == 6 and list(overall.index) == ["random", ALIAS, "greedy"]
    for name, row in overall.iterrows():
        mine = pairs[pairs.policy_a == name]
        assert row.wins_a == mine.wins_a.sum() and row.wins_b == mine.wins_b.sum()
        # games counted as its wins and draws are: every game it played against the others
        assert (row.deals, row.seatings, row.games) == (100, 4, 400)
        assert row.wins_a + row.wins_b + row.draws == row.games == mine.games.sum()
        assert row.margin == pytest.approx(mine.margin.mean(), rel=1e-12)
        assert row.margin_low < row.margin < row.margin_high


def test_greedy_beats_random_in_ordinary():
    # greedy wins every one of these 200 games (it needs 3 deals for a lower bound > 0.5)
    row = T.run_tournament(Rules.make("ordinary"), "greedy,random", 100, 7).iloc[0]
    assert row.win_rate_low > 0.9
    assert row.margin_low > 0 and row.pph_low > 0


@pytest.mark.parametrize("variant, seatings", [("three_handed", 6),
                                               ("four_handed_partners", 2)])
def test_multi_player_tournament_writes_the_documented_table(variant, seatings, tmp_path):
    rules = Rules.make(variant)
    frame = T.run_tournament(rules, ["random", "greedy"], 40, 9)
    description = T.describe_run(rules, ["random", "greedy"], 40, 9)
    T.write_tournament(frame, tmp_path, description)
    schema = pq.read_schema(tmp_path / T.PARQUET_NAME)
    assert schema.names == list(T.COLUMNS)
    types = {name: str(schema.field(name).type) for name in schema.names}
    assert {types[c] for c in ("variant", "policy_a", "policy_b")} <= {"string", "large_string"}
    assert all(types[c] == "int64" for c in (*T.INT_COLUMNS, "seed"))
    assert all(types[c] == "double" for c in T.FLOAT_COLUMNS)
    back = T.read_tournament(tmp_path)
    assert (back.seatings == seatings).all() and (back.variant == variant).all()
    assert ((back.wins_a + back.wins_b + back.draws) == 40 * seatings).all()
    assert back.iloc[1].wins_a > back.iloc[1].wins_b                  # greedy vs random
    stored = json.loads((tmp_path / T.JSON_NAME).read_text())
    assert (stored["variant"], stored["policies"], stored["seed"], stored["games"]) == (
        variant, ["random", "greedy"], 9, 40)
    assert stored["options"] == rules.options and stored["bezsim_version"]
    assert len(stored["seatings"]) == seatings


def test_cli_prints_the_table_and_writes_files(tmp_path):
    out = tmp_path / "t"
    result = invoke("tournament", "--variant", "polish", "--policies", "random,greedy",
                    "--games", "30", "--seed", "4", "--option", "target=1500",
                    "--threads", "1", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("tournament: polish, 30 deals per pair, seed 4, 2 seatings")
    assert lines[2].split()[:7] == ["A", "B", "deals", "games", "wins", "A", "wins"]
    for line in lines[3:5]:       # deals, then games = wins A + wins B + draws
        a, b, deals, games, wins_a, wins_b, draws = line.split()[:7]
        assert (deals, games) == ("30", "60")
        assert int(wins_a) + int(wins_b) + int(draws) == 60
    assert lines[3].split()[:2] == ["random", "greedy"]
    assert lines[4].split()[:2] == ["greedy", "random"]
    assert "Duplicate deals" in result.stdout
    assert T.read_tournament(out).shape == (2, len(T.COLUMNS))
    assert json.loads((out / T.JSON_NAME).read_text())["options"]["target"] == 1500

    as_json = invoke("tournament", "--variant", "polish", "--policies", "random,greedy",
                     "--games", "30", "--seed", "4", "--option", "target=1500",
                     "--out", str(out), "--json")
    assert as_json.exit_code == 0, as_json.stderr
    rows = json.loads(as_json.stdout)
    assert [r["policy_a"] for r in rows] == ["random", "greedy"]
    assert rows == T.read_tournament(out).to_dict(orient="records")


def test_the_all_rows_count_their_games_as_their_wins_and_draws(tmp_path):
    result = invoke("tournament", "--policies", "random,greedy,heuristic", "--games", "20",
                    "--seed", "5", "--out", str(tmp_path / "t"), "--no-progress")
    assert result.exit_code == 0, result.stderr
    counts = result.stdout.split("\n\n")[1]          # the table of counts, then of figures
    rows = [line.split() for line in counts.splitlines() if T.ALL in line.split()]
    assert [r[0] for r in rows] == ["random", "greedy", "heuristic"]
    for _, _, deals, games, wins_a, wins_b, draws, *_ in rows:
        # two opponents, two seatings each: 4 games a deal
        assert (deals, games) == ("20", "80")
        assert int(wins_a) + int(wins_b) + int(draws) == 80


def test_the_printed_table_fits_100_columns(tmp_path):
    """Counts and win rate, then margin and points per hand, as two tables one above the
    other, and the notes wrapped between words: no line over 100 characters."""
    result = invoke("tournament", "--variant", "rubicon", "--policies", "random,greedy",
                    "--games", "12", "--seed", "3", "--threads", "1", "--out",
                    str(tmp_path / "t"), "--no-progress")
    assert result.exit_code == 0, result.stderr
    table = result.stdout.split("\n\nwritten: ")[0]       # then where it went, a path
    lines = table.splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)
    _, counts, figures, notes = table.split("\n\n")
    assert counts.splitlines()[0].split() == ["A", "B", "deals", "games", "wins", "A", "wins",
                                              "B", "draws", "win", "rate", "A", "[95%]"]
    assert figures.splitlines()[0].split() == ["A", "B", "margin", "[95%]", "points/hand",
                                               "A-B", "[95%]"]
    frame = T.read_tournament(tmp_path / "t")
    for line, r in zip(figures.splitlines()[1:], frame.itertuples(), strict=True):
        assert line.split()[:3] == [r.policy_a, r.policy_b, f"{r.margin:.1f}"]
    # wrapped between words: the sentences come back whole when the lines are joined
    assert ("so the luck of the deal cancels; games = deals x seatings = wins A + wins B + "
            "draws.") in " ".join(notes.splitlines())
    assert all(line == line.strip() for line in notes.splitlines())


def test_cli_default_out_dir_and_drawn_seed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("tournament", "--variant", "rubicon", "--policies", "greedy,random",
                    "--games", "5", "--no-progress")
    assert result.exit_code == 0, result.stderr
    seed = int(result.stderr.strip().removeprefix("seed: "))
    assert (tmp_path / "data" / "runs" / f"tournament-rubicon-{seed}" / T.PARQUET_NAME).is_file()


@pytest.mark.parametrize("args, message", [
    (["--variant", "bogus", "--policies", "random,greedy"], "unknown variant"),
    (["--option", "nope=1", "--policies", "random,greedy"], "unknown option"),
    (["--option", "target=0", "--policies", "random,greedy"], "target"),
    (["--policies", "random,nobody"], "unknown policy"),
    (["--policies", "random"], "two distinct policies"),
    (["--policies", "greedy,greedy"], "two distinct policies"),
    (["--policies", "random,greedy,random"], "listed twice"),
    (["--policies", "random,greedy", "--games", "0"], "--games"),
    (["--games", "10"], "--policies"),
])
def test_cli_bad_input_is_one_line(args, message, tmp_path):
    result = invoke("tournament", *args, "--seed", "1", "--out", str(tmp_path / "x"),
                    "--no-progress")
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezsim: error: ") and message in lines[0]
    assert result.stdout == "" and not (tmp_path / "x").exists()


@pytest.mark.parametrize("kwargs, message", [({"games": 0}, "games"), ({"seed": -1}, "seed"),
                                             ({"seed": 1.5}, "seed"), ({"games": True}, "games")])
def test_api_validates(kwargs, message):
    args = {"games": 10, "seed": 1} | kwargs
    with pytest.raises(T.TournamentError, match=message):
        T.run_tournament(Rules.make("ordinary"), "random,greedy", **args)
