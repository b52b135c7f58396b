"""A run's tables as SHA-256 digests of their content, so two runs (another machine, thread
count, shard size, library version) can be compared by a few hex strings, and the golden
tests (tests/test_golden.py) can pin the engine's output for fixed seeds.

A digest covers each column's name, its type as stored (the Arrow type bezsim's schema gave
it: ``int16``, ``bool``; dictionary and plain strings are both ``string``), which rows are
null, and the values in canonical row order (``read_run``). It does not depend on how the
Parquet files were encoded or compressed, how the run was sharded, or on how pandas
represents an integer column that holds nulls.
"""

from __future__ import annotations

import hashlib
import os
import struct

import numpy as np
import pandas as pd
import pyarrow as pa

from bezsim.io.reader import read_run


def type_label(arrow_type: pa.DataType) -> str:
    """The stored type, without encoding details (dictionary-encoded strings are strings)."""
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return "string"
    return str(arrow_type)


def _value_bytes(column: pd.Series, arrow_type: pa.DataType, null: np.ndarray) -> bytes:
    if type_label(arrow_type) == "string":
        # length-prefixed UTF-8: no value can fake a boundary between two values
        texts = ["" if missing else str(value)
                 for value, missing in zip(column.tolist(), null, strict=True)]
        return b"".join(struct.pack("<I", len(b)) + b
                        for b in (t.encode("utf-8") for t in texts))
    dtype = np.dtype(arrow_type.to_pandas_dtype())
    filled = column.to_numpy(dtype=object, na_value=0) if null.any() else column.to_numpy()
    # little-endian whatever the machine, nulls as 0 (their mask is hashed beside them)
    return np.asarray(filled).astype(dtype).astype(dtype.newbyteorder("<")).tobytes()


def frame_digest(frame: pd.DataFrame, schema: pa.Schema) -> str:
    """SHA-256 of a table's columns (names, stored types, null masks, values) in row order."""
    digest = hashlib.sha256()
    digest.update(struct.pack("<Q", len(frame)))
    for name in frame.columns:
        arrow_type = schema.field(name).type
        column = frame[name]
        null = column.isna().to_numpy(dtype=bool)
        digest.update(f"{name}\0{type_label(arrow_type)}\0".encode())
        digest.update(np.packbits(null, bitorder="little").tobytes())
        digest.update(_value_bytes(column, arrow_type, null))
    return digest.hexdigest()


def stored_schema(out_dir: str | os.PathLike, name: str) -> pa.Schema:
    """The Arrow schema a run's table was written with (from its first shard's footer)."""
    import pyarrow.parquet as pq

    from bezsim.io.storage import LocalStore, store_for

    store = store_for(out_dir)
    folder = store.path(name)
    if isinstance(store, LocalStore):
        first = min(p for p in os.listdir(folder) if p.startswith("part-"))
    else:
        first = min(os.path.basename(p) for p in store.fs.ls(folder, detail=False)
                    if os.path.basename(p).startswith("part-"))
    with store.open_read(store.path(name, first)) as handle:
        return pq.read_schema(handle)


def run_digests(out_dir: str | os.PathLike) -> dict[str, str]:
    """``{"hands": hex, "games": hex, "declarations": hex}`` of a finished run."""
    return {name: frame_digest(frame, stored_schema(out_dir, name))
            for name, frame in read_run(out_dir).items()}
