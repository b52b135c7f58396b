"""Output places that cannot be written. Every command that writes probes its output (a file
created and removed) before any game: a read-only folder is one line, exit 2, within
seconds, nothing played. A disk that fails once the work is done keeps the work in a new
folder and says where, and never suggests a command that cannot work."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from bezsim.cli import cli
from bezsim.errors import OutputError
from bezsim.io.writable import (
    KeptElsewhere,
    UnwritableError,
    check_writable_dir,
    check_writable_file,
    write_or_keep,
)

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "samples" / "ordinary"
BIG = "1000000"      # games enough that playing any of them would take far longer than 5 s


def _bezsim(*args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bezsim", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)
    return done, time.perf_counter() - began


def _one_line_exit_2(done: subprocess.CompletedProcess, seconds: float, fragment: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("bezsim: error: "), done.stderr
    assert fragment in lines[0], lines[0]
    assert "resume" not in lines[0]
    assert done.stdout == ""
    assert seconds < 5, f"refused after {seconds:.1f} s"


# --- the probe --------------------------------------------------------------------------------

def test_the_probe_leaves_no_trace(tmp_path):
    check_writable_dir(tmp_path / "a" / "b")
    assert list(tmp_path.iterdir()) == []        # the folders it made are gone again
    (tmp_path / "run").mkdir()
    check_writable_dir(tmp_path / "run")
    assert list((tmp_path / "run").iterdir()) == []


def test_the_probe_refuses_a_read_only_folder_and_below_it(read_only_dir):
    with pytest.raises(UnwritableError, match=f"cannot write to output directory "
                                              f"{read_only_dir}: "):
        check_writable_dir(read_only_dir)
    with pytest.raises(UnwritableError, match=f"cannot create output directory "
                                              f"{read_only_dir}/a/b: "):
        check_writable_dir(read_only_dir / "a" / "b")
    with pytest.raises(UnwritableError, match="cannot write to the folder of the saved game"):
        check_writable_file(read_only_dir / "g.json", "the saved game")


def test_the_probe_refuses_a_file_where_a_folder_should_be(tmp_path):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(UnwritableError, match="exists and is not a folder"):
        check_writable_dir(tmp_path / "file.txt")
    with pytest.raises(UnwritableError, match="Not a directory"):
        check_writable_dir(tmp_path / "file.txt" / "run")
    with pytest.raises(UnwritableError, match="it is a folder"):
        check_writable_file(tmp_path, "the saved game")


# --- refused before any game: every command that writes ---------------------------------------

@pytest.mark.parametrize("below", ["", "sub/run"])
def test_simulate_refuses_a_read_only_out(read_only_dir, below):
    out = read_only_dir / below if below else read_only_dir
    done, seconds = _bezsim("simulate", "--games", BIG, "--seed", "1", "--out", str(out),
                            "--no-progress")
    verb = "create" if below else "write to"
    _one_line_exit_2(done, seconds, f"cannot {verb} output directory {out}")


def test_a_whole_run_in_a_read_only_place_needs_nothing_written(read_only_copy, tmp_path):
    """Running a finished run again writes nothing, so a read-only place is no obstacle;
    a run with a shard left to play there is refused before it is played."""
    import shutil

    partial_source = tmp_path / "partial-source"
    shutil.copytree(SAMPLE, partial_source)
    (partial_source / "games" / "part-000000.parquet").unlink()
    whole = read_only_copy(SAMPLE, "whole")
    partial = read_only_copy(partial_source, "partial")
    done, _ = _bezsim("simulate", "--resume", str(whole), "--no-progress")
    assert done.returncode == 0 and "already in" in done.stdout, done.stderr
    done, seconds = _bezsim("simulate", "--resume", str(partial), "--no-progress")
    _one_line_exit_2(done, seconds, f"cannot write to output directory {partial}")


def test_tournament_refuses_a_read_only_out(read_only_dir):
    done, seconds = _bezsim("tournament", "--policies", "random,greedy", "--games", BIG,
                            "--seed", "1", "--out", str(read_only_dir / "t"), "--no-progress")
    _one_line_exit_2(done, seconds, f"cannot create output directory {read_only_dir}/t")


def test_tune_refuses_a_read_only_out(read_only_dir):
    done, seconds = _bezsim("tune", "--policy", "heuristic", "--against", "random",
                            "--deals", BIG, "--seed", "1", "--out", str(read_only_dir),
                            "--no-progress")
    _one_line_exit_2(done, seconds, f"cannot write to output directory {read_only_dir}")


def test_report_refuses_a_read_only_out(read_only_dir):
    done, seconds = _bezsim("report", str(SAMPLE), "--out", str(read_only_dir))
    _one_line_exit_2(done, seconds, f"cannot write to report output directory {read_only_dir}")


@pytest.mark.parametrize("save", ["g.json", "games/g.json"])
def test_play_refuses_a_read_only_save_before_the_game(read_only_dir, save):
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bezsim", "play", "--seed", "3", "--save",
                           str(read_only_dir / save)], input="1\n1\n1\n", capture_output=True,
                          text=True, timeout=120)
    seconds = time.perf_counter() - began
    verb = "create" if "/" in save else "write to"
    _one_line_exit_2(done, seconds, f"cannot {verb} the folder of the saved game")


def test_play_with_its_default_save_place_read_only_is_refused(read_only_dir):
    done, seconds = _bezsim("play", "--seed", "3", cwd=read_only_dir)
    _one_line_exit_2(done, seconds, "cannot create the folder of the saved game data/games")


def test_a_game_whose_save_fails_at_the_end_is_kept_elsewhere(tmp_path, monkeypatch):
    """The disk refuses the save once the game is left: the game goes to a new folder, and
    the error says how to continue it from there."""
    from bezsim.rules import Rules
    from bezsim.step.play import play_terminal
    from bezsim.step.step_game import StepGame

    target = tmp_path / "g.json"
    real = StepGame.save

    def save(self, path):
        if Path(path) == target:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(self, path)

    monkeypatch.setattr(StepGame, "save", save)
    answers = iter(["1", "1", "q"])
    with pytest.raises(KeptElsewhere) as info:
        play_terminal(Rules.make("ordinary"), "greedy", 4, save=target,
                      read=lambda prompt: next(answers), write=lambda line: None)
    kept = info.value.kept
    assert str(info.value) == (f"cannot write {target}: No space left on device; the game "
                               f"kept in {kept}; continue it with: bezsim play --load {kept}")
    again = StepGame.load(kept)
    assert not again.over and len(again._script) == 2


def test_a_study_refuses_a_read_only_report_folder(read_only_dir, tmp_path):
    began = time.perf_counter()
    done = subprocess.run([sys.executable, str(REPO / "analyses" / "leading_first.py"),
                           "--out", str(read_only_dir), "--runs", str(tmp_path / "runs")],
                          capture_output=True, text=True, timeout=120)
    assert time.perf_counter() - began < 5
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"analyses/leading_first.py: error: cannot write to report directory {read_only_dir}: ")
    assert not (tmp_path / "runs").exists()


# --- a failure after the work keeps the work --------------------------------------------------

def test_write_or_keep_puts_the_work_in_a_new_folder(read_only_dir):
    def write(where: Path) -> Path:
        where.mkdir(parents=True, exist_ok=True)
        (where / "result.json").write_text('{"wins": 7}')
        return where

    with pytest.raises(KeptElsewhere) as info:
        write_or_keep(write, read_only_dir / "out", "the results")
    kept = info.value.kept
    assert json.loads((kept / "result.json").read_text()) == {"wins": 7}
    message = str(info.value)
    assert message.startswith(f"cannot write {read_only_dir}/out: ")
    assert message.endswith(f"; the results kept in {kept}")


def test_write_or_keep_keeps_a_file_under_its_name(read_only_dir):
    with pytest.raises(KeptElsewhere) as info:
        write_or_keep(lambda path: path.write_text("game"), read_only_dir / "g.json",
                      "the game", is_file=True)
    assert info.value.kept.name == "g.json" and info.value.kept.read_text() == "game"


def test_a_tournament_whose_disk_fails_after_the_games_keeps_its_table(tmp_path, monkeypatch,
                                                                      fake_engine):
    from bezsim import tournament as tour

    out = tmp_path / "t"
    real = tour.write_tournament

    def failing(frame, where, description):
        if Path(where) == out:
            raise OutputError(f"cannot write {out}/tournament.parquet: "
                              f"{errno.errorcode[errno.EROFS]}")
        return real(frame, where, description)

    monkeypatch.setattr(tour, "write_tournament", failing)
    result = CliRunner().invoke(cli, ["tournament", "--policies", "random,greedy", "--games",
                                      "6", "--seed", "3", "--out", str(out), "--no-progress"])
    assert result.exit_code == 1
    assert "tournament: ordinary, 6 deals per pair" in result.stdout   # shown before writing
    line = result.stderr.strip()
    assert line.startswith(f"bezsim: error: cannot write {out}/tournament.parquet")
    kept = Path(line.rsplit(" kept in ", 1)[1])
    frame = pd.read_parquet(kept / tour.PARQUET_NAME)
    expected = tour.run_tournament(tour.Rules.make("ordinary"), ["random", "greedy"], 6, 3)
    pd.testing.assert_frame_equal(frame, expected)


def test_a_simulate_write_failure_without_a_run_suggests_no_resume(tmp_path, monkeypatch,
                                                                   fake_engine):
    import bezsim.running.simulation

    def fail(out, manifest):
        raise OutputError(f"cannot write {out}/manifest.json: No space left on device")

    monkeypatch.setattr(bezsim.running.simulation, "write_manifest", fail)
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["simulate", "--games", "4", "--seed", "1", "--out",
                                      str(out), "--no-progress"])
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"bezsim: error: cannot write {out}/manifest.json: No "
                                     f"space left on device; no run was written to {out}")


def test_a_tuning_whose_disk_fails_keeps_the_checkpoint(read_only_dir):
    from bezsim import tune

    setup = tune.TuneSetup("ordinary", (), "heuristic", ("random",), 2, 5, 1, 2, 0.5,
                           ("declare_win",))
    state = {"setup": {}, "generation": 1, "best": {"spec": "heuristic", "values": {},
                                                     "fitness": 0.5, "one_hand": False}}
    with pytest.raises(KeptElsewhere) as info:
        tune._persist(read_only_dir, setup, state, "bezsim tune ...")
    kept = info.value.kept
    assert (kept / tune.CHECKPOINT).is_file()
    assert json.loads((kept / tune.BEST).read_text())["fitness"] == 0.5
    assert str(info.value).endswith(f"(go on from there with the same settings and --out "
                                    f"{kept})")


def test_a_continued_game_whose_save_fails_leaves_the_file_it_came_from(tmp_path,
                                                                        monkeypatch):
    """A game taken up with --load saves over its own file: the save is whole or not at all,
    so a disk that fails then leaves the earlier save as it was, and the game goes on to a
    new folder."""
    import os

    import bezsim.io.atomic
    from bezsim.rules import Rules
    from bezsim.step.play import continue_terminal, play_terminal
    from bezsim.step.step_game import StepGame

    path = tmp_path / "g.json"
    first = iter(["1", "q"])
    play_terminal(Rules.make("ordinary"), "greedy", 6, save=path,
                  read=lambda prompt: next(first), write=lambda line: None)
    before = path.read_bytes()
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst) == path:
            raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(bezsim.io.atomic.os, "replace", replace)
    second = iter(["1", "q"])
    with pytest.raises(KeptElsewhere) as info:
        continue_terminal(path, read=lambda prompt: next(second), write=lambda line: None)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]       # no temporary left
    assert len(StepGame.load(path)._script) == 1
    assert len(StepGame.load(info.value.kept)._script) == 2
    assert str(info.value).endswith(f"continue it with: bezsim play --load {info.value.kept}")
