"""Arrow/Parquet side of bezsim: outcome arrays in, shard files and a manifest out.

Nothing here knows how games are played; it reads ``GameBatch`` arrays and writes tables.
"""

from typing import Any

from bezsim.io.manifest import check_out_dir, read_manifest, run_identity, write_manifest
from bezsim.io.schema import TABLE_NAMES, table_schemas
from bezsim.io.shards import shard_complete, shard_paths, write_shard
from bezsim.io.tables import batch_to_tables


def __getattr__(name: str) -> Any:
    # read_run needs pandas, which a simulate run never imports otherwise (its import is a
    # 20% of the run's start-up): loaded when a caller first reads a run
    if name == "read_run":
        from bezsim.io.reader import read_run

        return read_run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "TABLE_NAMES",
    "batch_to_tables",
    "check_out_dir",
    "read_manifest",
    "read_run",
    "run_identity",
    "shard_complete",
    "shard_paths",
    "table_schemas",
    "write_manifest",
    "write_shard",
]
