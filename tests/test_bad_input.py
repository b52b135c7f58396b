"""Bad input on the command line: every command and flag given malformed values
must end with ONE line on stderr, ``bezsim: error: <message naming the bad value>``, a
non-zero exit, no traceback, no game played and no file written or changed.

The catalogue is data: (args, fragment of the message). ``{name}`` in an argument is a
path of the sandbox below (a file, a non-run, copies of committed sample runs, position
files ...). Position files and the Python API have their own catalogues in
test_bad_input_api.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.engine_api import games as api

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"
HUGE = "99999999999999999999999"

POSITION = {"variant": "ordinary", "trumps": "♥", "turnup": "9♥", "stock": 20, "trick": 12,
            "phase": "declare", "seats": [{"hand": ["K♥", "Q♥", "J♦", "Q♠"]}, {"hand": []}]}


def _position(**changes) -> str:
    return json.dumps(POSITION | changes, ensure_ascii=False)


# position files of the sandbox (name -> text); position_ok is the valid base
POSITION_FILES = {
    "position_ok.json": _position(),
    "not_json.json": "{trumps: hearts",
    "empty.json": "",
    "list.json": "[1, 2]",
    "three_copies.json": _position(seats=[{"hand": ["7♣", "7♣", "7♣"]}, {"hand": []}]),
    "unknown_card.json": _position(seats=[{"hand": ["X♣"]}, {"hand": []}]),
    "hand_too_big.json": _position(seats=[{"hand": ["7♣", "8♣", "9♣", "J♣", "Q♣", "K♣",
                                                    "10♣", "A♣", "7♦", "8♦"]}, {"hand": []}]),
    "stock_text.json": _position(stock="20"),
    "play_unplaced.json": _position(phase="play"),
    "bad_trumps.json": _position(trumps="X"),
    "bad_declared.json": _position(seats=[{"hand": ["A♠"], "declared": {"A♠": ["marriage"]}},
                                          {"hand": []}]),
}


def _make_sandbox(root: Path) -> dict[str, str]:
    """Paths the catalogue refers to; the commands must leave all of them as they are."""
    places = {"tmp": root, "missing": root / "missing", "out": root / "new-out",
              "file": root / "file.txt", "nonrun": root / "nonrun",
              "empty_dir": root / "empty-dir", "tourney": root / "tourney",
              "badmanifest": root / "badmanifest"}
    places["file"].write_text("not a run")
    places["nonrun"].mkdir()
    (places["nonrun"] / "notes.txt").write_text("mine")
    places["empty_dir"].mkdir()
    places["tourney"].mkdir()
    (places["tourney"] / "tournament.json").write_text(json.dumps(
        {"variant": "polish", "options": {}, "policies": ["random", "greedy"], "seed": 3,
         "games": 9}))
    places["badmanifest"].mkdir()
    (places["badmanifest"] / "manifest.json").write_text("{not json")
    for variant in ("ordinary", "polish", "rubicon"):
        shutil.copytree(SAMPLES / variant, root / variant)
        places[variant] = root / variant
    # runs whose manifest promises more games than their tables hold (interrupted)
    for variant in ("polish", "rubicon"):
        partial = root / f"partial_{variant}"
        shutil.copytree(SAMPLES / variant, partial)
        manifest = json.loads((partial / "manifest.json").read_text())
        (partial / "manifest.json").write_text(json.dumps(manifest | {
            "games": manifest["games"] + 7}))
        places[partial.name] = partial
    for name, text in POSITION_FILES.items():
        (root / name).write_text(text, encoding="utf-8")
        places[name.removesuffix(".json")] = root / name
    (root / "binary.json").write_bytes(b"\xff\xfe\x00{")
    places["binary"] = root / "binary.json"
    for name, over, resigned, seats in (
            ("saved_left", False, False, [None, "expert"]),      # files bezsim play saves
            ("saved_over", True, False, [None, "expert"]),
            ("saved_resigned", False, True, [None, "expert"]),
            ("saved_all_open", False, False, [None, None])):     # a step API game
        (root / f"{name}.json").write_text(json.dumps(
            {"variant": "ordinary", "options": {}, "seed": 3, "game": 0, "policies": seats,
             "over": over, "resigned": resigned, "decisions": []}))
        places[name] = root / f"{name}.json"
    (root / "cwd").mkdir()
    return {name: str(path) for name, path in places.items()}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> dict[str, str]:
    return _make_sandbox(tmp_path_factory.mktemp("bad-input"))


@pytest.fixture
def no_games(monkeypatch, sandbox):
    """The engine refuses to be reached, and the working directory is the sandbox's empty
    ``cwd``: a default output path would show up there."""
    calls: list = []

    def engine(*args, **kwargs):
        calls.append(args)
        raise AssertionError("a refused command reached the engine")

    import bezsim.replay

    monkeypatch.setattr(api, "run_games", engine)
    monkeypatch.setattr(api, "trace_one", engine)
    monkeypatch.setattr(bezsim.replay, "trace_one", engine)
    monkeypatch.chdir(Path(sandbox["tmp"]) / "cwd")
    return calls


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in root.rglob("*")}


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


# (args, fragment the one-line message must contain: it names the bad value or flag)
SIMULATE = [
    (["--records=yes"], "Option '--records' does not take a value"),
    (["--records", "--out", "memory://bezsim-run"], "--records writes to a folder on this "
                                                    "machine; memory://bezsim-run is a URL"),
    (["--games", "0"], "Invalid value for '--games': 0 is not in the range x>=1"),
    (["--games", "-5"], "Invalid value for '--games': -5 is not in the range"),
    (["--games", "many"], "Invalid value for '--games': 'many' is not a valid integer"),
    (["--games", "2.5"], "Invalid value for '--games': '2.5' is not a valid integer"),
    (["--games", "1e3"], "Invalid value for '--games': '1e3'"),
    (["--games", ""], "Invalid value for '--games': '' is not a valid integer"),
    (["--games", HUGE, "--seed", "1", "--out", "{out}"],
     "games must be at most 9223372036854775807"),
    (["--games", "100000000000", "--seed", "1", "--out", "{out}"],
     "100000000000 games in shards of 20000 make more than 1,000,000 shards"),
    (["--seed", "-1"], "Invalid value for '--seed': -1 is not in the range"),
    (["--seed", "9223372036854775808"], "Invalid value for '--seed': 9223372036854775808"),
    (["--seed", "abc"], "Invalid value for '--seed': 'abc'"),
    (["--seed", "1.0"], "Invalid value for '--seed': '1.0'"),
    (["--threads", "0"], "Invalid value for '--threads': 0 is not in the range"),
    (["--threads", "-1"], "Invalid value for '--threads': -1"),
    (["--threads", "x"], "Invalid value for '--threads': 'x'"),
    (["--threads", "1.5"], "Invalid value for '--threads': '1.5'"),
    (["--threads", "99", "--seed", "1", "--out", "{out}"], "threads must be between 1 and"),
    # no --seed: the drawn seed is printed only for a run that starts, so still one line
    (["--threads", "99", "--games", "2", "--out", "{out}"], "threads must be between 1 and"),
    (["--games", "2", "--out", "{nonrun}"], "output directory {nonrun} is not empty"),
    (["--shard-size", "0"], "Invalid value for '--shard-size': 0"),
    (["--shard-size", "x"], "Invalid value for '--shard-size': 'x'"),
    (["--shard-size", "1.5"], "Invalid value for '--shard-size': '1.5'"),
    (["--players", "3", "--seed", "1"], "variant 'ordinary' is played by 2 players (docs/rules.md "
                                        "R2), not 3; for 3 players use --variant three_handed"),
    (["--players", "x"], "Invalid value for '--players': 'x'"),
    (["--players", "0"], "is played by 2 players (docs/rules.md R2), not 0"),
    (["--variant", "three_handed", "--players", "2"], "variant 'three_handed' is played by 3"),
    (["--variant", "four_handed", "--players", "3"], "variant 'four_handed' is played by 4"),
    (["--variant", "pinochle"], "unknown variant 'pinochle'"),
    (["--variant", ""], "unknown variant ''"),
    (["--variant", "six_pak"], "unknown variant 'six_pak'; did you mean 'six_pack'?"),
    (["--option", "target"], "option 'target' must look like name=value"),
    (["--option", "=5"], "option '=5' must look like name=value"),
    (["--option", ""], "option '' must look like name=value"),
    (["--option", "target="], "option target must be a whole number, got ''"),
    (["--option", "target=lots"], "option target must be a whole number, got 'lots'"),
    (["--option", "target=1.5"], "option target must be a whole number, got '1.5'"),
    (["--option", "target=0"], "option target=0 is out of range (1..10000)"),
    (["--option", "target=10001"], "option target=10001 is out of range"),
    (["--option", "trumps=none"], "unknown option 'trumps'"),
    (["--option", "stage2_duty=always"], "option stage2_duty='always' is not one of"),
    (["--option", "target=1500", "--option", "target=2000"],
     "option target is given twice ('1500' and '2000')"),
    (["--option", "rubicon_reuse=any_class"], "option rubicon_reuse applies to rubicon"),
    (["--option", "first_sequence=plain"], "option first_sequence applies to rubicon"),
    (["--variant", "polish", "--option", "rubicon_close=points"],
     "option rubicon_close applies to rubicon bézique, not to variant 'polish'"),
    (["--variant", "rubicon", "--option", "rubicon_close=pionts"],
     "option rubicon_close='pionts' is not one of: brisques, points"),
    (["--variant", "rubicon", "--option", "first_sequence=royal"],
     "option first_sequence='royal' is not one of: trumps, plain"),
    (["--option", "partnership_stage2=pairs"], "option partnership_stage2 applies to "
                                               "four-handed partnership"),
    (["--variant", "polish", "--option", "brisques_when=when_won"],
     "option brisques_when does not apply to variant 'polish'"),
    (["--variant", "rubicon", "--option", "target=1000"],
     "option target does not apply to variant 'rubicon' (a Rubicon game is one hand, settled "
     "by docs/rules.md R6.8)"),
    (["--policies", "clever"], "unknown policy 'clever'"),
    (["--policies", "random,random,greedy"], "3 policies given for 2 seats"),
    (["--variant", "three_handed", "--policies", "random,greedy"],
     "2 policies given for 3 seats"),
    (["--policies", ""], "no policy given"),
    (["--policies", "greedy,,random"], "empty policy in 'greedy,,random'"),
    (["--policies", "random,"], "empty policy in 'random,'"),
    (["--policies", "greedy random"], "policy 'greedy random' must look like name"),
    (["--policies", "greedy(x=)"], "policy 'greedy' has no parameter 'x'"),
    (["--policies", "greedy(foo=1)"], "policy 'greedy' has no parameter 'foo'"),
    (["--policies", "random(x=1)"], "policy 'random' has no parameter 'x'"),
    (["--policies", "greedy(stage2_win_margin=abc)"],
     "policy parameter stage2_win_margin='abc' is not a number"),
    (["--policies", "greedy(stage2_win_margin=)"],
     "policy parameter stage2_win_margin='' is not a number"),
    (["--policies", "greedy(stage2_win_margin=nan)"], "stage2_win_margin must be finite"),
    (["--policies", "greedy(stage2_win_margin=1"], "'greedy(stage2_win_margin=1' has "
                                                   "unbalanced parentheses"),
    (["--policies", "greedy)"], "'greedy)' has unbalanced parentheses"),
    (["--policies", "greedy(stage2_win_margin=1))"], "has unbalanced parentheses"),
    (["--policies", "greedy(stage2_win_margin=1,stage2_win_margin=2)"],
     "policy parameter stage2_win_margin is given twice"),
    (["--policies", "search(samples=0)"], "policy parameter samples=0 is out of range "
                                          "(a whole number from 1 to 1000000)"),
    (["--policies", "search(samples=2.5)"], "policy parameter samples=2.5 is out of range"),
    (["--policies", "search(rollout=7)"], "policy parameter rollout=7 is out of range"),
    (["--policies", "search(exact_stage2=0.5)"], "exact_stage2=0.5 is out of range"),
    (["--policies", "nosuch.module:f"], "policy 'nosuch.module:f': cannot import module "
                                        "'nosuch.module'"),
    (["--policies", "json:nothing"], "policy 'json:nothing': module 'json' has no 'nothing'"),
    (["--policies", "os:getcwd"], "policy 'os:getcwd' is not an @njit function"),
    (["--policies", "json:loads(x=1)"], "user policy 'json:loads' takes no parameters"),
    (["--policy-param", "greedy.stage2_win_margin=1"], "no seat plays greedy"),
    (["--policies", "greedy", "--policy-param", "greedy.stage2_win_margin"],
     "--policy-param 'greedy.stage2_win_margin' must look like policy.param=value"),
    (["--policies", "greedy", "--policy-param", "greedy.foo=1"], "has no parameter 'foo'"),
    (["--policies", "greedy", "--policy-param", "greedy.stage2_win_margin=abc"],
     "stage2_win_margin='abc' is not a number"),
    (["--policies", "greedy", "--policy-param", "nosuch.x=1"], "unknown policy 'nosuch'"),
    (["--policies", "search", "--policy-param", "search.samples=0"], "samples=0 is out of"),
    (["--out", "{file}"], "Invalid value for '--out': Directory '{file}' is a file"),
    (["--out", "{file}/run", "--seed", "1"], "cannot create output directory {file}/run"),
    (["--out", "{nonrun}", "--seed", "1"], "output directory {nonrun} is not empty and holds "
                                          "no bezsim run"),
    (["--out", "{ordinary}", "--seed", "1"], "output directory {ordinary} holds a different "
                                            "run"),
    (["--out", "{badmanifest}", "--seed", "1"], "manifest.json is not valid JSON"),
    (["--out", ""], "Invalid value for '--out': must not be empty"),
    (["--resume", "{file}"], "Invalid value for '--resume': Directory '{file}' is a file"),
    (["--resume", "{nonrun}"], "cannot resume {nonrun}: it holds no bezsim run"),
    (["--resume", "{tourney}"], "cannot resume {tourney}: it holds no bezsim run"),
    (["--resume", "{missing}"], "cannot resume {missing}: no such directory"),
    (["--resume", "{badmanifest}"], "manifest.json is not valid JSON"),
    (["--resume", ""], "Invalid value for '--resume': must not be empty"),
    (["--resume", "{ordinary}", "--games", "5"], "--games cannot be combined with --resume"),
    (["--resume", "{ordinary}", "--variant", "polish"], "--variant cannot be combined with "
                                                        "--resume"),
    (["--dask", "nonsense", "--seed", "1", "--out", "{out}"], "--dask takes 'local' or a "
                                                              "scheduler address"),
    (["--no-progress=yes"], "Option '--no-progress' does not take a value"),
    (["--gmes", "4"], "No such option '--gmes'. Did you mean '--games'?"),
    (["extra-arg"], "Got unexpected extra argument (extra-arg)"),
]

REPLAY = [
    ([], "replay needs --seed (the run's root seed), or --saved FILE"),
    (["--saved", "{missing}.json"], "Invalid value for '--saved': File '{missing}.json' does "
                                    "not exist"),
    (["--saved", "{file}"], "{file}: not a game saved by bezsim play"),
    (["--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--seed", "x"], "Invalid value for '--seed': 'x'"),
    (["--seed", "9223372036854775808"], "Invalid value for '--seed': 9223372036854775808"),
    (["--seed", "1", "--game", "-1"], "Invalid value for '--game': -1"),
    (["--seed", "1", "--game", "x"], "Invalid value for '--game': 'x'"),
    (["--seed", "1", "--record", "{missing}/g.json"], "--record {missing}/g.json: no folder"),
    (["--seed", "1", "--game", "1.5"], "Invalid value for '--game': '1.5'"),
    (["--seed", "1", "--game", HUGE], f"Invalid value for '--game': {HUGE}"),
    (["--seed", "1", "--policies", "nope"], "unknown policy 'nope'"),
    (["--seed", "1", "--policies", "random,random,random"], "3 policies given for 2 seats"),
    (["--seed", "1", "--policies", "greedy(x=1)"], "policy 'greedy' has no parameter 'x'"),
    (["--seed", "1", "--variant", "nope"], "unknown variant 'nope'"),
    (["--seed", "1", "--option", "target=0"], "option target=0 is out of range"),
    (["--seed", "1", "--option", "rubicon_reuse=any_class"], "applies to rubicon"),
    (["--seed", "1", "--players", "3"], "variant 'ordinary' is played by 2 players"),
    (["--seed", "1", "--policy-param", "greedy.x=1"], "no seat plays greedy"),
]

EXPLAIN = [
    ([], "Missing argument 'FILE'"),
    (["{missing}.json"], "Invalid value for 'FILE': File '{missing}.json' does not exist"),
    (["{empty_dir}"], "Invalid value for 'FILE': File '{empty_dir}' is a directory"),
    (["{file}"], "position file {file} is not valid JSON: Expecting value at line 1"),
    (["{not_json}"], "position file {not_json} is not valid JSON: Expecting property name"),
    (["{empty}"], "position file {empty} is not valid JSON: Expecting value"),
    (["{binary}"], "position file {binary} is not UTF-8 text"),
    (["{list}"], "a position must be a JSON object"),
    (["{three_copies}"], "seat 0 hand: more copies of 7♣ than 2 packs hold"),
    (["{unknown_card}"], "seat 0 hand: unknown rank in card 'X♣'"),
    (["{hand_too_big}"], "seat 0: 10 cards in hand, at most 9 possible"),
    (["{stock_text}"], "'stock' must be a whole number, got '20'"),
    (["{bad_trumps}"], "'trumps': unknown suit 'X'"),
    (["{bad_declared}"], "seat 0: A♠ cannot have scored in 'marriage'"),
    (["{position_ok}", "--json=1"], "Option '--json' does not take a value"),
    (["{position_ok}", "{position_ok}"], "Got unexpected extra argument"),
    (["{position_ok}", "--evaluate"], "--evaluate values card plays: give a position with "
                                      "phase 'play'"),
    (["{play_unplaced}", "--evaluate"], "--evaluate needs every card placed: the hands, the "
                                        "trick, 'played', the turn-up and the stock (20) hold "
                                        "25 of the 64 cards"),
    (["{position_ok}", "--evaluate", "--deals", "0"], "Invalid value for '--deals': 0 is not "
                                                       "in the range 1<=x<=100000"),
    (["{position_ok}", "--evaluate", "--seed", "-1"], "Invalid value for '--seed': -1 is not "
                                                       "in the range"),
]

OPTIONS = [
    (["--variant", "pinochle"], "unknown variant 'pinochle'"),
    (["--variant", ""], "unknown variant ''"),
    (["--variant", "six_pak"], "unknown variant 'six_pak'; did you mean 'six_pack'?"),
    (["--option", "target=1"], "No such option '--option'"),
    (["extra"], "Got unexpected extra argument (extra)"),
    (["--json", "--variant", "polsh"], "unknown variant 'polsh'; did you mean 'polish'?"),
    (["--json=yes"], "Option '--json' does not take a value"),
]

POLICIES = [
    (["extra"], "Got unexpected extra argument (extra)"),
    (["--json=yes"], "Option '--json' does not take a value"),
    (["--jsn"], "No such option '--jsn'. Did you mean '--json'?"),
]

REPORT = [
    ([], "Missing argument 'RUN_DIR'"),
    (["{missing}"], "Directory '{missing}' does not exist"),
    (["{file}"], "Directory '{file}' is a file"),
    (["{nonrun}"], "{nonrun} is not a bezsim run directory (no manifest.json)"),
    (["{empty_dir}"], "{empty_dir} is not a bezsim run directory"),
    (["{tourney}"], "{tourney} is not a bezsim run directory"),
    (["{badmanifest}"], "manifest.json is not valid JSON"),
    (["{partial_polish}"], "run {partial_polish} is incomplete (1,500 of 1,507 games); "
                           "finish it with: bezsim simulate --resume {partial_polish}"),
    (["{ordinary}", "--out", "{file}"], "Invalid value for '--out': Directory '{file}' is a "
                                        "file"),
    (["{ordinary}", "--out", ""], "Invalid value for '--out': must not be empty"),
    (["{ordinary}", "--out", "{polish}"], "report output {polish} holds a bezsim run"),
    (["{ordinary}", "--title"], "Option '--title' requires an argument"),
]


def _stats_cases(partial: str, variant_case: tuple[list[str], str] | None):
    cases = [
        ([], "Missing argument 'RUN_DIR'"),
        (["{missing}"], "Directory '{missing}' does not exist"),
        (["{file}"], "Directory '{file}' is a file"),
        (["{nonrun}"], "{nonrun} is not a bezsim run directory"),
        (["{badmanifest}"], "manifest.json is not valid JSON"),
        ([partial], f"run {partial} is incomplete ("),
        (["{ordinary}", "--json=x"], "Option '--json' does not take a value"),
        (["{ordinary}", "{ordinary}"], "Got unexpected extra argument"),
    ]
    return cases + ([variant_case] if variant_case else [])


COMPOUNDS = _stats_cases("{partial_polish}", (["{ordinary}"], "compound statistics need a polish "
                                                       "run; {ordinary} is a run of variant "
                                                       "ordinary"))
RUBICON = _stats_cases("{partial_rubicon}", (["{polish}"], "rubicon statistics need a rubicon "
                                                 "or six_pack run; {polish} is a run of "
                                                 "variant polish"))
SEATS = _stats_cases("{partial_rubicon}", None)

TOURNAMENT = [
    ([], "Missing option '--policies' / '--policy'"),
    (["--policies", "random"], "a tournament needs at least two distinct policies, got 1"),
    (["--policies", "random,random"], "needs at least two distinct policies"),
    (["--policies", "greedy,greedy(stage2_win_margin=5)"], "two distinct policies, got 1"),
    (["--policies", "random,greedy,random"], "policy 'random' is listed twice"),
    (["--policies", "random,,greedy"], "empty policy in 'random,,greedy'"),
    (["--policies", "random,x"], "unknown policy 'x'"),
    (["--policies", "greedy(x=1),random"], "policy 'greedy' has no parameter 'x'"),
    (["--policies", "search(samples=0),random"], "samples=0 is out of range"),
    (["--policies", "random,greedy", "--games", "0"], "Invalid value for '--games': 0"),
    (["--policies", "random,greedy", "--games", "x"], "Invalid value for '--games': 'x'"),
    (["--policies", "random,greedy", "--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--policies", "random,greedy", "--seed", "x"], "Invalid value for '--seed': 'x'"),
    (["--policies", "random,greedy", "--threads", "0"], "Invalid value for '--threads': 0"),
    (["--policies", "random,greedy", "--threads", "99", "--out", "{out}"],
     "threads must be between 1 and"),
    (["--policies", "random,greedy", "--variant", "x"], "unknown variant 'x'"),
    (["--policies", "random,greedy", "--option", "target=0"], "option target=0 is out of "
                                                              "range"),
    (["--policies", "random,greedy", "--option", "x"], "option 'x' must look like name=value"),
    (["--policies", "random,greedy", "--players", "2"], "No such option '--players'"),
    (["--policies", "random,greedy", "--out", "{file}"], "Directory '{file}' is a file"),
    (["--policies", "random,greedy", "--out", "{nonrun}"],
     "output directory {nonrun} is not empty and holds no tournament"),
    (["--policies", "random,greedy", "--out", "{ordinary}"],
     "output directory {ordinary} holds a simulation run"),
    (["--policies", "random,greedy", "--out", "{tourney}"],
     "output directory {tourney} holds a different tournament"),
    (["--policies", "random,greedy", "--out", ""], "Invalid value for '--out': must not be "
                                                   "empty"),
    (["--policies", "random,greedy", "--no-progress=1"], "Option '--no-progress' does not "
                                                         "take a value"),
    (["--policies", "random,greedy", "--json=yes"], "Option '--json' does not take a value"),
]

TUNE = [
    (["--variant", "x"], "unknown variant 'x'"),
    (["--option", "target=0"], "option target=0 is out of range"),
    (["--policy", "nobody"], "unknown policy 'nobody'"),
    (["--policy", "random"], "policy 'random' has no parameters to tune"),
    (["--policy", "@{file}"], "is not readable JSON"),
    (["--against", "nobody"], "unknown policy 'nobody'"),
    (["--params", "cash,bogus"], "policy 'expert' has no parameter 'bogus'"),
    (["--deals", "0"], "Invalid value for '--deals': 0"),
    (["--generations", "0"], "Invalid value for '--generations': 0"),
    (["--popsize", "1"], "Invalid value for '--popsize': 1"),
    (["--sigma", "0"], "Invalid value for '--sigma': 0"),
    (["--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--threads", "99"], "threads must be between 1 and"),
    (["--out", ""], "Invalid value for '--out': must not be empty"),
    (["--no-progress=1"], "Option '--no-progress' does not take a value"),
]

LEARN = [
    (["--variant", "x"], "unknown variant 'x'"),
    (["--start", "nobody"], "unknown policy 'nobody'"),
    (["--start", "expert"], "'expert' is not a learned policy"),
    (["--rounds", "0"], "Invalid value for '--rounds': 0"),
    (["--games", "0"], "Invalid value for '--games': 0"),
    (["--deals", "0"], "Invalid value for '--deals': 0"),
    (["--horizon", "-1"], "Invalid value for '--horizon': -1"),
    (["--early", "2"], "Invalid value for '--early': 2"),
    (["--value", "x"], "Invalid value for '--value': 'x' is not one of"),
    (["--value", "settlement"], "ordinary has no settlement"),
    (["--params", "late_rank,bogus"], "'bogus' is not a feature weight of learned"),
    (["--params", "late_rank,late_rank"], "name each weight once"),
    (["--params", "declare_lock"], "'declare_lock' is not a feature weight of learned"),
    (["--eval-games", "0"], "Invalid value for '--eval-games': 0"),
    (["--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--threads", "99"], "threads must be between 1 and"),
    (["--out", ""], "Invalid value for '--out': must not be empty"),
    (["--no-progress=1"], "Option '--no-progress' does not take a value"),
]

PLAY = [
    (["--seat", "2", "--seed", "1"], "--seat 2: ordinary has seats 0 to 1"),
    (["--seat", "4"], "Invalid value for '--seat': 4 is not in the range 0<=x<=3"),
    (["--against", "nope", "--seed", "1"], "unknown policy 'nope'"),
    (["--hint", "greedy(x=1)", "--seed", "1"], "policy 'greedy' has no parameter 'x'"),
    (["--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--variant", "nope", "--seed", "1"], "unknown variant 'nope'"),
    (["--option", "target=0", "--seed", "1"], "option target=0 is out of range"),
    (["--save", "{empty_dir}", "--seed", "1"], "Invalid value for '--save': File '{empty_dir}' "
                                               "is a directory"),
    (["--load", "{missing}.json"], "Invalid value for '--load': File '{missing}.json' does not "
                                   "exist"),
    (["--load", "{empty_dir}"], "Invalid value for '--load': File '{empty_dir}' is a directory"),
    (["--load", "{file}"], "{file}: not a game saved by bezsim play"),
    (["--load", "{binary}"], "{binary}: not a game saved by bezsim play"),
    (["--load", "{position_ok}"], "{position_ok}: not a game saved by bezsim play"),
    (["--load", "{saved_over}"], "{saved_over}: the game is over; see it with bezsim replay "
                                 "--saved"),
    (["--load", "{saved_resigned}"], "{saved_resigned}: the game was resigned"),
    (["--load", "{saved_all_open}"], "{saved_all_open}: not a game saved by bezsim play (2 open "
                                     "seats, not one)"),
    (["--load", "{saved_left}", "--seed", "3"], "--seed cannot be combined with --load"),
    (["--load", "{saved_left}", "--variant", "polish"], "--variant cannot be combined with "
                                                        "--load"),
    (["--load", "{saved_left}", "--option", "target=500"], "--option cannot be combined with "
                                                           "--load"),
    (["--load", "{saved_left}", "--seat", "0"], "--seat cannot be combined with --load"),
    (["--load", "{saved_left}", "--against", "greedy"], "--against cannot be combined with "
                                                        "--load"),
    (["--load", "{saved_left}", "--hint", "nope"], "unknown policy 'nope'"),
    (["--seed", "1", "--review", "{missing}/r.html"], "--review {missing}/r.html: no folder"),
    (["--load", "{saved_left}", "--review", "{missing}/r.html"], "--review {missing}/r.html: "
                                                                 "no folder"),
]

REVIEW = [
    ([], "review needs one game: --seed"),
    (["--seed", "1", "--record", "{file}"], "review needs one game"),
    (["--saved", "{missing}.json"], "Invalid value for '--saved': File '{missing}.json' does "
                                    "not exist"),
    (["--saved", "{file}"], "{file}: not a game saved by bezsim play"),
    (["--record", "{missing}.json"], "Invalid value for '--record': File '{missing}.json' "
                                     "does not exist"),
    (["--record", "{file}"], "{file}: not JSON"),
    (["--record", "{list}"], "{list}: a record is a JSON object, got list"),
    (["--seed", "-1"], "Invalid value for '--seed': -1"),
    (["--seed", "1", "--game", "x"], "Invalid value for '--game': 'x'"),
    (["--seed", "1", "--policies", "nope"], "unknown policy 'nope'"),
    (["--seed", "1", "--policy-param", "greedy.x=1"], "no seat plays greedy"),
    (["--seed", "1", "--variant", "nope"], "unknown variant 'nope'"),
    (["--seed", "1", "--option", "target=0"], "option target=0 is out of range"),
    (["--seed", "1", "--players", "3"], "variant 'ordinary' is played by 2 players"),
    (["--seed", "1", "--seat", "2"], "--seat 2: ordinary has seats 0 to 1 (or 'all')"),
    (["--seed", "1", "--seat", "one"], "--seat one: ordinary has seats 0 to 1"),
    (["--seed", "1", "--deals", "1"], "Invalid value for '--deals' / '--budget': 1"),
    (["--seed", "1", "--json", "{missing}/out.json"], "--json {missing}/out.json: no folder"),
    (["--seed", "1", "--write-record", "{missing}/g.json"], "--write-record {missing}/g.json: "
                                                            "no folder"),
    (["--seed", "1", "--progress=yes"], "Option '--progress' does not take a value"),
    (["--seed", "1", "--html", "{missing}/r.html"], "--html {missing}/r.html: no folder"),
    (["--seed", "1", "--html", "{empty_dir}"], "Invalid value for '--html': File '{empty_dir}' "
                                               "is a directory"),
]

TOP_LEVEL = [
    (["frobnicate"], "No such command 'frobnicate'"),
    (["-x"], "No such option '-x'"),
    (["--version=3"], "Option '--version' does not take a value"),
]

CATALOGUE = ([(["simulate", *a], m) for a, m in SIMULATE]
             + [(["replay", *a], m) for a, m in REPLAY]
             + [(["explain", *a], m) for a, m in EXPLAIN]
             + [(["options", *a], m) for a, m in OPTIONS]
             + [(["policies", *a], m) for a, m in POLICIES]
             + [(["report", *a], m) for a, m in REPORT]
             + [(["compounds", *a], m) for a, m in COMPOUNDS]
             + [(["rubicon", *a], m) for a, m in RUBICON]
             + [(["seats", *a], m) for a, m in SEATS]
             + [(["tournament", *a], m) for a, m in TOURNAMENT]
             + [(["tune", *a], m) for a, m in TUNE]
             + [(["learn", *a], m) for a, m in LEARN]
             + [(["play", *a], m) for a, m in PLAY]
             + [(["review", *a], m) for a, m in REVIEW]
             + TOP_LEVEL)


def _fill(text: str, places: dict[str, str]) -> str:
    for name in sorted(places, key=len, reverse=True):
        text = text.replace("{" + name + "}", places[name])
    return text


@pytest.mark.parametrize(("args", "fragment"), CATALOGUE,
                         ids=[" ".join(a) or "(none)" for a, _ in CATALOGUE])
def test_bad_cli_input_is_one_line_and_changes_nothing(args, fragment, sandbox, no_games):
    args = [_fill(a, sandbox) for a in args]
    before = _snapshot(Path(sandbox["tmp"]))
    result = invoke(*args)
    shown = f"bezsim {' '.join(args)}\nexit {result.exit_code}\nstdout: {result.stdout!r}\n" \
            f"stderr: {result.stderr!r}\nexception: {result.exception!r}"
    assert result.exit_code == 2, shown
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezsim: error: "), shown
    assert "Traceback" not in result.stderr and "Usage:" not in result.stderr, shown
    assert result.stdout == "", shown
    assert _fill(fragment, sandbox) in lines[0], shown
    assert no_games == [], shown
    assert _snapshot(Path(sandbox["tmp"])) == before, shown


def test_the_catalogue_covers_every_command_and_flag():
    """A new command or flag without a bad-input case fails here (every flag)."""
    covered = {(args[0], arg.split("=")[0]) for args, _ in CATALOGUE for arg in args[1:]
               if arg.startswith("-")}
    covered |= {(args[0], "ARGUMENT") for args, _ in CATALOGUE if len(args) == 1}
    missing = [f"bezsim {name} {param.opts[0]}" for name, command in cli.cli.commands.items()
               for param in command.params
               if not any((name, opt if opt.startswith("-") else "ARGUMENT") in covered
                          for opt in param.opts)]
    assert missing == []


def test_good_values_of_the_same_flags_run(sandbox, fake_engine, tmp_path):
    """Controls: the catalogue fails for the bad value, not because the command never works."""
    out = tmp_path / "run"
    ok = invoke("simulate", "--games", "3", "--seed", "1", "--shard-size", "2",
                "--policies", "random,greedy", "--option", "target=1500", "--option",
                "target=1500", "--threads", "1", "--out", str(out), "--no-progress")
    assert ok.exit_code == 0, ok.stderr
    assert json.loads((out / "manifest.json").read_text())["rules"]["options"]["target"] == 1500
    assert len(fake_engine.calls) == 2
    for args in (["compounds", sandbox["polish"]], ["rubicon", sandbox["rubicon"]],
                 ["seats", sandbox["ordinary"]], ["options", "--variant", "rubicon"],
                 ["explain", sandbox["position_ok"]]):
        result = invoke(*args)
        # stderr says at most that the engine compiles (explain, the first time)
        said = [line for line in result.stderr.splitlines() if not line.startswith(
            "compiling ")]
        assert result.exit_code == 0 and said == [], (args, result.stderr)
        assert result.stdout.strip(), args


def test_seed_is_printed_only_for_a_run_that_starts(tmp_path, fake_engine, monkeypatch):
    monkeypatch.setattr(cli.secrets, "randbelow", lambda n: 42)
    monkeypatch.chdir(tmp_path)
    refused = invoke("simulate", "--games", "2", "--threads", "99")
    assert refused.stderr.splitlines()[0].startswith("bezsim: error: threads must be")
    assert len(refused.stderr.splitlines()) == 1 and not (tmp_path / "data").exists()
    started = invoke("simulate", "--games", "2", "--no-progress")
    assert started.exit_code == 0 and started.stderr == "seed: 100042\n"
    assert (tmp_path / "data" / "runs" / "ordinary-100042" / "manifest.json").is_file()


def test_tournament_writes_again_into_its_own_directory_only(tmp_path, fake_engine):
    """The same tournament may be written again (same table); another one is refused before
    it plays a game."""
    args = ["tournament", "--policies", "random,greedy", "--games", "3", "--seed", "5",
            "--out", str(tmp_path), "--no-progress"]
    assert invoke(*args).exit_code == 0
    assert invoke(*args).exit_code == 0
    calls = len(fake_engine.calls)
    other = invoke(*args[:-3], "--seed", "6", "--out", str(tmp_path), "--no-progress")
    assert other.exit_code == 2 and "holds a different tournament" in other.stderr
    assert len(fake_engine.calls) == calls


# --- the real process behaves the same ------------------------------------------------------

SUBPROCESS = [
    (["simulate", "--games", "0"], "Invalid value for '--games': 0 is not in the range x>=1."),
    (["simulate", "--policies", "greedy(stage2_win_margin=abc)", "--seed", "1", "--out",
      "{out}"], "policy parameter stage2_win_margin='abc' is not a number"),
    (["explain", "{three_copies}"], "seat 0 hand: more copies of 7♣ than 2 packs hold"),
    (["rubicon", "{polish}"], "rubicon statistics need a rubicon or six_pack run"),
    (["tournament", "--policies", "random", "--games", "1"], "two distinct policies"),
]


@pytest.mark.parametrize(("args", "fragment"), SUBPROCESS,
                         ids=[a[0] for a, _ in SUBPROCESS])
def test_bad_input_in_a_real_process(args, fragment, sandbox):
    args = [_fill(a, sandbox) for a in args]
    before = _snapshot(Path(sandbox["tmp"]))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "bezsim", *args], capture_output=True,
                          text=True, env=env, cwd=Path(sandbox["tmp"]) / "cwd", timeout=120)
    shown = f"bezsim {' '.join(args)}\nexit {proc.returncode}\nstderr: {proc.stderr!r}"
    assert proc.returncode == 2 and proc.stdout == "", shown
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezsim: error: "), shown
    assert fragment in lines[0] and "Traceback" not in proc.stderr, shown
    assert _snapshot(Path(sandbox["tmp"])) == before, shown
