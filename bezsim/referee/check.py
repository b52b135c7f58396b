"""Running engine games against the referee: play a game with its trace (``trace_one``), walk
the trace with ``Game``, and check replay = batch (the outcome rows of each traced game equal
the rows ``run_games`` writes for the same game). The engine is used here only to produce the
games; every verdict comes from the referee's own reading of docs/rules.md."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games, trace_one
from bezsim.referee.game_trace import Game
from bezsim.referee.violation import Violation, expect
from bezsim.rules import Rules


def checked(rules: Rules, policies: list[str], seed: int, game: int) -> Game:
    """Play one game with its trace and check it; the Game knows its hands and stats."""
    batch, trace = trace_one(rules, policies, seed, game)
    checker = Game(rules, trace.tolist(), batch, policies)
    try:
        checker.hands = checker.run()
    except Violation as exc:
        raise Violation(f"{exc} [seed {seed} game {game} {policies} {rules.to_json()}]") \
            from None
    return checker


def check_game(rules: Rules, policies: list[str], seed: int, game: int) -> int:
    """Play one game with its trace, check it; return the number of hands."""
    return checked(rules, policies, seed, game).hands


class Sample:
    """Games 0, 1, ... of a seed checked until ``hands`` hands: counts and what was seen."""

    def __init__(self, rules: Rules, policies: list[str], seed: int, hands: int) -> None:
        self.hands = 0
        self.stats: Counter = Counter()
        traced = []
        while self.hands < hands:
            checker = checked(rules, policies, seed, len(traced))
            self.hands += checker.hands
            self.stats.update(checker.stats)
            traced.append(checker.batch)
        self.games = len(traced)
        self.first_dealers = {int(b.game_info[0, C.GI_FIRST_DEALER]) for b in traced}
        same_as_batch(rules, policies, seed, traced)


def batch_difference(one, batch, g: int) -> str | None:
    """The first outcome array in which traced game ``one`` differs from game ``g`` of
    ``batch`` (only the rows a game uses are compared), or None: replay = batch."""
    hands = int(one.game_info[0, C.GI_HANDS])
    events = int(one.game_info[0, C.GI_N_EVENTS])
    for name, a, b in (
            ("game_info", one.game_info[0], batch.game_info[g]),
            ("hand_info", one.hand_info[0, :hands], batch.hand_info[g, :hands]),
            ("hand_seat", one.hand_seat[0, :hands], batch.hand_seat[g, :hands]),
            ("events", one.events[0, :events], batch.events[g, :events])):
        if a.shape != b.shape or not np.array_equal(a, b):
            return name
    return None


def same_as_batch(rules: Rules, policies: list[str], seed: int, traced: list) -> None:
    """Replay = batch: each traced game's outcome rows are the rows ``run_games`` writes for
    that game."""
    batch = run_games(rules, list(policies), seed, 0, len(traced))
    for g, one in enumerate(traced):
        name = batch_difference(one, batch, g)
        expect(name is None, f"trace_one and run_games differ: {name}",
               f"[seed {seed} game {g} {policies} {rules.to_json()}]")


def check_until(rules: Rules, policies: list[str], seed: int, hands: int) -> tuple[int, int]:
    """Games 0, 1, ... of ``seed`` checked, and replay = batch, until at least ``hands``
    hands: (games, hands)."""
    sample = Sample(rules, policies, seed, hands)
    return sample.games, sample.hands


def check_option_set(variant: str, options: dict, seed: int, hands_wanted: int) -> None:
    """A non-default option set passes the referee on at least ``hands_wanted`` hands (a
    greedy seat against a random one)."""
    _, hands = check_until(Rules.make(variant, options), ["greedy", "random"], seed,
                           hands_wanted)
    expect(hands >= hands_wanted, "fewer hands checked than wanted", hands, hands_wanted)


