"""Card ids and their text forms: a card is a small integer (docs/rules.md, Notation).

A physical card is ``id = pack * 32 + suit * 8 + rank``; ``id % 32`` is its face.
Ranks run A, 10, K, Q, J, 9, 8, 7 (rank 0 is the highest, R1.2), suits ♠ ♥ ♦ ♣.
Text: ``"Q♠"`` or ``"QS"`` names a face; ``"QS#1"`` names the copy from pack 1.
"""

from __future__ import annotations

from bezsim.errors import BezsimError

RANK_NAMES = ("A", "10", "K", "Q", "J", "9", "8", "7")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
SUIT_LETTERS = ("S", "H", "D", "C")

ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = range(8)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
FACES_PER_PACK = 32

_RANK_ALIASES = {"A": ACE, "10": TEN, "T": TEN, "K": KING, "Q": QUEEN, "J": JACK,
                 "9": NINE, "8": EIGHT, "7": SEVEN}
_SUIT_ALIASES = {**{s: i for i, s in enumerate(SUIT_SYMBOLS)},
                 **{s: i for i, s in enumerate(SUIT_LETTERS)},
                 **{s.lower(): i for i, s in enumerate(SUIT_LETTERS)}}


class CardError(BezsimError, ValueError):
    """A card name that cannot be read."""


def card_id(pack: int, suit: int, rank: int) -> int:
    return pack * FACES_PER_PACK + suit * 8 + rank


def face(card: int) -> int:
    return card % FACES_PER_PACK


def suit_of(card: int) -> int:
    return (card % FACES_PER_PACK) // 8


def rank_of(card: int) -> int:
    return card % 8


def pack_of(card: int) -> int:
    return card // FACES_PER_PACK


def parse_suit(text: str) -> int:
    """Read a suit given as a symbol (♠) or letter (S)."""
    key = text.strip()
    if key.upper() in _SUIT_ALIASES:
        return _SUIT_ALIASES[key.upper()]
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    raise CardError(f"unknown suit {text!r} (use ♠ ♥ ♦ ♣ or S H D C)")


def parse_card(text: str, packs: int = 6) -> int:
    """Read "Q♠", "QS", "10H", "TH" or "QS#1" (copy from pack 1) into a card id."""
    raw = str(text).strip()
    body, sep, copy = raw.partition("#")
    pack = 0
    if sep:
        if not (copy.isascii() and copy.isdigit()):
            raise CardError(f"bad copy number in card {text!r}")
        pack = int(copy)
        if pack >= packs:
            raise CardError(f"card {text!r}: pack {pack} does not exist with {packs} packs")
    if len(body) < 2:
        raise CardError(f"unknown card {text!r}")
    rank_text, suit_text = body[:-1].upper(), body[-1]
    if rank_text not in _RANK_ALIASES:
        raise CardError(f"unknown rank in card {text!r}")
    try:
        suit = parse_suit(suit_text)
    except CardError:
        raise CardError(f"unknown suit in card {text!r}") from None
    return card_id(pack, suit, _RANK_ALIASES[rank_text])


def card_name(card: int, with_copy: bool = False, ascii_only: bool = False) -> str:
    """Readable name; ``with_copy`` adds ``#pack`` for copies beyond pack 0."""
    suits = SUIT_LETTERS if ascii_only else SUIT_SYMBOLS
    name = RANK_NAMES[rank_of(card)] + suits[suit_of(card)]
    if with_copy and pack_of(card) > 0:
        name += f"#{pack_of(card)}"
    return name


def suit_name(suit: int, ascii_only: bool = False) -> str:
    return (SUIT_LETTERS if ascii_only else SUIT_SYMBOLS)[suit]
