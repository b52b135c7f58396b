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
    """Columns of the hands table, one row per (game, hand, seat) in that order. Null
    trump or turn-up is -1; the turn-up is its face (card id % 32)."""
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
    trump = np.empty(rows, np.int16)       # dictionary codes: checked, then narrowed
    turnup = np.empty(rows, np.int16)
    points = np.empty(rows, np.int32)
    score_after = np.empty(rows, np.int32)
    small = np.empty((len(SMALL_COUNTS), rows), np.int16)
    kinds = np.empty((N_KINDS, rows), np.int32)
    r = 0
    for g in range(n_games):
        for h in range(game_info[g, GI_HANDS]):
            up = hand_info[g, h, HI_TURNUP]
            for s in range(players):
                row = hand_seat[g, h, s]
                game_id[r] = game_start + g
                hand[r] = h
                seat[r] = s
                team[r] = teams[s]
                policy[r] = seat_policy[s]
                dealer[r] = hand_info[g, h, HI_DEALER]
                trump[r] = max(hand_info[g, h, HI_TRUMP], -1)
                turnup[r] = -1 if up < 0 else up % 32
                points[r] = row[HS_POINTS]
                score_after[r] = row[HS_SCORE_AFTER]
                for k in range(len(SMALL_COUNTS)):
                    small[k, r] = row[SMALL_COUNTS[k]]
                for k in range(N_KINDS):
                    kinds[k, r] = row[HS_KIND + k]
                r += 1
    return (game_id, hand, seat, team, policy, dealer, trump, turnup, points, score_after,
            small, kinds)


@njit(cache=True, nogil=True)
def declaration_columns(events, game_info, game_start, is_combination):
    """Columns of the declarations table, one row per event in engine order (layout of
    api.unpack_events). ``suit`` is -1 (null) for events without one. The combinations one
    seat scored on one trick form one declaration (R5.2): ``compound_id`` numbers them
    within the game and ``compound_size`` counts their combinations; both -1 (null) for
    events that are not scored combinations."""
    n_games = game_info.shape[0]
    rows = 0
    for g in range(n_games):
        rows += game_info[g, GI_N_EVENTS]
    game_id = np.empty(rows, np.int64)
    hand = np.empty(rows, np.int16)
    trick = np.empty(rows, np.int16)
    seat = np.empty(rows, np.int8)
    kind = np.empty(rows, np.int16)        # dictionary codes: checked, then narrowed
    points = np.empty(rows, np.int32)
    status = np.empty(rows, np.int16)
    suit = np.empty(rows, np.int16)
    compound_id = np.full(rows, -1, np.int16)
    compound_size = np.full(rows, -1, np.int8)
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
            kind[r] = k
            st = (p >> 28) & 0xF
            status[r] = st
            suit[r] = ((p >> 32) & 0xFF) - 1
            points[r] = (p >> 40) & 0xFFFFFF
            if is_combination[k] and st != EV_LOST:
                this = p & 0xFFFFF                  # hand, trick and seat
                if this != key:
                    if group >= 0:
                        _close_group(compound_id, compound_size, group_start, r)
                    group += 1
                    key = this
                    group_start = r
                compound_id[r] = group
            r += 1
        if group >= 0:
            _close_group(compound_id, compound_size, group_start, r)
    return game_id, hand, trick, seat, kind, points, status, suit, compound_id, compound_size


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
