"""The card notation of docs/rules.md (Notation: id = pack*32 + suit*8 + rank) and the
per-seat layout of trace rows, read independently of the engine's card code: the referee
derives suit, rank and face from the card id itself so that an engine mistake in either cannot
hide in a shared helper."""

from __future__ import annotations

from bezsim.engine import constants as C

# --- cards (docs/rules.md, Notation: id = pack*32 + suit*8 + rank) ----------------------------

ACE, TEN, KING, QUEEN, JACK, SEVEN = 0, 1, 2, 3, 4, 7
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SEQ_RANKS = (ACE, TEN, KING, QUEEN, JACK)
NO_TAGS: frozenset = frozenset()     # the declaration tags of a copy never declared (R1.9)


def suit(card: int) -> int:
    return (card % 32) // 8


def rank(card: int) -> int:
    return card % 8


def face(card: int) -> int:
    return card % 32


# --- trace rows -------------------------------------------------------------------------------

def pad4(values: list[int]) -> list[int]:
    """One value per seat, -1 for the seats the variant lacks (TR_HAND_END and friends)."""
    return list(values) + [-1] * (C.MAX_PLAYERS - len(values))
