"""The numba engine: integer arrays in, integer arrays out (DESIGN.md).

Numba's on-disk cache checks only the source file of each compiled function, so a kernel
cached in game.py would keep stale copies of functions from hand.py or melds.py after those
change. On import we hash every kernel source and drop the whole cache when the hash moves.
"""

import contextlib
import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
_KERNEL_DIRS = (_PACKAGE / "engine", _PACKAGE / "policies")


def _drop_stale_kernel_cache() -> None:
    digest = hashlib.sha256()
    for folder in _KERNEL_DIRS:
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    stamp = _KERNEL_DIRS[0] / "__pycache__" / "kernel-sources.sha256"
    with contextlib.suppress(OSError):
        if stamp.read_text() == digest.hexdigest():
            return
    with contextlib.suppress(OSError):
        for folder in _KERNEL_DIRS:
            for cached in (folder / "__pycache__").glob("*.nb[ic]"):
                cached.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())


_drop_stale_kernel_cache()
