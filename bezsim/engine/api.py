"""Python face of the engine: validated calls into the compiled kernels.

The kernels live in ``bezsim.engine.game`` (numba); this module owns argument checking and
the ``GameBatch`` result type that the io layer turns into tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bezsim.engine import constants as C


@dataclass
class GameBatch:
    """Outcome arrays of games ``game_start .. game_start + n_games - 1``.

    hand_seat  int32 [n, hand_cap, players, HS_SIZE]  points by source per hand and seat
    hand_info  int32 [n, hand_cap, HI_SIZE]           dealer, trump, turn-up ... per hand
    game_info  int64 [n, GI_SIZE]                     hands played, winner, scores ...
    events     int64 [n, event_cap]                   packed scoring events (unpack_events)
    Only the first ``game_info[g, GI_HANDS]`` hands and ``game_info[g, GI_N_EVENTS]`` events
    of game g are meaningful.
    """

    game_start: int
    players: int
    hand_seat: np.ndarray
    hand_info: np.ndarray
    game_info: np.ndarray
    events: np.ndarray

    @property
    def n_games(self) -> int:
        return int(self.game_info.shape[0])


def unpack_events(packed: np.ndarray) -> dict[str, np.ndarray]:
    """Split packed int64 events into named columns (layout: engine.events.pack_event)."""
    p = packed.astype(np.int64)
    return {
        "hand": (p & 0xFF).astype(np.int16),
        "trick": ((p >> 8) & 0xFF).astype(np.int16),
        "seat": ((p >> 16) & 0xF).astype(np.int8),
        "kind": ((p >> 20) & 0xFF).astype(np.int8),
        "status": ((p >> 28) & 0xF).astype(np.int8),
        "extra": ((p >> 32) & 0xFF).astype(np.int16),
        "points": ((p >> 40) & 0xFFFFFF).astype(np.int32),
    }


__all__ = ["GameBatch", "unpack_events", "C"]
