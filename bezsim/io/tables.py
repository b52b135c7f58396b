"""GameBatch arrays -> Arrow tables.

A shard can hold 50,000 games (about a million hand rows): the columns come from one
compiled pass over the engine's arrays (bezsim/io/flatten.py), and Arrow wraps them.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from bezsim.engine import constants as C
from bezsim.engine.api import GameBatch
from bezsim.io.flatten import declaration_columns, hand_columns
from bezsim.io.schema import (
    FACE_DICT,
    KIND_DICT,
    STATUS_DICT,
    SUIT_DICT,
    declarations_schema,
    games_schema,
    hands_schema,
)


def batch_to_tables(batch: GameBatch, policies: list[str]) -> dict[str, pa.Table]:
    """The ``hands``, ``games`` and ``declarations`` tables of one batch of games."""
    if len(policies) != batch.players:
        raise ValueError(f"{batch.players} seats need {batch.players} policies, got {policies}")
    _check_batch(batch)
    return {
        "hands": _hands_table(batch, policies),
        "games": _games_table(batch, policies),
        "declarations": _declarations_table(batch),
    }


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
    index_array = pa.array(indices, type=pa.int8(), mask=missing)
    return pa.DictionaryArray.from_arrays(index_array, pa.array(dictionary, type=pa.string()))


def _policy_dictionary(policies: list[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct policy names (seat order) and each seat's index into them."""
    names = tuple(dict.fromkeys(policies))
    return names, np.array([names.index(p) for p in policies], dtype=np.int64)


def _hands_table(batch: GameBatch, policies: list[str]) -> pa.Table:
    names, seat_policy = _policy_dictionary(policies)
    (game_id, hand, seat, team, policy, dealer, trump, turnup, points, score_after, small,
     kinds) = hand_columns(batch.hand_seat, batch.hand_info, batch.game_info, batch.players,
                           batch.teams().astype(np.int64), seat_policy,
                           np.int64(batch.game_start))
    columns = [
        pa.array(game_id), pa.array(hand), pa.array(seat), pa.array(team),
        _dictionary_array(policy, names, "policy"),
        pa.array(dealer),
        _dictionary_array(trump, SUIT_DICT, "trump", nullable=True),
        _dictionary_array(turnup, FACE_DICT, "turn-up card", nullable=True),
        pa.array(points), pa.array(score_after),
    ]
    columns += [pa.array(small[k]) for k in range(small.shape[0])]
    columns += [pa.array(kinds[k]) for k in range(C.N_KINDS)]
    return pa.Table.from_arrays(columns, schema=hands_schema())


def _games_table(batch: GameBatch, policies: list[str]) -> pa.Table:
    info = batch.game_info
    n = batch.n_games
    names, seat_policy = _policy_dictionary(policies)
    columns = [
        pa.array(batch.game_start + np.arange(n, dtype=np.int64)),
        pa.array(info[:, C.GI_FIRST_DEALER].astype(np.int8)),
        pa.array(info[:, C.GI_HANDS].astype(np.int16)),
        pa.array(info[:, C.GI_WINNER].astype(np.int8)),
    ]
    columns += [pa.array(info[:, C.GI_SCORE + s].astype(np.int32)) for s in range(batch.players)]
    columns += [pa.array(info[:, C.GI_DOUBLE] != 0), pa.array(info[:, C.GI_STAKE].astype(np.int32)),
                pa.array(info[:, C.GI_RUBICON] != 0)]
    columns += [pa.array(info[:, C.GI_ROUNDED + s].astype(np.int32)) for s in range(batch.players)]
    columns += [pa.array(info[:, C.GI_BRISQUES + s].astype(np.int32))
                for s in range(batch.players)]
    columns += [_dictionary_array(np.full(n, seat_policy[s]), names, "policy")
                for s in range(batch.players)]
    return pa.Table.from_arrays(columns, schema=games_schema(batch.players))


def _declarations_table(batch: GameBatch) -> pa.Table:
    (game_id, hand, trick, seat, kind, points, status, suit, compound_id,
     compound_size) = declaration_columns(batch.events, batch.game_info,
                                          np.int64(batch.game_start), _IS_COMBINATION)
    columns = [
        pa.array(game_id), pa.array(hand), pa.array(trick), pa.array(seat),
        _dictionary_array(kind, KIND_DICT, "event kind"),
        pa.array(points),
        _dictionary_array(status, STATUS_DICT, "event status"),
        _dictionary_array(suit, SUIT_DICT, "event suit", nullable=True),
        *_with_nulls((compound_id, pa.int16()), (compound_size, pa.int8())),
    ]
    return pa.Table.from_arrays(columns, schema=declarations_schema())


def _with_nulls(*columns: tuple[np.ndarray, pa.DataType]) -> list[pa.Array]:
    """Arrow arrays of columns that are null together (-1 in the first): one validity
    bitmap, packed once and shared, instead of a mask converted per column."""
    first = columns[0][0]
    valid = first >= 0
    null_count = int(valid.size - np.count_nonzero(valid))
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little")) if null_count else None
    return [pa.Array.from_buffers(kind, len(values), [bitmap, pa.py_buffer(values)],
                                  null_count=null_count)
            for values, kind in columns]


_IS_COMBINATION = np.zeros(256, dtype=np.bool_)
_IS_COMBINATION[[C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE, C.K_SEQUENCE, C.K_PLAIN_SEQUENCE,
                 C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE, C.K_QUADRUPLE_BEZIQUE,
                 C.K_FOUR_ACES, C.K_FOUR_KINGS, C.K_FOUR_QUEENS, C.K_FOUR_JACKS]] = True
