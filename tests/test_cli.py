"""The bezsim command: commands wire through, and every user error is one stderr line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.errors import BezsimError
from bezsim.io.reader import read_run

REPO = Path(__file__).resolve().parents[1]


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


def assert_one_line_error(result, code: int = 2) -> str:
    assert result.exit_code == code, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bezsim: error: ")
    assert "Traceback" not in result.stderr and "Usage:" not in result.stderr
    assert result.stdout == ""
    return lines[0]


def test_simulate_writes_tables_and_summary(tmp_path, fake_engine):
    out = tmp_path / "run"
    result = invoke("simulate", "--games", "30", "--seed", "7", "--shard-size", "10",
                    "--policies", "random,greedy", "--threads", "2", "--out", str(out),
                    "--option", "target=1500", "--no-progress")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    tables = read_run(out)
    hands = int(tables["games"]["hands"].sum())
    lines = result.stdout.splitlines()
    assert lines[0] == "games:  30"
    assert lines[1].startswith(f"hands:  {hands:,} in ")
    assert lines[2] == f"tables: {out}/{{hands,games,declarations}}"
    assert lines[3] == f'read:   pandas.read_parquet("{out}/hands")'
    assert tables["games"]["policy_1"].unique().tolist() == ["greedy"]
    call = fake_engine.calls[0]
    assert (call["seed"], call["threads"], call["policies"]) == (7, 2, ["random", "greedy"])
    assert call["rules"].options["target"] == 1500
    assert [c["game_start"] for c in fake_engine.calls] == [0, 10, 20]


def test_simulate_without_seed_draws_one_and_uses_default_out(tmp_path, fake_engine,
                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli.secrets, "randbelow", lambda n: 12345 if n == 900_000 else -1)
    result = invoke("simulate", "--games", "3")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "seed: 112345\n"
    assert fake_engine.calls[0]["policies"] == ["random", "random"]
    assert (tmp_path / "data" / "runs" / "ordinary-112345" / "manifest.json").is_file()
    assert len(read_run(tmp_path / "data" / "runs" / "ordinary-112345")["games"]) == 3


def test_a_drawn_seed_has_six_digits_so_its_folder_reads_easily():
    seeds = {cli.draw_seed() for _ in range(200)}
    assert all(100_000 <= s <= 999_999 for s in seeds) and len(seeds) > 150


def test_simulate_again_resumes_and_says_nothing_to_do(tmp_path, fake_engine):
    args = ("simulate", "--games", "4", "--seed", "3", "--out", str(tmp_path), "--no-progress")
    assert invoke(*args).exit_code == 0
    fake_engine.calls.clear()
    result = invoke(*args)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"games:  all 4 already in {tmp_path}; nothing to do"
    assert fake_engine.calls == []


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--games", "0"], "Invalid value for '--games': 0 is not in the range x>=1."),
    (["simulate", "--games", "-5"], "Invalid value for '--games': -5 is not in the range"),
    (["simulate", "--games", "many"], "Invalid value for '--games': 'many' is not a valid"),
    (["simulate", "--threads", "0"], "Invalid value for '--threads'"),
    (["simulate", "--shard-size", "0"], "Invalid value for '--shard-size'"),
    (["simulate", "--seed", "-1"], "Invalid value for '--seed'"),
    (["simulate", "--gmes", "4"], "No such option '--gmes'. Did you mean '--games'?"),
    (["simulate", "--policies", "clever"], "unknown policy 'clever'"),
    (["simulate", "--policies", "random,random,greedy"], "2 seats need 2 policies, got 3"),
    (["simulate", "--option", "target=lots"], "option target must be a whole number"),
    (["simulate", "--option", "target"], "option 'target' must look like name=value"),
    (["simulate", "--variant", "six_pak"], "unknown variant 'six_pak'; did you mean 'six_pack'?"),
    (["simulate", "--variant", "pinochle"], "unknown variant 'pinochle'"),
    (["simulate", "--option", "trumps=none"], "unknown option 'trumps'"),
    (["simulate", "--option", "stage2_duty=always"], "option stage2_duty='always' is not one of"),
    (["simulate", "--option", "target=0"], "option target=0 is out of range"),
    (["simulate", "--option", "rubicon_reuse=any_class"], "applies to rubicon"),
    (["options", "--variant", "pinochle"], "unknown variant 'pinochle'"),
    (["replay"], "replay needs --seed (the run's root seed), or --saved FILE"),
    (["replay", "--seed", "1", "--game", "-1"], "Invalid value for '--game'"),
    (["explain", "no-such-file.txt"], "File 'no-such-file.txt' does not exist."),
    (["options", "--variant", "nope"], "unknown variant 'nope'"),
    (["frobnicate"], "No such command 'frobnicate'."),
])
def test_user_errors_are_one_line(fake_engine, args, message):
    line = assert_one_line_error(invoke(*args))
    assert message in line
    assert fake_engine.calls == []


def test_different_run_in_out_dir(tmp_path, fake_engine):
    assert invoke("simulate", "--games", "4", "--seed", "7", "--out", str(tmp_path)).exit_code == 0
    line = assert_one_line_error(invoke("simulate", "--games", "4", "--seed", "5",
                                        "--out", str(tmp_path)))
    assert f"output directory {tmp_path} holds a different run (seed 7, not 5)" in line


def test_unwritable_out_names_the_path(tmp_path, fake_engine):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    line = assert_one_line_error(invoke("simulate", "--games", "4", "--seed", "1",
                                        "--out", str(blocker / "run")))
    assert f"cannot create output directory {blocker}/run" in line


def test_os_error_is_one_line_exit_1(monkeypatch, fake_engine):
    import bezsim.running.simulation

    def fail(*args, **kwargs):
        raise PermissionError(13, "Permission denied", "/srv/data")

    monkeypatch.setattr(bezsim.running.simulation, "run_simulation", fail)
    line = assert_one_line_error(invoke("simulate", "--seed", "1"), code=1)
    assert line == "bezsim: error: Permission denied: /srv/data"


def test_ctrl_c_keeps_shards_and_says_how_to_resume(tmp_path, fake_engine):
    fake_engine.interrupt_on_call = 1
    out = tmp_path / "run"
    result = invoke("simulate", "--games", "30", "--seed", "4", "--shard-size", "10",
                    "--out", str(out), "--no-progress")
    assert result.exit_code == 130
    assert result.stderr == (f"interrupted; finished shards are kept in {out} — "
                             f"resume with: bezsim simulate --resume {out}\n")
    assert (out / "games" / "part-000000.parquet").exists()


def test_resume_dir_finishes_an_interrupted_run_as_if_never_stopped(tmp_path, fake_engine):
    """Ctrl-C in the second shard, then --resume DIR: only the missing shards are played
    and every table equals an uninterrupted run's."""
    fake_engine.interrupt_on_call = 1
    out, whole = tmp_path / "run", tmp_path / "whole"
    args = ("--games", "30", "--seed", "4", "--shard-size", "10", "--no-progress")
    assert invoke("simulate", *args, "--out", str(out)).exit_code == 130
    fake_engine.interrupt_on_call = None
    fake_engine.calls.clear()
    result = invoke("simulate", "--resume", str(out), "--no-progress")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "games:  20 (10 already done)"
    assert [c["game_start"] for c in fake_engine.calls] == [10, 20]
    assert invoke("simulate", *args, "--out", str(whole)).exit_code == 0
    resumed, uninterrupted = read_run(out), read_run(whole)
    for name in ("hands", "games", "declarations"):
        assert resumed[name].equals(uninterrupted[name]), name


def test_resume_names_the_damaged_shards_it_plays_again(tmp_path, fake_engine):
    """A shard whose files are all missing was never written: played without a word. One
    with a file broken, from another shard, or missing beside its siblings was damaged: it
    is named on stderr with what was wrong with each of its files, then played again."""
    out = tmp_path / "run"
    args = ("--games", "50", "--seed", "4", "--shard-size", "10", "--no-progress")
    assert invoke("simulate", *args, "--out", str(out)).exit_code == 0
    part = "part-{:06d}.parquet".format
    (out / "games" / part(1)).write_bytes(b"PAR1 cut short")
    (out / "hands" / part(2)).write_bytes((out / "hands" / part(0)).read_bytes())
    (out / "declarations" / part(3)).unlink()
    for table in ("hands", "games", "declarations"):
        (out / table / part(4)).unlink()
    fake_engine.calls.clear()
    result = invoke("simulate", "--resume", str(out), "--no-progress")
    assert result.exit_code == 0, result.stderr
    assert [c["game_start"] for c in fake_engine.calls] == [10, 20, 30, 40]
    assert result.stderr.splitlines() == [
        f"played again, found damaged: shard 1 (games 10 to 19): {out}/games/{part(1)}: "
        "not a whole Parquet file",
        f"played again, found damaged: shard 2 (games 20 to 29): {out}/hands/{part(2)}: "
        "from another run or shard",
        f"played again, found damaged: shard 3 (games 30 to 39): {out}/declarations/"
        f"{part(3)}: missing"]
    assert result.stdout.splitlines()[0] == "games:  40 (10 already done)"


@pytest.mark.parametrize("extra, flag", [(["--games", "5"], "--games"),
                                         (["--seed", "2"], "--seed"),
                                         (["--option", "target=1500"], "--option"),
                                         (["--policies", "greedy"], "--policies")])
def test_resume_refuses_flags_the_run_fixes(tmp_path, fake_engine, extra, flag):
    assert invoke("simulate", "--games", "3", "--seed", "1", "--out", str(tmp_path / "r"),
                  "--no-progress").exit_code == 0
    line = assert_one_line_error(invoke("simulate", "--resume", str(tmp_path / "r"), *extra))
    assert f"{flag} cannot be combined with --resume" in line


def test_resume_needs_a_run_directory(tmp_path, fake_engine):
    line = assert_one_line_error(invoke("simulate", "--resume", str(tmp_path / "nothing")))
    assert "no such directory" in line
    line = assert_one_line_error(invoke("simulate", "--resume", str(tmp_path)))
    assert "holds no bezsim run (no manifest.json)" in line


def test_ctrl_c_without_seed_tells_the_seed(tmp_path, fake_engine, monkeypatch):
    fake_engine.interrupt_on_call = 0
    monkeypatch.setattr(cli.secrets, "randbelow", lambda n: 99)
    result = invoke("simulate", "--games", "3", "--out", str(tmp_path / "r"))
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [
        "seed: 100099",
        f"interrupted; finished shards are kept in {tmp_path / 'r'} — "
        f"resume with: bezsim simulate --resume {tmp_path / 'r'}"]


def test_replay_prints_transcript(monkeypatch, fake_engine):
    fake = types.ModuleType("bezsim.replay")
    fake.transcript = lambda rules, policies, seed, game: (
        f"{rules.variant} {rules.options['target']} {','.join(policies)} seed={seed} "
        f"game={game}\n")
    monkeypatch.setitem(sys.modules, "bezsim.replay", fake)
    result = invoke("replay", "--seed", "42", "--game", "3", "--policies", "greedy",
                    "--option", "target=2000")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "ordinary 2000 greedy,greedy seed=42 game=3\n"
    assert invoke("replay", "--seed", "42").stdout == "ordinary 1000 random,random seed=42 game=0\n"


@pytest.fixture
def fake_position(monkeypatch):
    class PositionError(BezsimError):
        pass

    def load_position(path):
        text = Path(path).read_text()
        if not text.startswith("hand:"):
            raise PositionError(f"{path}: line 1: expected 'hand:'\n  got {text[:10]!r}")
        return text

    fake = types.ModuleType("bezsim.position")
    fake.load_position = load_position
    fake.explain = lambda position: {"hand": position[5:].strip(), "legal": np.array([3, 9]),
                                     "best": np.int64(9)}
    fake.format_explanation = lambda d: f"hand {d['hand']}: play {d['best']}\n"
    monkeypatch.setitem(sys.modules, "bezsim.position", fake)


def test_explain_text_and_json(tmp_path, fake_position):
    file = tmp_path / "pos.txt"
    file.write_text("hand: Q♠ J♦")
    assert invoke("explain", str(file)).stdout == "hand Q♠ J♦: play 9\n"
    result = invoke("explain", str(file), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"hand": "Q♠ J♦", "legal": [3, 9], "best": 9}


def test_explain_bad_position_is_one_line(tmp_path, fake_position):
    file = tmp_path / "pos.txt"
    file.write_text("nonsense")
    line = assert_one_line_error(invoke("explain", str(file)))
    assert line == f"bezsim: error: {file}: line 1: expected 'hand:' got 'nonsense'"


def test_options_lists_values_and_defaults():
    result = invoke("options")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "options of ordinary (set with --option NAME=VALUE; docs/rules.md R9):"
    names = [line.split()[0] for line in lines[1::2]]
    rows = {name: (meaning.strip(), values.strip())
            for name, meaning, values in zip(names, lines[1::2], lines[2::2], strict=True)}
    assert rows["target"] == ("target                          The score that ends a game "
                              "(R2.6)", "1..10000  [default: 1000]")
    assert rows["stage2_duty"][1] == "follow_and_win, follow_only  [default: follow_and_win]"
    assert len(rows) == 11


def test_no_command_prints_help():
    result = invoke()
    assert result.exit_code == 0
    assert "simulate" in result.stdout and "replay" in result.stdout


def test_entry_point_in_a_real_process():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "bezsim", "simulate", "--games", "0"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == ("bezsim: error: Invalid value for '--games': 0 is not in the range "
                           "x>=1. (see 'bezsim simulate --help')\n")


SIMULATE_IMPORTS = """
import sys
from bezsim.cli import main
try:
    main(["simulate", "--games", "20", "--seed", "3", "--no-progress", "--out", sys.argv[1]])
except SystemExit as exit:
    assert exit.code in (0, None), exit.code
print(sorted(m for m in ("pandas", "scipy.stats", "matplotlib") if m in sys.modules))
"""


def test_simulate_never_imports_pandas(tmp_path):
    """Start-up (README "Start-up"): pandas' import is a fifth of a warm run's start-up and
    the write path needs only pyarrow, so a simulate run must not import it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", SIMULATE_IMPORTS, str(tmp_path / "run")],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"
    assert (tmp_path / "run" / "hands").is_dir()


def test_real_engine_same_seed_same_tables_for_any_threads_and_shards(tmp_path):
    """End to end through the real engine: --threads and --shard-size never change a table."""
    import pandas as pd

    common = ["simulate", "--games", "60", "--seed", "77", "--policies", "greedy,random",
              "--no-progress"]
    first = invoke(*common, "--threads", "1", "--out", str(tmp_path / "a"))
    second = invoke(*common, "--threads", "2", "--shard-size", "7", "--out", str(tmp_path / "b"))
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    a, b = read_run(tmp_path / "a"), read_run(tmp_path / "b")
    for name in ("hands", "games", "declarations"):
        assert len(a[name]) > 0
        pd.testing.assert_frame_equal(a[name].reset_index(drop=True),
                                      b[name].reset_index(drop=True))
    assert len(list((tmp_path / "b" / "hands").glob("*.parquet"))) == 9
    assert a["games"]["hands"].sum() == len(a["hands"]) // 2


def test_help_shows_no_raw_markup():
    """--help of the group and of every command is plain text: no Markdown or reST marks
    (backticks, ** or ::) from the docstrings and option texts."""
    commands = ["", *sorted(cli.cli.commands)]
    assert {"explain", "play", "replay", "simulate"} <= set(commands)
    for name in commands:
        result = CliRunner().invoke(cli.cli, [*([name] if name else []), "--help"])
        assert result.exit_code == 0, result.stderr
        for mark in ("`", "**", "::"):
            assert mark not in result.stdout, (name, mark)
