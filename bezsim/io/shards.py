"""One shard = three Parquet files (hands, games, declarations) for a range of game ids.

Each file is written under a hidden temporary name in its final folder and renamed into
place, so a reader (or a resumed run) only ever sees whole files; the hidden prefix also
keeps leftovers of a crash out of ``pandas.read_parquet(DIR/hands)``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from bezsim.io.schema import TABLE_KEYS, TABLE_NAMES
from bezsim.io.storage import LocalStore, store_for

METADATA_KEY = "bezsim"
SHARD_FILE = re.compile(r"part-\d{6,}\.parquet")    # shard_name's pattern


def shard_name(index: int) -> str:
    # zero-padded so that file order is game order
    return f"part-{index:06d}.parquet"


def table_files(out_dir: str | os.PathLike, name: str) -> tuple[list[str], list[str]]:
    """The shard files of table ``name``, in game order, and the other visible entries of
    its folder (``name/notes.txt``), which bezsim's readers skip. Hidden files (a write in
    progress) are neither: every Parquet reader skips them."""
    store = store_for(out_dir)
    folder = store.path(name)
    if not store.isdir(folder):
        return [], []
    entries = store.names(folder)
    shards = [store.path(name, e) for e in entries if SHARD_FILE.fullmatch(e)]
    others = [f"{name}/{e}" for e in entries
              if not SHARD_FILE.fullmatch(e) and not e.startswith((".", "_"))]
    return shards, others


def foreign_files(out_dir: str | os.PathLike) -> list[str]:
    """Visible files in the run's table folders that bezsim did not write (``table_files``)."""
    return [other for name in TABLE_NAMES for other in table_files(out_dir, name)[1]]


def shard_paths(out_dir: str | os.PathLike, index: int) -> dict[str, Path | str]:
    """Final paths of the three files of shard ``index`` (Paths for a local directory, paths
    within the filesystem for a URL: bezsim/io/storage.py)."""
    store = store_for(out_dir)
    paths = {name: store.path(name, shard_name(index)) for name in TABLE_NAMES}
    if isinstance(store, LocalStore):
        return {name: Path(path) for name, path in paths.items()}
    return paths


def shard_metadata(identity: dict[str, Any], index: int, game_start: int,
                   n_games: int) -> dict[str, Any]:
    """What a shard's files carry: the run they belong to and the games they hold."""
    return {"run": identity,
            "shard": {"index": index, "game_start": game_start, "n_games": n_games}}


def write_shard(out_dir: str | os.PathLike, index: int, tables: dict[str, pa.Table],
                metadata: dict[str, Any]) -> None:
    """Write the three tables of one shard atomically, config JSON in each file's metadata."""
    for name in TABLE_NAMES:
        write_shard_table(out_dir, index, name, tables[name], metadata)


def write_shard_table(out_dir: str | os.PathLike, index: int, name: str, table: pa.Table,
                      metadata: dict[str, Any]) -> None:
    """Write one of a shard's three files atomically: a shard is complete once all three
    are (``shard_complete``), so they may be written in any order or at the same time."""
    from bezsim.io.manifest import library_versions

    text = json.dumps({**metadata, "versions": library_versions()}, sort_keys=True,
                      ensure_ascii=False)
    store = store_for(out_dir)
    table = table.replace_schema_metadata({METADATA_KEY: text})
    store.write_atomic(str(store.path(name, shard_name(index))),
                       lambda handle: pq.write_table(table, handle,
                                                     **parquet_options(table.schema,
                                                                       TABLE_KEYS[name])))


def parquet_options(schema: pa.Schema, keys: tuple[str, ...]) -> dict[str, Any]:
    """How a shard's files are encoded (content never depends on it: bezsim/io/digest.py).
    The writer shares the cores with the engine, so every microsecond it spends on a hand is
    taken from the engine; figures are the write alone, per hand of random play.

    * integer columns BYTE_STREAM_SPLIT (Parquet 2.11; pyarrow >= 16 reads it) rather than
      dictionary-encoded, and non-null columns REQUIRED (io/schema.py): ordinary 1.23 -> 0.69
      us, Polish 3.83 -> 2.50, Rubicon 1.42 -> 0.74, with files no larger. Dictionary-typed
      (string) columns keep their dictionaries;
    * lz4 rather than zstd: 0.69 -> 0.50 us (Polish 2.50 -> 1.97), files 1.7 times larger
      (ordinary 23.5 -> 41 bytes a hand). That took the whole simulate path of ordinary from
      0.68 to 0.72-0.75 of the engine's rate. To archive a run smaller, rewrite its files
      with zstd (docs: Simulate);
    * min/max statistics only on the key columns, which readers filter on: on every column
      they cost 13% of the write;
    * page checksums, so a resumed run finds a file damaged inside with its footer intact.
    """
    dictionary = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    split = {f.name: "BYTE_STREAM_SPLIT" for f in schema if pa.types.is_integer(f.type)}
    return {"compression": "lz4", "write_statistics": list(keys),
            "write_page_checksum": True, "use_dictionary": dictionary,
            "column_encoding": split}


def read_shard_metadata(path: str | os.PathLike,
                        store=None) -> tuple[dict[str, Any], int] | None:
    """(bezsim metadata, row count) from a file's footer, or None if it is missing or broken."""
    store = store or LocalStore(".")
    try:
        with store.open_read(str(path)) as handle:
            meta = pq.read_metadata(handle)
        raw = (meta.metadata or {}).get(METADATA_KEY.encode())
        if raw is None:
            return None
        return json.loads(raw), meta.num_rows
    except (OSError, ValueError, pa.ArrowException):
        return None


MISSING = "missing"


def shard_problems(out_dir: str | os.PathLike, index: int,
                   expected: dict[str, Any]) -> dict[str, str]:
    """What is wrong with each of the shard's three files (empty when the shard is whole): a
    file must exist, its footer read, hold the expected run and game range (``expected`` as
    made by ``shard_metadata``), and its pages be intact. Reasons are short phrases."""
    # compare JSON forms so tuples and lists, or int subclasses, do not differ
    want = json.loads(json.dumps(expected, sort_keys=True))
    store = store_for(out_dir)
    problems = {}
    for name, path in shard_paths(store, index).items():
        if not store.exists(path):
            problems[path] = MISSING
            continue
        found = read_shard_metadata(path, store)
        if found is None:
            problems[path] = "not a whole Parquet file"
        elif any(found[0].get(key) != want[key] for key in ("run", "shard")):
            problems[path] = "from another run or shard"
        elif name == "games" and found[1] != want["shard"]["n_games"]:
            problems[path] = f"{found[1]} games instead of {want['shard']['n_games']}"
        elif not pages_intact(path, store):
            problems[path] = "pages fail their checksums"
    return problems


def shard_complete(out_dir: str | os.PathLike, index: int,
                   expected: dict[str, Any]) -> bool:
    """True when the shard's three files are whole and hold this run's games
    (``shard_problems`` finds nothing)."""
    return not shard_problems(out_dir, index, expected)


def damage_note(problems: dict[str, str]) -> str | None:
    """One line naming what was wrong with a shard that was started (some file present), or
    None for a shard never written (every file missing) or a whole one."""
    if not problems or len(problems) == len(TABLE_NAMES) and all(
            reason == MISSING for reason in problems.values()):
        return None
    return "; ".join(f"{path}: {reason}" for path, reason in sorted(problems.items()))


def pages_intact(path: str | os.PathLike, store=None) -> bool:
    """True when every data page of the file reads and matches its checksum: a footer that
    reads says nothing of bytes damaged in the middle of the file."""
    store = store or LocalStore(".")
    try:
        with store.open_read(str(path)) as handle:
            pq.read_table(handle, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException):
        return False
    return True


def remove_stale_temporaries(out_dir: str | os.PathLike) -> int:
    """Delete temporary files an interrupted run left behind; returns how many."""
    removed = 0
    store = store_for(out_dir)
    for name in TABLE_NAMES:
        folder = store.path(name)
        if not store.isdir(folder):
            continue
        for tmp in store.stale_temporaries(folder):
            with contextlib.suppress(OSError):
                store.remove(tmp)
                removed += 1
    return removed
