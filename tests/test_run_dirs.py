"""Run directories hold what bezsim wrote and maybe more: readers take only its shard files,
a resume says what it ignored, and a damaged shard names the command that repairs it."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.analysis.seats import position_points
from bezsim.errors import BezsimError
from bezsim.io.reader import read_run, read_shards, read_table
from bezsim.io.shards import foreign_files, table_files


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


@pytest.fixture
def run_dir(tmp_path):
    out = tmp_path / "run"
    result = invoke("simulate", "--games", "30", "--seed", "4", "--shard-size", "10",
                    "--policies", "random,greedy", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    return out


def test_a_stray_file_is_ignored_by_readers_and_named_by_resume(run_dir):
    before = read_run(run_dir)
    (run_dir / "hands" / "notes.txt").write_text("my notes on this run")
    (run_dir / "games" / "part-000001.parquet.bak").write_bytes(b"an editor's copy")
    (run_dir / "games" / ".hidden").write_text("skipped by every Parquet reader")
    assert table_files(run_dir, "hands")[1] == ["hands/notes.txt"]
    assert foreign_files(run_dir) == ["hands/notes.txt", "games/part-000001.parquet.bak"]
    assert [p.rsplit("/", 1)[-1] for p in table_files(run_dir, "games")[0]] == [
        "part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]

    after = read_run(run_dir)
    for name in before:
        pd.testing.assert_frame_equal(before[name], after[name])
    assert len(read_shards(run_dir, "games", columns=["game_id"])) == 30
    points, players, partners = position_points(run_dir)       # an analysis reader
    assert (points.shape, players, partners) == ((len(before["hands"]) // 2, 2), 2, False)

    result = invoke("simulate", "--resume", str(run_dir), "--no-progress")
    assert result.exit_code == 0, result.output
    assert "nothing to do" in result.stdout
    ignored = [line for line in result.stderr.splitlines() if line.startswith("ignored:")]
    assert len(ignored) == 2
    assert ignored[0].startswith(f"ignored: hands/notes.txt in {run_dir} (not a file bezsim "
                                 "wrote")
    assert "games/part-000001.parquet.bak" in ignored[1]


def test_a_fresh_run_reports_nothing_ignored(run_dir):
    result = invoke("simulate", "--resume", str(run_dir), "--no-progress")
    assert result.exit_code == 0 and result.stderr == ""


def test_a_damaged_shard_names_the_resume_command(run_dir):
    shard = run_dir / "declarations" / "part-000001.parquet"
    data = bytearray(shard.read_bytes())
    data[len(data) // 3: len(data) // 3 + 64] = bytes(64)      # pages hit, footer intact
    shard.write_bytes(bytes(data))
    with pytest.raises(BezsimError) as caught:
        read_table(run_dir, "declarations")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"cannot read the declarations table of {run_dir}: ")
    assert message.endswith(f"`bezsim simulate --resume {run_dir}` plays damaged shards "
                            "again")
    repaired = invoke("simulate", "--resume", str(run_dir), "--no-progress")
    assert repaired.exit_code == 0, repaired.output
    assert "games:  10 (20 already done)" in repaired.stdout
    assert len(read_table(run_dir, "declarations")) > 0


def test_a_folder_without_shards_is_not_a_table(tmp_path):
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "notes.txt").write_text("no shards here")
    with pytest.raises(BezsimError, match="no hands table in"):
        read_table(tmp_path, "hands")
