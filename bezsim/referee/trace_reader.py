"""What a hand of the referee reads of the game it belongs to: the game (``referee.game``)
picks each hand's class, so the hands name only this shape, not the game's module."""

from __future__ import annotations

from typing import Any, Protocol


class GameTrace(Protocol):
    """A game's options, its seats' policies, the trace rows its hands walk in order, and
    what the hands add up: scores, brisques, outcome rows and the rare features seen."""

    o: dict[str, Any]
    layout: tuple[int, int, bool]      # players, packs, partnerships
    policies: list[str]
    rows: Any
    pos: int
    scores: list[int]
    brisques: list[int]
    hand_rows: list[dict]
    stats: Any                         # a Counter

    def peek(self) -> Any: ...

    def take(self, record: int, what: str) -> Any: ...

    def at(self, record: int) -> bool: ...
