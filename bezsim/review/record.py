"""The game record: one game as JSON, every action of every seat in order, replayed through
the engine.

A record names the rules (variant and options), the deal and the actions; whoever played
them (a person, a bot, another program) does not matter to the replay. The deal is bezsim's
deal of the run seed and game index (``{"seed": S, "game": G}``): every hand's pack comes
from that pair, so a record is as short as the game's actions. An action is
``{"seat": 0, "play": "Q♠"}`` (``"copy": "hand"`` or ``"table"`` when the seat holds copies
of that card that differ: one concealed, one declared on the table), ``{"seat": 0,
"declare": "royal marriage ♥"}`` or ``{"seat": 0, "declare": "stop"}``.

Reading checks the shape of the file; replaying checks every action against the rules, and
the first one that breaks them is refused in one line naming it (action number, hand,
trick, seat). A record never names code to import: a plug-in policy it mentions as a seat's
player is a label only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bezsim.cards import CardError, card_name, parse_card
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.errors import BezsimError
from bezsim.rules import Rules

FORMAT = "bezsim game record"
VERSION = 1
ENDS = ("over", "resigned", "left")     # finished, given up, or left part-way


class RecordError(BezsimError):
    """A record that cannot be read, or an action in it that breaks the rules."""


@dataclass(frozen=True)
class RecordedAction:
    """One action of a record: the seat, what it did ("play", "declare") and its name."""

    seat: int
    kind: str
    name: str
    copy: str | None = None     # "hand" or "table": which of two unlike copies was played
    declared_in: tuple[str, ...] | None = None   # of unlike copies on the table: which

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, self.kind: self.name}
        if self.copy is not None:
            out["copy"] = self.copy
        if self.declared_in is not None:
            out["declared_in"] = list(self.declared_in)
        return out


@dataclass(frozen=True)
class Packs:
    """A deal given card by card: who dealt the first hand, and each hand's pack in dealing
    order (card ids). Which copy of a card is which can matter (a declaration takes copies
    in a fixed order, R1.9): a name may say it ("A♣#1"); unmarked copies are numbered in the
    order they come."""

    dealer: int
    packs: tuple[tuple[int, ...], ...]

    def as_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer,
                "packs": [[card_name(c, with_copy=True) for c in pack]
                          for pack in self.packs]}


@dataclass(frozen=True)
class GameRecord:
    """A game as its record holds it (module docstring)."""

    rules: Rules
    seed: int
    game: int
    actions: tuple[RecordedAction, ...]
    players: tuple[str, ...] = ()           # who played each seat: labels only
    end: str = "over"
    extra: dict[str, Any] = field(default_factory=dict)
    packs: Packs | None = None              # the deal card by card; None: seed and game

    def deal_json(self) -> dict[str, Any]:
        return (self.packs.as_json() if self.packs is not None
                else {"seed": self.seed, "game": self.game})

    def as_json(self) -> dict[str, Any]:
        from bezsim import __version__

        return {"format": FORMAT, "version": VERSION, "written_by": f"bezsim {__version__}",
                "variant": self.rules.variant, "options": dict(self.rules.options),
                "deal": self.deal_json(),
                "players": list(self.players), "end": self.end,
                "actions": [a.as_json() for a in self.actions]}

    def write(self, path: str | Path) -> None:
        from bezsim.io.atomic import write_atomically

        text = (json.dumps(self.as_json(), ensure_ascii=False, indent=1) + "\n").encode()
        write_atomically(Path(path), lambda handle: handle.write(text))


# --- reading ---------------------------------------------------------------------------

def read_record(path: str | Path) -> GameRecord:
    """A record file, its shape checked (not yet its legality: ``replay``); a one-line
    RecordError for anything else."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot read the record ({e})") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RecordError(f"{path}: not JSON ({e})") from None
    return record_from_json(data, str(path))


def record_from_json(data: Any, where: str = "record") -> GameRecord:
    """A record from its JSON value (read_record), its shape checked."""
    from bezsim.rules import RulesError

    if not isinstance(data, dict):
        raise RecordError(f"{where}: a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"{where}: not a bezsim game record (\"format\" must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"{where}: record version {data.get('version')!r} is not supported "
                          f"(this bezsim reads version {VERSION})")
    variant, options = data.get("variant"), data.get("options", {})
    if not isinstance(variant, str) or not isinstance(options, dict):
        raise RecordError(f"{where}: \"variant\" must be a name and \"options\" an object")
    try:
        rules = Rules.make(variant, {str(k): v for k, v in options.items()})
    except (RulesError, TypeError, ValueError) as e:
        raise RecordError(f"{where}: {e}") from None
    deal = data.get("deal")
    packs = None
    if isinstance(deal, dict) and set(deal) == {"dealer", "packs"}:
        packs = _packs(deal["dealer"], deal["packs"], rules, where)
        deal = {"seed": 0, "game": 0}
    if (not isinstance(deal, dict) or set(deal) != {"seed", "game"}
            or not _whole(deal.get("seed")) or not _whole(deal.get("game"))):
        raise RecordError(f"{where}: \"deal\" must be {{\"seed\": whole number, \"game\": whole "
                          "number} or {\"dealer\": a seat, \"packs\": each hand's cards}")
    if not 0 <= deal["seed"] < 2**64 or not 0 <= deal["game"] < 2**63:
        raise RecordError(f"{where}: the deal's seed or game index is out of range")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or (
            players and len(players) != rules.players):
        raise RecordError(f"{where}: \"players\" must list {rules.players} names")
    end = data.get("end", "over")
    if end not in ENDS:
        raise RecordError(f"{where}: \"end\" must be one of {', '.join(ENDS)}")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"{where}: \"actions\" must be a list")
    parsed = tuple(_action(a, n, rules, where) for n, a in enumerate(actions, 1))
    return GameRecord(rules, int(deal["seed"]), int(deal["game"]), parsed, tuple(players), end,
                      packs=packs)


def _packs(dealer: Any, packs: Any, rules: Rules, where: str) -> Packs:
    """A deal given card by card, checked: a seat for the dealer, and for each hand a whole
    pack of the variant's cards (each face as many times as it has packs)."""
    if not _whole(dealer) or not 0 <= dealer < rules.players:
        raise RecordError(f"{where}: the deal's \"dealer\" must be a seat, 0 to "
                          f"{rules.players - 1}")
    n_cards = rules.packs * 32
    if not isinstance(packs, list) or not packs:
        raise RecordError(f"{where}: the deal's \"packs\" must list each hand's {n_cards} "
                          "cards in dealing order")
    out = []
    for h, pack in enumerate(packs, 1):
        if (not isinstance(pack, list) or len(pack) != n_cards
                or not all(isinstance(c, str) for c in pack)):
            raise RecordError(f"{where}: the deal's pack {h} must list {n_cards} card names")
        cards = []
        for k, name in enumerate(pack, 1):
            try:
                cards.append(parse_card(name, rules.packs))
            except CardError as e:
                raise RecordError(f"{where}: the deal's pack {h}, card {k}: {e}") from None
        marked = [c for c, name in zip(cards, pack, strict=True) if "#" in name]
        taken = set(marked)
        if len(taken) < len(marked):
            raise RecordError(f"{where}: the deal's pack {h} names a copy of a card twice")
        ids = []
        for c, name in zip(cards, pack, strict=True):
            if "#" not in name:              # an unmarked copy: the first one not named
                c = next((c + 32 * k for k in range(rules.packs) if c + 32 * k not in taken),
                         -1)
                if c < 0:
                    raise RecordError(f"{where}: the deal's pack {h} has {name} more than "
                                      f"{rules.packs} time(s), as many as {rules.variant} has")
                taken.add(c)
            ids.append(c)
        out.append(tuple(ids))
    return Packs(int(dealer), tuple(out))


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _action(a: Any, n: int, rules: Rules, where: str) -> RecordedAction:
    if not isinstance(a, dict):
        raise RecordError(f"{where}: action {n} must be an object")
    seat = a.get("seat")
    if not _whole(seat) or not 0 <= seat < rules.players:
        raise RecordError(f"{where}: action {n}: \"seat\" must be 0 to {rules.players - 1}")
    kinds = [k for k in ("play", "declare") if k in a]
    if len(kinds) != 1 or not isinstance(a[kinds[0]], str):
        raise RecordError(f"{where}: action {n} needs one of \"play\" (a card) or \"declare\" "
                          "(a declaration's name, or \"stop\")")
    copy = a.get("copy")
    if copy is not None and (kinds[0] != "play" or copy not in ("hand", "table")):
        raise RecordError(f"{where}: action {n}: \"copy\" is \"hand\" or \"table\", for a play")
    declared_in = a.get("declared_in")
    if declared_in is not None:
        if (copy != "table" or not isinstance(declared_in, list)
                or not all(isinstance(x, str) and x in C.HIST_NAMES for x in declared_in)):
            raise RecordError(f"{where}: action {n}: \"declared_in\" lists combinations "
                              f"({', '.join(C.HIST_NAMES)}), for a copy on the table")
        declared_in = tuple(sorted(set(declared_in), key=C.HIST_NAMES.index))
    name = a[kinds[0]]
    if kinds[0] == "play":
        try:
            name = card_name(parse_card(name, rules.packs))
        except (CardError, ValueError) as e:
            raise RecordError(f"{where}: action {n}: {e}") from None
    return RecordedAction(int(seat), kinds[0], name, copy, declared_in)


# --- naming and matching the engine's actions ------------------------------------------

def declaration_label(name: str) -> str:
    """An offered declaration's name without its points: "royal marriage ♥"; "stop"."""
    if name.startswith("stop"):
        return "stop"
    return name.rsplit(" (", 1)[0]


def _copy_of(game, card: int) -> tuple[str, tuple[str, ...]]:
    """Where a copy of the deciding seat's lies, and the combinations it was declared in:
    copies alike in both play alike (bezsim play's menu joins them)."""
    S = game.view()
    if S[st.O_SEEN + game.seat * st.N_MAX + card] != C.V_MINE_SHOWN:
        return "hand", ()
    bits = int(S[st.O_HIST + card])
    return "table", tuple(name for i, name in enumerate(C.HIST_NAMES) if bits >> i & 1)


def _copies(game, card: int) -> set[tuple[str, tuple[str, ...]]]:
    """The unlike kinds of copy of ``card``'s face among the offered cards."""
    return {_copy_of(game, a.value) for a in game.actions()
            if a.kind == "card" and a.value & 31 == card & 31}


def recorded_action(game, index: int) -> RecordedAction:
    """The record's entry for offered action ``index`` of the game's current decision:
    a card with unlike copies offered says which (hand or table, and among unlike copies
    on the table, what it was declared in)."""
    action = game.actions()[index]
    if action.kind != "card":
        return RecordedAction(game.seat, "declare", declaration_label(action.name))
    copies = _copies(game, action.value)
    where, declared = _copy_of(game, action.value)
    copy = where if len(copies) > 1 else None
    tables = {d for w, d in copies if w == "table"}
    declared_in = declared if where == "table" and len(tables) > 1 else None
    return RecordedAction(game.seat, "play", card_name(action.value), copy, declared_in)


def offered_index(game, action: RecordedAction) -> int | None:
    """The offered action a recorded one stands for (the first copy of a card that plays
    alike), or None if it is not offered, or if the record does not say which of unlike
    copies it played."""
    if action.seat != game.seat:
        return None
    for a in game.actions():
        if action.kind == "play" and a.kind == "card":
            if card_name(a.value) == action.name and _stands_for(game, a.value, action):
                return a.index
        elif action.kind == "declare" and a.kind != "card":
            if declaration_label(a.name) == action.name:
                return a.index
    return None


def _stands_for(game, card: int, action: RecordedAction) -> bool:
    """Whether offered ``card`` is the copy a recorded play names: what it says of the copy
    fits, and it says enough to tell unlike copies apart."""
    copies = _copies(game, card)
    where, declared = _copy_of(game, card)
    tables = {d for w, d in copies if w == "table"}
    if action.copy is None and len(copies) > 1:
        return False                     # unlike copies: the record must say which
    if where == "table" and len(tables) > 1 and action.declared_in is None:
        return False
    return ((action.copy is None or action.copy == where)
            and (action.declared_in is None or action.declared_in == declared))


def option_label(action: RecordedAction) -> str:
    """An action as an option is named: "Q♥", "Q♥ from the table", "Q♥ from the table
    (declared in bezique)", "royal marriage ♥"."""
    label = action.name + (f" from the {action.copy}" if action.copy else "")
    if action.declared_in is not None:
        combos = " and ".join(x.replace("_", " ") for x in action.declared_in) or "nothing"
        label += f" (declared in {combos})"
    return label


def where_text(game) -> str:
    """"hand 2, trick 5" of the current decision (numbered from 1)."""
    S = game.view()
    return f"hand {game.hand + 1}, trick {int(S[st.O_SC + C.SC_TRICK])}"


# --- replaying ------------------------------------------------------------------------

Visit = Callable[[Any, int, int], None]


def replay(record: GameRecord, visit: Visit | None = None):
    """The record played through the engine, every seat's action checked: returns the
    StepGame where the record ends. ``visit(game, n, index)`` is called at each decision
    before its action is taken (n counts from 0; ``index``: the offered action it stands
    for). The first illegal action is refused in one line; so is a record that goes on
    after the game ended, or stops short of the end it claims."""
    import numpy as np

    from bezsim.step.step_game import StepGame

    packs = None
    if record.packs is not None:
        packs = (record.packs.dealer, np.array(record.packs.packs, np.int32))
    game = StepGame(record.rules, record.seed, record.game, packs=packs)
    for n, action in enumerate(record.actions):
        if game.over:
            raise RecordError(f"action {n + 1} (seat {action.seat}): the game is already "
                              "over")
        if record.packs is not None and game.hand >= len(record.packs.packs):
            raise RecordError(f"action {n + 1} (seat {action.seat}): the game goes on to hand "
                              f"{game.hand + 1}, and the deal gives "
                              f"{len(record.packs.packs)} pack(s)")
        index = offered_index(game, action)
        if index is None:
            raise RecordError(_illegal(game, n, action))
        if visit is not None:
            visit(game, n, index)
        game.step(index)
    if record.end == "over" and not game.over:
        raise RecordError(f"the record says the game is over, but it stops at "
                          f"{where_text(game)} with seat {game.seat} to decide")
    if record.end != "over" and game.over:
        raise RecordError(f"the record says the game was {record.end}, but it is over")
    return game


def _illegal(game, n: int, action: RecordedAction) -> str:
    head = f"action {n + 1} ({where_text(game)}, seat {action.seat})"
    if action.seat != game.seat:
        return f"{head}: it is seat {game.seat}'s turn"
    offered = ", ".join(sorted({option_label(recorded_action(game, a.index))
                                for a in game.actions()}))
    what = option_label(action) if action.kind == "play" else f"declaring {action.name}"
    return f"{head}: {what} is not legal here (offered: {offered})"


# --- records of games bezsim played -----------------------------------------------------

def record_of_saved(path: str | Path) -> GameRecord:
    """The record of a game saved by ``bezsim play``: its person's decisions as saved, its
    bots' as they took them (each plays again from its own stream)."""
    from bezsim.step.step_game import OPEN, read_saved

    saved = read_saved(path)
    decisions = iter(saved.decisions)

    def choose(game) -> tuple[int, bool]:
        if saved.policies[game.seat] is OPEN:
            return next(decisions, (-1,))[0], False
        return game.play_with(saved.policies[game.seat]), True

    end = "over" if saved.over else "resigned" if saved.resigned else "left"
    labels = tuple("person" if p is OPEN else p for p in saved.policies)
    return _record_by(saved.rules, saved.seed, saved.game, choose, labels, end)


def save_as_record(path: str | Path) -> GameRecord:
    """Make a file ``bezsim play`` saved a game record too: the record's keys (read_record
    reads it, other programs too), and under ``"play"`` what play needs to go on with the
    game (``bezsim play --load`` reads that)."""
    from bezsim.io.atomic import write_atomically
    from bezsim.step.step_game import saved_json

    record = record_of_saved(path)
    data = record.as_json() | {"play": saved_json(path)}
    text = (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()
    write_atomically(Path(path), lambda handle: handle.write(text))
    return record


def packs_of_run(rules: Rules, seed: int, game: int, hands: int) -> Packs:
    """The first ``hands`` packs bezsim deals for ``seed`` and ``game``, and the first
    dealer, given card by card: the same game as a record another program could write."""
    import numpy as np

    from bezsim.engine.rng import PURPOSE_DEAL, PURPOSE_GAME, below, seed_stream, shuffle_range

    stream = np.zeros(4, np.uint64)
    seed_stream(stream, seed, game, PURPOSE_GAME, 0)
    dealer = int(below(stream, rules.players))
    packs = []
    for h in range(hands):
        seed_stream(stream, seed, game, PURPOSE_DEAL, h)
        pack = np.arange(rules.packs * 32, dtype=np.int32)
        shuffle_range(stream, pack, 0, len(pack))
        packs.append(tuple(int(c) for c in pack))
    return Packs(dealer, tuple(packs))


def record_of_run(rules: Rules, policies: list[str], seed: int, game: int) -> GameRecord:
    """The record of game ``game`` of a run of ``policies`` with root seed ``seed``: the
    game ``simulate`` played (each seat decides as in the engine, from its own stream)."""
    return _record_by(rules, seed, game, lambda g: (g.play_with(policies[g.seat]), True),
                      tuple(policies), "over")


def _record_by(rules: Rules, seed: int, game_index: int, choose, labels: tuple[str, ...],
               end: str) -> GameRecord:
    """Drive a game with every seat open, naming each action as it is taken:
    ``choose(game)`` returns (the index taken, whether it stepped the game itself, as
    play_with does), or an index below 0 to stop there."""
    from bezsim.step.step_game import StepGame

    game = StepGame(rules, seed, game_index)
    actions: list[RecordedAction] = []
    while not game.over:
        names = {a.index: recorded_action(game, a.index) for a in game.actions()}
        index, stepped = choose(game)
        if index < 0:
            break
        actions.append(names[index])
        if not stepped:
            game.step(index)
    return GameRecord(rules, seed, game_index, tuple(actions), labels, end)
