"""Explicit Arrow schemas of the three output tables.

Small integer types keep shards compact (a run can hold millions of hand rows); strings that
repeat (policy, suit, card, kind, status) are dictionary-encoded against FIXED dictionaries,
so every shard of every run has identical categories and files concatenate cleanly.
"""

from __future__ import annotations

import pyarrow as pa

from bezsim.cards import SUIT_SYMBOLS, card_name
from bezsim.engine.constants import KIND_NAMES, STATUS_NAMES

TABLE_NAMES = ("hands", "games", "declarations")

# int8 indices: every dictionary below has far fewer than 128 entries
DICT_STRING = pa.dictionary(pa.int8(), pa.string())

SUIT_DICT: tuple[str, ...] = SUIT_SYMBOLS
FACE_DICT: tuple[str, ...] = tuple(card_name(face) for face in range(32))
KIND_DICT: tuple[str, ...] = KIND_NAMES
STATUS_DICT: tuple[str, ...] = STATUS_NAMES


# Columns that may hold nulls (no trump yet, so no trick that fixed it, no turn-up, an event
# without a suit or outside a compound); every other column is declared non-null, so Parquet
# stores it REQUIRED, with no definition levels to write or read (measured 10-15% of a
# shard's write).
NULLABLE = {"trump", "trump_trick", "turnup", "suit", "compound_id", "compound_size"}


def _schema(fields: list[tuple[str, pa.DataType]]) -> pa.Schema:
    return pa.schema([pa.field(name, kind, nullable=name in NULLABLE) for name, kind in fields])


def kind_column(kind: str) -> str:
    """Name of the hands column holding a seat's points of one scoring kind."""
    return f"pts_{kind}"


def hands_schema() -> pa.Schema:
    """One row per (game, hand, seat)."""
    fields = [
        ("game_id", pa.int64()),
        ("hand", pa.int16()),
        ("seat", pa.int8()),
        ("team", pa.int8()),        # the seat, or its partnership (seats t and t + 2, R4.2)
        ("policy", DICT_STRING),
        ("dealer", pa.int8()),
        ("trump", DICT_STRING),
        ("turnup", DICT_STRING),
        ("trump_trick", pa.int16()),    # when trumps were fixed: 0 at the deal (turn-up),
        #                                 else the trick of the first marriage (R6.2)
        ("points", pa.int32()),
        ("score_after", pa.int32()),
        ("tricks_won", pa.int16()),
        ("combinations", pa.int16()),
        ("declaring_tricks", pa.int16()),
        ("compounds", pa.int16()),
        ("brisques", pa.int16()),
        ("carte_blanches", pa.int16()),
    ]
    fields += [(kind_column(kind), pa.int32()) for kind in KIND_NAMES]
    return _schema(fields)


def games_schema(players: int) -> pa.Schema:
    """One row per game; per-seat columns are spread wide so a game is one row."""
    fields = [
        ("game_id", pa.int64()),
        ("first_dealer", pa.int8()),
        ("hands", pa.int16()),
        ("winner", pa.int8()),      # the winning seat; in a partnership game its team
    ]
    fields += [(f"score_{seat}", pa.int32()) for seat in range(players)]
    fields += [("double_game", pa.bool_()), ("stake", pa.int32()), ("rubicon", pa.bool_())]
    fields += [(f"rounded_{seat}", pa.int32()) for seat in range(players)]
    fields += [(f"brisques_{seat}", pa.int32()) for seat in range(players)]
    fields += [(f"policy_{seat}", DICT_STRING) for seat in range(players)]
    return _schema(fields)


def declarations_schema() -> pa.Schema:
    """One row per scoring event (declarations, sevens, brisques, last trick)."""
    return _schema([
        ("game_id", pa.int64()),
        ("hand", pa.int16()),
        ("trick", pa.int16()),
        ("seat", pa.int8()),
        ("kind", DICT_STRING),
        ("points", pa.int32()),
        ("status", DICT_STRING),
        ("suit", DICT_STRING),
        ("compound_id", pa.int16()),
        ("compound_size", pa.int8()),
    ])


def table_schemas(players: int) -> dict[str, pa.Schema]:
    return {
        "hands": hands_schema(),
        "games": games_schema(players),
        "declarations": declarations_schema(),
    }


# Canonical row order: a stable sort on these columns. Declarations have no unique key, but a
# game's events always sit together in engine order, so a stable sort on game_id is canonical.
TABLE_KEYS: dict[str, tuple[str, ...]] = {
    "hands": ("game_id", "hand", "seat"),
    "games": ("game_id",),
    "declarations": ("game_id",),
}
