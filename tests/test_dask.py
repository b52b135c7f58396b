"""Runs on Dask: the shards as tasks on a LocalCluster give the same tables as a local
run, and a Dask run resumes a directory with missing and damaged shards."""

from __future__ import annotations

import shutil

import pytest

from bezsim.io.reader import read_run
from bezsim.io.shards import shard_paths
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

distributed = pytest.importorskip("distributed", reason="Dask is an optional extra: "
                                  "pip install 'bezsim[dask]'")

RULES = Rules.make("ordinary", {"target": 600})
POLICIES = ["greedy", "random"]


def _same_tables(a, b) -> None:
    left, right = read_run(a), read_run(b)
    for name in ("hands", "games", "declarations"):
        assert left[name].equals(right[name]), name
    assert len(left["games"]) > 0


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "run"
    run_simulation(RULES, POLICIES, 21, 90, out, threads=1, shard_size=30, progress=False)
    return out


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster


def test_a_dask_cluster_run_equals_the_local_run(tmp_path, local_run, cluster):
    """Two worker processes share the three shards (scheduler address, as for a remote
    cluster): the tables equal the local run's, row for row."""
    out = tmp_path / "dask"
    summary = run_simulation(RULES, POLICIES, 21, 90, out, threads=1, shard_size=30,
                             progress=False, dask=cluster.scheduler_address)
    assert (summary.shards_run, summary.games_run) == (3, 90)
    _same_tables(out, local_run)


def test_dask_local_resumes_missing_and_damaged_shards(tmp_path, local_run):
    """--dask local on a copy of the run with shard 1 deleted and shard 2's hands file cut
    in half: only those two shards run again, and the tables are whole and equal."""
    out = tmp_path / "copy"
    shutil.copytree(local_run, out)
    for path in shard_paths(out, 1).values():
        path.unlink()
    hands2 = shard_paths(out, 2)["hands"]
    hands2.write_bytes(hands2.read_bytes()[: hands2.stat().st_size // 2])
    summary = run_simulation(RULES, POLICIES, 21, 90, out, threads=1, shard_size=30,
                             progress=False, dask="local")
    assert (summary.shards_run, summary.shards_skipped) == (2, 1)
    _same_tables(out, local_run)


def test_a_wrong_scheduler_address_is_one_clear_error(tmp_path):
    from bezsim.errors import BezsimError

    with pytest.raises(BezsimError, match="--dask takes 'local' or a scheduler address"):
        run_simulation(RULES, POLICIES, 1, 2, tmp_path / "r", dask="my-cluster")
    assert not (tmp_path / "r").exists()          # refused before anything was written


def test_cli_dask_local_runs_and_a_bad_target_is_one_line(tmp_path, local_run):
    from click.testing import CliRunner

    from bezsim.cli import cli

    runner = CliRunner()
    done = runner.invoke(cli, ["simulate", "--dask", "local", "--games", "90", "--seed", "21",
                               "--shard-size", "30", "--threads", "1", "--policies",
                               "greedy,random", "--option", "target=600", "--no-progress",
                               "--out", str(tmp_path / "cli")])
    assert done.exit_code == 0, done.output
    _same_tables(tmp_path / "cli", local_run)
    bad = runner.invoke(cli, ["simulate", "--dask", "somewhere", "--games", "2", "--seed", "1",
                              "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2
    assert bad.stderr.strip().startswith("bezsim: error: --dask takes 'local'")
    assert len(bad.stderr.strip().splitlines()) == 1
