"""A person plays against bots at the terminal (``bezsim play``), over the step API.

Each decision shows the table (trumps, turn-up, stock, the trick so far, what the others
have shown or laid open, the scores) and the person's hand, then numbered legal moves.
A move is its number or its card (``Q♠``, ``qs``, ``10h``). ``h`` asks the hint policy,
``?`` prints the help, ``r`` resigns, ``q``, Ctrl-C or the end of input leave; the game is
saved whenever it ends or is left, and ``bezsim replay --saved FILE`` shows it trick by
trick. Input and output are functions, so the tests drive it with scripted lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bezsim.cards import card_name, parse_card
from bezsim.engine import constants as C
from bezsim.errors import BezsimError
from bezsim.rules import Rules
from bezsim.step import StepGame

HELP = """moves: type the number of a move, or a card (Q♠, qs, 10h, 7d).
  h  hint: what the hint policy would play here
  ?  this help
  r  resign (the game ends; it is saved)
  q  quit (the game is saved unfinished; Ctrl-C and the end of input do the same)"""


def _seat_name(rules: Rules, seat: int, you: int) -> str:
    if seat == you:
        return "you"
    if rules.partners and seat == (you + 2) % 4:
        return f"seat {seat} (partner)"
    return f"seat {seat}"


def _table(game: StepGame, you: int, seen_played: int) -> list[str]:
    obs = game.observation()
    rules = game.rules
    lines = []
    trumps = obs["trumps"] or "not yet decided"
    turn_up = obs["turn_up"] or "-"
    lines.append(f"hand {obs['hand_number'] + 1} · trumps {trumps} · turn-up {turn_up} · "
                 f"stock {obs['stock_left']} · trick {obs['trick_number']} "
                 f"(stage {obs['stage']})")
    scores = "  ".join(f"{_seat_name(rules, p, you)} {s} (+{h} this hand)"
                       for p, (s, h) in enumerate(zip(obs["scores"], obs["hand_points"],
                                                      strict=True)))
    lines.append(f"scores: {scores}")
    for p, cards in obs["shown_by"].items():
        lines.append(f"{_seat_name(rules, p, you)} has shown: {' '.join(cards)}")
    for p, cards in obs["open_cards"].items():
        lines.append(f"{_seat_name(rules, p, you)} open cards: {' '.join(cards)}")
    for p, items in obs["to_score"].items():
        shown = "; ".join(f"{i['kind'].replace('_', ' ')} {' '.join(i['cards'])}"
                          for i in items)
        lines.append(f"{_seat_name(rules, p, you)} to score: {shown}")
    if obs["on_table"]:
        lines.append(f"your cards on the table: {' '.join(obs['on_table'])}")
    if obs["trick"]:
        leader = obs["leader"]
        played = [f"{_seat_name(rules, (leader + i) % rules.players, you)} {c}"
                  for i, c in enumerate(obs["trick"])]
        lines.append(f"on the trick: {', '.join(played)}")
    if seen_played is not None:
        new = [c for c in _played(game, you) if c not in seen_played]
        if new:
            lines.append(f"played since your last move: {' '.join(_card_names(new))}")
    if not obs["trick"] and game.decision == "play":
        lines.append("you lead this trick")
    lines.append(f"your hand: {' '.join(obs['hand'])}")
    return lines


def _played(game: StepGame, seat: int) -> list[int]:
    """Cards the seat has seen played (its own knowledge row)."""
    from bezsim.engine import state as st

    S = game.state_array()
    row = S[st.O_SEEN + seat * st.N_MAX:st.O_SEEN + seat * st.N_MAX + game.rules.packs * 32]
    return [c for c in range(len(row)) if row[c] == C.V_PLAYED]


def _card_names(cards: list[int]) -> list[str]:
    return [card_name(c) for c in sorted(cards, key=lambda c: (c & 31, c))]


def ordered(game: StepGame) -> list:
    """The offered actions as shown: cards in hand order (suit, then rank), declarations
    as offered."""
    actions = game.actions()
    if game.decision == "play":
        return sorted(actions, key=lambda a: (a.value & 31, a.value))
    return actions


def _match(text: str, game: StepGame) -> int | None:
    """The action a typed number or card names, or None."""
    actions = ordered(game)
    if text.isdigit():
        n = int(text)
        return actions[n - 1].index if 1 <= n <= len(actions) else None
    if game.decision != "play":
        return None
    try:
        card = parse_card(text, game.rules.packs)
    except (BezsimError, ValueError):
        return None
    for a in actions:
        if a.value & 31 == card & 31:
            return a.index
    return None


def play_terminal(rules: Rules, against: str, seed: int, you: int = 0, hint: str = "expert",
                  save: str | Path | None = None, game: int = 0,
                  read: Callable[[str], str] = input,
                  write: Callable[[str], None] = print) -> Path:
    """Play one game at the terminal; returns where it was saved."""
    policies = [None if s == you else against for s in range(rules.players)]
    g = StepGame(rules, seed, game, policies)
    path = Path(save) if save else Path("data") / "games" / (
        f"{rules.variant}-seed{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json")
    write(f"bezsim play · {rules.variant} · you are seat {you}"
          f"{' (your partner is seat ' + str((you + 2) % 4) + ')' if rules.partners else ''}"
          f" · the others play {against} · seed {seed}. Type ? for help.")
    seen_played: list[int] | None = None
    resigned = False
    try:
        while not g.over:
            for line in _table(g, you, seen_played):
                write(line)
            actions = ordered(g)
            what = "your card" if g.decision == "play" else "declare"
            if g.decision != "play":
                write("you won the trick: choose what to declare (one combination a trick; "
                      "the others you could show go 'to score')")
            write("  ".join(f"{n}) {a.name}" for n, a in enumerate(actions, 1)))
            while True:
                text = read(f"{what} [1-{len(actions)}, h, ?, r, q]: ").strip()
                if text in ("?", "help"):
                    write(HELP)
                    continue
                if text in ("h", "hint"):
                    i = g.policy_action(hint)
                    n = next(n for n, a in enumerate(actions, 1) if a.index == i)
                    write(f"hint ({hint}): {n}) {actions[n - 1].name}")
                    continue
                if text in ("q", "quit"):
                    raise EOFError
                if text in ("r", "resign"):
                    resigned = True
                    break
                i = _match(text.lower().replace("♠", "s").replace("♥", "h").replace(
                    "♦", "d").replace("♣", "c"), g)
                if i is None:
                    write(f"'{text}' is not one of the moves: type 1 to {len(actions)}, "
                          "a card you may play, or ? for help")
                    continue
                break
            if resigned:
                break
            seen_played = _played(g, you)
            g.step(i)
    except (EOFError, KeyboardInterrupt):
        g.save(path)
        write(f"\ngame left unfinished; saved to {path}")
        return path
    g.save(path)
    if resigned:
        write(f"you resigned; the game is saved to {path}")
        return path
    scores = g.scores()
    winner = int(g.result().game_info[0, C.GI_WINNER])
    write("game over: " + "  ".join(f"{_seat_name(rules, p, you)} {s}"
                                    for p, s in enumerate(scores)))
    if winner < 0:
        who = "none (a draw)"
    elif rules.partners:
        who = "your team" if winner == you % 2 else "the other team"
    else:
        who = _seat_name(rules, winner, you)
    write(f"winner: {who}")
    write(f"saved to {path}; see it trick by trick: bezsim replay --saved {path}")
    return path
