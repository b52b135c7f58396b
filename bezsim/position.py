"""Positions: a hand state written by a person (JSON or dict), asked for its legal plays and
legal declarations with points, through the engine's own compiled functions.

Format (every key but ``seats`` optional; see README "Positions")::

    {"variant": "ordinary", "options": {"stage2_duty": "follow_and_win"},
     "trumps": "♥", "turnup": "9♥", "seven_exchanged": false,
     "stock": 20, "trick": 12, "to_move": 0, "phase": "play" | "declare",
     "current_trick": ["Q♥"],
     "seats": [{"hand": ["K♠", "Q♠", "J♦"], "declared": {"Q♠": ["marriage"]}}, {"hand": []}],
     "played": ["A♣"], "scored_this_trick": ["bezique"]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.errors import BezsimError
from bezsim.rules import Rules, RulesError

_KEYS = {"variant", "options", "trumps", "turnup", "seven_exchanged", "stock", "stage", "trick",
         "to_move", "phase", "current_trick", "seats", "played", "scored_this_trick",
         "comment"}
_HIST_BITS = {name: 1 << i for i, name in enumerate(C.HIST_NAMES)}
_SEVEN_KINDS = (C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE)


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

    @property
    def stage(self) -> int:
        return 2 if self.stock == 0 and self.turnup == C.NO_CARD else 1


class _Copies:
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


def _int(data: dict, key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"'{key}' must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise PositionError(f"'{key}'={value} is out of range ({low}..{high})")
    return value


def parse_position(data: Any) -> Position:
    """Validate a position description and turn it into card ids."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise PositionError(f"unknown key {unknown[0]!r} in position (keys: "
                            f"{', '.join(sorted(_KEYS))})")
    try:
        rules = Rules.make(data.get("variant", "ordinary"), data.get("options") or {})
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    players, packs = rules.players, rules.packs
    n_cards = packs * 32
    stage1_tricks = (n_cards - players * 8) // players
    copies = _Copies(packs)
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise PositionError(f"'seats' must be a list of {players} seats")
    hands: list[list[int]] = []
    shown: list[set[int]] = []
    history: dict[int, int] = {}
    for s, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("hand", []), list):
            raise PositionError(f"seat {s}: must be an object with a 'hand' list")
        extra = sorted(set(seat) - {"hand", "declared"})
        if extra:
            raise PositionError(f"seat {s}: unknown key {extra[0]!r} (use 'hand', 'declared')")
        hand = [copies.take(t, f"seat {s} hand") for t in seat.get("hand", [])]
        declared = seat.get("declared", {}) or {}
        if not isinstance(declared, dict):
            raise PositionError(f"seat {s}: 'declared' must map cards to declaration lists")
        table: set[int] = set()
        for text, kinds in declared.items():
            card = _declared_card(text, hand, copies, s)
            bits = 0
            for name in kinds if isinstance(kinds, list) else [kinds]:
                if name not in _HIST_BITS:
                    raise PositionError(f"seat {s}: unknown declaration {name!r} for {text} "
                                        f"(use: {', '.join(C.HIST_NAMES)})")
                bits |= _HIST_BITS[name]
            history[card] = bits
            table.add(card)
        if len(hand) > 9:
            raise PositionError(f"seat {s}: {len(hand)} cards in hand, at most 9 possible")
        hands.append(hand)
        shown.append(table)
    trumps = _suit(data.get("trumps"), "trumps")
    turnup = C.NO_CARD
    if data.get("turnup") is not None:
        turnup = copies.take(data["turnup"], "turnup")
        if cards.suit_of(turnup) != trumps:
            raise PositionError("turnup must be of the trump suit")
    current = [copies.take(t, "current_trick") for t in data.get("current_trick", []) or []]
    played = [copies.take(t, "played") for t in data.get("played", []) or []]
    stock = _int(data, "stock", 0 if turnup == C.NO_CARD else 1, 0, n_cards - players * 8 - 1)
    trick = _int(data, "trick", stage1_tricks + 1 if stock == 0 and turnup == C.NO_CARD
                 else 1, 1, n_cards // players)
    to_move = _int(data, "to_move", 0, 0, players - 1)
    phase = data.get("phase", "play")
    if phase not in ("play", "declare"):
        raise PositionError(f"'phase' must be 'play' or 'declare', got {phase!r}")
    if len(current) >= players:
        raise PositionError(f"'current_trick' holds {len(current)} cards; a trick has {players}")
    if phase == "declare" and current:
        raise PositionError("'current_trick' must be empty when the phase is 'declare'")
    if stock > 0 and turnup == C.NO_CARD:
        raise PositionError("a position with face-down 'stock' cards needs its 'turnup' card "
                            "(the turn-up is taken only after the last stock card)")
    stage = 2 if stock == 0 and turnup == C.NO_CARD else 1
    if "stage" in data and data["stage"] != stage:
        raise PositionError(f"'stage' {data['stage']!r} does not match stock {stock} and "
                            f"turnup {data.get('turnup')!r} (stage 2 means stock 0, no turn-up)")
    scored = []
    for name in data.get("scored_this_trick", []) or []:
        if name not in C.KIND_NAMES:
            raise PositionError(f"unknown kind {name!r} in 'scored_this_trick'")
        scored.append(C.KIND_NAMES.index(name))
    return Position(rules, trumps, turnup, bool(data.get("seven_exchanged", False)), stock,
                    trick, to_move, phase, current, hands, shown, history, played, scored)


def _suit(value: Any, key: str) -> int:
    if not isinstance(value, str):
        raise PositionError(f"'{key}' must be a suit (♠ ♥ ♦ ♣ or S H D C)")
    try:
        return cards.parse_suit(value)
    except BezsimError as exc:
        raise PositionError(f"'{key}': {exc}") from None


def _declared_card(text: Any, hand: list[int], copies: _Copies, seat: int) -> int:
    """A 'declared' key names a card the seat holds on the table: the matching card of its
    'hand' list (first copy of that face, or the copy named with #k), else one more card of
    the hand (declared cards stay part of the hand, R1.7)."""
    try:
        card = cards.parse_card(str(text), copies.packs)
    except BezsimError as exc:
        raise PositionError(f"seat {seat} declared: {exc}") from None
    if "#" in str(text):
        if card in hand:
            return card
    else:
        for c in hand:
            if cards.face(c) == cards.face(card):
                return c
    card = copies.take(text, f"seat {seat} declared")
    hand.append(card)
    return card


def load_position(path: str | Path) -> Position:
    """Read a position file; every problem is a one-line PositionError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PositionError(f"cannot read position file {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"position file {path} is not valid JSON: {exc.msg} at line "
                            f"{exc.lineno}") from None
    return parse_position(data)


def build_state(pos: Position) -> np.ndarray:
    """The engine state array for a position (only what legality depends on is filled)."""
    from bezsim.engine import state as st
    from bezsim.engine.melds import set_roles

    S = st.new_state(0, 0)
    for card, bits in pos.history.items():
        S[st.O_HIST + card] = bits
    for seat, hand in enumerate(pos.hands):
        for i, card in enumerate(hand):
            S[st.O_HANDS + seat * C.MAX_HAND + i] = card
            S[st.O_LOC + card] = (C.LOC_TABLE if card in pos.shown[seat] else C.LOC_HAND) + seat
        S[st.O_HAND_N + seat] = len(hand)
    for i, card in enumerate(pos.current_trick):
        S[st.O_TRICK + i] = card
        S[st.O_LOC + card] = C.LOC_TRICK
    for card in pos.played:
        S[st.O_LOC + card] = C.LOC_PLAYED
    sc = st.O_SC
    S[sc + C.SC_TRUMP] = pos.trumps
    S[sc + C.SC_TURNUP] = pos.turnup
    S[sc + C.SC_EXCHANGED] = int(pos.seven_exchanged)
    S[sc + C.SC_TRICK] = pos.trick
    S[sc + C.SC_STAGE] = pos.stage
    S[sc + C.SC_STOCK_LEFT] = pos.stock
    S[sc + C.SC_N_TRICK] = len(pos.current_trick)
    set_roles(pos.rules.params(), S)
    return S


def legal_plays(pos: Position) -> list[int]:
    from bezsim.engine import state as st
    from bezsim.engine.tricks import legal_plays as kernel

    params = pos.rules.params()
    S = build_state(pos)
    n = kernel(S, pos.to_move, len(pos.current_trick), pos.trumps, pos.stage,
               int(params[C.PR_STAGE2_DUTY]))
    return [int(c) for c in S[st.O_ACTS:st.O_ACTS + n]]


def legal_declarations(pos: Position) -> list[dict[str, Any]]:
    """What the seat to move may declare now, having just won a trick (R1.7, R1.10, R2.3)."""
    from bezsim.engine import state as st
    from bezsim.engine.melds import legal_declarations as kernel
    from bezsim.engine.melds import select_copies

    params = pos.rules.params()
    n_cards = pos.rules.packs * 32
    stage1_tricks = (n_cards - pos.rules.players * 8) // pos.rules.players
    if pos.phase != "declare" or pos.stage != 1 or pos.trick > stage1_tricks:
        return []
    if pos.trick == stage1_tricks and not params[C.PR_DECL_AFTER_LAST]:
        return []
    seven_is_decl = bool(params[C.PR_SEVEN_IS_DECL])
    combos = sum(1 for k in pos.scored_this_trick if k not in _SEVEN_KINDS)
    sevens = sum(1 for k in pos.scored_this_trick if k in _SEVEN_KINDS)
    if seven_is_decl:
        allow_combo = allow_seven = combos + sevens == 0
    else:
        allow_combo, allow_seven = combos == 0, sevens == 0
    S = build_state(pos)
    seat = pos.to_move
    n = kernel(params, S, seat, allow_combo, allow_seven, st.O_ACTS)
    result = []
    for i in range(n):
        code = int(S[st.O_ACTS + i])
        points = int(S[st.O_APTS + i])
        kind = code >> 2
        if kind in _SEVEN_KINDS:
            chosen = [min(c for c in pos.hands[seat] if cards.face(c) == pos.trumps * 8 + 7
                          and not pos.history.get(c, 0) & C.H_SEVEN)]
        else:
            k = select_copies(params, S, seat, code)
            chosen = [int(c) for c in S[st.O_BUF:st.O_BUF + k]]
        result.append({
            "kind": C.KIND_NAMES[kind],
            "suit": cards.suit_name(code & 3) if kind <= C.K_ROYAL_MARRIAGE else None,
            "points": points,
            "cards": [cards.card_name(c, with_copy=True) for c in chosen],
        })
    return result


def explain(pos: Position) -> dict[str, Any]:
    """Everything ``bezsim explain`` shows, as plain data."""
    plays = legal_plays(pos) if pos.phase == "play" else []
    return {
        "variant": pos.rules.variant,
        "seat": pos.to_move,
        "phase": pos.phase,
        "stage": pos.stage,
        "trick": pos.trick,
        "trumps": cards.suit_name(pos.trumps),
        "current_trick": [cards.card_name(c, with_copy=True) for c in pos.current_trick],
        "legal_plays": [cards.card_name(c, with_copy=True) for c in plays],
        "legal_declarations": legal_declarations(pos),
    }


def format_explanation(d: dict[str, Any]) -> str:
    lines = [f"{d['variant']} bézique, trumps {d['trumps']}, trick {d['trick']} "
             f"(stage {d['stage']}), seat {d['seat']} to {d['phase']}"]
    if d["phase"] == "play":
        if d["current_trick"]:
            lines.append("on the trick: " + " ".join(d["current_trick"]))
        lines.append("legal plays: " + (" ".join(d["legal_plays"]) or "none"))
    else:
        if not d["legal_declarations"]:
            lines.append("legal declarations: none")
        else:
            lines.append("legal declarations:")
            for decl in d["legal_declarations"]:
                suit = f" {decl['suit']}" if decl["suit"] else ""
                lines.append(f"  {decl['kind']}{suit}: {decl['points']} "
                             f"({' '.join(decl['cards'])})")
    return "\n".join(lines)
