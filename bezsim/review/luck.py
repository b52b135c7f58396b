"""How much of a game's result the cards gave, as GNU Backgammon measures the dice: the
deal and every draw valued for the seat that received them, and each seat's result split
into skill, luck and what neither explains.

The luck of receiving cards is valued at the seat's next card play (its first of the hand
for the deal): the position's value to the seat as it is, minus its value had the seat not
known those cards, over the same sampled deals of what it cannot see; in the second, each
received card is exchanged for one drawn at random from the cards it has not seen, so its
hand is what it might as well have held (policies/deals.py, hide_cards). Both are played
out to the hand's end by the review's play-out player, which also chooses the seat's card
(policies/search.py, luck_into). Values are the review's: the hand margin, or the settlement
in a one-hand game. A turn-up taken or exchanged is seen by every seat and is no luck, and
cards the seat has already shown by then (a Rubicon carte blanche) are not valued either.

A seat's result, hand by hand, is split as

    result = skill + position + deal + draws + residue

- skill: the review's losses, each counted against its seat's side (another side's loss is
  this seat's gain); only the reviewed seats' losses are known;
- position: the seat's expectation before it looked at its cards (who leads, who deals),
  averaged over every seat's estimate of it where there are two sides;
- deal, draws: every seat's luck, counted for its side and against the others (with more
  than two sides, an opponent's luck counts a share 1/(sides - 1) against each other seat);
- residue: the rest, which is the noise of the estimates, the losses under the noise that
  the review counts as none, and the difference between the play-out player and the play.

Only finished hands are split.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st

Z95 = 1.959964
PURPOSE_LUCK = 2           # the luck's sampled deals: a stream of their own (deal_stream)


@dataclass(frozen=True)
class LuckEvent:
    """Cards a seat received, and what they were worth to it."""

    seat: int
    hand: int                  # from 1
    number: int                # the action (from 1) at which they were valued
    kind: str                  # "deal" or "draw"
    cards: tuple[str, ...]
    value: float               # as dealt minus not known: the luck
    low: float
    high: float
    prior: float               # the position's value had the seat not known them

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand, "number": self.number,
                "kind": self.kind, "cards": list(self.cards), "value": self.value,
                "low": self.low, "high": self.high, "prior": self.prior}


@dataclass(frozen=True)
class HandSplit:
    """One finished hand's result for a seat, and its parts."""

    hand: int
    result: float
    skill: float
    position: float
    deal: float
    draws: float

    @property
    def luck(self) -> float:
        return self.position + self.deal + self.draws

    @property
    def residue(self) -> float:
        return self.result - self.skill - self.luck

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "result": self.result, "skill": self.skill,
                "luck": self.luck, "position": self.position, "deal": self.deal,
                "draws": self.draws, "residue": self.residue}


@dataclass(frozen=True)
class LuckSplit:
    """A seat's result over the finished hands: skill + luck + residue."""

    seat: int
    hands: tuple[HandSplit, ...]
    skill_seats: tuple[int, ...]     # the seats whose losses the skill counts

    def _sum(self, name: str) -> float:
        return float(sum(getattr(h, name) for h in self.hands))

    result = property(lambda self: self._sum("result"))
    skill = property(lambda self: self._sum("skill"))
    position = property(lambda self: self._sum("position"))
    deal = property(lambda self: self._sum("deal"))
    draws = property(lambda self: self._sum("draws"))
    luck = property(lambda self: self._sum("luck"))
    residue = property(lambda self: self._sum("residue"))

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "result": self.result, "skill": self.skill,
                "luck": self.luck, "position": self.position, "deal": self.deal,
                "draws": self.draws, "residue": self.residue,
                "skill_seats": list(self.skill_seats),
                "hands": [h.as_json() for h in self.hands]}


def luck_table(rules, S: np.ndarray, seat: int, cards: list[int], deals: int,
               seed: int) -> np.ndarray:
    """[deals, 2]: the seat's play-out value in each sampled deal as dealt, and with
    ``cards`` (concealed in its hand, at its card play ``S``) not known (module
    docstring)."""
    from bezsim.policies.search import search_decision
    from bezsim.policies.search_params import (
        EVAL_ACTS,
        EVAL_DEALS,
        EVAL_N,
        EVAL_VALUES,
        LONG_MODE,
        LUCK,
    )
    from bezsim.position.evaluate import EVALUATE_SEARCH, deal_stream, evaluation_row

    settlement = rules.definition.one_hand_game and rules.players == 2
    row = evaluation_row(EVALUATE_SEARCH, rules.variant, settlement)
    long_row = np.zeros(EVAL_VALUES + 2 * deals)
    long_row[:len(row)] = row
    long_row[LONG_MODE] = LUCK
    long_row[EVAL_DEALS] = deals
    long_row[EVAL_N] = len(cards)
    long_row[EVAL_ACTS:EVAL_ACTS + len(cards)] = cards
    played = search_decision(S.copy(), seat, long_row,
                             deal_stream(seed, PURPOSE_LUCK, seat))
    if played == 0:
        raise RuntimeError("no deal of the unseen cards fits the seat's knowledge")
    return long_row[EVAL_VALUES:EVAL_VALUES + 2 * played].reshape(played, 2)


@dataclass
class LuckLedger:
    """Watches a game's replay decision by decision (``observe``) and values the cards each
    seat receives at its next card play."""

    rules: Any
    deals: int
    seed: int
    events: list[LuckEvent] = field(default_factory=list)
    hand_scores: list[list[int]] = field(default_factory=list)   # at each hand's start
    _hand: dict[int, int] = field(default_factory=dict)
    _valued: dict[int, set[int]] = field(default_factory=dict)

    def observe(self, game, n: int) -> None:
        """Called at every decision of the replay, before its action (n counts from 0)."""
        if game.hand >= len(self.hand_scores):
            self.hand_scores.append(list(game.scores()))
        seat = game.seat
        if self._hand.get(seat) != game.hand:
            self._hand[seat] = game.hand
            self._valued[seat] = set()
        S = game.state_array()
        if not self._plain_play(S):
            return                              # what it received waits for its card play
        fresh = [c for c in self._concealed(S, seat) if c not in self._valued[seat]]
        if not fresh:
            return
        kind = "draw" if self._valued[seat] else "deal"
        table = luck_table(self.rules, S, seat, fresh, self.deals, self.seed * 1_000_003 + n)
        gain = table[:, 0] - table[:, 1]
        k = table.shape[0]
        se = gain.std(ddof=1) / np.sqrt(k) if k > 1 else 0.0
        self._valued[seat].update(fresh)
        self.events.append(LuckEvent(
            seat, game.hand + 1, n + 1, kind, tuple(card_names(fresh)), float(gain.mean()),
            float(gain.mean() - Z95 * se), float(gain.mean() + Z95 * se),
            float(table[:, 1].mean())))

    def _plain_play(self, S: np.ndarray) -> bool:
        """A card play the luck can be valued at (not the partnership pairs ending)."""
        if S[st.O_DECISION] != C.D_PLAY:
            return False
        return not (S[st.O_SC + C.SC_STAGE] == 2 and self.rules.players == 4
                    and self.rules.params()[C.PR_STAGE2_PAIRS] != 0)

    def _concealed(self, S: np.ndarray, seat: int) -> list[int]:
        """The seat's concealed cards no other seat has seen."""
        players = self.rules.players
        base = st.O_HANDS + seat * C.MAX_HAND
        out = []
        for i in range(int(S[st.O_HAND_N + seat])):
            c = int(S[base + i])
            if S[st.O_SEEN + seat * st.N_MAX + c] != C.V_MINE:
                continue
            if all(S[st.O_SEEN + p * st.N_MAX + c] == C.V_UNSEEN
                   for p in range(players) if p != seat):
                out.append(c)
        return out


def card_names(cards: list[int]) -> list[str]:
    from bezsim.cards import card_name

    return [card_name(c) for c in cards]


def side_weight(rules, seat: int, other: int) -> float:
    """What a gain of ``other``'s side counts for ``seat``'s: 1 for its own side, -1 for the
    other of two sides, -1/(sides - 1) against each seat with more sides."""
    if other == seat or (rules.partners and (other - seat) % 2 == 0):
        return 1.0
    if rules.partners or rules.players == 2:
        return -1.0
    return -1.0 / (rules.players - 1)


def hand_results(rules, game, hand_scores: list[list[int]]) -> list[list[float]]:
    """Each finished hand's result for each seat: its side's hand margin (points minus the
    best other side's), or a one-hand game's settlement."""
    from bezsim.policies.deals import hand_value, rules_of

    if rules.definition.one_hand_game and rules.players == 2:
        if not game.over:
            return []
        S = game.view()
        return [[float(hand_value(S, s, rules_of(S), 1)) for s in range(rules.players)]]
    ends = hand_scores[1:] + ([list(game.scores())] if game.over else [])
    out = []
    for begin, end in zip(hand_scores[:len(ends)], ends, strict=True):  # finished hands
        points = [e - b for b, e in zip(begin, end, strict=True)]
        out.append([float(_side_margin(rules, points, s)) for s in range(rules.players)])
    return out


def _side_margin(rules, points: list[int], seat: int) -> int:
    if rules.partners:
        us = points[seat] + points[(seat + 2) % 4]
        return us - (points[(seat + 1) % 4] + points[(seat + 3) % 4])
    return points[seat] - max(p for i, p in enumerate(points) if i != seat)


def luck_splits(rules, game, ledger: LuckLedger, decisions, seats) -> tuple[LuckSplit, ...]:
    """Each reviewed seat's result over the finished hands, split (module docstring);
    ``decisions``: the review's, of those ``seats``."""
    results = hand_results(rules, game, ledger.hand_scores)
    two_sides = rules.partners or rules.players == 2
    out = []
    for seat in seats:
        hands = []
        for h, result in enumerate(results):
            events = [e for e in ledger.events if e.hand == h + 1]
            deals = [e for e in events if e.kind == "deal"]
            if two_sides:
                position = (sum(side_weight(rules, seat, e.seat) * e.prior for e in deals)
                            / max(1, len(deals)))
            else:
                position = sum(e.prior for e in deals if e.seat == seat)
            hands.append(HandSplit(
                h + 1, result[seat],
                sum(side_weight(rules, seat, d.seat) * -d.loss for d in decisions
                    if d.hand == h + 1),
                position,
                sum(side_weight(rules, seat, e.seat) * e.value for e in deals),
                sum(side_weight(rules, seat, e.seat) * e.value for e in events
                    if e.kind == "draw")))
        out.append(LuckSplit(seat, tuple(hands), tuple(seats)))
    return tuple(out)
