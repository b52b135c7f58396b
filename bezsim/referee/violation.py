"""How the referee reports a broken rule: one exception type, raised at the first rule broken,
so that a test, the soak or a one-off replay can tell a finding from any other failure. A
``Violation`` is an ``AssertionError``, as a failed check in a test would be."""

from __future__ import annotations


class Violation(AssertionError):
    pass


def expect(cond: bool, what: str, *args) -> None:
    if not cond:
        raise Violation(what + (": " + " ".join(map(str, args)) if args else ""))


def expect_no_negative(row: list[int], seats: int, what: str) -> None:
    """Scores are never negative: the seats' values of a TR_HAND_POINTS, TR_HAND_END
    or TR_GAME_END row (fields 2..). Checked before the values are compared with the checker's
    own, so that a negative value is reported as such."""
    if min(row[2:2 + seats]) < 0:
        raise Violation(f"negative {what}: {row}")


def expect_event_points(row: list[int]) -> None:
    """No event scores negative points; checked before the event is compared."""
    if row[7] < 0:
        raise Violation(f"negative points in an event: {row}")

