"""A real run killed with SIGKILL in the middle: every shard it finished is kept,
``bezsim simulate --resume DIR`` plays only the rest, and the tables equal an uninterrupted
run's with the same seed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from bezsim.io.reader import read_run
from bezsim.io.shards import shard_paths

ARGS = ["--games", "60000", "--seed", "5", "--shard-size", "2000", "--threads", "1",
        "--no-progress"]


def _bezsim(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bezsim", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def test_kill_9_then_resume_gives_the_uninterrupted_tables(tmp_path):
    out = tmp_path / "killed"
    proc = _bezsim("simulate", *ARGS, "--out", str(out))
    deadline = time.monotonic() + 300
    # a shard's three files are written by two threads in no fixed order: wait for them all
    while not all(path.exists() for path in shard_paths(out, 1).values()):   # two shards
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no shard written in 300 s"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = sum(all(path.exists() for path in shard_paths(out, k).values())
                      for k in range(30))
    assert 2 <= done_before < 30, f"{done_before} shards finished before the kill"

    resumed = _bezsim("simulate", "--resume", str(out))
    stdout, stderr = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, stderr
    assert f"({done_before * 2000:,} already done)" in stdout
    whole = _bezsim("simulate", *ARGS, "--out", str(tmp_path / "whole"))
    assert whole.wait(timeout=600) == 0, whole.stderr.read()
    left, right = read_run(out), read_run(tmp_path / "whole")
    for name in ("hands", "games", "declarations"):
        assert left[name].equals(right[name]), name
    assert len(left["games"]) == 60000
