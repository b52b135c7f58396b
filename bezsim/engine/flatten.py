"""Engine outcome arrays -> one contiguous array per table column, in one compiled pass.

Why compiled: the numpy version (a mask, fancy indexing, a transpose and a cast per column)
cost about 1.2 µs per hand, 20% of what the engine spends playing it, and ran on the
writer threads beside the engine's. These kernels read each engine row once and write every
column in its final type, so the Arrow arrays wrap them without copying. They release the
GIL (``nogil``), so the main thread can start the engine's next call while the writer threads
flatten a shard.

The outputs are allocated by numpy, a few 2-D arrays grouped by type (each row of one is a
column, contiguous): numpy asks the kernel for huge pages on large arrays, while an array
allocated inside a kernel is faulted in 4 KB at a time. On a virtual machine a fault costs
microseconds: numba's allocation cost 160-250 ms a 160 MB array, numpy's 31 ms, which was a
third of flattening a four-handed shard.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from bezsim.engine.constants import (
    EV_LOST,
    GI_HANDS,
    GI_N_EVENTS,
    HI_DEALER,
    HI_TRUMP,
    HI_TRUMP_TRICK,
    HI_TURNUP,
    HS_BRISQUES,
    HS_CARTE_BLANCHES,
    HS_COMBINATIONS,
    HS_COMPOUNDS,
    HS_DECLARING_TRICKS,
    HS_KIND,
    HS_POINTS,
    HS_SCORE_AFTER,
    HS_TRICKS_WON,
    N_KINDS,
)
from bezsim.engine.jit import njit

# the hands table's int16 counters, in schema order
SMALL_COUNTS = (HS_TRICKS_WON, HS_COMBINATIONS, HS_DECLARING_TRICKS, HS_COMPOUNDS,
                HS_BRISQUES, HS_CARTE_BLANCHES)


class HandColumns(NamedTuple):
    """The hands table's columns, grouped by type (see ``HAND_*`` for the rows' order)."""

    game_id: np.ndarray    # int64
    wide: np.ndarray       # int32 (2 + N_KINDS, rows): points, score_after, pts by kind
    small: np.ndarray      # int16 (2 + len(SMALL_COUNTS), rows): hand, the counters, then
    #                        the trick that fixed trumps (TRUMP_TRICK; null with the trump)
    tiny: np.ndarray       # int8 (6, rows): seat, team, policy, dealer, trump, turnup codes
    valid: np.ndarray      # uint8 (2, bytes): validity bitmaps of trump and turn-up
    highest_trump: int     # the highest trump code, checked against the dictionary


# rows of HandColumns.tiny
SEAT, TEAM, POLICY, DEALER, TRUMP, TURNUP = range(6)
# row of HandColumns.small
TRUMP_TRICK = 1 + len(SMALL_COUNTS)


def hand_columns(hand_seat, hand_info, game_info, players: int, teams, seat_policy,
                 game_start: int) -> HandColumns:
    """Columns of the hands table, one row per (game, hand, seat) in that order. Trump and
    turn-up are int8 dictionary codes with validity bitmaps (Arrow's layout: bit r of byte
    r // 8, set when row r is not null); the turn-up is its face (card id % 32)."""
    rows = int(game_info[:, GI_HANDS].sum()) * players
    columns = HandColumns(np.empty(rows, np.int64), np.empty((2 + N_KINDS, rows), np.int32),
                          np.empty((2 + len(SMALL_COUNTS), rows), np.int16),
                          np.empty((6, rows), np.int8), np.zeros((2, (rows + 7) // 8), np.uint8),
                          -1)
    highest = _fill_hand_columns(hand_seat, hand_info, game_info, players, teams, seat_policy,
                                 np.int64(game_start), columns.game_id, columns.wide,
                                 columns.small, columns.tiny, columns.valid)
    return columns._replace(highest_trump=int(highest))


@njit(cache=True, nogil=True)
def _fill_hand_columns(hand_seat, hand_info, game_info, players, teams, seat_policy,
                       game_start, game_id, wide, small, tiny, valid):
    highest_trump = -1
    r = 0
    for g in range(game_info.shape[0]):
        for h in range(game_info[g, GI_HANDS]):
            up = hand_info[g, h, HI_TURNUP]
            suit = max(hand_info[g, h, HI_TRUMP], -1)
            highest_trump = max(highest_trump, suit)
            for s in range(players):
                row = hand_seat[g, h, s]
                game_id[r] = game_start + g
                small[0, r] = h
                tiny[SEAT, r] = s
                tiny[TEAM, r] = teams[s]
                tiny[POLICY, r] = seat_policy[s]
                tiny[DEALER, r] = hand_info[g, h, HI_DEALER]
                tiny[TRUMP, r] = max(suit, 0)
                valid[0, r >> 3] |= np.uint8(suit >= 0) << (r & 7)
                small[TRUMP_TRICK, r] = max(hand_info[g, h, HI_TRUMP_TRICK], 0)
                tiny[TURNUP, r] = max(up, 0) % 32
                valid[1, r >> 3] |= np.uint8(up >= 0) << (r & 7)
                wide[0, r] = row[HS_POINTS]
                wide[1, r] = row[HS_SCORE_AFTER]
                for k in range(len(SMALL_COUNTS)):
                    small[1 + k, r] = row[SMALL_COUNTS[k]]
                for k in range(N_KINDS):
                    wide[2 + k, r] = row[HS_KIND + k]
                r += 1
    return highest_trump


class DeclarationColumns(NamedTuple):
    """The declarations table's columns, grouped by type."""

    game_id: np.ndarray    # int64
    points: np.ndarray     # int32
    small: np.ndarray      # int16 (3, rows): hand, trick, compound_id
    tiny: np.ndarray       # int8 (5, rows): seat, kind, status, suit codes, compound_size
    valid: np.ndarray      # uint8 (2, bytes): validity bitmaps of suit and of the compound
    highest: np.ndarray    # the highest raw kind, status and suit + 1 codes, to check


# rows of DeclarationColumns.small and .tiny
HAND, TRICK, COMPOUND_ID = range(3)
EV_SEAT, KIND, STATUS, SUIT, COMPOUND_SIZE = range(5)


def declaration_columns(events, game_info, game_start: int,
                        is_combination) -> DeclarationColumns:
    """Columns of the declarations table, one row per event in engine order (layout of
    api.unpack_events). Kind, status and suit are int8 dictionary codes; ``suit`` is null
    for events without one. The combinations one seat scored on one trick form one
    declaration (R5.2): ``compound_id`` numbers them within the game and ``compound_size``
    counts their combinations; both are null for events that are not scored combinations
    (-1 under the null). The raw codes are checked against the dictionaries (``highest``)
    before the narrowed ones are trusted."""
    rows = int(game_info[:, GI_N_EVENTS].sum())
    columns = DeclarationColumns(np.empty(rows, np.int64), np.empty(rows, np.int32),
                                 np.empty((3, rows), np.int16), np.empty((5, rows), np.int8),
                                 np.zeros((2, (rows + 7) // 8), np.uint8),
                                 np.zeros(3, np.int64))
    _fill_declaration_columns(events, game_info, np.int64(game_start), is_combination,
                              columns.game_id, columns.points, columns.small, columns.tiny,
                              columns.valid, columns.highest)
    return columns


@njit(cache=True, nogil=True)
def _fill_declaration_columns(events, game_info, game_start, is_combination, game_id, points,
                              small, tiny, valid, highest):
    """Whether an event starts, joins or is outside a compound is random in play, so it is
    computed without branches (a Polish row: 14.6 ns with them, 9.8 without); compound sizes
    are counted on the way and written by a second pass over the game's rows."""
    top_kind = 0               # highest raw codes: kept in registers, stored once
    top_status = 0
    top_suit = 0
    compound_id = small[COMPOUND_ID]
    compound_size = tiny[COMPOUND_SIZE]
    # size of compound i at sizes[i + 1]; sizes[0] = -1 is what a row outside one reads
    sizes = np.zeros(events.shape[1] + 1, np.int64)
    sizes[0] = -1
    r = 0
    for g in range(game_info.shape[0]):
        first = r
        group = -1
        key = np.int64(-1)     # hand, trick and seat of the current compound
        for e in range(game_info[g, GI_N_EVENTS]):
            p = events[g, e]
            game_id[r] = game_start + g
            small[HAND, r] = p & 0xFF
            small[TRICK, r] = (p >> 8) & 0xFF
            tiny[EV_SEAT, r] = (p >> 16) & 0xF
            k = (p >> 20) & 0xFF
            st = (p >> 28) & 0xF
            su = (p >> 32) & 0xFF                  # suit + 1; 0: none
            top_kind = max(top_kind, k)
            top_status = max(top_status, st)
            top_suit = max(top_suit, su)
            tiny[KIND, r] = k
            tiny[STATUS, r] = st
            tiny[SUIT, r] = max(su - 1, 0)
            valid[0, r >> 3] |= np.uint8(su > 0) << (r & 7)
            points[r] = (p >> 40) & 0xFFFFFF
            scored = np.int64(is_combination[k]) & np.int64(st != EV_LOST)
            this = p & 0xFFFFF
            group += scored & np.int64(this != key)
            key += scored * (this - key)
            sizes[group + 1] += scored
            compound_id[r] = scored * (group + 1) - 1
            valid[1, r >> 3] |= np.uint8(scored << (r & 7))
            r += 1
        for i in range(first, r):
            compound_size[i] = sizes[compound_id[i] + 1]
        sizes[1:group + 2] = 0
    highest[0] = top_kind
    highest[1] = top_status
    highest[2] = top_suit
