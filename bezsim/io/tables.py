"""GameBatch arrays -> Arrow tables, vectorised with numpy.

A shard can hold 50,000 games (about a million hand rows), so every column is built with
whole-array operations; there is no per-row Python loop.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from bezsim.engine import constants as C
from bezsim.engine.api import GameBatch, unpack_events
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
    codes = np.asarray(codes, dtype=np.int64)
    missing = codes < 0
    bad = codes >= len(dictionary)
    if not nullable:
        bad |= missing
    if bad.any():
        raise RuntimeError(f"engine returned {what} code {codes[bad][0]}, "
                           f"outside 0..{len(dictionary) - 1}")
    indices = np.where(missing, 0, codes).astype(np.int8)
    index_array = pa.array(indices, type=pa.int8(), mask=missing if missing.any() else None)
    return pa.DictionaryArray.from_arrays(index_array, pa.array(dictionary, type=pa.string()))


def _policy_dictionary(policies: list[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct policy names (seat order) and each seat's index into them."""
    names = tuple(dict.fromkeys(policies))
    return names, np.array([names.index(p) for p in policies], dtype=np.int64)


def _hands_table(batch: GameBatch, policies: list[str]) -> pa.Table:
    players = batch.players
    hand_cap = batch.hand_seat.shape[1]
    valid = np.arange(hand_cap)[None, :] < batch.game_info[:, C.GI_HANDS][:, None]
    game_idx, hand_idx = np.nonzero(valid)  # row-major: games in order, hands in order
    rows = game_idx.size
    seat_rows = batch.hand_seat[game_idx, hand_idx, :players].reshape(rows * players, C.HS_SIZE)
    # one transpose makes every column contiguous, instead of 22 strided copies
    seat_cols = np.ascontiguousarray(seat_rows.T, dtype=np.int32)
    info = np.repeat(batch.hand_info[game_idx, hand_idx], players, axis=0)
    seat = np.tile(np.arange(players), rows)
    names, seat_policy = _policy_dictionary(policies)

    columns = [
        pa.array(np.repeat(batch.game_start + game_idx, players).astype(np.int64)),
        pa.array(np.repeat(hand_idx, players).astype(np.int16)),
        pa.array(seat.astype(np.int8)),
        pa.array(batch.teams()[seat].astype(np.int8)),
        _dictionary_array(seat_policy[seat], names, "policy"),
        pa.array(info[:, C.HI_DEALER].astype(np.int8)),
        _dictionary_array(info[:, C.HI_TRUMP], SUIT_DICT, "trump", nullable=True),
        _dictionary_array(np.where(info[:, C.HI_TURNUP] < 0, -1,
                                   info[:, C.HI_TURNUP] % len(FACE_DICT)),
                          FACE_DICT, "turn-up card", nullable=True),
        pa.array(seat_cols[C.HS_POINTS]),
        pa.array(seat_cols[C.HS_SCORE_AFTER]),
        pa.array(seat_cols[C.HS_TRICKS_WON].astype(np.int16)),
        pa.array(seat_cols[C.HS_COMBINATIONS].astype(np.int16)),
        pa.array(seat_cols[C.HS_DECLARING_TRICKS].astype(np.int16)),
        pa.array(seat_cols[C.HS_COMPOUNDS].astype(np.int16)),
        pa.array(seat_cols[C.HS_BRISQUES].astype(np.int16)),
        pa.array(seat_cols[C.HS_CARTE_BLANCHES].astype(np.int16)),
    ]
    columns += [pa.array(seat_cols[C.HS_KIND + k]) for k in range(C.N_KINDS)]
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
    event_cap = batch.events.shape[1]
    valid = np.arange(event_cap)[None, :] < batch.game_info[:, C.GI_N_EVENTS][:, None]
    game_idx, event_idx = np.nonzero(valid)
    ev = unpack_events(batch.events[game_idx, event_idx])
    # extra is suit + 1 for marriages and 0 when the event has no suit
    suit = ev["extra"].astype(np.int64) - 1
    compound_id, compound_size = _compounds(game_idx, ev)
    columns = [
        pa.array((batch.game_start + game_idx).astype(np.int64)),
        pa.array(ev["hand"]),
        pa.array(ev["trick"]),
        pa.array(ev["seat"]),
        _dictionary_array(ev["kind"], KIND_DICT, "event kind"),
        pa.array(ev["points"]),
        _dictionary_array(ev["status"], STATUS_DICT, "event status"),
        _dictionary_array(suit, SUIT_DICT, "event suit", nullable=True),
        pa.array(compound_id.astype(np.int16), mask=compound_id < 0),
        pa.array(compound_size.astype(np.int8), mask=compound_size < 0),
    ]
    return pa.Table.from_arrays(columns, schema=declarations_schema())


_IS_COMBINATION = np.zeros(256, dtype=bool)
_IS_COMBINATION[[C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE, C.K_SEQUENCE, C.K_PLAIN_SEQUENCE,
                 C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE, C.K_QUADRUPLE_BEZIQUE,
                 C.K_FOUR_ACES, C.K_FOUR_KINGS, C.K_FOUR_QUEENS, C.K_FOUR_JACKS]] = True


def _compounds(game_idx: np.ndarray, ev: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The combinations scored on one trick won form one declaration (a compound when there
    are several, R5.2): its number within the game and how many combinations it scored.
    -1 (null) for events that are not scored combinations."""
    n = game_idx.size
    ids = np.full(n, -1, dtype=np.int64)
    sizes = np.full(n, -1, dtype=np.int64)
    combo = _IS_COMBINATION[ev["kind"].astype(np.int64) & 0xFF] & (ev["status"] != C.EV_LOST)
    rows = np.flatnonzero(combo)
    if rows.size == 0:
        return ids, sizes
    game = game_idx[rows].astype(np.int64)
    key = ((game << 32) | (ev["hand"][rows].astype(np.int64) << 16)
           | (ev["trick"][rows].astype(np.int64) << 4) | ev["seat"][rows].astype(np.int64))
    starts = np.ones(rows.size, dtype=bool)
    starts[1:] = key[1:] != key[:-1]
    group = np.cumsum(starts) - 1                          # global group number
    game_first = np.ones(rows.size, dtype=bool)
    game_first[1:] = game[1:] != game[:-1]
    first_group_of_game = np.maximum.accumulate(np.where(game_first, group, 0))
    ids[rows] = group - first_group_of_game
    sizes[rows] = np.bincount(group)[group]
    return ids, sizes
