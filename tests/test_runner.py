"""runner: shard planning, resume, determinism, overlap of compute and write, errors."""

from __future__ import annotations

import json
import threading

import pandas as pd
import pyarrow.parquet as pq
import pytest

from bezsim.errors import BezsimError
from bezsim.io import shards
from bezsim.io.reader import read_run
from bezsim.io.tables import batch_to_tables
from bezsim.rules import Rules
from bezsim.running import shard_work
from bezsim.running import simulation as runner

POLICIES = ["random", "greedy"]


def _run(rules, out, games=50, shard_size=20, seed=11, **kwargs):
    return runner.run_simulation(rules, POLICIES, seed, games, out, shard_size=shard_size,
                                 progress=False, **kwargs)


def _assert_same_run(a, b):
    for name in ("hands", "games", "declarations"):
        pd.testing.assert_frame_equal(a[name], b[name])


def test_plan_shards():
    Shard = shard_work.Shard
    assert shard_work.plan_shards(45, 20) == [Shard(0, 0, 20), Shard(1, 20, 20),
                                              Shard(2, 40, 5)]
    assert shard_work.plan_shards(3, 20000) == [shard_work.Shard(0, 0, 3)]


def test_run_writes_every_game_once(tmp_path, fake_engine, rules):
    summary = _run(rules, tmp_path / "run", threads=2)
    calls = [(c["game_start"], c["n_games"], c["threads"], c["seed"]) for c in fake_engine.calls]
    assert calls == [(0, 20, 2, 11), (20, 20, 2, 11), (40, 10, 2, 11)]
    tables = read_run(tmp_path / "run")
    assert tables["games"]["game_id"].tolist() == list(range(50))
    expected = batch_to_tables(fake_engine.batch(rules, POLICIES, 11, 0, 50), POLICIES)
    pd.testing.assert_frame_equal(tables["games"], expected["games"].to_pandas())
    pd.testing.assert_frame_equal(tables["hands"], expected["hands"].to_pandas())
    hands = int(expected["games"].column("hands").to_numpy().sum())
    assert (summary.games, summary.games_run, summary.games_skipped) == (50, 50, 0)
    assert (summary.shards_run, summary.shards_skipped) == (3, 0)
    assert summary.hands == hands
    assert summary.elapsed > 0
    assert summary.hands_per_second == pytest.approx(hands / summary.elapsed)
    assert summary.out_dir == str(tmp_path / "run")


def test_tables_do_not_depend_on_shard_size_threads_or_chunking(tmp_path, fake_engine, rules,
                                                                monkeypatch):
    _run(rules, tmp_path / "a", games=37, shard_size=37, threads=1)
    monkeypatch.setattr(shard_work, "COMPUTE_CHUNK", 4)
    monkeypatch.setattr(shard_work, "CHUNK_SECONDS", 0.0)     # every call at the fewest games
    _run(rules, tmp_path / "b", games=37, shard_size=10, threads=1)
    assert len(list((tmp_path / "b" / "hands").glob("*.parquet"))) == 4
    # 10-game shards computed in chunks of 4, 4, 2
    assert [c["n_games"] for c in fake_engine.calls[1:4]] == [4, 4, 2]
    _assert_same_run(read_run(tmp_path / "a"), read_run(tmp_path / "b"))


def test_calls_are_sized_from_the_measured_rate():
    """A quick call makes the next one as large as CHUNK_SECONDS allows; a slow one keeps
    the minimum, so a slow policy still moves the progress bar and hears Ctrl-C."""
    sizer = shard_work.ChunkSizer()
    assert sizer.games == shard_work.COMPUTE_CHUNK
    sizer.took(sizer.games, 0.01)
    assert sizer.games == int(shard_work.COMPUTE_CHUNK / 0.01 * shard_work.CHUNK_SECONDS)
    sizer.took(sizer.games, 6000.0)
    assert sizer.games == shard_work.COMPUTE_CHUNK


def test_interrupted_run_resumes_to_the_same_tables(tmp_path, fake_engine, rules):
    fake_engine.interrupt_on_call = 2        # Ctrl-C while computing the third shard
    with pytest.raises(KeyboardInterrupt):
        _run(rules, tmp_path / "cut", shard_size=10)
    done = [k for k in range(5) if shards.shard_complete(
        tmp_path / "cut", k, shards.shard_metadata(
            _identity(rules, 50, 10), k, 10 * k, 10))]
    assert done == [0, 1]                    # the shard being written when Ctrl-C came is kept
    assert not list((tmp_path / "cut").rglob(".*.tmp"))

    fake_engine.interrupt_on_call = None
    fake_engine.calls.clear()
    summary = _run(rules, tmp_path / "cut", shard_size=10)
    assert [c["game_start"] for c in fake_engine.calls] == [20, 30, 40]
    assert (summary.games_run, summary.games_skipped, summary.shards_skipped) == (30, 20, 2)

    _run(rules, tmp_path / "whole", shard_size=10)
    _assert_same_run(read_run(tmp_path / "cut"), read_run(tmp_path / "whole"))


def _identity(rules, games, shard_size, seed=11):
    from bezsim.io.manifest import run_identity

    return run_identity(rules, POLICIES, seed, games, shard_size)


def test_resume_recomputes_only_broken_shards(tmp_path, fake_engine, rules):
    _run(rules, tmp_path, shard_size=10)
    (tmp_path / "declarations" / "part-000003.parquet").write_bytes(b"not parquet")
    fake_engine.calls.clear()
    summary = _run(rules, tmp_path, shard_size=10)
    assert [c["game_start"] for c in fake_engine.calls] == [30]
    assert summary.games_skipped == 40
    fake_engine.calls.clear()
    again = _run(rules, tmp_path, shard_size=10)
    assert fake_engine.calls == [] and again.games_run == 0 and again.hands == 0


def test_other_run_in_out_dir_is_refused(tmp_path, fake_engine, rules):
    _run(rules, tmp_path, seed=11)
    with pytest.raises(BezsimError, match=r"holds a different run \(seed 11, not 12\)"):
        _run(rules, tmp_path, seed=12)
    with pytest.raises(BezsimError, match=r"\(games 50, not 60\)"):
        _run(rules, tmp_path, games=60)


def test_write_of_shard_k_overlaps_compute_of_the_next_shards(tmp_path, fake_engine, rules,
                                                                monkeypatch):
    """Shard 0's tables are written (by the writer's threads, one group of tables each)
    while shards 1 and 2 are computed, and no write of shard k starts before those of
    shard k - WRITE_DEPTH are done: memory holds at most WRITE_DEPTH + 1 shards."""
    assert runner.WRITE_DEPTH == 2
    third_compute = threading.Event()
    overlapped, in_flight, most, groups, finished, early = [], [], [0], [], set(), []
    lock = threading.Lock()
    real_write = runner.write_tables

    def slow_write(out, shard, batch, policies, identity, names):
        with lock:
            if any((shard.index - runner.WRITE_DEPTH, group) not in finished
                   for group in runner.WRITE_GROUPS if shard.index >= runner.WRITE_DEPTH):
                early.append(shard.index)
            in_flight.append(shard.index)
            most[0] = max(most[0], len(set(in_flight)))
            groups.append((shard.index, names))
        if shard.index == 0:
            overlapped.append(third_compute.wait(timeout=5))
        real_write(out, shard, batch, policies, identity, names)
        with lock:
            in_flight.remove(shard.index)
            finished.add((shard.index, names))

    fake_engine.on_call = lambda call: call["game_start"] == 20 and third_compute.set()
    monkeypatch.setattr(runner, "write_tables", slow_write)
    _run(rules, tmp_path, games=50, shard_size=10)
    assert overlapped == [True, True] and most[0] == 2 and early == []
    assert sorted(groups) == sorted((k, names) for k in range(5)
                                    for names in (("declarations",), ("hands", "games")))
    assert len(read_run(tmp_path)["games"]) == 50


def test_progress_bar_stays_off_when_stderr_is_not_a_terminal(tmp_path, fake_engine, rules,
                                                              capsys):
    runner.run_simulation(rules, POLICIES, 1, 5, tmp_path, shard_size=2, progress=True)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"games": 0}, "games must be at least 1, got 0"),
    ({"games": -4}, "games must be at least 1, got -4"),
    ({"shard_size": 0}, "shard size must be at least 1, got 0"),
    ({"threads": 0}, "threads must be between 1 and"),
    ({"seed": -1}, "seed must be a whole number from 0 to"),
    ({"seed": 2**63}, "seed must be a whole number from 0 to"),
])
def test_bad_input_is_a_one_line_error(tmp_path, fake_engine, rules, kwargs, message):
    args = {"games": 10, "shard_size": 5, "seed": 1} | kwargs
    threads = args.pop("threads", None)
    with pytest.raises(BezsimError) as err:
        runner.run_simulation(rules, POLICIES, args["seed"], args["games"], tmp_path / "x",
                              threads=threads, shard_size=args["shard_size"], progress=False)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert fake_engine.calls == [] and not (tmp_path / "x").exists()


def test_wrong_number_of_policies(tmp_path, fake_engine, rules):
    with pytest.raises(BezsimError, match="2 seats need 2 policies, got 3"):
        runner.run_simulation(rules, ["random"] * 3, 1, 10, tmp_path, progress=False)


def test_unwritable_output_names_the_path(tmp_path, fake_engine, rules):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(BezsimError, match=f"cannot create output directory {blocker}/run"):
        _run(rules, blocker / "run")


def test_overflowed_game_stops_the_run_and_is_not_written(tmp_path, fake_engine, rules):
    fake_engine.overflow_games = {23}
    with pytest.raises(RuntimeError, match=r"game\(s\) 23 overflowed"):
        _run(rules, tmp_path, shard_size=10)
    assert (tmp_path / "games" / "part-000001.parquet").exists()
    assert not (tmp_path / "games" / "part-000002.parquet").exists()


def test_rules_reach_the_engine_and_manifest(tmp_path, fake_engine):
    rules = Rules.make("ordinary", {"target": 1500})
    _run(rules, tmp_path, games=4)
    assert fake_engine.calls[0]["rules"].options["target"] == 1500
    assert fake_engine.calls[0]["policies"] == POLICIES
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["rules"]["options"]["target"] == 1500
    assert manifest["policies"] == POLICIES and manifest["seed"] == 11


@pytest.mark.parametrize("variant", ["three_handed", "polish"])
def test_a_shard_played_in_several_engine_calls_is_the_same_shard(tmp_path, monkeypatch,
                                                                  variant):
    """The real engine: a shard whose games come from calls of 3 games each (batches cut
    to different widths, written as chunks of one table) has the same tables, and the
    same number of row groups, as a shard played in one call."""
    rules = Rules.make(variant)
    policies = ["random"] * rules.players
    runner.run_simulation(rules, policies, 5, 20, tmp_path / "one", shard_size=20,
                          progress=False)
    monkeypatch.setattr(shard_work, "COMPUTE_CHUNK", 3)
    monkeypatch.setattr(shard_work, "CHUNK_SECONDS", 0.0)
    runner.run_simulation(rules, policies, 5, 20, tmp_path / "many", shard_size=20,
                          progress=False)
    one, many = read_run(tmp_path / "one"), read_run(tmp_path / "many")
    _assert_same_run(one, many)
    assert len(one["games"]) == 20 and len(one["declarations"]) > 100
    for name in ("hands", "games", "declarations"):
        files = [shards.shard_paths(tmp_path / run, 0)[name] for run in ("one", "many")]
        assert {pq.ParquetFile(f).metadata.num_row_groups for f in files} == {1}
