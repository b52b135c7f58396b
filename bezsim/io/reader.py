"""Read a run back as pandas DataFrames (the analysis layer reads only these files)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from bezsim.errors import BezsimError
from bezsim.io.schema import TABLE_KEYS, TABLE_NAMES


def read_table(out_dir: str | os.PathLike, name: str) -> pd.DataFrame:
    """One table of a run, rows in canonical order (stable sort on the table's key)."""
    if name not in TABLE_NAMES:
        raise BezsimError(f"unknown table {name!r} (tables: {', '.join(TABLE_NAMES)})")
    from bezsim.io.storage import LocalStore, store_for

    store = store_for(out_dir)
    folder = store.path(name)
    if isinstance(store, LocalStore):
        found = Path(folder).is_dir() and any(Path(folder).glob("part-*.parquet"))
        source = folder
    else:
        found = store.isdir(folder) and any(p.endswith(".parquet") and "/part-" in p
                                            for p in store.fs.ls(folder, detail=False))
        source = store.url_of(folder)
    if not found:
        raise BezsimError(f"no {name} table in {out_dir} (is it a bezsim run directory?)")
    frame = pd.read_parquet(source)
    # shards are read in file order, which is game order, but do not rely on the filesystem
    frame = frame.sort_values(list(TABLE_KEYS[name]), kind="stable")
    return frame.reset_index(drop=True)


def read_run(out_dir: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """All three tables of a run: ``{"hands": ..., "games": ..., "declarations": ...}``."""
    return {name: read_table(out_dir, name) for name in TABLE_NAMES}
