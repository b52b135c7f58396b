"""GameBatch arrays -> Arrow tables.

A shard can hold 50,000 games (about a million hand rows): the columns come from one
compiled pass over the engine's arrays (bezsim/engine/flatten.py), and Arrow wraps them.
"""

from __future__ import annotations

import functools

import numpy as np
import pyarrow as pa

from bezsim.engine import constants as C
from bezsim.engine import flatten as F
from bezsim.engine_api.games import GameBatch
from bezsim.io.schema import (
    FACE_DICT,
    STATUS_DICT,
    SUIT_DICT,
    TABLE_NAMES,
    declarations_schema,
    games_schema,
    hands_schema,
)


def batch_to_tables(batch: GameBatch, policies: list[str]) -> dict[str, pa.Table]:
    """The ``hands``, ``games`` and ``declarations`` tables of one batch of games."""
    return {name: batch_table(batch, policies, name) for name in TABLE_NAMES}


def batches_table(batches: list[GameBatch], policies: list[str], name: str) -> pa.Table:
    """One table of consecutive batches (a shard computed in several engine calls): the
    batches' tables side by side as chunks, nothing copied."""
    tables = [batch_table(batch, policies, name) for batch in batches]
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)


def batch_table(batch: GameBatch, policies: list[str], name: str) -> pa.Table:
    """One of the three tables of a batch: the writer builds and writes them in parallel."""
    if len(policies) != batch.players:
        raise ValueError(f"{batch.players} seats need {batch.players} policies, got {policies}")
    _check_batch(batch)
    if name == "hands":
        return _hands_table(batch, policies)
    if name == "games":
        return _games_table(batch, policies)
    if name == "declarations":
        return _declarations_table(batch)
    raise ValueError(f"no table {name!r}; the tables are {', '.join(TABLE_NAMES)}")


def _check_batch(batch: GameBatch) -> None:
    """Refuse to write truncated games: an overflowed game's rows would silently be wrong."""
    info = batch.game_info
    overflowed = np.flatnonzero(info[:, C.GI_OVERFLOW] != 0)
    if overflowed.size:
        ids = ", ".join(str(batch.game_start + g) for g in overflowed[:5])
        more = f" and {overflowed.size - 5} more" if overflowed.size > 5 else ""
        raise RuntimeError(
            f"game(s) {ids}{more} overflowed the engine's output arrays "
            f"(hand_cap={batch.hand_seat.shape[1]}, event_cap={batch.events.shape[1]}); "
            "no tables were written for this batch — the engine must be run with wider arrays")
    hand_cap, event_cap = batch.hand_seat.shape[1], batch.events.shape[1]
    hands, events = info[:, C.GI_HANDS], info[:, C.GI_N_EVENTS]
    if hands.size and (hands.min() < 0 or hands.max() > hand_cap
                       or events.min() < 0 or events.max() > event_cap):
        raise RuntimeError("engine returned hand or event counts outside its own arrays")


def _dictionary_array(codes: np.ndarray, dictionary: tuple[str, ...], what: str,
                      nullable: bool = False) -> pa.DictionaryArray:
    """Codes into a fixed dictionary; negative codes become null where that is meaningful."""
    codes = np.asarray(codes)
    low = int(codes.min()) if codes.size else 0
    high = int(codes.max()) if codes.size else 0
    if high >= len(dictionary) or (low < 0 and not nullable):
        raise RuntimeError(f"engine returned {what} code {high if high >= len(dictionary) else low}"
                           f", outside 0..{len(dictionary) - 1}")
    missing = codes < 0 if low < 0 else None
    indices = (codes if missing is None else np.where(missing, 0, codes)).astype(np.int8)
    valid = None if missing is None else np.packbits(~missing, bitorder="little")
    return pa.DictionaryArray.from_arrays(_int_array(indices, pa.int8(), valid),
                                          _dictionary_values(dictionary))


def _check_code(highest: int, dictionary: tuple[str, ...], what: str) -> None:
    if highest >= len(dictionary):
        raise RuntimeError(f"engine returned {what} code {highest}, outside "
                           f"0..{len(dictionary) - 1}")


def _coded(codes: np.ndarray, valid: np.ndarray | None, dictionary: tuple[str, ...]
           ) -> pa.DictionaryArray:
    """int8 codes (checked by the caller) and their validity bitmap, as Arrow wraps them:
    no pass over the rows here, the flatten kernels wrote both in their final layout."""
    return pa.DictionaryArray.from_arrays(_int_array(codes, pa.int8(), valid),
                                          _dictionary_values(dictionary))


def _int_array(values: np.ndarray, kind: pa.DataType, valid: np.ndarray | None) -> pa.Array:
    """``values`` (without a copy) with the nulls of a validity bitmap, or none."""
    n = len(values)
    nulls = 0 if valid is None else n - _set_bits(valid)
    bitmap = pa.py_buffer(valid) if nulls else None
    return pa.Array.from_buffers(kind, n, [bitmap, pa.py_buffer(values)], null_count=nulls)


def _plain(values: np.ndarray) -> pa.Array:
    """A numpy column as an Arrow array without nulls. Built from its buffers, not with
    ``pa.array``, which imports pandas to check its argument: 20% of a simulate run's
    start-up."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    return _int_array(values, pa.from_numpy_dtype(values.dtype), None)


def _set_bits(bitmap: np.ndarray) -> int:
    """Rows marked valid in a bitmap (the kernels leave the bits past the last row 0)."""
    return int(_POPCOUNT[bitmap].sum(dtype=np.int64))


_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


@functools.cache
def _dictionary_values(dictionary: tuple[str, ...]) -> pa.Array:
    """The strings of a dictionary, from their buffers (see ``_plain``)."""
    encoded = [name.encode() for name in dictionary]
    offsets = np.cumsum([0] + [len(b) for b in encoded], dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def _policy_dictionary(policies: list[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct policy names (seat order) and each seat's index into them."""
    names = tuple(dict.fromkeys(policies))
    return names, np.array([names.index(p) for p in policies], dtype=np.int64)


def _hands_table(batch: GameBatch, policies: list[str]) -> pa.Table:
    names, seat_policy = _policy_dictionary(policies)
    c = F.hand_columns(batch.hand_seat, batch.hand_info, batch.game_info, batch.players,
                       batch.teams().astype(np.int64), seat_policy, batch.game_start)
    _check_code(c.highest_trump, SUIT_DICT, "trump")
    columns = [
        _plain(c.game_id), _plain(c.small[0]),
        _plain(c.tiny[F.SEAT]), _plain(c.tiny[F.TEAM]),
        _coded(c.tiny[F.POLICY], None, names),
        _plain(c.tiny[F.DEALER]),
        _coded(c.tiny[F.TRUMP], c.valid[0], SUIT_DICT),
        _coded(c.tiny[F.TURNUP], c.valid[1], FACE_DICT),
        _int_array(c.small[F.TRUMP_TRICK], pa.int16(), c.valid[0]),
        _plain(c.wide[0]), _plain(c.wide[1]),
    ]
    columns += [_plain(c.small[1 + k]) for k in range(len(F.SMALL_COUNTS))]
    columns += [_plain(c.wide[2 + k]) for k in range(batch.kinds)]
    return pa.Table.from_arrays(columns, schema=hands_schema(batch.kinds))


def _games_table(batch: GameBatch, policies: list[str]) -> pa.Table:
    info = batch.game_info
    n = batch.n_games
    names, seat_policy = _policy_dictionary(policies)
    columns = [
        _plain(batch.game_start + np.arange(n, dtype=np.int64)),
        _plain(info[:, C.GI_FIRST_DEALER].astype(np.int8)),
        _plain(info[:, C.GI_HANDS].astype(np.int16)),
        _plain(info[:, C.GI_WINNER].astype(np.int8)),
    ]
    columns += [_plain(info[:, C.GI_SCORE + s].astype(np.int32)) for s in range(batch.players)]
    columns += [_plain(info[:, C.GI_DOUBLE] != 0), _plain(info[:, C.GI_STAKE].astype(np.int32)),
                _plain(info[:, C.GI_RUBICON] != 0)]
    columns += [_plain(info[:, C.GI_ROUNDED + s].astype(np.int32)) for s in range(batch.players)]
    columns += [_plain(info[:, C.GI_BRISQUES + s].astype(np.int32))
                for s in range(batch.players)]
    columns += [_dictionary_array(np.full(n, seat_policy[s]), names, "policy")
                for s in range(batch.players)]
    return pa.Table.from_arrays(columns, schema=games_schema(batch.players))


def _declarations_table(batch: GameBatch) -> pa.Table:
    c = F.declaration_columns(batch.events, batch.game_info, batch.game_start,
                              _IS_COMBINATION)
    kinds = C.KIND_NAMES[:batch.kinds]      # six-pack's fours in trumps only where they score
    _check_code(int(c.highest[0]), kinds, "event kind")
    _check_code(int(c.highest[1]), STATUS_DICT, "event status")
    _check_code(int(c.highest[2]) - 1, SUIT_DICT, "event suit")
    columns = [
        _plain(c.game_id), _plain(c.small[F.HAND]), _plain(c.small[F.TRICK]),
        _plain(c.tiny[F.EV_SEAT]),
        _coded(c.tiny[F.KIND], None, kinds),
        _plain(c.points),
        _coded(c.tiny[F.STATUS], None, STATUS_DICT),
        _coded(c.tiny[F.SUIT], c.valid[0], SUIT_DICT),
        _int_array(c.small[F.COMPOUND_ID], pa.int16(), c.valid[1]),
        _int_array(c.tiny[F.COMPOUND_SIZE], pa.int8(), c.valid[1]),
    ]
    return pa.Table.from_arrays(columns, schema=declarations_schema())


_IS_COMBINATION = np.zeros(256, dtype=np.bool_)
_IS_COMBINATION[[C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE, C.K_SEQUENCE, C.K_PLAIN_SEQUENCE,
                 C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE, C.K_QUADRUPLE_BEZIQUE,
                 C.K_FOUR_ACES, C.K_FOUR_KINGS, C.K_FOUR_QUEENS, C.K_FOUR_JACKS,
                 *range(C.K_FOUR_TRUMP_ACES, C.K_FOUR_TRUMP_JACKS + 1)]] = True
