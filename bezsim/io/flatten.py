"""Engine outcome arrays -> one contiguous array per table column, in one compiled pass.

Why compiled: the numpy version (a mask, fancy indexing, a transpose and a cast per column)
cost about 1.2 µs per hand, a fifth of what the engine spends playing it, and ran on the
writer thread beside the engine's. These kernels read each engine row once and write every
column in its final type, so the Arrow arrays wrap them without copying. They release the
GIL (``nogil``), so the main thread can start the engine's next call while the writer thread
flattens a shard.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bezsim.engine.constants import (
    EV_LOST,
    GI_HANDS,
    GI_N_EVENTS,
    HI_DEALER,
    HI_TRUMP,
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

# the hands table's int16 counters, in schema order
SMALL_COUNTS = (HS_TRICKS_WON, HS_COMBINATIONS, HS_DECLARING_TRICKS, HS_COMPOUNDS,
                HS_BRISQUES, HS_CARTE_BLANCHES)


@njit(cache=True, nogil=True)
def hand_columns(hand_seat, hand_info, game_info, players, teams, seat_policy, game_start):
    """Columns of the hands table, one row per (game, hand, seat) in that order. Trump and
    turn-up are int8 dictionary codes with validity bitmaps (Arrow's layout: bit r of byte
    r // 8, set when row r is not null); the turn-up is its face (card id % 32). Also returns
    the highest trump code seen, which the caller checks against the dictionary."""
    n_games = game_info.shape[0]
    rows = 0
    for g in range(n_games):
        rows += game_info[g, GI_HANDS] * players
    game_id = np.empty(rows, np.int64)
    hand = np.empty(rows, np.int16)
    seat = np.empty(rows, np.int8)
    team = np.empty(rows, np.int8)
    policy = np.empty(rows, np.int8)
    dealer = np.empty(rows, np.int8)
    trump = np.empty(rows, np.int8)
    trump_valid = np.zeros((rows + 7) // 8, np.uint8)
    turnup = np.empty(rows, np.int8)
    turnup_valid = np.zeros((rows + 7) // 8, np.uint8)
    points = np.empty(rows, np.int32)
    score_after = np.empty(rows, np.int32)
    small = np.empty((len(SMALL_COUNTS), rows), np.int16)
    kinds = np.empty((N_KINDS, rows), np.int32)
    highest_trump = -1
    r = 0
    for g in range(n_games):
        for h in range(game_info[g, GI_HANDS]):
            up = hand_info[g, h, HI_TURNUP]
            suit = max(hand_info[g, h, HI_TRUMP], -1)
            highest_trump = max(highest_trump, suit)
            for s in range(players):
                row = hand_seat[g, h, s]
                game_id[r] = game_start + g
                hand[r] = h
                seat[r] = s
                team[r] = teams[s]
                policy[r] = seat_policy[s]
                dealer[r] = hand_info[g, h, HI_DEALER]
                trump[r] = max(suit, 0)
                trump_valid[r >> 3] |= np.uint8(suit >= 0) << (r & 7)
                turnup[r] = max(up, 0) % 32
                turnup_valid[r >> 3] |= np.uint8(up >= 0) << (r & 7)
                points[r] = row[HS_POINTS]
                score_after[r] = row[HS_SCORE_AFTER]
                for k in range(len(SMALL_COUNTS)):
                    small[k, r] = row[SMALL_COUNTS[k]]
                for k in range(N_KINDS):
                    kinds[k, r] = row[HS_KIND + k]
                r += 1
    return (game_id, hand, seat, team, policy, dealer, trump, trump_valid, turnup, turnup_valid,
            points, score_after, small, kinds, highest_trump)


@njit(cache=True, nogil=True)
def declaration_columns(events, game_info, game_start, is_combination):
    """Columns of the declarations table, one row per event in engine order (layout of
    api.unpack_events). Kind, status and suit are int8 dictionary codes; ``suit`` is null
    for events without one. The combinations one seat scored on one trick form one
    declaration (R5.2): ``compound_id`` numbers them within the game and ``compound_size``
    counts their combinations; both are null for events that are not scored combinations.
    Nulls are validity bitmaps as in ``hand_columns`` (-1 under a null compound). Also
    returns the highest raw kind, status and suit codes, which the caller checks against
    the dictionaries before the narrowed codes are trusted."""
    n_games = game_info.shape[0]
    rows = 0
    for g in range(n_games):
        rows += game_info[g, GI_N_EVENTS]
    game_id = np.empty(rows, np.int64)
    hand = np.empty(rows, np.int16)
    trick = np.empty(rows, np.int16)
    seat = np.empty(rows, np.int8)
    kind = np.empty(rows, np.int8)
    points = np.empty(rows, np.int32)
    status = np.empty(rows, np.int8)
    suit = np.empty(rows, np.int8)
    suit_valid = np.zeros((rows + 7) // 8, np.uint8)
    compound_id = np.empty(rows, np.int16)
    compound_size = np.empty(rows, np.int8)
    compound_valid = np.zeros((rows + 7) // 8, np.uint8)
    top_kind = 0               # highest raw codes: kept in registers, stored once
    top_status = 0
    top_suit = 0
    r = 0
    for g in range(n_games):
        group = -1
        key = np.int64(-1)
        group_start = 0        # row of the current group's first combination
        for e in range(game_info[g, GI_N_EVENTS]):
            p = events[g, e]
            game_id[r] = game_start + g
            hand[r] = p & 0xFF
            trick[r] = (p >> 8) & 0xFF
            seat[r] = (p >> 16) & 0xF
            k = (p >> 20) & 0xFF
            st = (p >> 28) & 0xF
            su = (p >> 32) & 0xFF                  # suit + 1; 0: none
            top_kind = max(top_kind, k)
            top_status = max(top_status, st)
            top_suit = max(top_suit, su)
            kind[r] = k
            status[r] = st
            suit[r] = max(su - 1, 0)
            suit_valid[r >> 3] |= np.uint8(su > 0) << (r & 7)
            points[r] = (p >> 40) & 0xFFFFFF
            compound_id[r] = -1
            compound_size[r] = -1
            if is_combination[k] and st != EV_LOST:
                this = p & 0xFFFFF                  # hand, trick and seat
                if this != key:
                    if group >= 0:
                        _close_group(compound_id, compound_size, group_start, r)
                    group += 1
                    key = this
                    group_start = r
                compound_id[r] = group
                compound_valid[r >> 3] |= np.uint8(1 << (r & 7))
            r += 1
        if group >= 0:
            _close_group(compound_id, compound_size, group_start, r)
    highest = np.array([top_kind, top_status, top_suit], np.int64)
    return (game_id, hand, trick, seat, kind, points, status, suit, suit_valid, compound_id,
            compound_size, compound_valid, highest)


@njit(cache=True, nogil=True, inline="always")
def _close_group(compound_id, compound_size, start, stop):
    """Size of the group that began at ``start``: its combinations up to ``stop``."""
    group = compound_id[start]
    size = 0
    for i in range(start, stop):
        size += compound_id[i] == group
    for i in range(start, stop):
        if compound_id[i] == group:
            compound_size[i] = size
