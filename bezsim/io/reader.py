"""Read a run back as pandas DataFrames (the analysis layer reads only these files)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

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
    try:
        frame = pd.read_parquet(source, page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:  # damaged after it was written, or foreign
        why = " ".join("".join(c if c.isprintable() else " " for c in str(exc)).split())
        raise BezsimError(f"cannot read the {name} table of {out_dir}: {why}; "
                          f"`bezsim simulate --resume {out_dir}` plays damaged shards again"
                          ) from None
    # shards are read in file order, which is game order, but do not rely on the filesystem
    frame = frame.sort_values(list(TABLE_KEYS[name]), kind="stable")
    return frame.reset_index(drop=True)


def read_parquet(source: str | os.PathLike, name: str, where: str | os.PathLike,
                 **kwargs: Any) -> pd.DataFrame:
    """``pd.read_parquet`` for the analysis modules: a damaged or foreign file is one line
    naming the table, not Arrow's multi-line error."""
    try:
        return pd.read_parquet(source, **kwargs)
    except (OSError, pa.ArrowException) as exc:
        why = " ".join(str(exc).split()[:40]) or type(exc).__name__
        raise BezsimError(f"cannot read the {name} table of {where}: {why}") from None


def read_run(out_dir: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """All three tables of a run: ``{"hands": ..., "games": ..., "declarations": ...}``."""
    return {name: read_table(out_dir, name) for name in TABLE_NAMES}
