"""Where the compiled kernels are cached.

Numba's on-disk cache checks only the source file of each compiled function, so a kernel
cached in game_loop.py would keep stale copies of functions from hand.py or offers.py after
those change. So the cache lives in a directory named by a hash of every kernel source: a
change to any of them starts a fresh cache, and a process still running older sources writes
only to the older directory (dropping a shared cache on change was not enough: such a process
could save stale kernels into it afterwards).

The kernel sources are whole folders, ``KERNEL_FOLDERS``: every module in them, subfolders
included, counts (a module of declarations, such as a policy's weights, fixes the constants
its kernels compile with), and nothing compiled lives anywhere else (tests/test_layers.py
checks both). The Python front doors (bezsim/engine_api, bezsim/policy_specs) sit outside,
so editing them keeps the compiled cache; so does this module, which only places it.
"""


import contextlib
import functools
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
KERNEL_FOLDERS = ("engine", "policies", "env_kernels")
_VERSIONS_KEPT = 3     # other processes may still be using a recent older version
COMPILE_ALL = "BEZSIM_COMPILE_ALL"


def compile_all() -> bool:
    """Whether every run compiles one engine, for every variant, every built-in policy and
    the function slots (``BEZSIM_COMPILE_ALL=1``), instead of only what its variant and
    seats use: a longer first compile that then serves every run, which suits switching
    between many variants and policies (the test suite does)."""
    return os.environ.get(COMPILE_ALL, "") not in ("", "0")


def kernel_sources() -> list[Path]:
    """Every source file of the kernel folders, in a fixed order."""
    sources = [source for folder in KERNEL_FOLDERS
               for source in (_PACKAGE / folder).rglob("*.py")]
    return sorted(sources, key=lambda p: p.relative_to(_PACKAGE).as_posix())


@functools.cache
def kernel_digest() -> str:
    """A hash of every kernel source, read once: the sources this process compiles from,
    even if the files change while it runs."""
    digest = hashlib.sha256()
    for source in kernel_sources():
        digest.update(source.relative_to(_PACKAGE).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _prune(base: Path, keep: str) -> None:
    """Remove all but the newest few versioned cache directories under ``base``."""
    with contextlib.suppress(OSError):
        olds = sorted((p for p in base.iterdir() if p.is_dir() and p.name != keep),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in olds[_VERSIONS_KEPT - 1:]:
            shutil.rmtree(old, ignore_errors=True)


def cache_bases() -> list[Path]:
    """Where versioned caches may live, in the order tried: ``$NUMBA_CACHE_DIR/bezsim``
    when that is set, beside the installed package, then the user's cache folder."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    return ([Path(user) / "bezsim"] if user else []) + [
        _PACKAGE / "__pycache__" / "numba-cache", Path.home() / ".cache" / "bezsim-numba"]


def _holds_kernels(path: Path) -> bool:
    return path.is_dir() and any(path.rglob("*.nbi"))


def _seed_from(target: Path, others: list[Path]) -> None:
    """A cache that holds nothing yet takes the kernels already compiled for these very
    sources in a place this process cannot write (an install made read-only after its
    kernels were compiled beside it): copied once, they load instead of compiling again. A
    place it can write is left alone: it would have been chosen, unless the user chose
    another with NUMBA_CACHE_DIR."""
    if _holds_kernels(target):
        return
    for other in others:
        if _holds_kernels(other) and not _writable(other):
            print(f"copying the kernels compiled for this version of bezsim from {other} "
                  f"to {target} (once)…", file=sys.stderr, flush=True)
            with contextlib.suppress(OSError):
                shutil.copytree(other, target, dirs_exist_ok=True)
            return


def use_versioned_cache_dir() -> None:
    """Point numba's cache at the directory of this version of the kernels' sources, in the
    first place of ``cache_bases`` this process can write, seeded from any other place that
    holds this version's kernels."""
    from numba.core import config

    digest = kernel_digest()
    bases = cache_bases()
    for base in bases:
        path = base / digest
        if _writable(path):
            _seed_from(path, [other / digest for other in bases if other != base])
            config.CACHE_DIR = str(path)
            os.utime(path)
            _prune(base, digest)
            return
    # no writable place: numba's own locators decide (kernels may compile every run)
