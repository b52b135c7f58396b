"""Shared helpers for the position tests: what the engine offers, as comparable data."""

from __future__ import annotations

from bezsim import cards
from bezsim.position import legal_declarations, legal_plays, parse_position


def decls(data: dict) -> list[tuple]:
    """Offered declarations as a sorted list of (kind, suit, points)."""
    return sorted((d["kind"], d["suit"] or "", d["points"])
                  for d in legal_declarations(parse_position(data)))


def decl_cards(data: dict) -> dict[tuple, list[str]]:
    """(kind, suit) -> sorted cards the engine would score for it."""
    return {(d["kind"], d["suit"] or ""): sorted(d["cards"])
            for d in legal_declarations(parse_position(data))}


def plays(data: dict) -> list[str]:
    """Legal plays of the seat to move as sorted card names ('K♥', 'Q♠#1')."""
    return sorted(cards.card_name(c, with_copy=True)
                  for c in legal_plays(parse_position(data)))
