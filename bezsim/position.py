"""Positions: a hand state written by a person (JSON or dict), asked for its legal plays and
legal declarations with points, through the engine's own compiled functions.

Format (every key but ``seats`` optional; see README "Positions")::

    {"variant": "ordinary", "options": {"stage2_duty": "follow_and_win"},
     "trumps": "♥", "turnup": "9♥", "seven_exchanged": false,
     "stock": 20, "trick": 12, "to_move": 0, "phase": "play" | "declare",
     "current_trick": ["Q♥"],
     "seats": [{"hand": ["K♠", "Q♠", "J♦"], "declared": {"Q♠": ["marriage"]}}, {"hand": []}],
     "played": ["A♣"], "scored_this_trick": ["bezique"]}

Three and four players (``three_handed``, ``four_handed``, ``four_handed_partners``; R3, R4):
``seats`` lists 3 or 4 seats, numbered to the left (play and dealing go seat + 1); three or
four packs (copies ``Q♠#0`` .. ``Q♠#2`` / ``#3``; more copies of a face than packs is an
error); ``stock`` 0..71 (3 players) or 0..95 (4), the turn-up apart; ``trick`` 1..32, or
1..40 for partners with ``partnership_stage2=pairs`` (stage 2 = tricks 25..32 for the winner
of trick 24 and his left-hand opponent, 33..40 for the other two), whose stage-2
``current_trick`` then holds at most one card (a two-card trick). ``declared`` names may
include ``"triple_bezique"``; a pair still in an intact declared double is
``["double_bezique"]``, the pair left on the table once a queen and a jack of that double
have been played is ``["bezique"]`` (it may make a second double with a third pair, R3).
Partners (R4.2, team = seat % 2): the seat to move in a ``declare`` position is the one
declaring; its partner's ``declared`` Q♠/J♦ copies on the table may complete its double or
triple bezique (nothing else, and never the partner's concealed hand). Optional
``"trick_winner"``: the seat that won the trick, the seat to move (default) or its partner,
who then scored no combination on this win (R4.2); ``scored_this_trick`` lists what the seat
to move itself has scored on this win.

Rubicon (R6): ``"trumps": null`` (or absent, or ``"undecided"``) while no marriage or sequence
has fixed trumps (R6.2); no turn-up; four packs (copies ``Q♠#0`` .. ``Q♠#3``). A ``declared``
name then means "scored in that kind, and that combination is still intact"; ``"broken:<name>"``
means "scored in that kind, but a card of that combination has since been played", so the
copy may re-form it with a like card (R6.6). Engine history word: intact kinds in the low bits,
every kind ever scored in at ``<< H_EVER_SHIFT``.
"""

from __future__ import annotations

import json
import sys
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
         "won_trick", "trick_winner", "comment"}
_HIST_BITS = {name: 1 << i for i, name in enumerate(C.HIST_NAMES)}
BROKEN = "broken:"          # Rubicon: a declared combination one of whose cards was played
UNDECIDED = "undecided"     # Rubicon: trumps not yet fixed (R6.2)
_SEVEN_KINDS = (C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE)
_COMBINATION_NAMES = {C.KIND_NAMES[k] for k in range(C.K_FOUR_JACKS + 1)}
_BEZ_NAMES = ("bezique", "double_bezique", "triple_bezique", "quadruple_bezique")


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

    def __post_init__(self) -> None:
        if self.trick_winner < 0:
            self.trick_winner = self.to_move

    @property
    def open_cards(self) -> bool:
        return bool(self.rules.params()[C.PR_OPEN_CARDS])

    @property
    def stage(self) -> int:
        return 2 if self.stock == 0 and self.turnup == C.NO_CARD else 1


def _reforming(rules: Rules) -> bool:
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
    ever = bits >> C.H_EVER_SHIFT if _reforming(rules) else 0
    names = []
    for i, name in enumerate(C.HIST_NAMES):
        if bits & (1 << i):
            names.append(name)
        elif ever & (1 << i):
            names.append(BROKEN + name)
    return names


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
    params = rules.params()
    has_turnup = bool(params[C.PR_TURNUP])
    reforming = _reforming(rules)
    n_stage1 = stage1_tricks(rules)
    copies = _Copies(packs)
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise PositionError(f"'seats' must be a list of {players} seats")
    if params[C.PR_TRUMP_BY_MARRIAGE] and data.get("trumps") in (None, UNDECIDED):
        trumps = C.NO_TRUMP                  # not yet fixed by a marriage or sequence (R6.2)
    else:
        trumps = _suit(data.get("trumps"), "trumps")
    open_cards = bool(params[C.PR_OPEN_CARDS])
    hands: list[list[int]] = []
    shown: list[set[int]] = []
    opens: list[list[int]] = []
    history: dict[int, int] = {}
    for s, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("hand", []), list):
            raise PositionError(f"seat {s}: must be an object with a 'hand' list")
        allowed = {"hand", "declared", "open"} if open_cards else {"hand", "declared"}
        extra = sorted(set(seat) - allowed)
        if extra:
            raise PositionError(f"seat {s}: unknown key {extra[0]!r} (use "
                                f"{', '.join(repr(k) for k in sorted(allowed))})")
        hand = [copies.take(t, f"seat {s} hand") for t in seat.get("hand", [])]
        if not isinstance(seat.get("open", []), list):
            raise PositionError(f"seat {s}: 'open' must be a list of cards")
        open_list = [copies.take(t, f"seat {s} open") for t in seat.get("open", [])]
        declared = seat.get("declared", {}) or {}
        if not isinstance(declared, dict):
            raise PositionError(f"seat {s}: 'declared' must map cards to declaration lists")
        table: dict[int, Any] = {}          # declared card -> its name in the file
        for text, kinds in declared.items():
            # Polish: history belongs to open cards (hand cards never count, R5.1)
            card = _declared_card(text, open_list if open_cards else hand, copies, s)
            history[card] = _history_bits(kinds, reforming, s, text,
                                          int(params[C.PR_BEZ_LEVELS]))
            table[card] = text
        for card in open_list:      # 'declared' may have added cards to the open ones
            if not _can_be_open(card, data):
                raise PositionError(f"seat {s}: {cards.card_name(card)} cannot be an open card "
                                    "(only A, K, Q, J and the ten of trumps, R5.1)")
        for card, text in table.items():
            _check_history_fits(card, history[card], params, trumps, s, text)
        most = rules.hand_size + 1         # a full hand, or one more while playing
        if len(hand) > most:
            raise PositionError(f"seat {s}: {len(hand)} cards in hand, at most {most} "
                                "possible")
        hands.append(hand)
        shown.append(set() if open_cards else set(table))
        opens.append(open_list)
    turnup = C.NO_CARD
    if not has_turnup:
        if data.get("turnup") is not None:
            raise PositionError(f"{rules.variant} bézique has no turn-up: 'turnup' must be "
                                "null or absent (R6.1)")
        if _flag(data, "seven_exchanged"):
            raise PositionError(f"{rules.variant} bézique has no seven to exchange: "
                                "'seven_exchanged' must be false (R6.3)")
    if data.get("turnup") is not None:
        turnup = copies.take(data["turnup"], "turnup")
        if cards.suit_of(turnup) != trumps:
            raise PositionError("turnup must be of the trump suit")
    current = [copies.take(t, "current_trick") for t in _card_list(data, "current_trick")]
    won = [copies.take(t, "won_trick") for t in _card_list(data, "won_trick")]
    if won and (not open_cards or len(won) != players):
        raise PositionError(f"'won_trick' (Polish only) lists the {players} cards of the trick "
                            "the seat to move has just won")
    played = [copies.take(t, "played") for t in _card_list(data, "played")]
    stock = _int(data, "stock", 0 if turnup == C.NO_CARD else 1, 0,
                 n_cards - players * rules.hand_size - int(has_turnup))
    trick = _int(data, "trick", n_stage1 + 1 if stock == 0 and turnup == C.NO_CARD
                 else 1, 1, last_trick(rules))
    to_move = _int(data, "to_move", 0, 0, players - 1)
    phase = data.get("phase", "play")
    if phase not in ("play", "declare"):
        raise PositionError(f"'phase' must be 'play' or 'declare', got {phase!r}")
    if phase == "declare" and current:
        raise PositionError("'current_trick' must be empty when the phase is 'declare'")
    if stock > 0 and turnup == C.NO_CARD and has_turnup:
        raise PositionError("a position with face-down 'stock' cards needs its 'turnup' card "
                            "(the turn-up is taken only after the last stock card)")
    stage = 2 if stock == 0 and turnup == C.NO_CARD else 1
    _check_counts(rules, stage, trick, stock, len(copies.used))
    size = trick_size(rules, stage)
    if len(current) >= size:
        why = (" (R4.2 partnership_stage2=pairs: stage-2 tricks are played by two)"
               if size < players else "")
        raise PositionError(f"'current_trick' holds {len(current)} cards; a trick has "
                            f"{size}{why}")
    trick_winner = _trick_winner(data, rules, to_move, phase)
    if "stage" in data and (data["stage"] not in (1, 2) or isinstance(data["stage"], bool)):
        raise PositionError(f"'stage' must be 1 or 2, got {data['stage']!r}")
    if "stage" in data and data["stage"] != stage:
        raise PositionError(f"'stage' {data['stage']!r} does not match stock {stock} and "
                            f"turnup {data.get('turnup')!r} (stage 2 means stock 0, no turn-up)")
    scored = []
    kinds = data.get("scored_this_trick") or []
    if not isinstance(kinds, list):
        raise PositionError(f"'scored_this_trick' must be a list of kinds, got {kinds!r}")
    for name in kinds:
        if name not in C.KIND_NAMES:
            raise PositionError(f"unknown kind {name!r} in 'scored_this_trick'")
        scored.append(C.KIND_NAMES.index(name))
    if open_cards and phase == "declare" and not won:
        raise PositionError("a Polish 'declare' position needs 'won_trick': the cards of the "
                            "trick the seat to move has just won")
    return Position(rules, trumps, turnup, _flag(data, "seven_exchanged"), stock,
                    trick, to_move, phase, current, hands, shown, history, played, scored,
                    opens, won, trick_winner)


def _card_list(data: dict, key: str) -> list:
    """A list of card names (absent or null: empty); anything else is refused, since a
    string would otherwise be read letter by letter."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(f"'{key}' must be a list of cards, got {value!r}")
    return value


def _flag(data: dict, key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PositionError(f"'{key}' must be true or false, got {value!r}")
    return value


def _check_counts(rules: Rules, stage: int, trick: int, stock: int, named: int) -> None:
    """Stage and trick must agree (stage 1: the stock's tricks, stage 2 the rest), and the
    named cards plus the face-down stock must fit in the packs."""
    n_stage1 = stage1_tricks(rules)
    if stage == 1 and trick > n_stage1:
        raise PositionError(f"'trick' {trick} is after the stock is gone (stage 1 has tricks "
                            f"1..{n_stage1}), but 'stock'/'turnup' say stage 1")
    if stage == 2 and trick <= n_stage1:
        raise PositionError(f"'trick' {trick} is a stage-1 trick (1..{n_stage1}), but "
                            "'stock' 0 and no 'turnup' say stage 2")
    n_cards = rules.packs * 32
    if named + stock > n_cards:
        raise PositionError(f"the position holds {named} named cards and {stock} in the stock: "
                            f"more than the {n_cards} cards of {rules.packs} packs")


# the ranks each history name can belong to (R1.7-R1.9; sequence: A 10 K Q J)
_KIND_RANKS = {"marriage": (cards.KING, cards.QUEEN),
               "sequence": (cards.ACE, cards.TEN, cards.KING, cards.QUEEN, cards.JACK),
               "four": (cards.ACE, cards.KING, cards.QUEEN, cards.JACK),
               "seven": (cards.SEVEN,)}


def _check_history_fits(card: int, bits: int, params: np.ndarray, trumps: int, seat: int,
                        text: Any) -> None:
    """A declared kind must be one the card can be part of: a marriage of K or Q, a
    sequence of trumps (Rubicon: of any suit), a bezique of its pair, four of A K Q J, the
    seven of trumps."""
    from bezsim.engine.melds import bezique_faces

    ever = bits >> C.H_EVER_SHIFT if int(params[C.PR_REUSE]) != C.REUSE_ORDINARY else 0
    rank, suit = cards.rank_of(card), cards.suit_of(card)
    pair = tuple(int(f) for f in bezique_faces(params, trumps))   # R9 bezique_pair
    for i, name in enumerate(C.HIST_NAMES):
        if not (bits | ever) & (1 << i):
            continue
        if name in _BEZ_NAMES:
            fits = cards.face(card) in pair
        else:
            fits = rank in _KIND_RANKS[name]
            if name == "seven" or (name == "sequence" and not params[C.PR_PLAIN_SEQUENCE]):
                fits = fits and (trumps == C.NO_TRUMP or suit == trumps)
        if not fits:
            raise PositionError(f"seat {seat}: {text} cannot have scored in {name!r} (it is "
                                f"not a card of that combination)")


def _trick_winner(data: dict, rules: Rules, to_move: int, phase: str) -> int:
    """R4.2: after his partner's win a seat declares from his own cards (the winner having
    scored no combination); ``trick_winner`` says whose win it was."""
    if "trick_winner" not in data:
        return to_move
    winner = _int(data, "trick_winner", to_move, 0, rules.players - 1)
    if winner == to_move:
        return winner
    if phase != "declare":
        raise PositionError("'trick_winner' belongs to a 'declare' position")
    if partner_of(rules, to_move) != winner:
        raise PositionError(f"seat {to_move} cannot declare on seat {winner}'s win: only the "
                            "winner or, in four_handed_partners, his partner declares (R1.7, "
                            "R4.2)")
    return winner


def _history_bits(kinds: Any, reforming: bool, seat: int, text: Any, levels: int) -> int:
    """A copy's history word from its ``declared`` names (R1.9; Rubicon R6.6: a plain name is
    an intact combination, intact and ever bits; ``broken:<name>`` the ever bit only).
    Beziques above the variant's highest (``levels``: 2 double, 3 triple, 4 quadruple) are
    no names: they cannot have scored."""
    names = [n for n in C.HIST_NAMES if not (reforming and n == "seven")
             and n not in _BEZ_NAMES[levels:]]
    allowed = names + ([BROKEN + n for n in names] if reforming else [])
    intact = ever = 0
    for name in kinds if isinstance(kinds, list) else [kinds]:
        if name not in allowed:
            if isinstance(name, str) and name.startswith(BROKEN) and not reforming:
                why = " ('broken:' applies to Rubicon re-forming, R6.6)"
            elif name == "seven" and reforming:
                why = " (no seven of trumps scores in Rubicon, R6.3)"
            elif name in _BEZ_NAMES[levels:]:
                why = f" (no {name.replace('_', ' ')} in this variant)"
            else:
                why = ""
            raise PositionError(f"seat {seat}: unknown declaration {name!r} for {text}{why} "
                                f"(use: {', '.join(allowed)})")
        base = name[len(BROKEN):] if name.startswith(BROKEN) else name
        bit = _HIST_BITS[base]
        if (ever if name == base else intact) & bit:
            raise PositionError(f"seat {seat}: {text} cannot be both {base!r} and "
                                f"{BROKEN + base!r}: a copy is in at most one intact "
                                "combination of a kind, which is the one that counts")
        if name.startswith(BROKEN):
            ever |= bit
        else:
            intact |= bit
    if not reforming:
        return intact
    return intact | ((intact | ever) << C.H_EVER_SHIFT)


def _can_be_open(card: int, data: dict) -> bool:
    r = cards.rank_of(card)
    if r in (cards.ACE, cards.KING, cards.QUEEN, cards.JACK):
        return True
    try:
        return r == cards.TEN and cards.suit_of(card) == cards.parse_suit(str(data.get("trumps")))
    except BezsimError:
        return False


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
    """Read a position file (``-``: standard input); every problem is a one-line
    PositionError."""
    if not isinstance(path, (str, Path)):
        raise PositionError(f"a position file must be a path, got {path!r}")
    where = "on standard input" if str(path) == "-" else f"file {path}"
    try:
        if str(path) == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PositionError(f"cannot read position {where}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PositionError(f"position {where} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"position {where} is not valid JSON: {exc.msg} at line "
                            f"{exc.lineno}") from None
    except RecursionError:
        raise PositionError(f"position {where} nests too deeply to be a position") from None
    return parse_position(data)


def build_state(pos: Position, event_cap: int = 0, trace_cap: int = 0) -> np.ndarray:
    """The engine state array for a position (only what legality depends on is filled)."""
    from bezsim.engine import state as st
    from bezsim.engine.melds import recount_hands, set_roles
    from bezsim.engine.open_cards import recount_open

    S = st.new_state(event_cap, trace_cap)
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
    for seat, open_list in enumerate(pos.open):
        for i, card in enumerate(open_list):
            S[st.O_OPEN + seat * st.OPEN_MAX + i] = card
            S[st.O_LOC + card] = C.LOC_OPEN + seat
        S[st.O_OPEN_N + seat] = len(open_list)
    for i, card in enumerate(pos.won_trick):
        S[st.O_TRICK + i] = card
        S[st.O_LOC + card] = C.LOC_PLAYED
    sc = st.O_SC
    S[sc + C.SC_TRUMP] = pos.trumps
    # a position does not say when trumps were fixed: at the deal, as far as it tells
    S[sc + C.SC_TRUMP_TRICK] = -1 if pos.trumps == C.NO_TRUMP else C.TRICK_DEAL
    S[sc + C.SC_PACKS] = pos.rules.packs
    S[sc + C.SC_PLAYERS] = pos.rules.players
    S[sc + C.SC_VARIANT] = int(pos.rules.params()[C.PR_VARIANT])
    S[sc + C.SC_TURNUP] = pos.turnup
    S[sc + C.SC_EXCHANGED] = int(pos.seven_exchanged)
    S[sc + C.SC_TRICK] = pos.trick
    S[sc + C.SC_STAGE] = pos.stage
    S[sc + C.SC_STOCK_LEFT] = pos.stock
    S[sc + C.SC_N_TRICK] = len(pos.current_trick)
    set_roles(pos.rules.params(), S)
    recount_hands(pos.rules.params(), S)
    for seat in range(len(pos.open)):
        recount_open(S, seat)
    st.load_rules(S, pos.rules.params())
    _fill_knowledge(pos, S)
    return S


def _fill_knowledge(pos: Position, S: np.ndarray) -> None:
    """Each seat's knowledge row (what a policy reads): its own cards, what lies face up
    (declared cards, open cards, the turn-up, the trick) and what has been played; every
    other card is unseen."""
    from bezsim.engine import state as st

    players = pos.rules.players
    for seat in range(players):
        row = st.O_SEEN + seat * st.N_MAX
        for other in range(players):
            for card in pos.hands[other]:
                if other == seat:
                    S[row + card] = C.V_MINE_SHOWN if card in pos.shown[other] else C.V_MINE
                elif card in pos.shown[other]:
                    S[row + card] = C.V_SHOWN + other
            for card in pos.open[other]:
                S[row + card] = C.V_OPEN + other
        for card in list(pos.played) + list(pos.won_trick):
            S[row + card] = C.V_PLAYED
        for card in pos.current_trick:
            S[row + card] = C.V_TRICK
        if pos.turnup != C.NO_CARD:
            S[row + pos.turnup] = C.V_TURNUP


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
    n_stage1 = stage1_tricks(pos.rules)
    if pos.phase != "declare" or pos.stage != 1 or pos.trick > n_stage1:
        return []
    if pos.trick == n_stage1 and not params[C.PR_DECL_AFTER_LAST]:
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
        # the suit of a marriage, a plain sequence, or a sequence that would fix trumps (R6.2)
        with_suit = (kind <= C.K_ROYAL_MARRIAGE or kind == C.K_PLAIN_SEQUENCE
                     or (kind == C.K_SEQUENCE and pos.trumps == C.NO_TRUMP))
        result.append({
            "kind": C.KIND_NAMES[kind],
            "suit": cards.suit_name(code & 3) if with_suit else None,
            "points": points,
            "cards": [cards.card_name(c, with_copy=True) for c in chosen],
        })
    return result


def open_cards_outcomes(pos: Position) -> list[dict[str, Any]]:
    """Polish (R5.2, R5.3): what winning ``won_trick`` scores, through the engine's own step
    after a trick — once keeping any seven of trumps in it, once exchanging it if possible."""
    from bezsim.engine.open_cards import open_cards_trick
    from bezsim.policies.builtin import FIRST_ACTION, LAST_ACTION

    params = pos.rules.params()
    players = pos.rules.players
    seven = [c for c in pos.won_trick if cards.face(c) == pos.trumps * 8 + cards.SEVEN
             and not pos.history.get(c, 0) & C.H_SEVEN]
    can_exchange = (bool(seven) and pos.stage == 1 and not pos.seven_exchanged
                    and pos.turnup != C.NO_CARD and cards.rank_of(pos.turnup) != cards.SEVEN)
    outcomes = []
    for exchange in ([False, True] if can_exchange else [False]):
        S = build_state(pos, event_cap=64, trace_cap=512)
        policy = FIRST_ACTION if exchange else LAST_ACTION
        open_cards_trick(params, S, np.zeros((1 + players, 4), np.uint64),
                         np.full(players, policy, np.int64), np.zeros((players, 1)), None,
                         pos.to_move, 0, pos.trick)
        brisques = 10 * sum(1 for c in pos.won_trick if cards.rank_of(c) in (cards.ACE,
                                                                             cards.TEN))
        events = [{"kind": "brisques", "suit": None, "points": brisques, "cards": []}] \
            if brisques else []
        events += _traced_events(S)
        events += _last_trick_events(pos, params)
        outcomes.append({"exchange_seven": exchange, "events": events,
                         "total": sum(e["points"] for e in events)})
    return outcomes


def _last_trick_events(pos: Position, params: np.ndarray) -> list[dict[str, Any]]:
    """The last-trick points of winning trick ``pos.trick`` (R2.5, option last_trick), which
    the engine scores as the trick ends, before the open-card step."""
    mode = int(params[C.PR_LAST_TRICK])
    scores = ((pos.trick == last_trick(pos.rules) and mode in (C.LAST_TRICK32, C.LAST_BOTH))
              or (pos.trick == stage1_tricks(pos.rules)
                  and mode in (C.LAST_TRICK24, C.LAST_BOTH)))
    if not scores:
        return []
    return [{"kind": "last_trick", "suit": None,
             "points": int(params[C.PR_POINTS + C.K_LAST_TRICK]), "cards": []}]


def _traced_events(S: np.ndarray) -> list[dict[str, Any]]:
    """Scoring events of a traced engine step, each with the cards that made it."""
    from bezsim.engine import state as st

    trace = np.zeros((int(S[st.O_TR_CAP]), C.TR_SIZE), np.int32)
    n = st.copy_trace(S, trace)
    events, pending = [], []
    for row in trace[:n]:
        if row[0] == C.TR_DECLARED_CARD:
            pending.append(cards.card_name(int(row[4]), with_copy=True))
        elif row[0] == C.TR_EXCHANGE:
            pending = [cards.card_name(int(row[4]), with_copy=True),
                       cards.card_name(int(row[5]), with_copy=True)]
        elif row[0] == C.TR_EVENT:
            kind, extra = int(row[4]), int(row[6])
            events.append({"kind": C.KIND_NAMES[kind],
                           "suit": cards.suit_name(extra - 1) if extra else None,
                           "points": int(row[7]), "cards": pending})
            pending = []
    return events


def explain(pos: Position) -> dict[str, Any]:
    """Everything ``bezsim explain`` shows, as plain data."""
    plays = legal_plays(pos) if pos.phase == "play" else []
    if pos.open_cards and pos.phase == "declare":
        outcomes = open_cards_outcomes(pos)
        combos = [e for e in outcomes[0]["events"] if e["kind"] in _COMBINATION_NAMES]
        return {
            "variant": pos.rules.variant, "seat": pos.to_move, "phase": pos.phase,
            "stage": pos.stage, "trick": pos.trick, "trumps": trumps_name(pos.trumps),
            "won_trick": [cards.card_name(c, with_copy=True) for c in pos.won_trick],
            "current_trick": [], "legal_plays": [],
            "legal_declarations": combos,
            "outcomes": outcomes,
        }
    result = {
        "variant": pos.rules.variant,
        "seat": pos.to_move,
        "phase": pos.phase,
        "stage": pos.stage,
        "trick": pos.trick,
        "trumps": trumps_name(pos.trumps),
        "current_trick": [cards.card_name(c, with_copy=True) for c in pos.current_trick],
        "legal_plays": [cards.card_name(c, with_copy=True) for c in plays],
        "legal_declarations": legal_declarations(pos),
    }
    if pos.rules.partners:      # R4.2: who the seat plays with, and whose win it declares on
        result["partner"] = partner_of(pos.rules, pos.to_move)
        if pos.phase == "declare":
            result["trick_winner"] = pos.trick_winner
    return result


def _format_outcomes(d: dict[str, Any]) -> list[str]:
    lines = ["won: " + " ".join(d["won_trick"])]
    for outcome in d["outcomes"]:
        how = "exchanging the seven" if outcome["exchange_seven"] else (
            "keeping the seven" if len(d["outcomes"]) > 1 else "scores")
        lines.append(f"{how}: {outcome['total']}")
        for e in outcome["events"]:
            suit = f" {e['suit']}" if e["suit"] else ""
            shown = f" ({' '.join(e['cards'])})" if e["cards"] else ""
            lines.append(f"  {e['kind']}{suit}: {e['points']}{shown}")
    return lines


def format_explanation(d: dict[str, Any]) -> str:
    lines = [f"{d['variant']} bézique, trumps {d['trumps']}, trick {d['trick']} "
             f"(stage {d['stage']}), seat {d['seat']} to {d['phase']}"]
    if "partner" in d:
        on_win = (", on partner's win" if d.get("trick_winner", d["seat"]) != d["seat"]
                  else "")
        lines[0] += f" (partner: seat {d['partner']}{on_win})"
    if "outcomes" in d:
        lines += _format_outcomes(d)
    elif d["phase"] == "play":
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
