"""Folders that refuse writes, for the tests of output places that cannot be written.

Permission bits do not stop root, so as root a folder is a tmpfs mounted read-only (writes
fail with "Read-only file system", as on a read-only disk), or where root may not mount, a
folder tree with the immutable attribute (chattr +i); as another user it is a folder tree
without write permission.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _refuses_writes(folder: Path) -> bool:
    try:
        (folder / "probe").write_bytes(b"x")
    except OSError:
        return True
    (folder / "probe").unlink()
    return False


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def _chattr(flag: str, paths: list[Path]) -> bool:
    try:
        done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True)
    except OSError:            # no chattr on this machine
        return False
    return done.returncode == 0


@pytest.fixture
def read_only_copy(tmp_path) -> Iterator[Callable[[Path | None, str], Path]]:
    """``make(source, name)``: a new read-only folder holding a copy of ``source`` (or
    nothing)."""
    mounted: list[Path] = []
    locked: list[Path] = []
    immutable: list[Path] = []

    def make(source: Path | None = None, name: str = "read-only") -> Path:
        folder = tmp_path / name
        folder.mkdir()
        root = os.geteuid() == 0
        if root and _mount("-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)):
            mounted.append(folder)
        if source is not None:
            shutil.copytree(source, folder, dirs_exist_ok=True)
        folders = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
        if mounted and mounted[-1] == folder:
            _mount("-o", "remount,ro", str(folder))
        elif root:
            if _chattr("+i", folders):
                immutable.extend(folders)
        else:
            for path in folders:
                path.chmod(0o555)
                locked.append(path)
        if not _refuses_writes(folder):
            pytest.skip("needs a folder that refuses writes, which root can make only with "
                        "permission to mount a file system or to set the immutable attribute")
        return folder

    try:
        yield make
    finally:
        for folder in mounted:
            subprocess.run(["umount", str(folder)], check=False)
        if immutable:
            _chattr("-i", immutable)
        for path in locked:
            path.chmod(0o755)


@pytest.fixture
def read_only_dir(read_only_copy) -> Path:
    """An empty folder that refuses writes."""
    return read_only_copy()
