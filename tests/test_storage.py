"""Runs written to an fsspec URL (an output every Dask worker can reach): the same
tables as a local directory, resumable, damaged shards redone."""

from __future__ import annotations

import fsspec
import pytest

from bezsim.errors import BezsimError
from bezsim.io.reader import read_run
from bezsim.io.shards import shard_paths
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

RULES = Rules.make("polish", {})
POLICIES = ["random", "greedy"]


@pytest.fixture
def memory_url():
    fs = fsspec.filesystem("memory")
    url = "memory://bezsim-tests/run"
    yield url
    if fs.exists("/bezsim-tests"):
        fs.rm("/bezsim-tests", recursive=True)


def test_a_run_on_an_fsspec_url_equals_the_local_run(tmp_path, memory_url):
    run_simulation(RULES, POLICIES, 8, 24, tmp_path / "local", threads=1, shard_size=10,
                   progress=False)
    summary = run_simulation(RULES, POLICIES, 8, 24, memory_url, threads=1, shard_size=10,
                             progress=False)
    assert summary.shards_run == 3 and summary.out_dir == memory_url
    local, remote = read_run(tmp_path / "local"), read_run(memory_url)
    for name in ("hands", "games", "declarations"):
        assert remote[name].equals(local[name]), name
    fs = fsspec.filesystem("memory")
    names = sorted(p.rsplit("/", 1)[1] for p in fs.ls("/bezsim-tests/run/hands", detail=False))
    assert names == ["part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]

    # resume on the URL: a missing shard and a truncated one are redone, the rest kept
    paths = shard_paths(memory_url, 1)
    fs.rm(paths["games"])
    broken = shard_paths(memory_url, 2)["declarations"]
    fs.pipe_file(broken, fs.cat_file(broken)[:100])
    again = run_simulation(RULES, POLICIES, 8, 24, memory_url, threads=1, shard_size=10,
                           progress=False)
    assert (again.shards_run, again.shards_skipped) == (2, 1)
    remote = read_run(memory_url)
    for name in ("hands", "games", "declarations"):
        assert remote[name].equals(local[name]), name


def test_a_url_holding_another_run_is_refused(memory_url):
    run_simulation(RULES, POLICIES, 8, 4, memory_url, threads=1, progress=False)
    with pytest.raises(BezsimError, match="holds a different run \\(seed 8, not 9\\)"):
        run_simulation(RULES, POLICIES, 9, 4, memory_url, threads=1, progress=False)


def test_file_urls_are_local_directories(tmp_path):
    run_simulation(RULES, POLICIES, 3, 5, f"file://{tmp_path}/r", threads=1, progress=False)
    assert (tmp_path / "r" / "manifest.json").is_file()
    assert len(read_run(tmp_path / "r")["games"]) == 5
