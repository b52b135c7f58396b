"""What a position is: the ``Position`` a file describes, and the rule geometry
(tricks, stages, partners) read from its rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.errors import BezsimError
from bezsim.rules import Rules

KEYS = {"variant", "options", "trumps", "turnup", "seven_exchanged", "stock", "stage", "trick",
         "to_move", "phase", "current_trick", "seats", "played", "scored_this_trick",
         "won_trick", "trick_winner", "points", "brisques", "comment"}
HIST_BITS = {name: 1 << i for i, name in enumerate(C.HIST_NAMES)}
BROKEN = "broken:"          # Rubicon: a declared combination one of whose cards was played
UNDECIDED = "undecided"     # Rubicon: trumps not yet fixed (R6.2)
SEVEN_KINDS = (C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE)
COMBINATION_NAMES = {C.KIND_NAMES[k] for k in C.COMBINATION_KINDS}
BEZ_NAMES = ("bezique", "double_bezique", "triple_bezique", "quadruple_bezique")


class PositionError(BezsimError, ValueError):
    """A position description that does not describe a legal hand state."""


@dataclass
class Position:
    rules: Rules
    trumps: int
    turnup: int                    # card id, or NO_CARD once taken
    seven_exchanged: bool
    stock: int                     # face-down cards left
    trick: int                     # number of the trick being played or just won
    to_move: int
    phase: str                     # "play" or "declare"
    current_trick: list[int]
    hands: list[list[int]]
    shown: list[set[int]]
    history: dict[int, int]
    played: list[int] = field(default_factory=list)
    scored_this_trick: list[int] = field(default_factory=list)
    open: list[list[int]] = field(default_factory=list)     # Polish open cards per seat
    won_trick: list[int] = field(default_factory=list)      # Polish: the trick just won
    trick_winner: int = -1         # declare phase: the seat that won (to_move or partner)
    points: list[int] = field(default_factory=list)     # each seat's points this hand so far
    brisques: list[int] = field(default_factory=list)   # Rubicon: each seat's brisques won

    def __post_init__(self) -> None:
        if self.trick_winner < 0:
            self.trick_winner = self.to_move
        players = self.rules.players
        self.points = list(self.points) or [0] * players
        self.brisques = list(self.brisques) or [0] * players

    @property
    def open_cards(self) -> bool:
        return self.rules.definition.open_cards

    @property
    def stage(self) -> int:
        return 2 if self.stock == 0 and self.turnup == C.NO_CARD else 1


def is_reforming(rules: Rules) -> bool:
    """Rubicon-style reuse (R6.6): history words carry intact and ever bits."""
    return int(rules.params()[C.PR_REUSE]) != C.REUSE_ORDINARY


def stage1_tricks(rules: Rules) -> int:
    """Tricks played while the stock lasts: 24 (two, three or four packs and players, eight
    cards each), 55 in Rubicon."""
    n_cards = rules.packs * 32
    return (n_cards - rules.players * rules.hand_size) // rules.players


def stage2_pairs(rules: Rules) -> bool:
    """Partnership stage 2 as two head-to-head endings of two-card tricks (R4.2, option
    partnership_stage2=pairs)."""
    return bool(rules.params()[C.PR_STAGE2_PAIRS]) and rules.players == 4


def last_trick(rules: Rules) -> int:
    """Number of the last trick of a hand: 32, 64 in Rubicon, 40 in the partnership game
    whose stage 2 is played in pairs (eight tricks for each pair, R4.2)."""
    return stage1_tricks(rules) + rules.hand_size * (2 if stage2_pairs(rules) else 1)


def trick_size(rules: Rules, stage: int) -> int:
    """Cards in a complete trick: one per player, two in a partnership stage-2 pair (R4.2)."""
    return 2 if stage == 2 and stage2_pairs(rules) else rules.players


def partner_of(rules: Rules, seat: int) -> int | None:
    """The seat opposite (R4.2: team t = seats t and t + 2), or None without partners."""
    return (seat + 2) % 4 if rules.partners else None


def trumps_name(trumps: int) -> str:
    return UNDECIDED if trumps == C.NO_TRUMP else cards.suit_name(trumps)


def history_names(rules: Rules, bits: int) -> list[str]:
    """The ``declared`` names of a copy's history word (inverse of the parsing)."""
    ever = bits >> C.H_EVER_SHIFT if is_reforming(rules) else 0
    names = []
    for i, name in enumerate(C.HIST_NAMES):
        if bits & (1 << i):
            names.append(name)
        elif ever & (1 << i):
            names.append(BROKEN + name)
    return names


class Copies:
    """Hands out physical copies: "Q♠" takes the lowest copy not yet used, "Q♠#1" pack 1."""

    def __init__(self, packs: int) -> None:
        self.packs = packs
        self.used: set[int] = set()

    def take(self, text: Any, where: str) -> int:
        if not isinstance(text, str):
            raise PositionError(f"{where}: a card must be a string like 'Q♠', got {text!r}")
        try:
            card = cards.parse_card(text, self.packs)
        except BezsimError as exc:
            raise PositionError(f"{where}: {exc}") from None
        if "#" not in text:
            face = cards.face(card)
            free = [face + 32 * p for p in range(self.packs) if face + 32 * p not in self.used]
            if not free:
                raise PositionError(f"{where}: more copies of {text} than {self.packs} packs hold")
            card = free[0]
        elif card in self.used:
            raise PositionError(f"{where}: card {text} is listed twice")
        self.used.add(card)
        return card
