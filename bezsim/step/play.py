"""A person plays against bots at the terminal (``bezsim play``), over the step API.

Each decision first tells, in play order, what happened since the person's last one
(bezsim/step/narrate.py: who led, who played what and who won each trick, every declaration with
its seat, name and points, shows "to score", the seven of trumps, Polish open cards, Rubicon's
trumps fixed, the draws and the stock left; never another seat's concealed cards), then shows
the table (hand and trick numbers counted from 1, trumps, turn-up, stock, scores, Rubicon's
brisques counted aside, what the others have shown or laid open, "to score", the trick so
far) and the person's hand grouped by suit, then numbered legal moves in the same order
(``menu``: copies of a card that play alike are one move; copies that differ, one declared
on the table and one concealed, say which is which). A decision with one move is taken without
asking, in one line ("only one legal card: you play 7♠"), and saved like any other.

A move is its number or its card (``Q♠``, ``qs``, ``10h``). ``h`` asks the hint policy, ``?``
prints the help, ``r`` resigns (after a y/N question), ``q``, Ctrl-C or the end of input leave.
The game is saved whenever it ends, is resigned or is left; ``continue_terminal`` (``bezsim
play --load FILE``) takes up a game that was left, and ``bezsim replay --saved FILE`` shows
any saved game trick by trick. Input and output are functions, so the tests drive it with
scripted lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bezsim.cards import parse_card, suit_of
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.errors import BezsimError
from bezsim.io.writable import KeptElsewhere, check_writable_file, write_or_keep
from bezsim.rules import Rules
from bezsim.step.narrate import Narrator, seat_name
from bezsim.step.step_game import Action, StepGame, read_saved

HELP = """moves: type the number of a move, or a card (Q♠, qs, 10h, 7d).
  h  hint: what the hint policy would play here
  ?  this help
  r  resign (asks first; the game ends and is saved)
  q  quit (the game is saved unfinished: bezsim play --load FILE continues it; Ctrl-C and
     the end of input do the same)"""

Read = Callable[[str], str]
Write = Callable[[str], None]


def by_suit(names: list[str], sep: str = " ", gap: str = "   ",
            suits: list | None = None) -> str:
    """Card names (already in hand order) with a wider gap between suits (``suits``: each
    name's suit, where the name does not end with it)."""
    suits = [name[-1] for name in names] if suits is None else suits
    groups: list[list[str]] = []
    for i, name in enumerate(names):
        if groups and suits[i - 1] == suits[i]:
            groups[-1].append(name)
        else:
            groups.append([name])
    return gap.join(sep.join(g) for g in groups)


def _table(game: StepGame, you: int) -> list[str]:
    obs = game.observation()
    rules = game.rules
    params = rules.params()
    trumps = f"trumps {obs['trumps']}" if obs["trumps"] else "trumps not fixed yet"
    turn_up = ""
    if obs["turn_up"]:
        turn_up = f" · turn-up {obs['turn_up']}"
    elif params[C.PR_TURNUP]:
        turn_up = " · turn-up drawn"
    lines = [f"hand {obs['hand_number'] + 1} · {trumps}{turn_up} · stock {obs['stock_left']} · "
             f"trick {obs['trick_number']} (stage {obs['stage']})"]
    if not obs["trumps"]:
        lines.append("the first marriage or sequence declared fixes trumps (R6.2)")
    if rules.definition.one_hand_game:    # Rubicon, six-pack: the hand is the game (R6.8, R7.5)
        points = ", ".join(f"{seat_name(rules, p, you)} {h}"
                           for p, h in enumerate(obs["hand_points"]))
        aside = ", ".join(f"{seat_name(rules, p, you)} {b}"
                          for p, b in enumerate(obs["brisques_taken"]))
        lines.append(f"points: {points}" + (f" · brisques aside: {aside}"
                                            if rules.definition.brisques_decide else ""))
    else:
        scores = "  ".join(f"{seat_name(rules, p, you)} {s} (+{h} this hand)"
                           for p, (s, h) in enumerate(zip(obs["scores"], obs["hand_points"],
                                                          strict=True)))
        lines.append(f"scores: {scores}")
    for p, cards in obs["shown_by"].items():
        lines.append(f"{seat_name(rules, p, you)} has shown: {by_suit(cards)}")
    for p, cards in obs["open_cards"].items():
        lines.append(f"{seat_name(rules, p, you)} open cards: {by_suit(cards)}")
    for p, items in obs["to_score"].items():
        shown = "; ".join(f"{i['kind'].replace('_', ' ')} {' '.join(i['cards'])}"
                          for i in items)
        lines.append(f"{seat_name(rules, p, you)} to score: {shown}")
    if obs["on_table"]:
        lines.append(f"your cards on the table: {by_suit(obs['on_table'])}")
    if obs["trick"]:
        leader = obs["leader"]
        played = []
        for i, card in enumerate(obs["trick"]):
            seat = (leader + i) % rules.players       # (an R4.2 pair's trick: one card)
            verb = "leads" if i == 0 else "plays"
            played.append(f"{seat_name(rules, seat, you)} {verb} {card}")
        lines.append(f"on the trick: {', '.join(played)}")
    elif game.decision == "play":
        lines.append("you lead this trick")
    lines.append(f"your hand: {by_suit(obs['hand'])}")
    return lines


def _where(game: StepGame, card: int) -> tuple[bool, int]:
    """(declared on the table, the combinations it was declared in) for a card of the
    deciding seat: its own knowledge row and the public declaration history."""
    S = game.view()
    shown = S[st.O_SEEN + game.seat * st.N_MAX + card] == C.V_MINE_SHOWN
    return bool(shown), int(S[st.O_HIST + card]) if shown else 0


def ordered(game: StepGame) -> list:
    """The offered actions as shown: cards in hand order (suit, then rank; of two copies,
    the concealed one first), declarations as offered."""
    actions = game.actions()
    if game.decision == "play":
        return sorted(actions, key=lambda a: (a.value & 31, _where(game, a.value), a.value))
    return actions


@dataclass(frozen=True)
class Move:
    """One numbered move: its name as shown, and the offered actions it stands for (copies
    of a card that play alike are one move, which takes the first)."""

    name: str
    actions: tuple[Action, ...]

    @property
    def index(self) -> int:
        return self.actions[0].index


_HISTORY_WORDS = {"four": "four of a kind", "seven": "the seven of trumps",
                  "trump_four": "four of a kind in trumps"}


def _declared_in(bits: int) -> str:
    names = [_HISTORY_WORDS.get(name, name.replace("_", " "))
             for i, name in enumerate(C.HIST_NAMES) if bits >> i & 1]
    return " and ".join(names)


def menu(game: StepGame) -> list[Move]:
    """The moves as shown, numbered from 1 in ``ordered``'s order. Copies of a card that
    play alike (both concealed, or both declared in the same combinations) are one move;
    copies that differ say where each lies: "Q♥ (in hand)", "Q♥ (declared, on the table)",
    and, when two declared copies differ, what each was declared in."""
    actions = ordered(game)
    if game.decision != "play":
        return [Move(a.name, (a,)) for a in actions]
    groups: dict[tuple, list[Action]] = {}
    for a in actions:
        groups.setdefault((a.value & 31, *_where(game, a.value)), []).append(a)
    moves = []
    for (face, shown, bits), alike in groups.items():
        kinds = [k for k in groups if k[0] == face]
        name = alike[0].name
        if len(kinds) > 1:
            declared = _declared_in(bits) if sum(k[1] for k in kinds) > 1 else ""
            name += (" (in hand)" if not shown else
                     f" (declared in {declared}, on the table)" if declared else
                     " (declared, on the table)")
        moves.append(Move(name, tuple(alike)))
    return moves


def _moves(game: StepGame, moves: list[Move]) -> str:
    if game.decision != "play":
        return "  ".join(f"{n}) {m.name}" for n, m in enumerate(moves, 1))
    return by_suit([f"{n}) {m.name}" for n, m in enumerate(moves, 1)], "  ", "     ",
                   [suit_of(m.actions[0].value) for m in moves])


def _match(text: str, game: StepGame, moves: list[Move]) -> list[int]:
    """The numbers of the moves a typed number or card names (more than one: the card
    has copies that differ)."""
    if text.isdigit():
        return [int(text)] if 1 <= int(text) <= len(moves) else []
    if game.decision != "play":
        return []
    try:
        card = parse_card(text, game.rules.packs)
    except (BezsimError, ValueError):
        return []
    return [n for n, m in enumerate(moves, 1) if m.actions[0].value & 31 == card & 31]


def _default_path(rules: Rules, seed: int) -> Path:
    return Path("data") / "games" / (
        f"{rules.variant}-seed{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json")


def play_terminal(rules: Rules, against: str, seed: int, you: int = 0, hint: str = "expert",
                  save: str | Path | None = None, game: int = 0, read: Read = input,
                  write: Write = print) -> Path:
    """Play one game at the terminal; returns where it was saved."""
    policies = [None if s == you else against for s in range(rules.players)]
    path = Path(save) if save else _default_path(rules, seed)
    check_writable_file(path, "the saved game")        # before the game, not at its end
    g = StepGame(rules, seed, game, policies)
    partner = f" (your partner is seat {(you + 2) % 4})" if rules.partners else ""
    write(f"bezsim play · {rules.variant} · you are seat {you}{partner} · the others play "
          f"{against} · seed {seed}. Type ? for help.")
    return _play(g, you, hint, path, Narrator(rules, you), read, write)


def check_continuable(path: str | Path) -> None:
    """Refuse (one-line BezsimError) a file ``continue_terminal`` cannot take up, before any
    game is played."""
    saved = read_saved(path)
    if len(saved.open_seats) != 1:
        raise BezsimError(f"{path}: not a game saved by bezsim play ({len(saved.open_seats)} "
                          "open seats, not one)")
    if saved.resigned:
        raise BezsimError(f"{path}: the game was resigned; see it with bezsim replay "
                          f"--saved {path}")
    if saved.over:
        raise BezsimError(f"{path}: the game is over; see it with bezsim replay --saved {path}")


def continue_terminal(load: str | Path, hint: str = "expert", save: str | Path | None = None,
                      read: Read = input, write: Write = print) -> Path:
    """Take up a game that was left (saved unfinished) where it stopped: its variant,
    options, seed, seats and opponents come from the file; it is saved again to ``save``, or
    to the same file."""
    check_continuable(load)
    check_writable_file(Path(save) if save else Path(load), "the saved game")
    g = StepGame.load(load)
    if g.over:
        raise BezsimError(f"{load}: the game is over; see it with bezsim replay --saved {load}")
    you = next(s for s, p in enumerate(g.policies) if p is None)
    against = next(p for p in g.policies if p is not None)
    rules = g.rules
    narrator = Narrator(rules, you)
    rows = g.history()
    narrator.update(rows[:_last_trick_start(rows)])       # told before: only the last trick
    partner = f" (your partner is seat {(you + 2) % 4})" if rules.partners else ""
    write(f"bezsim play · {rules.variant} · you are seat {you}{partner} · the others play "
          f"{against} · seed {g.seed} · continuing {load}. Type ? for help.")
    return _play(g, you, hint, Path(save) if save else Path(load), narrator, read, write)


def _last_trick_start(rows) -> int:
    """Where the last finished trick's first card was played (0 before any trick)."""
    won = [i for i, r in enumerate(rows) if r[0] == C.TR_TRICK_WON]
    if not won:
        return 0
    hand, trick = rows[won[-1]][1], rows[won[-1]][2]
    return next(i for i, r in enumerate(rows)
                if r[0] == C.TR_PLAY and r[1] == hand and r[2] == trick)


def _ask(g: StepGame, moves: list[Move], hint: str, read: Read, write: Write) -> int | None:
    """The action index typed, or None to resign; EOFError to leave."""
    what = "your card" if g.decision == "play" else "declare"
    while True:
        text = read(f"{what} [1-{len(moves)}, h, ?, r, q]: ").strip()
        if text in ("?", "help"):
            write(HELP)
            continue
        if text in ("h", "hint"):
            i = g.policy_action(hint)
            n = next(n for n, m in enumerate(moves, 1) if i in (a.index for a in m.actions))
            write(f"hint ({hint}): {n}) {moves[n - 1].name}")
            continue
        if text in ("q", "quit"):
            raise EOFError
        if text in ("r", "resign"):
            if read("resign this game? [y/N] ").strip().lower() in ("y", "yes"):
                return None
            write("not resigned: the game goes on")
            continue
        found = _match(text.lower().replace("♠", "s").replace("♥", "h").replace(
            "♦", "d").replace("♣", "c"), g, moves)
        if len(found) == 1:
            return moves[found[0] - 1].index
        if found:
            write(f"'{text}' is {' or '.join(f'{n}) {moves[n - 1].name}' for n in found)}: "
                  "type its number")
            continue
        write(f"'{text}' is not one of the moves: type 1 to {len(moves)}, a card you may "
              "play, or ? for help")


def _play(g: StepGame, you: int, hint: str, path: Path, narrator: Narrator, read: Read,
          write: Write) -> Path:
    rules = g.rules
    try:
        while not g.over:
            write("")
            for line in narrator.update(g.history()):
                write(f"  {line}")
            moves = menu(g)
            if len(moves) == 1:             # nothing to choose: played, and said so
                write(_forced(g, moves[0]))
                g.step(moves[0].index)
                continue
            for line in _table(g, you):
                write(line)
            if g.decision != "play":
                if rules.definition.open_cards:
                    write("the trick's seven of trumps: exchange it for the turn-up, or stop "
                          "(it scores where it lies)")
                else:
                    side = "your side" if rules.partners else "you"
                    write(f"{side} won the trick: choose what to declare (one combination a "
                          "trick; the others you could show go 'to score')")
            write(_moves(g, moves))
            i = _ask(g, moves, hint, read, write)
            if i is None:
                g.resigned = True
                break
            g.step(i)
    except (EOFError, KeyboardInterrupt):
        path = _save(g, path)
        write(f"\ngame left unfinished; saved to {path}; continue it with: "
              f"bezsim play --load {path}")
        return path
    path = _save(g, path)
    if g.resigned:
        write(f"you resigned; the game is saved to {path}; see it with: "
              f"bezsim replay --saved {path}")
        return path
    for line in narrator.update(g.history()):
        write(f"  {line}")
    _game_over(g, you, write)
    write(f"saved to {path}; see it trick by trick: bezsim replay --saved {path}")
    return path


def _forced(g: StepGame, move: Move) -> str:
    """The line that says a move was the only one, so it was taken without asking."""
    if g.decision == "play":
        return f"only one legal card: you play {move.name}"
    return f"only one choice: {move.name}"


def _save(g: StepGame, path: Path) -> Path:
    """Save the game; should the disk refuse it now, keep it in a new folder and say how to
    go on from there (OutputError)."""
    try:
        write_or_keep(g.save, path, "the game", is_file=True)
    except KeptElsewhere as exc:
        then = ("continue it with" if not (g.over or g.resigned) else "see it with")
        command = "bezsim play --load" if then == "continue it with" else "bezsim replay --saved"
        raise KeptElsewhere(f"{exc}; {then}: {command} {exc.kept}", exc.kept) from None
    return path


def _game_over(g: StepGame, you: int, write: Write) -> None:
    from bezsim.replay import _settlement_lines

    rules = g.rules
    info = g.result().game_info[0]
    write("game over: " + "  ".join(f"{seat_name(rules, p, you)} {s}"
                                    for p, s in enumerate(g.scores())))
    winner = int(info[C.GI_WINNER])
    if rules.definition.one_hand_game:              # Rubicon, six-pack: two seats
        for line in _settlement_lines(info, rules, you)[1:]:
            write(line)
        stake, other = int(info[C.GI_STAKE]), seat_name(rules, 1 - you, you)
        if winner >= 0 and info[C.GI_RUBICON]:
            write(f"you rubiconed {other}: you win {stake} points" if winner == you
                  else f"you are rubiconed: you lose {stake} points to {other}")
        elif winner >= 0:
            write(f"you win {stake} points from {other}" if winner == you
                  else f"you lose {stake} points to {other}")
    if winner < 0:
        who = "none (a draw)"
    elif rules.partners:
        who = "your team" if winner == you % 2 else "the other team"
    else:
        who = seat_name(rules, winner, you)
    write(f"winner: {who}")
