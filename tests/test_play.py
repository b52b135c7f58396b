"""`bezsim play` (bezsim/play.py) driven by scripted input: the prompt, its answers to bad
input, hints, resigning and leaving, saving, and the transcript of the saved game."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bezsim.cli import cli
from bezsim.play import ordered, play_terminal
from bezsim.rules import Rules
from bezsim.step import StepGame


def scripted(lines):
    """An input function that answers prompts from ``lines``, then ends the input."""
    it = iter(lines)
    prompts = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read, prompts


def test_a_whole_game_typed_move_by_move_is_saved_and_replayed(tmp_path):
    rules = Rules.make("rubicon")
    out = []
    read, prompts = scripted(["1"] * 500)
    path = play_terminal(rules, "expert", 7, 1, save=tmp_path / "g.json", read=read,
                         write=out.append)
    text = "\n".join(out)
    assert "game over:" in text and "winner:" in text and f"saved to {path}" in text
    saved = StepGame.load(path)
    s0, s1 = saved.scores()
    assert saved.over and f"game over: seat 0 {s0}  you {s1}" in text
    # the first move typed each time: replaying the saved decisions gives the same game
    again = StepGame(rules, 7, 0, ["expert", None])
    while not again.over:
        again.step(ordered(again)[0].index)
    assert again.scores() == saved.scores()
    result = CliRunner().invoke(cli, ["replay", "--saved", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("bezsim replay | variant rubicon")
    assert "seat 0 expert" in result.output and "seat 1 open" in result.output


def test_bad_input_gets_a_reason_and_the_prompt_again(tmp_path):
    out = []
    read, prompts = scripted(["zz", "9", "0", "?", "h", "q"])
    play_terminal(Rules.make("ordinary"), "expert", 7, 0, save=tmp_path / "g.json",
                  read=read, write=out.append)
    text = "\n".join(out)
    assert text.count("is not one of the moves: type 1 to 8") == 3
    assert "hint (expert): " in text and "r  resign" in text
    assert len(prompts) == 6 and all(p.startswith("your card [1-8") for p in prompts)
    assert "game left unfinished; saved to" in text
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["decisions"] == [] and data["seed"] == 7 and data["policies"][0] is None


def test_a_card_may_be_typed_by_name_and_the_end_of_input_saves(tmp_path):
    rules = Rules.make("ordinary")
    g = StepGame(rules, 7, 0, [None, "expert"])
    first = sorted(g.actions(), key=lambda a: (a.value & 31, a.value))[2]
    name = first.name.replace("♠", "s").replace("♥", "h").replace("♦", "d").replace("♣", "c")
    out = []
    read, _ = scripted([name])
    path = play_terminal(rules, "expert", 7, 0, save=tmp_path / "g.json", read=read,
                         write=out.append)
    saved = StepGame.load(path)
    assert not saved.over and len(json.loads(path.read_text())["decisions"]) == 1
    assert saved.seat == 0


def test_resigning_ends_the_game_and_the_cli_refuses_its_transcript(tmp_path):
    out = []
    read, _ = scripted(["2", "r"])
    path = play_terminal(Rules.make("polish"), "greedy", 3, 0, save=tmp_path / "g.json",
                         read=read, write=out.append)
    assert "you resigned" in out[-1]
    result = CliRunner().invoke(cli, ["replay", "--saved", str(path)])
    assert result.exit_code != 0
    assert "left unfinished" in result.output and len(result.output.strip().splitlines()) == 1


def test_the_command_plays_from_standard_input(tmp_path):
    save = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["play", "--variant", "three_handed", "--seed", "5",
                                      "--seat", "2", "--against", "greedy", "--save",
                                      str(save)], input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "you are seat 2" in result.output and save.is_file()
    bad = CliRunner().invoke(cli, ["play", "--seat", "3", "--seed", "1"])
    assert bad.exit_code != 0 and "--seat 3: ordinary has seats 0 to 1" in bad.output
