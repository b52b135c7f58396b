"""Can a command write where it was told to? Asked before any game is played, so that a
read-only, full or mistyped output place costs one line and exit 2, never a finished run.

The only sure test is to write: the probe creates the missing folders, creates and removes a
small file in the target folder, then removes the folders it created, leaving the place as
it found it. Permission bits say nothing for root, and a read-only mount shows only on write.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bezsim.errors import BezsimError, OutputError

T = TypeVar("T")

PROBE_PREFIX = ".bezsim-probe-"


class UnwritableError(BezsimError):
    """The output place cannot be written: refused before any work (exit 2)."""


class KeptElsewhere(OutputError):
    """The output place failed after the work was done; ``kept`` is where it went instead."""

    def __init__(self, message: str, kept: Path) -> None:
        super().__init__(message)
        self.kept = kept


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def check_writable_dir(directory: str | os.PathLike, what: str = "output directory") -> None:
    """Raise UnwritableError unless a file can be created in ``directory`` (a local path or an
    fsspec URL), which need not exist yet; nothing is left behind either way."""
    text = os.fspath(directory)
    if "://" in text and not text.startswith("file://"):
        _check_url(text, what)
        return
    if text.startswith("file://"):
        text = text[len("file://"):]
    path = Path(text)
    created: list[Path] = []
    try:
        if path.exists() and not path.is_dir():
            raise UnwritableError(f"cannot write to {what} {path}: it exists and is not a "
                                  "folder")
        missing = [p for p in (path, *path.parents) if not p.exists()]
        for folder in reversed(missing):
            try:
                folder.mkdir()
            except OSError as exc:
                raise UnwritableError(f"cannot create {what} {path}: {_reason(exc)} "
                                      f"({folder})") from None
            created.append(folder)
        probe = path / f"{PROBE_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
        with open(probe, "wb") as handle:
            handle.write(b"bezsim")
        probe.unlink()
    except OSError as exc:
        raise UnwritableError(f"cannot write to {what} {path}: {_reason(exc)}") from None
    finally:
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                folder.rmdir()


def check_writable_file(file: str | os.PathLike, what: str = "file") -> None:
    """Raise UnwritableError unless ``file`` can be written: its folder takes a new file, and
    the file, if it exists, is a file that can be opened for writing (it is left unchanged)."""
    path = Path(file)
    if path.is_dir():
        raise UnwritableError(f"cannot write {what} {path}: it is a folder")
    check_writable_dir(path.parent if str(path.parent) else Path("."), f"the folder of {what}")
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as exc:
            raise UnwritableError(f"cannot write {what} {path}: {_reason(exc)}") from None


def _check_url(url: str, what: str) -> None:
    try:
        import fsspec

        fs, root = fsspec.core.url_to_fs(url)
        probe = posixpath.join(root, f"{PROBE_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}")
        fs.makedirs(root, exist_ok=True)
        with fs.open(probe, "wb") as handle:
            handle.write(b"bezsim")
        fs.rm(probe)
    except (ImportError, ValueError, OSError) as exc:
        raise UnwritableError(f"cannot write to {what} {url}: {exc}") from None


def write_or_keep(write: Callable[[Path], T], target: str | os.PathLike, what: str,
                  is_file: bool = False) -> T:
    """``write(target)``; if the disk refuses it (work already done, say a finished
    tournament), ``write`` into a new folder of the system's temporary directory instead and
    raise OutputError naming both places, so the work is never lost to the output path.
    ``target`` is a folder, or (``is_file``) a file whose name is kept in the new folder."""
    target = Path(target)
    try:
        return write(target)
    except (OSError, OutputError) as exc:    # atomic writes turn an OSError into OutputError
        failure = str(exc) if isinstance(exc, OutputError) else (
            f"cannot write {target}: {_reason(exc)}")
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"bezsim-{target.stem or 'output'}-"))
        kept = folder / target.name if is_file else folder
        write(kept)
    except (OSError, OutputError) as exc:
        why = str(exc) if isinstance(exc, OutputError) else _reason(exc)
        raise OutputError(f"{failure}; could not keep {what} elsewhere either ({why})"
                          ) from None
    raise KeptElsewhere(f"{failure}; {what} kept in {kept}", kept)
