"""``bezsim review``: a game's decisions valued, as text and JSON; the run's game and its
record give the same figures; bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.review.game_review import LABEL_POINTS, LABELS, label_of, label_points


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


def test_review_search_of_a_runs_game_and_of_its_record_agree(tmp_path):
    out, again, record = tmp_path / "run.json", tmp_path / "record.json", tmp_path / "g.json"
    first = invoke("review", "--variant", "ordinary", "--policies", "expert,random",
                   "--seed", "5", "--game", "2", "--seat", "all", "--deals", "8",
                   "--json", str(out), "--write-record", str(record), "--no-progress")
    assert first.exit_code == 0, first.output
    second = invoke("review", "--record", str(record), "--seat", "all", "--deals", "8",
                    "--json", str(again), "--no-progress")
    assert second.exit_code == 0, second.output
    a, b = json.loads(out.read_text()), json.loads(again.read_text())
    assert a["decisions"] == b["decisions"] and a["summaries"] == b["summaries"]
    assert a["luck"] == b["luck"] and a["luck_events"] == b["luck_events"] and a["luck"]
    assert [s["seat"] for s in a["summaries"]] == [0, 1]
    for s in a["summaries"]:
        mine = [d for d in a["decisions"] if d["seat"] == s["seat"] and not d["forced"]]
        assert s["decisions"] == len(mine)
        assert s["total_loss"] == pytest.approx(sum(d["loss"] for d in mine))
        assert s["labels"] == {label: sum(d["label"] == label for d in mine)
                               for label in LABELS}
    for d in a["decisions"]:
        if d["forced"]:
            continue
        names = [o["option"] for o in d["options"]]
        assert d["played"] in names and d["best"] in names
        played = d["options"][names.index(d["played"])]
        assert d["loss"] == played["loss"] and d["label"] == label_of(d["loss"])
        assert d["options"][names.index(d["best"])]["loss"] == 0
    seat_line = [line for line in first.output.splitlines() if line.startswith("seat 0:")]
    assert len(seat_line) == 1 and "accuracy" in seat_line[0]
    luck_line = [line for line in first.output.splitlines() if line.startswith("seat 0's")]
    assert len(luck_line) == 1 and "+ residue" in luck_line[0]


def test_labels_follow_the_documented_thresholds():
    first, second, third = label_points("ordinary")
    assert [label_of(x) for x in (0, first - 0.1, first, second, third, 10 * third)] == [
        "", "", "inaccuracy", "mistake", "blunder", "blunder"]
    from bezsim.rules import VARIANT_DEFINITIONS

    assert set(LABEL_POINTS) == set(VARIANT_DEFINITIONS)     # every preset measured
    for variant, points in LABEL_POINTS.items():
        assert 0 < points[0] < points[1] < points[2]
        assert label_of(points[1], variant) == "mistake"
    docs = (Path(__file__).resolve().parents[1] / "docs" / "review.md").read_text()
    for variant, points in LABEL_POINTS.items():     # the docs' table says the same
        row = f"| {variant} | " + " | ".join(f"{p:g}" for p in points) + " |"
        assert row in docs, row


@pytest.mark.parametrize("args, message", [
    (("--seed", "1", "--seat", "2"), "--seat 2: ordinary has seats 0 to 1 (or 'all')"),
    (("--seat", "0"), "review needs one game"),
    (("--seed", "1", "--variant", "polsh"), "polsh"),
])
def test_bad_review_input_is_one_line_and_exit_2(args, message):
    result = invoke("review", *args, "--no-progress")
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1


def _embedded(page: str) -> dict:
    start = page.index('id="review-data">') + len('id="review-data">')
    return json.loads(page[start:page.index("</script>", start)])


def test_review_writes_the_page_of_the_figures_it_prints(tmp_path):
    page, out = tmp_path / "r.html", tmp_path / "r.json"
    result = invoke("review", "--variant", "three_handed", "--policies", "greedy",
                    "--seed", "2", "--game", "1", "--seat", "2", "--budget", "6",
                    "--html", str(page), "--json", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    assert f"page: {page}" in result.output
    shown = _embedded(page.read_text(encoding="utf-8"))
    assert shown == json.loads(out.read_text()) and shown["seats"] == [2]
    assert all(d["view"]["seat"] == 2 and d["view"]["hand"] for d in shown["decisions"])


def test_replay_writes_the_record_of_a_runs_game_and_of_a_saved_game(tmp_path):
    from bezsim.review.record import read_record, replay
    from bezsim.step.step_game import StepGame

    run_record = tmp_path / "run.json"
    result = invoke("replay", "--variant", "rubicon", "--policies", "greedy,expert",
                    "--seed", "9", "--game", "4", "--record", str(run_record))
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(f"record: {run_record}")
    from bezsim.engine import constants as C
    from bezsim.engine_api.games import run_games
    from bezsim.rules import Rules

    game = replay(read_record(run_record))
    info = run_games(Rules.make("rubicon"), ["greedy", "expert"], 9, 4, 1).game_info[0]
    assert game.over and game.scores() == info[C.GI_SCORE:C.GI_SCORE + 2].tolist()
    saved, saved_record = tmp_path / "g.json", tmp_path / "g-record.json"
    played = CliRunner().invoke(cli.cli, ["play", "--seed", "3", "--save", str(saved)],
                                input="1\n1\n1\nq\n")
    assert played.exit_code == 0, played.output
    result = invoke("replay", "--saved", str(saved), "--record", str(saved_record))
    assert result.exit_code == 0, result.output
    record = read_record(saved_record)
    assert record.end == "left" and record.players[0] == "person"
    assert replay(record).scores() == StepGame.load(saved).scores()


def test_the_file_play_saves_is_a_game_record_and_play_goes_on_from_it(tmp_path):
    from bezsim.review.record import read_record, replay
    from bezsim.step.step_game import StepGame, read_saved

    saved = tmp_path / "g.json"
    left = CliRunner().invoke(cli.cli, ["play", "--seed", "5", "--against", "greedy",
                                        "--save", str(saved)], input="1\n2\n1\nq\n")
    assert left.exit_code == 0, left.output
    record = read_record(saved)
    assert record.end == "left" and record.players == ("person", "greedy")
    assert (record.seed, record.game) == (5, 0)
    mine = [a for a in record.actions if a.seat == 0]
    assert len(mine) == len(read_saved(saved).decisions) >= 3
    assert replay(record).scores() == StepGame.load(saved).scores()
    went_on = CliRunner().invoke(cli.cli, ["play", "--load", str(saved)], input="1\nr\ny\n")
    assert went_on.exit_code == 0, went_on.output
    assert "you resigned" in went_on.output
    record = read_record(saved)
    assert record.end == "resigned" and len(record.actions) > len(mine)
    assert replay(record).scores() == StepGame.load(saved).scores()


def test_play_reviews_the_game_at_its_end_with_review(tmp_path):
    saved, page = tmp_path / "g.json", tmp_path / "g.html"
    result = CliRunner().invoke(cli.cli, ["play", "--seed", "8", "--against", "greedy",
                                          "--save", str(saved), "--review", str(page)],
                                input="1\n1\n1\nr\ny\n")
    assert result.exit_code == 0, result.output
    assert "you resigned" in result.output and f"page: {page}" in result.output
    shown = _embedded(page.read_text(encoding="utf-8"))
    assert shown["seats"] == [0] and shown["players"][0] == "person"
    assert len([d for d in shown["decisions"] if not d["forced"]]) >= 3
    left = CliRunner().invoke(cli.cli, ["play", "--seed", "8", "--save", str(tmp_path / "l"),
                                        "--review", str(tmp_path / "l.html")], input="1\nq\n")
    assert left.exit_code == 0 and not (tmp_path / "l.html").exists()   # left: no review


def test_simulate_writes_every_games_record_and_resume_writes_the_missing(tmp_path):
    from bezsim.engine import constants as C
    from bezsim.engine_api.games import run_games
    from bezsim.review.record import read_record, replay
    from bezsim.rules import Rules

    out = tmp_path / "run"
    result = invoke("simulate", "--variant", "three_handed", "--policies", "greedy",
                    "--games", "3", "--seed", "4", "--out", str(out), "--records",
                    "--no-progress")
    assert result.exit_code == 0, result.output
    folder = out / "records"
    assert sorted(p.name for p in folder.iterdir()) == [f"game-{g}.json" for g in range(3)]
    rules = Rules.make("three_handed")
    batch = run_games(rules, ["greedy"] * 3, 4, 0, 3)
    for g in range(3):
        game = replay(read_record(folder / f"game-{g}.json"))
        assert game.scores() == batch.game_info[g, C.GI_SCORE:C.GI_SCORE + 3].tolist()
    kept = (folder / "game-0.json").read_bytes()
    (folder / "game-1.json").unlink()
    again = invoke("simulate", "--resume", str(out), "--records", "--no-progress")
    assert again.exit_code == 0, again.output
    assert (folder / "game-1.json").is_file() and (folder / "game-0.json").read_bytes() == kept


def test_the_commands_default_budget_is_the_reviews():
    from bezsim.review.values import DEFAULT_DEALS

    deals = next(p for p in cli.cli.commands["review"].params if p.name == "deals")
    assert deals.default == DEFAULT_DEALS
