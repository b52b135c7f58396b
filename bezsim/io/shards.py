"""One shard = three Parquet files (hands, games, declarations) for a range of game ids.

Each file is written under a hidden temporary name in its final folder and renamed into
place, so a reader (or a resumed run) only ever sees whole files; the hidden prefix also
keeps leftovers of a crash out of ``pandas.read_parquet(DIR/hands)``.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from bezsim.io.atomic import TMP_SUFFIX, write_atomically
from bezsim.io.schema import TABLE_NAMES

METADATA_KEY = "bezsim"


def shard_name(index: int) -> str:
    # zero-padded so that file order is game order
    return f"part-{index:06d}.parquet"


def shard_paths(out_dir: str | os.PathLike, index: int) -> dict[str, Path]:
    """Final paths of the three files of shard ``index``."""
    return {name: Path(out_dir) / name / shard_name(index) for name in TABLE_NAMES}


def shard_metadata(identity: dict[str, Any], index: int, game_start: int,
                   n_games: int) -> dict[str, Any]:
    """What a shard's files carry: the run they belong to and the games they hold."""
    return {"run": identity,
            "shard": {"index": index, "game_start": game_start, "n_games": n_games}}


def write_shard(out_dir: str | os.PathLike, index: int, tables: dict[str, pa.Table],
                metadata: dict[str, Any]) -> None:
    """Write the three tables of one shard atomically, config JSON in each file's metadata."""
    from bezsim.io.manifest import library_versions

    text = json.dumps({**metadata, "versions": library_versions()}, sort_keys=True,
                      ensure_ascii=False)
    paths = shard_paths(out_dir, index)
    for name in TABLE_NAMES:
        table = tables[name].replace_schema_metadata({METADATA_KEY: text})
        _write_atomic(table, paths[name])


def _write_atomic(table: pa.Table, path: Path) -> None:
    write_atomically(path, lambda handle: pq.write_table(table, handle, compression="zstd"))


def read_shard_metadata(path: str | os.PathLike) -> tuple[dict[str, Any], int] | None:
    """(bezsim metadata, row count) from a file's footer, or None if it is missing or broken."""
    try:
        meta = pq.read_metadata(path)
        raw = (meta.metadata or {}).get(METADATA_KEY.encode())
        if raw is None:
            return None
        return json.loads(raw), meta.num_rows
    except (OSError, ValueError, pa.ArrowException):
        return None


def shard_complete(out_dir: str | os.PathLike, index: int,
                   expected: dict[str, Any]) -> bool:
    """True when all three files exist, their footers read, and they hold the expected
    run and game range (``expected`` as made by ``shard_metadata``)."""
    # compare JSON forms so tuples and lists, or int subclasses, do not differ
    want = json.loads(json.dumps(expected, sort_keys=True))
    for name, path in shard_paths(out_dir, index).items():
        found = read_shard_metadata(path)
        if found is None or any(found[0].get(key) != want[key] for key in ("run", "shard")):
            return False
        if name == "games" and found[1] != want["shard"]["n_games"]:
            return False
    return True


def remove_stale_temporaries(out_dir: str | os.PathLike) -> int:
    """Delete temporary files an interrupted run left behind; returns how many."""
    removed = 0
    for name in TABLE_NAMES:
        folder = Path(out_dir) / name
        if not folder.is_dir():
            continue
        for tmp in folder.glob(f".part-*{TMP_SUFFIX}"):
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed += 1
    return removed
