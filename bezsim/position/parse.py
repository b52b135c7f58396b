"""Reading a position: a JSON file or dict checked into a ``Position``, every problem one
line naming the key (the format: bezsim/position/__init__.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.errors import BezsimError
from bezsim.position.model import (
    BEZ_NAMES,
    BROKEN,
    HIST_BITS,
    KEYS,
    UNDECIDED,
    Copies,
    Position,
    PositionError,
    is_reforming,
    last_trick,
    partner_of,
    stage1_tricks,
    trick_size,
)
from bezsim.rules import Rules, RulesError


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
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise PositionError(f"unknown key {unknown[0]!r} in position (keys: "
                            f"{', '.join(sorted(KEYS))})")
    try:
        rules = Rules.make(data.get("variant", "ordinary"), data.get("options") or {})
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    players, packs = rules.players, rules.packs
    n_cards = packs * 32
    params = rules.params()
    has_turnup = bool(params[C.PR_TURNUP])
    reforming = is_reforming(rules)
    n_stage1 = stage1_tricks(rules)
    copies = Copies(packs)
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise PositionError(f"'seats' must be a list of {players} seats")
    if params[C.PR_TRUMP_BY_MARRIAGE] and data.get("trumps") in (None, UNDECIDED):
        trumps = C.NO_TRUMP                  # not yet fixed by a marriage or sequence (R6.2)
    else:
        trumps = _suit(data.get("trumps"), "trumps")
    open_cards = rules.definition.open_cards
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
                                          int(params[C.PR_BEZ_LEVELS]),
                                          rules.definition.trump_fours)
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
                    opens, won, trick_winner, _per_seat(data, "points", players),
                    _per_seat(data, "brisques", players))


def _per_seat(data: dict, key: str, players: int) -> list[int]:
    """A whole number per seat, at least 0 (absent: zeros)."""
    value = data.get(key)
    if value is None:
        return [0] * players
    if (not isinstance(value, list) or len(value) != players
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
        raise PositionError(f"'{key}' must list {players} whole numbers of at least 0, one per "
                            f"seat, got {value!r}")
    return list(value)


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
               "seven": (cards.SEVEN,),
               "trump_four": (cards.ACE, cards.TEN, cards.KING, cards.QUEEN, cards.JACK)}


def _check_history_fits(card: int, bits: int, params: np.ndarray, trumps: int, seat: int,
                        text: Any) -> None:
    """A declared kind must be one the card can be part of: a marriage of K or Q, a
    sequence of trumps (Rubicon: of any suit), a bezique of its pair, four of A K Q J, the
    seven of trumps, a four in trumps of A 10 K Q J of trumps (six-pack, R7.3)."""
    from bezsim.engine.roles import bezique_faces

    ever = bits >> C.H_EVER_SHIFT if int(params[C.PR_REUSE]) != C.REUSE_ORDINARY else 0
    rank, suit = cards.rank_of(card), cards.suit_of(card)
    pair = tuple(int(f) for f in bezique_faces(params, trumps))   # R9 bezique_pair
    for i, name in enumerate(C.HIST_NAMES):
        if not (bits | ever) & (1 << i):
            continue
        if name in BEZ_NAMES:
            fits = cards.face(card) in pair
        else:
            fits = rank in _KIND_RANKS[name]
            if name == "seven" or (name == "sequence" and not params[C.PR_PLAIN_SEQUENCE]):
                fits = fits and (trumps == C.NO_TRUMP or suit == trumps)
            if name == "trump_four":
                fits = fits and suit == trumps
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


def _history_bits(kinds: Any, reforming: bool, seat: int, text: Any, levels: int,
                  trump_fours: bool = False) -> int:
    """A copy's history word from its ``declared`` names (R1.9; Rubicon R6.6: a plain name is
    an intact combination, intact and ever bits; ``broken:<name>`` the ever bit only).
    Beziques above the variant's highest (``levels``: 2 double, 3 triple, 4 quadruple) are
    no names: they cannot have scored; nor is ``trump_four`` outside six-pack (R7.3)."""
    names = [n for n in C.HIST_NAMES if not (reforming and n == "seven")
             and n not in BEZ_NAMES[levels:] and (trump_fours or n != "trump_four")]
    allowed = names + ([BROKEN + n for n in names] if reforming else [])
    intact = ever = 0
    for name in kinds if isinstance(kinds, list) else [kinds]:
        if name not in allowed:
            if isinstance(name, str) and name.startswith(BROKEN) and not reforming:
                why = " ('broken:' applies to Rubicon re-forming, R6.6)"
            elif name == "seven" and reforming:
                why = " (no seven of trumps scores in Rubicon, R6.3)"
            elif name in BEZ_NAMES[levels:] or name == "trump_four":
                why = f" (no {name.replace('_', ' ')} in this variant)"
            else:
                why = ""
            raise PositionError(f"seat {seat}: unknown declaration {name!r} for {text}{why} "
                                f"(use: {', '.join(allowed)})")
        base = name[len(BROKEN):] if name.startswith(BROKEN) else name
        bit = HIST_BITS[base]
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


def _declared_card(text: Any, hand: list[int], copies: Copies, seat: int) -> int:
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
