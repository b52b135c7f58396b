"""A whole game reviewed: every decision of the reviewed seats valued (values.py), the loss
of the action played against search's choice, a label by its size, and per seat the
totals.

Labels go by the loss in the variant's unit (the hand margin in points; Rubicon and
six-pack: the settlement) and by the variant: an inaccuracy from LABEL_POINTS[variant][0], a
mistake from [1], a blunder from [2]. A seat's accuracy is the share of its reviewed
decisions (those with more than one option) played without loss.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.errors import BezsimError
from bezsim.review.luck import LuckEvent, LuckLedger, LuckSplit, luck_splits
from bezsim.review.record import GameRecord, replay
from bezsim.review.values import (
    DEFAULT_DEALS,
    DecisionValues,
    decision_values,
    distinct_options,
)

LABELS = ("inaccuracy", "mistake", "blunder")
# The loss at which each label begins, by variant: learned's losses in self-play, where it
# loses anything, at their 50th, 90th and 99th percentiles, rounded (16 games a variant, 6
# for three-handed, four-handed, partnership and Polish; every seat, the default budget:
# benchmarks/review_label_spread.py; docs/review.md). An
# inaccuracy is a loss as large as learned's typical one, a mistake one it makes one time in
# ten, a blunder one time in a hundred.
LABEL_POINTS: dict[str, tuple[float, float, float]] = {
    "ordinary": (20.0, 55.0, 125.0),
    "rubicon": (100.0, 1050.0, 2050.0),
    "six_pack": (325.0, 2350.0, 2900.0),
    "three_handed": (10.0, 65.0, 145.0),
    "four_handed": (10.0, 35.0, 100.0),
    "four_handed_partners": (20.0, 170.0, 390.0),
    "polish": (115.0, 380.0, 515.0),
}
LUCK_DEALS_PER_DEAL = 4     # the luck's budget, in the decisions' deals
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def unit_of(rules) -> str:
    """What a value counts: the hand's points margin, or a one-hand game's settlement."""
    return "settlement points" if rules.definition.one_hand_game else "points"


def label_points(variant: str) -> tuple[float, float, float]:
    """Where the inaccuracy, the mistake and the blunder begin in ``variant`` (a preset's
    name; a variant without figures of its own takes the ordinary game's)."""
    return LABEL_POINTS.get(variant, LABEL_POINTS["ordinary"])


def label_of(loss: float, variant: str = "ordinary") -> str:
    """The label of a loss in ``variant`` ("" below an inaccuracy)."""
    name = ""
    for label, points in zip(LABELS, label_points(variant), strict=True):
        if loss >= points:
            name = label
    return name


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a reviewed seat."""

    number: int            # the action's number in the record, from 1
    hand: int              # from 1
    trick: int
    seat: int
    kind: str              # "play" or "declare"
    played: str
    best: str              # the option search plays given the values
    loss: float
    label: str
    values: DecisionValues | None     # None: a forced decision (one option)
    view: dict[str, Any] = field(default_factory=dict)   # what the seat saw (observe)
    story: tuple[str, ...] = ()       # what happened since the last reviewed decision

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number, "hand": self.hand, "trick": self.trick, "seat": self.seat,
            "kind": self.kind, "played": self.played, "best": self.best, "loss": self.loss,
            "label": self.label, "forced": self.values is None, "view": self.view,
            "story": list(self.story)}
        if self.values is not None:
            out["method"] = self.values.method
            out["deals"] = self.values.deals
            out["options"] = [
                {"option": o.name, "value": o.value, "low": o.low, "high": o.high,
                 "loss": o.loss, "loss_low": o.loss_low, "loss_high": o.loss_high}
                for o in self.values.options]
        return out


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int         # reviewed (more than one option)
    forced: int
    hands: int
    total_loss: float
    labels: dict[str, int] = field(default_factory=dict)
    clean: int = 0         # decisions played without loss

    @property
    def loss_per_hand(self) -> float:
        return self.total_loss / max(1, self.hands)

    @property
    def accuracy(self) -> float:
        """The share of reviewed decisions played without loss, in percent."""
        return 100.0 * self.clean / max(1, self.decisions)

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "forced": self.forced,
                "hands": self.hands, "total_loss": self.total_loss,
                "loss_per_hand": self.loss_per_hand, "accuracy": self.accuracy,
                "labels": dict(self.labels)}


@dataclass(frozen=True)
class Review:
    record: GameRecord
    seats: tuple[int, ...]
    deals: int
    seed: int
    decisions: tuple[ReviewedDecision, ...]
    summaries: tuple[SeatSummary, ...]
    scores: tuple[int, ...]
    epilogue: tuple[str, ...] = ()   # the story after the last reviewed decision
    luck: tuple[LuckSplit, ...] = ()          # each reviewed seat's result, split
    luck_events: tuple[LuckEvent, ...] = ()   # every seat's deal and draws, valued

    def as_json(self) -> dict[str, Any]:
        return {"variant": self.record.rules.variant, "options": dict(self.record.rules.options),
                "deal": self.record.deal_json(),
                "players": list(self.record.players), "seats": list(self.seats),
                "deals": self.deals, "seed": self.seed, "scores": list(self.scores),
                "unit": unit_of(self.record.rules),
                "labels": dict(zip(LABELS, label_points(self.record.rules.variant),
                                   strict=True)),
                "summaries": [s.as_json() for s in self.summaries],
                "decisions": [d.as_json() for d in self.decisions],
                "epilogue": list(self.epilogue),
                "luck": [split.as_json() for split in self.luck],
                "luck_events": [e.as_json() for e in self.luck_events]}


def review_record(record: GameRecord, seats: Sequence[int] | None = None,
                  deals: int = DEFAULT_DEALS, seed: int = 0,
                  on_decision: Callable[[], None] | None = None,
                  luck_deals: int | None = None) -> Review:
    """Review ``seats`` (None: every seat) of the game in ``record``. ``on_decision`` is
    called after each reviewed decision (a progress bar). The game's story comes with the
    decisions as ``bezsim play`` tells it to the first reviewed seat. The luck of every
    seat's cards is valued over ``luck_deals`` sampled deals (None: LUCK_DEALS_PER_DEAL
    times ``deals``): it adds up many small values, each as noisy as a decision's."""
    from bezsim.step.narrate import Narrator

    players = record.rules.players
    seats = tuple(range(players)) if seats is None else tuple(seats)
    if not seats or any(not 0 <= s < players for s in seats):
        raise BezsimError(f"--seat must be 0 to {players - 1} or 'all' for "
                          f"{record.rules.variant}")
    if deals < 2:
        raise BezsimError(f"--deals must be at least 2, got {deals}")
    out: list[ReviewedDecision] = []
    narrator = Narrator(record.rules, seats[0])
    ledger = LuckLedger(record.rules, luck_deals or LUCK_DEALS_PER_DEAL * deals, seed)

    def visit(game, n: int, index: int) -> None:
        ledger.observe(game, n)
        if game.seat not in seats:
            return
        S = game.view()
        where = dict(number=n + 1, hand=game.hand + 1, trick=int(S[st.O_SC + C.SC_TRICK]),
                     seat=game.seat, kind="play" if game.decision == "play" else "declare",
                     view=game.observation(), story=tuple(narrator.update(game.history())))
        options = distinct_options(game)
        if len(options) == 1:
            out.append(ReviewedDecision(**where, played=options[0][0], best=options[0][0],
                                        loss=0.0, label="", values=None))
        else:
            values = decision_values(game, deals, seed=seed * 1_000_003 + n)
            played = values.option_of(index, game)
            out.append(ReviewedDecision(**where, played=played.name,
                                        best=values.options[values.best].name,
                                        loss=played.loss,
                                        label=label_of(played.loss, record.rules.variant),
                                        values=values))
        if on_decision is not None:
            on_decision()

    game = replay(record, visit)
    hands = game.hand if game.over else game.hand + 1
    summaries = []
    for seat in seats:
        mine = [d for d in out if d.seat == seat]
        reviewed = [d for d in mine if d.values is not None]
        summaries.append(SeatSummary(
            seat, len(reviewed), len(mine) - len(reviewed), hands,
            sum(d.loss for d in reviewed),
            {label: sum(d.label == label for d in reviewed) for label in LABELS},
            sum(d.loss == 0 for d in reviewed)))
    return Review(record, seats, deals, seed, tuple(out), tuple(summaries),
                  tuple(game.scores()), tuple(narrator.update(game.history())),
                  luck_splits(record.rules, game, ledger, out, seats),
                  tuple(ledger.events))


def luck_line(split: LuckSplit, rules, unit: str) -> str:
    """A seat's result split into skill, luck and residue, for the terminal."""
    if not split.hands:
        return f"seat {split.seat}'s result: no hand finished yet, nothing to split"
    line = (f"seat {split.seat}'s result {split.result:+.1f} {unit} = skill {split.skill:+.1f} "
            f"+ luck {split.luck:+.1f} (position {split.position:+.1f}, the deal "
            f"{split.deal:+.1f}, the draws {split.draws:+.1f}) + residue {split.residue:+.1f}")
    if len(split.skill_seats) < rules.players:
        seats = ", ".join(str(s) for s in split.skill_seats)
        line += f"; skill counts the losses of seat {seats} only (--seat all for every seat's)"
    return line


def decisions_frame(review: Review):
    """The reviewed decisions as a pandas DataFrame, one row each."""
    import pandas as pd

    rows = [{k: v for k, v in d.as_json().items() if k not in ("options", "view")}
            for d in review.decisions]
    return pd.DataFrame(rows)


def summary_frame(review: Review):
    """The seat summaries as a pandas DataFrame, one row per reviewed seat."""
    import pandas as pd

    splits = {split.seat: split.as_json() for split in review.luck}
    rows = []
    for s in review.summaries:
        row = s.as_json()
        row.update({label: count for label, count in row.pop("labels").items()})
        split = splits.get(s.seat)
        if split is not None:
            row.update({k: split[k] for k in ("result", "skill", "luck", "position", "deal",
                                              "draws", "residue")})
        rows.append(row)
    return pd.DataFrame(rows)


def luck_frame(review: Review):
    """Every seat's deal and draws with what they were worth to it, one row each."""
    import pandas as pd

    return pd.DataFrame([e.as_json() for e in review.luck_events],
                        columns=["seat", "hand", "number", "kind", "cards", "value", "low",
                                 "high", "prior"])


def review_text(review: Review, alternatives: int = 2) -> str:
    """The review for the terminal: the game's story as ``bezsim play`` tells it, each
    reviewed decision in it with its value, search's choice and the next ``alternatives``
    options, and its loss; then each seat's summary."""
    lines = []
    drawn = {(e.seat, e.number): e for e in review.luck_events}
    for d in review.decisions:
        lines.extend(f"  {line}" for line in d.story)
        trick = d.view.get("trick") or []
        to = f", to {' '.join(trick)}" if trick and d.kind == "play" else ""
        head = f"> seat {d.seat}, hand {d.hand} trick {d.trick}{to}:"
        luck = drawn.get((d.seat, d.number))
        if luck is not None:
            got = "dealt" if luck.kind == "deal" else "drew"
            head += f" {got} {' '.join(luck.cards)} (luck {luck.value:+.1f});"
        if d.values is None:
            lines.append(f"{head} {d.played} (the only option)")
            continue
        by_name = {o.name: o for o in d.values.options}
        best = d.values.options[d.values.best]
        others = sorted((o for o in d.values.options if o.name not in (d.played, best.name)),
                        key=lambda o: -o.value)[:alternatives]
        options = ", ".join(f"{o.name} {o.value:+.1f}" for o in [best, *others])
        verdict = (f"loss {d.loss:.1f}" + (f", {d.label}" if d.label else "")
                   if d.loss > 0 else "no loss")
        lines.append(f"{head} played {d.played} {by_name[d.played].value:+.1f}; "
                     f"search: {options}; {verdict}")
    lines.extend(f"  {line}" for line in review.epilogue)
    lines.append("")
    unit = unit_of(review.record.rules)
    for s in review.summaries:
        counts = ", ".join(f"{n} {PLURALS[label] if n != 1 else label}"
                           for label, n in s.labels.items())
        lines.append(f"seat {s.seat}: {s.decisions} decisions reviewed ({s.forced} forced), "
                     f"expected loss {s.total_loss:.1f} {unit} ({s.loss_per_hand:.1f} a hand), "
                     f"accuracy {s.accuracy:.0f}%; {counts}")
    for split in review.luck:
        lines.append(luck_line(split, review.record.rules, unit))
    lines.append(f"values: {review.deals} sampled deals a decision of what the seat could "
                 "not see (exact in two-handed stage 2); search's choice is the reference; "
                 f"the story as seat {review.seats[0]} saw it")
    return "\n".join(lines)
