"""Read a run back as pandas DataFrames (the analysis layer reads only these files)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from bezsim.errors import BezsimError
from bezsim.io.schema import TABLE_KEYS, TABLE_NAMES


def _resume_hint(where: str | os.PathLike) -> str:
    return f"`bezsim simulate --resume {where}` plays damaged shards again"


def read_shards(out_dir: str | os.PathLike, name: str, columns: Sequence[str] | None = None,
                filters: Any = None) -> pd.DataFrame:
    """Table ``name`` of a run from its shard files only (``shards.table_files``): a file
    someone left in the folder is skipped, where ``pd.read_parquet(folder)`` would fail on
    it. Rows in file order, which is game order."""
    from bezsim.io.shards import table_files
    from bezsim.io.storage import FsspecStore, store_for

    if name not in TABLE_NAMES:
        raise BezsimError(f"unknown table {name!r} (tables: {', '.join(TABLE_NAMES)})")
    store = store_for(out_dir)
    files, _ = table_files(store, name)
    if not files:
        raise BezsimError(f"no {name} table in {out_dir} (is it a bezsim run directory?)")
    filesystem = store.fs if isinstance(store, FsspecStore) else None
    try:
        table = pq.read_table(files, columns=None if columns is None else list(columns),
                              filters=filters, filesystem=filesystem,
                              page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:  # damaged after it was written, or foreign
        why = " ".join("".join(c if c.isprintable() else " " for c in str(exc)).split()[:40])
        raise BezsimError(f"cannot read the {name} table of {out_dir}: "
                          f"{why or type(exc).__name__}; {_resume_hint(out_dir)}") from None
    return table.to_pandas()


def read_table(out_dir: str | os.PathLike, name: str) -> pd.DataFrame:
    """One table of a run, rows in canonical order (stable sort on the table's key)."""
    frame = read_shards(out_dir, name)
    # shards are read in file order, which is game order, but do not rely on the filesystem
    frame = frame.sort_values(list(TABLE_KEYS[name]), kind="stable")
    return frame.reset_index(drop=True)


def read_run(out_dir: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """All three tables of a run: ``{"hands": ..., "games": ..., "declarations": ...}``."""
    return {name: read_table(out_dir, name) for name in TABLE_NAMES}
