"""What the figure commands print: the run first, figures that never hide a nonzero share,
one JSON shape for every estimate; and the options and policies listings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.analysis.stats import format_ci, wilson
from bezsim.report.document import pct, signed
from bezsim.rules import OPTION_MEANINGS, VARIANTS, option_names

REPO = Path(__file__).resolve().parents[1]


def invoke(*args: str):
    result = CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")
    assert result.exit_code == 0, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("figures")
    made = {}
    for variant, policies, games in (("ordinary", "random,greedy", 40),
                                     ("three_handed", "greedy", 10),
                                     ("polish", "greedy", 20), ("rubicon", "greedy", 60)):
        out = root / variant
        invoke("simulate", "--variant", variant, "--policies", policies, "--games", str(games),
               "--seed", "9", "--out", str(out), "--no-progress")
        made[variant] = out
    return made


@pytest.mark.parametrize("command,variant", [("seats", "ordinary"), ("compounds", "polish"),
                                             ("rubicon", "rubicon")])
def test_figures_start_with_the_run_they_describe(runs, command, variant):
    run = runs[variant]
    first = invoke(command, str(run)).stdout.splitlines()[0]
    policies = "random,greedy" if variant == "ordinary" else "greedy,greedy"
    games = {"ordinary": 40, "polish": 20, "rubicon": 60}[variant]
    assert first == (f"run: {run}   variant: {variant}   policies: {policies}   seed: 9   "
                     f"games: {games}")
    data = json.loads(invoke(command, str(run), "--json").stdout)
    assert data["run"] == {"run": str(run), "variant": variant, "options": data["run"]["options"],
                           "policies": policies.split(","), "seed": 9, "games": games}


def _estimates(tree, path=""):
    """Every list of numbers in a JSON tree (estimates are [value, low, high])."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _estimates(value, f"{path}.{key}")
    elif isinstance(tree, list) and tree and all(isinstance(x, (int, float)) for x in tree):
        yield path, tree
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from _estimates(value, f"{path}[{i}]")


@pytest.mark.parametrize("command,variant", [("seats", "ordinary"), ("compounds", "polish"),
                                             ("rubicon", "rubicon")])
def test_every_json_estimate_is_value_low_high(runs, command, variant):
    data = json.loads(invoke(command, str(runs[variant]), "--json").stdout)
    found = dict(_estimates(data))
    assert found, data
    for path, figure in found.items():
        assert len(figure) == 3, (path, figure)
    if command == "compounds":
        value, low, high = data["declarations_per_hand"]
        assert low < value < high


def test_seats_says_agree_only_when_every_seat_plays_alike(runs):
    mixed = invoke("seats", str(runs["ordinary"])).stdout
    assert "these should agree" not in mixed
    assert ("games won by seat, share of the 40 games decided (the seats play different "
            "policies: these compare them):") in mixed
    alike = invoke("seats", str(runs["three_handed"])).stdout
    assert ("games won by seat, share of the 10 games decided (seats are dealt at random, so "
            "these should agree):") in alike


def test_seats_shows_triple_bezique_only_where_there_can_be_one(runs):
    assert "triple bezique" not in invoke("seats", str(runs["ordinary"])).stdout   # 2 packs
    assert "hands with a triple bezique:" in invoke("seats", str(runs["three_handed"])).stdout


def test_a_nonzero_share_never_prints_as_zero():
    rare = wilson(3, 100_000)
    assert format_ci(rare) == "0.000030 [0.000010, 0.000088]"
    assert format_ci(wilson(0, 100)) == "0.0000 [0.0000, 0.0370]"
    assert format_ci(wilson(37, 100)) == "0.3700 [0.2818, 0.4678]"
    assert pct(rare) == "0.0030% [0.0010%, 0.0088%]"
    for text in (format_ci(rare), pct(rare)):
        assert not re.search(r"(?<![\d.])0\.0+%?(?![\d])", text.split(" [")[0])


def test_a_degenerate_difference_is_exact_not_a_zero_width_interval():
    assert signed((1.0, 1.0, 1.0), "+.2f", 100, "%") == "+100.00% (exact)"
    assert format_ci((1.0, 1.0, 1.0), "+.2%") == (
        "+100.00% (exact: every sample gave this value, so no interval)")
    assert signed((0.5, 0.25, 0.75), "+.2f", 100, "%") == "+50.00% [+25.00%, +75.00%]"


def test_options_say_what_each_does_and_where_the_rules_book_says_it():
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    book = dict((name, (meaning, sections)) for name, meaning, sections in re.findall(
        r"^#### `([a-z0-9_]+)`\n+(.+) \((R[^)]*)\)\.$", text, re.M))
    every = {name for variant in VARIANTS for name in option_names(variant)}
    assert book == {name: OPTION_MEANINGS[name] for name in every}
    listing = invoke("options", "--variant", "rubicon").stdout
    assert ("  rubicon_close          How a Rubicon game is decided when the rounded totals "
            "are equal (R6.8)") in listing
    data = json.loads(invoke("options", "--variant", "three_handed", "--json").stdout)
    assert data["variant"] == "three_handed"
    target = next(row for row in data["options"] if row["name"] == "target")
    assert target == {"name": "target", "meaning": "The score that ends a game",
                      "rules": "R2.6", "values": "1..10000", "default": 2000}


def test_policies_list_as_json_with_tuned_defaults_per_preset():
    data = json.loads(invoke("policies", "--json").stdout)
    assert [p["name"] for p in data] == ["random", "greedy", "heuristic", "expert", "learned",
                                         "search"]
    expert = next(p for p in data if p["name"] == "expert")
    settle = next(p for p in expert["parameters"] if p["name"] == "settle")
    assert settle["read_in"] == ["rubicon"]
    assert settle["default_by_variant"]["ordinary"] == 0.0
    assert settle["default_by_variant"]["rubicon"] > 0


def test_explain_reads_a_position_from_standard_input(tmp_path):
    position = {"variant": "ordinary", "trumps": "♠", "stock": 0, "trick": 26, "to_move": 1,
                "current_trick": ["Q♥"], "played": ["A♥"],
                "seats": [{"hand": ["A♣", "10♣"]},
                          {"hand": ["K♥", "9♥", "7♠", "A♦"], "declared": {"K♥": ["marriage"]}}]}
    text = json.dumps(position, ensure_ascii=False)
    file = tmp_path / "position.json"
    file.write_text(text, encoding="utf-8")
    from_file = invoke("explain", str(file)).stdout
    from_stdin = CliRunner().invoke(cli.cli, ["explain", "-"], input=text.encode(),
                                    prog_name="bezsim")
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file and "K♥" in from_file
    bad = CliRunner().invoke(cli.cli, ["explain", "-"], input=b"{", prog_name="bezsim")
    assert bad.exit_code == 2
    assert bad.stderr.startswith("bezsim: error: position on standard input is not valid JSON")


@pytest.mark.parametrize("args,suggestion", [
    (["--variant", "polsh"], "unknown variant 'polsh'; did you mean 'polish'?"),
    (["--policies", "heuristc"], "unknown policy 'heuristc'; did you mean 'heuristic'?"),
    (["--option", "double_game=pionts"], "not one of: game, points, off; did you mean "
                                         "'points'?"),
    (["--option", "dubble_game=off"], "unknown option 'dubble_game'; did you mean "
                                      "'double_game'?"),
    (["--policies", "expert(setle=3)"], "no parameter 'setle'; did you mean 'settle'?"),
])
def test_a_misspelt_name_gets_a_suggestion(tmp_path, args, suggestion):
    result = CliRunner().invoke(cli.cli, ["simulate", *args, "--games", "1", "--out",
                                          str(tmp_path / "run")], prog_name="bezsim")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and suggestion in result.stderr


def test_a_name_far_from_every_choice_gets_no_suggestion(tmp_path):
    result = CliRunner().invoke(cli.cli, ["simulate", "--variant", "whist", "--games", "1",
                                          "--out", str(tmp_path / "run")], prog_name="bezsim")
    assert result.exit_code == 2 and "did you mean" not in result.stderr


@pytest.mark.parametrize("words,expected", [
    ("bezsim simulate --variant po", ["polish"]),
    ("bezsim tournament --policies expert,he", ["expert,heuristic"]),
    ("bezsim simulate --option double_g", ["double_game="]),
    ("bezsim replay --option double_game=", ["double_game=game", "double_game=points",
                                             "double_game=off"]),
    ("bezsim options --variant rub", ["rubicon"]),
])
def test_shell_completion_offers_variants_policies_and_options(monkeypatch, words, expected):
    """What `eval "$(_BEZSIM_COMPLETE=bash_source bezsim)"` (README) asks for each Tab."""
    monkeypatch.setenv("_BEZSIM_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", words)
    monkeypatch.setenv("COMP_CWORD", str(len(words.split()) - 1))
    result = CliRunner().invoke(cli.cli, [], prog_name="bezsim")
    assert result.exit_code == 0
    assert result.stdout.split() == [f"plain,{value}" for value in expected]
