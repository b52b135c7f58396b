"""Where a run lives: a local directory, or any fsspec URL (``s3://bucket/run``,
``gs://...``, ``file:///shared/run``, ``memory://run``) so that Dask workers on many machines
can write to one place. Local directories keep the fsync-and-rename writes of io/atomic.py;
other filesystems write a hidden temporary object and move it into place (a reader checks
every shard's footer anyway, so a torn object is redone on resume, never read as whole).
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from bezsim.errors import BezsimError, OutputError
from bezsim.io.atomic import TMP_SUFFIX, write_atomically


def is_url(target: str | os.PathLike) -> bool:
    return "://" in os.fspath(target)


class LocalStore:
    """A directory on this machine (or a shared mount every worker sees)."""

    def __init__(self, target: str | os.PathLike):
        self.root = os.fspath(target)

    def __str__(self) -> str:
        return self.root

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def has_entries(self, path: str) -> bool:
        return any(Path(path).iterdir())

    def makedirs(self, path: str) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)

    def read_bytes(self, path: str) -> bytes:
        return Path(path).read_bytes()

    def write_atomic(self, path: str, write: Callable[[BinaryIO], None]) -> None:
        write_atomically(Path(path), write)

    def open_read(self, path: str):
        return open(path, "rb")

    def stale_temporaries(self, folder: str) -> list[str]:
        return [str(p) for p in Path(folder).glob(f".part-*{TMP_SUFFIX}")]

    def names(self, folder: str) -> list[str]:
        """The entries of ``folder``, by name, sorted."""
        return sorted(os.listdir(folder))

    def remove(self, path: str) -> None:
        Path(path).unlink(missing_ok=True)

    def local_path(self) -> str:
        return os.path.abspath(self.root)


class FsspecStore:
    """Any filesystem fsspec knows, by URL."""

    def __init__(self, target: str):
        import fsspec

        self.url = target
        try:
            self.fs, self.root = fsspec.core.url_to_fs(target)
        except (ImportError, ValueError) as exc:
            raise BezsimError(f"cannot use output {target!r}: {exc}") from None
        self.protocol = target.split("://", 1)[0]

    def __str__(self) -> str:
        return self.url

    def path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    def exists(self, path: str) -> bool:
        return self.fs.exists(path)

    def isdir(self, path: str) -> bool:
        return self.fs.isdir(path)

    def has_entries(self, path: str) -> bool:
        return bool(self.fs.ls(path, detail=False))

    def makedirs(self, path: str) -> None:
        self.fs.makedirs(path, exist_ok=True)

    def read_bytes(self, path: str) -> bytes:
        return self.fs.cat_file(path)

    def write_atomic(self, path: str, write: Callable[[BinaryIO], None]) -> None:
        head, name = posixpath.split(path)
        tmp = posixpath.join(head, f".{name}.{os.getpid()}{TMP_SUFFIX}")
        try:
            self.fs.makedirs(head, exist_ok=True)
            with self.fs.open(tmp, "wb") as handle:
                write(handle)
            self.fs.mv(tmp, path)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                self.fs.rm(tmp)
            if isinstance(exc, OSError):
                raise OutputError(f"cannot write {self.url_of(path)}: {exc}") from exc
            raise

    def open_read(self, path: str):
        return self.fs.open(path, "rb")

    def stale_temporaries(self, folder: str) -> list[str]:
        return [p for p in self.fs.ls(folder, detail=False)
                if posixpath.basename(p).startswith(".part-") and p.endswith(TMP_SUFFIX)]

    def names(self, folder: str) -> list[str]:
        """The entries of ``folder``, by name, sorted."""
        return sorted(posixpath.basename(p.rstrip("/")) for p in self.fs.ls(folder, detail=False))

    def remove(self, path: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm(path)

    def url_of(self, path: str) -> str:
        return f"{self.protocol}://{path}"

    def local_path(self) -> str:
        return self.url


Store = LocalStore | FsspecStore


def store_for(target: Any) -> Store:
    """The store of a run directory or URL (a store passes through)."""
    if isinstance(target, (LocalStore, FsspecStore)):
        return target
    if not isinstance(target, (str, os.PathLike)):
        raise BezsimError(f"a run directory must be a path or URL, got {target!r}")
    if is_url(target) and not os.fspath(target).startswith("file://"):
        return FsspecStore(os.fspath(target))
    text = os.fspath(target)
    return LocalStore(text[len("file://"):] if text.startswith("file://") else text)
