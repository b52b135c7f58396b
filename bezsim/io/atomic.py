"""Atomic file writes: a file appears whole under its name, or not at all, so an interrupted
run never leaves a half-written shard or manifest behind."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from bezsim.errors import OutputError

TMP_SUFFIX = ".tmp"


def write_atomically(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write`` on a hidden temporary file beside ``path``, sync it, rename it into place.
    An OSError becomes a one-line OutputError naming the path."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            write(handle)
            handle.flush()
            # the rename must never expose a file whose bytes are not yet on disk
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise
