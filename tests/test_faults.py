"""Faults: damaged shard files, a disk that stops taking writes, a Dask worker
killed mid-run, and user policies that break the contract. Each ends either in the tables
of an uninterrupted run or in one clear line that names the cause, and never costs a shard
that was finished. (kill -9 of a local run: tests/test_kill_resume.py.)"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.errors import BezsimError
from bezsim.io.manifest import read_manifest
from bezsim.io.reader import read_run
from bezsim.io.shards import shard_complete, shard_metadata, shard_paths
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

TESTS = Path(__file__).resolve().parent
RUN = ["--games", "40", "--seed", "3", "--shard-size", "10", "--threads", "1",
       "--policies", "random", "--no-progress"]          # four shards of ten games


def invoke(*args: str):
    return CliRunner().invoke(cli.cli, list(args), prog_name="bezsim")


def same_tables(a: Path, b: Path) -> None:
    left, right = read_run(a), read_run(b)
    for name in ("hands", "games", "declarations"):
        assert left[name].equals(right[name]), name
    assert len(left["games"]) > 0


def complete(out: Path, index: int) -> bool:
    """Shard ``index`` of the run in ``out`` is whole, by the test resume itself uses."""
    manifest = read_manifest(out)
    identity = {key: manifest[key] for key in ("bezsim_version", "rules", "policies", "seed",
                                               "games", "shard_size")}
    size = manifest["shard_size"]
    n = min(size, manifest["games"] - index * size)
    return shard_complete(out, index, shard_metadata(identity, index, index * size, n))


def temporaries(out: Path) -> list[Path]:
    return [p for p in out.rglob("*") if p.name.endswith(".tmp")]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The uninterrupted run every damaged one must come back to."""
    out = tmp_path_factory.mktemp("whole") / "run"
    assert invoke("simulate", *RUN, "--out", str(out)).exit_code == 0
    return out


# --- damaged shard files --------------------------------------------------------------------

def _garbage(size: int, seed: int) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "garbage, same size":
        path.write_bytes(_garbage(len(data), 1))
    elif how == "garbage, other size":
        path.write_bytes(_garbage(3 * len(data) + 17, 2))
    elif how == "garbage between Parquet magic":
        # looks like Parquet at both ends, so only reading the footer can tell
        path.write_bytes(b"PAR1" + _garbage(len(data) - 8, 3) + b"PAR1")
    elif how == "truncated":
        path.write_bytes(data[: len(data) * 2 // 3])
    elif how == "another shard's file":
        path.write_bytes(path.with_name("part-000003.parquet").read_bytes())
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("rerun", ["--resume", "same command"])
def test_damaged_shards_are_detected_and_redone_from_the_cli(tmp_path, whole, rerun):
    """Shards 0-2 each get one damaged file (garbage of the same or another size, garbage
    with Parquet's magic bytes, a truncation, another shard's file); resuming the run, or
    running the same command again, plays exactly those shards again, and the tables equal
    the uninterrupted run's."""
    out = tmp_path / "run"
    assert invoke("simulate", *RUN, "--out", str(out)).exit_code == 0
    damages = {0: [("hands", "garbage, same size"), ("declarations", "truncated")],
               1: [("games", "garbage, other size")],
               2: [("declarations", "garbage between Parquet magic"),
                   ("hands", "another shard's file")]}
    for index, files in damages.items():
        for table, how in files:
            damage(shard_paths(out, index)[table], how)
        assert not complete(out, index)
    assert complete(out, 3)
    kept = shard_paths(out, 3)["games"].stat().st_mtime_ns

    args = ["--resume", str(out)] if rerun == "--resume" else [*RUN, "--out", str(out)]
    done = invoke("simulate", *args)
    assert done.exit_code == 0, done.output
    assert "games:  30 (10 already done)" in done.stdout
    assert shard_paths(out, 3)["games"].stat().st_mtime_ns == kept    # not rewritten
    same_tables(out, whole)


def test_a_run_begun_by_other_code_is_read_but_not_finished(tmp_path, whole):
    """A fix to the engine or a policy changes games without changing a run's rules,
    policies or seed, so a run with games left to play is refused (one line, exit 2,
    nothing written) unless the code that began it finishes it; a finished run is fine."""
    import shutil

    from bezsim.compile_cache import kernel_digest

    for stored, shown in (("0123456789abcdef", "0123456789abcdef"), (None, "unrecorded")):
        out = tmp_path / shown
        shutil.copytree(whole, out)
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["kernels"] == kernel_digest()
        manifest["kernels"] = stored
        if stored is None:
            del manifest["kernels"]
        (out / "manifest.json").write_text(json.dumps(manifest))
        finished = invoke("simulate", "--resume", str(out))
        assert finished.exit_code == 0 and "all 40 already in" in finished.stdout, finished.output
        shard_paths(out, 1)["games"].unlink()
        done = invoke("simulate", "--resume", str(out))
        assert done.exit_code == 2
        assert done.output.strip() == (
            f"bezsim: error: output directory {out} holds a run begun by other engine or "
            f"policy code (kernel sources {shown}, not {kernel_digest()}): finish it with the "
            "bezsim that began it, or play it again in another directory")
        assert not shard_paths(out, 1)["games"].exists()


def test_a_byte_damaged_inside_a_file_is_found_by_its_page_checksum(tmp_path, whole):
    """One byte flipped in the middle of a shard file leaves its footer readable, so only the
    page checksums (written with every shard) show it: reading the run is one clear error
    naming the table, and resuming plays that shard again."""
    from bezsim.io.shards import read_shard_metadata

    out = tmp_path / "run"
    assert invoke("simulate", *RUN, "--out", str(out)).exit_code == 0
    path = shard_paths(out, 2)["hands"]
    chunk = pq.read_metadata(path).row_group(0).column(0)
    data = bytearray(path.read_bytes())
    # the chunk's last bytes are page data, not a page header: only a checksum can tell
    data[chunk.data_page_offset + chunk.total_compressed_size - 3] ^= 0xFF
    path.write_bytes(bytes(data))
    assert read_shard_metadata(path) is not None           # the footer still reads
    assert not complete(out, 2) and complete(out, 1)
    with pytest.raises(BezsimError, match=r"cannot read the hands table .*CRC.*--resume") as err:
        read_run(out)
    assert "\n" not in str(err.value)
    done = invoke("simulate", "--resume", str(out))
    assert done.exit_code == 0, done.output
    assert "games:  10 (30 already done)" in done.stdout
    same_tables(out, whole)


# --- the output disk stops taking writes ----------------------------------------------------

# Run the CLI in a child whose Parquet write of one file (table FAIL_TABLE of shard FAIL_SHARD)
# fails, as a full (or read-only) disk would: the failing write gets half a file out first.
# The writer's two threads write a shard's files in no fixed order, so the failure is named
# by file, not by its place in the order. The child records which thread wrote each file.
FAILING_DISK = """
import errno, json, os, sys, threading
import pyarrow.parquet as pq
from bezsim.cli import main

real_write = pq.write_table
code = getattr(errno, os.environ["ERRNO"])
target = (os.environ["FAIL_TABLE"], int(os.environ["FAIL_SHARD"]))

def table_of(table):
    names = set(table.column_names)
    return "games" if "first_dealer" in names else "hands" if "tricks_won" in names \\
        else "declarations"

def write_table(table, where, **kwargs):
    with open(os.environ["THREADS_LOG"], "a") as log:
        log.write(threading.current_thread().name + "\\n")
    shard = json.loads(table.schema.metadata[b"bezsim"])["shard"]["index"]
    if (table_of(table), shard) == target:
        where.write(b"PAR1 and then the disk was full")
        raise OSError(code, os.strerror(code))
    real_write(table, where, **kwargs)

pq.write_table = write_table
main(sys.argv[1:])
"""


@pytest.mark.parametrize("code", ["ENOSPC", "EROFS"])
def test_disk_failing_mid_run_is_one_line_and_keeps_finished_shards(tmp_path, whole, code):
    """The disk fails on the games file of shard 2. The run ends at once with one line naming
    the file and the reason, exit non-zero, no traceback; shards 0 and 1 are whole and
    readable, shard 2 left no games file under its finished name and no temporary; every
    write ran on a writer thread. Shard 3 is whole or absent: its writes may have been queued
    before shard 2's failed (two shards' writes may be pending, runner.WRITE_DEPTH), and a
    queued write is finished, never cut. --resume then completes the run to the uninterrupted
    tables."""
    out, log = tmp_path / "run", tmp_path / "threads.log"
    env = dict(os.environ, FAIL_TABLE="games", FAIL_SHARD="2", ERRNO=code,
               THREADS_LOG=str(log))
    done = subprocess.run([sys.executable, "-c", FAILING_DISK, "simulate", *RUN, "--out",
                           str(out)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 1        # the environment failed, not the input (usage: 2)
    lines = done.stderr.strip().splitlines()
    games2 = shard_paths(out, 2)["games"]
    assert lines == [f"bezsim: error: cannot write {games2}: {os.strerror(getattr(errno, code))}"
                     f"; finished shards are kept — resume with: bezsim simulate --resume {out}"
                     ], done.stderr
    assert done.stdout == ""
    names = log.read_text().split()
    assert len(names) in (9, 12) and all(n.startswith("bezsim-writer") for n in names), names

    for index in (0, 1):
        assert complete(out, index)
        for path in shard_paths(out, index).values():
            assert pq.read_table(path).num_rows > 0
    assert not complete(out, 2) and not games2.exists()
    shard3 = [path.exists() for path in shard_paths(out, 3).values()]
    assert shard3 == [len(names) == 12] * 3 and complete(out, 3) == (len(names) == 12)
    assert temporaries(out) == []

    resumed = invoke("simulate", "--resume", str(out))
    assert resumed.exit_code == 0, resumed.output
    done_before = 30 if len(names) == 12 else 20
    assert f"games:  {40 - done_before} ({done_before} already done)" in resumed.stdout
    same_tables(out, whole)


def test_a_failed_write_stops_the_computing_shard_between_engine_calls(tmp_path, fake_engine,
                                                                      rules, monkeypatch):
    """The writer thread fails on shard 0 while the main thread computes shard 1 in small
    engine calls: the error surfaces at the next call boundary (not after the whole shard,
    and not never), as the write's own one-line error."""
    import bezsim.running.shard_work as shard_work

    monkeypatch.setattr(shard_work, "COMPUTE_CHUNK", 2)
    monkeypatch.setattr(shard_work, "CHUNK_SECONDS", 0.0)     # every engine call plays 2 games
    failed = threading.Event()

    def full_disk(table, where, **kwargs):
        failed.set()
        raise OSError(errno.ENOSPC, "No space left on device")

    def wait_for_the_failure(call):
        if call["game_start"] == 10:          # the first call of shard 1
            assert failed.wait(10)
            time.sleep(0.2)                   # the writer's future is marked failed

    monkeypatch.setattr(pq, "write_table", full_disk)
    fake_engine.on_call = wait_for_the_failure
    with pytest.raises(BezsimError, match=r"cannot write .*part-000000\.parquet: No space"):
        run_simulation(rules, ["random", "random"], 1, 30, tmp_path / "run", shard_size=10,
                       progress=False)
    starts = [c["game_start"] for c in fake_engine.calls]
    assert starts == [0, 2, 4, 6, 8, 10], starts         # shard 1 stopped after one call
    assert temporaries(tmp_path / "run") == []


# --- a Dask worker killed mid-run -----------------------------------------------------------

def test_a_dask_worker_killed_mid_shard_does_not_change_the_result(tmp_path):
    """Two worker processes; SIGKILL the one running a shard task while it runs. Dask
    reschedules the task (the scheduler's log shows it processing twice), the run completes,
    and the tables equal a local run's."""
    distributed = pytest.importorskip("distributed", reason="Dask is an optional extra")
    rules, policies = Rules.make("ordinary", {"target": 600}), ["greedy", "random"]
    run_simulation(rules, policies, 21, 120, tmp_path / "local", threads=1, shard_size=30,
                   progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        result: dict = {}

        def run() -> None:
            try:
                result["summary"] = run_simulation(
                    rules, policies, 21, 120, tmp_path / "dask", threads=1, shard_size=30,
                    progress=False, dask=cluster.scheduler_address)
            except BaseException as exc:        # reported by the assertions below
                result["error"] = exc

        runner = threading.Thread(target=run)
        runner.start()
        victim = _worker_running_a_shard(client, runner)
        assert victim is not None, result
        address, key = victim
        os.kill(pids[address], signal.SIGKILL)
        runner.join(timeout=120)
        assert not runner.is_alive() and "error" not in result, result
        story = cluster.scheduler.story(key)
    assert (result["summary"].shards_run, result["summary"].games_run) == (4, 120)
    assert sum(1 for event in story if event[2] == "processing") >= 2, story
    same_tables(tmp_path / "dask", tmp_path / "local")


def _worker_running_a_shard(client, runner: threading.Thread) -> tuple[str, str] | None:
    """(worker address, task key) of a shard task running now; None if the run ended."""
    deadline = time.monotonic() + 60
    while runner.is_alive() and time.monotonic() < deadline:
        running = client.run(lambda dask_worker: [str(ts.key) for ts in
                                                  dask_worker.state.executing])
        for address, keys in running.items():
            shards = [k for k in keys if k.startswith("bezsim-shard-")]
            if shards:
                return address, shards[0]
        time.sleep(0.02)
    return None


# --- user policies that break the contract --------------------------------------------------

PLUGIN_ERRORS = [
    ("user_policies_for_tests:out_of_range",
     "policy 'user_policies_for_tests:out_of_range' (seat 0) chose an action outside the "
     "ones offered in game 0"),
    ("user_policies_for_tests:raises",
     "policy 'user_policies_for_tests:raises' (seat 0) raised ValueError in game 0: this "
     "policy always fails"),
    ("user_policies_for_tests:not_compiled",
     "policy 'user_policies_for_tests:not_compiled' is not an @njit function"),
]


@pytest.mark.xdist_group("external")
@pytest.mark.parametrize("spec, message", PLUGIN_ERRORS, ids=["illegal", "raises", "not-njit"])
def test_a_plugin_breaking_the_contract_is_one_line_naming_it(tmp_path, spec, message,
                                                              monkeypatch):
    """From the CLI and from Python: one line that names the policy (and its seat), exit
    non-zero, no traceback, and no numba tracebacks printed along the way."""
    monkeypatch.syspath_prepend(str(TESTS))
    with pytest.raises(BezsimError) as caught:
        run_simulation(Rules.make("ordinary", {}), [spec, "random"], 1, 4, tmp_path / "api",
                       progress=False)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS),
                                                       os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "bezsim", "simulate", "--policies",
                           f"{spec},random", "--games", "4", "--seed", "1", "--no-progress",
                           "--out", str(tmp_path / "cli")], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [f"bezsim: error: {caught.value}"], done.stderr



@pytest.mark.xdist_group("external")
def test_a_fault_is_named_in_its_first_game_even_when_that_game_also_outgrew_its_rows(
        monkeypatch):
    """The engine sizes a game's event rows from the games it played before in the process;
    a game that both broke the contract and ran out of rows is still the faulty one (the
    fault is not overwritten by the overflow flag), whatever ran earlier."""
    from bezsim.engine_api import games as api

    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setattr(api, "_capacities", lambda params, hand_cap: (hand_cap, 4))
    with pytest.raises(api.PolicyFault, match=r"in game 0$"):
        api.run_games(Rules.make("ordinary", {}), ["user_policies_for_tests:out_of_range",
                                                   "random"], 1, 0, 4)

@pytest.mark.xdist_group("external")
@pytest.mark.parametrize("plugin, how", [
    ("user_policies_for_tests:raises_at_double_bezique",
     "raised RuntimeError in game {game}: no double bezique, please"),
    ("user_policies_for_tests:illegal_at_double_bezique",
     "chose an action outside the ones offered in game {game}"),
], ids=["raises", "illegal"])
def test_a_plugin_failing_in_a_later_shard_keeps_the_shards_before(tmp_path, plugin, how,
                                                                   monkeypatch):
    """The plug-in plays at random until it is first offered a double bezique (with seed 2,
    in the third shard), then raises or answers outside the offer. The error names it, its
    seat and that game; every shard before that game's is on disk, whole, and holds exactly
    its games; none from that game's shard on was written."""
    monkeypatch.syspath_prepend(str(TESTS))
    rules, out, size = Rules.make("ordinary", {}), tmp_path / "run", 20
    with pytest.raises(BezsimError) as caught:
        run_simulation(rules, ["random", plugin], 2, 120, out, threads=2, shard_size=size,
                       progress=False)
    game = int(str(caught.value).rsplit("in game ", 1)[1].split(":")[0])
    assert str(caught.value) == f"policy '{plugin}' (seat 1) " + how.format(game=game)
    assert game >= 2 * size, f"the fault came too early to test anything: game {game}"
    failed = game // size
    assert all(complete(out, k) for k in range(failed))
    assert not any(shard_paths(out, k)["games"].exists() for k in range(failed, 6))
    kept = read_run(out)
    assert kept["games"]["game_id"].tolist() == list(range(failed * size))
    assert (kept["games"]["policy_1"] == plugin).all()
    # until its fault the plug-in plays as the built-in random does (same stream, same rule)
    clean = tmp_path / "clean"
    run_simulation(rules, ["random", "random"], 2, failed * size, clean, shard_size=size,
                   progress=False)
    for name, table in read_run(clean).items():
        policy = [c for c in table.columns if c.startswith("policy")]
        assert table.drop(columns=policy).equals(kept[name].drop(columns=policy)), name
    assert json.loads((out / "manifest.json").read_text())["policies"] == ["random", plugin]


@pytest.mark.xdist_group("external")
def test_with_two_plugins_the_error_names_the_one_at_fault(tmp_path, monkeypatch):
    """A well-behaved plug-in at seat 0 and a raising one at seat 1: the replay that names
    the seat runs seat 0's plug-in clamped, and blames seat 1 only."""
    monkeypatch.syspath_prepend(str(TESTS))
    policies = ["user_policies_for_tests:greedy_copy", "user_policies_for_tests:raises"]
    with pytest.raises(BezsimError, match=r"^policy 'user_policies_for_tests:raises' \(seat 1\) "
                                          r"raised ValueError in game 0: this policy always"):
        run_simulation(Rules.make("ordinary", {}), policies, 1, 4, tmp_path / "run",
                       progress=False)
