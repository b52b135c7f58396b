"""How settled are the headline answers: do they still move as the players get stronger?

Each headline figure of the other studies is measured under six players, from random to
the strongest search (``search(rollout=4)``: learned plays its play-outs), every rung on the
same seed and so the same deals (a deal depends on the seed, the game and the hand, not on
the players). The two strongest rungs, learned and search, are compared unit by unit on
those deals (paired: the same Rubicon game, the same hand of the same game), so the deal's
luck cancels from their difference. They agree when that difference's interval holds zero;
the figure is settled when the whole interval lies within the figure's tolerance: then
learned, fast enough for every study's full size, gives search's answer.

Figures: the Rubicon rate (R6.8), Polish compound declarations per hand (R5.2), points per
seat and hand and the value of leading first in the ordinary game (points per hand, leader
minus dealer), and the largest rule-option effect of ``rule_options.py``,
``double_bezique=all_at_once`` in the ordinary game (points per seat and hand, option minus
preset, paired by game).

    python analyses/strength_convergence.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bezsim.analysis import plots
from bezsim.analysis.compounds import load_declarations
from bezsim.analysis.load import Run
from bezsim.analysis.scores import hand_points, per_game
from bezsim.analysis.stats import (
    Estimate,
    mean_ci,
    paired_difference,
    paired_relative_difference,
    wilson,
)
from bezsim.report.document import Bullets, Document, Figure, Table, est, pct, signed
from bezsim.report.study import Context, Study

# the strongest search plays its play-outs with learned (docs/search.md)
RUNGS = ("random", "greedy", "heuristic", "expert", "learned", "search(rollout=4)")
TOP, SECOND = RUNGS[-1], RUNGS[-2]
SHORT = {TOP: "search4"}     # run directory names
OPTION = {"double_bezique": "all_at_once"}
# games per run relative to --games: an ordinary game is several hands, a Rubicon game one
SCALE = {"rubicon": 2, "ordinary": 0.5}


@dataclass(frozen=True)
class Headline:
    """One headline figure: how each run gives its units (a Series indexed by game, or by
    game and hand), how to print it, and how close the two strongest players must come for
    it to count as settled: the whole interval of their difference within ``tolerance``
    (of the figure's own unit, or with ``relative`` a share of search's value)."""

    key: str
    title: str
    variant: str
    units: Callable[[Run], pd.Series]
    fmt: str
    tolerance: float
    relative: bool = False
    rate: bool = False

    def show(self, value: Estimate | tuple[float, ...]) -> str:
        return pct(value) if self.rate else est(value, self.fmt)

    def show_difference(self, value: Estimate | tuple[float, ...]) -> str:
        if self.rate:
            return signed(value, "+.2f", 100, " pp")
        return signed(value, "+" + self.fmt)

    def show_tolerance(self) -> str:
        if self.relative:
            return f"±{100 * self.tolerance:g}% of search's value"
        if self.rate:
            return f"±{100 * self.tolerance:g} percentage points"
        return f"±{self.tolerance:g}"


def rubicons(run: Run) -> pd.Series:
    """1 for a game that ended in a rubicon, else 0 (drawn games count as no rubicon)."""
    games = per_game(run)
    return pd.Series(games["rubicon"].to_numpy(np.float64), index=games["game_id"])


def compounds(run: Run) -> pd.Series:
    """Compound declarations (2+ combinations on one trick) of each hand, both seats."""
    decl, hands = load_declarations(run.path)
    counts = decl[decl["size"] >= 2].groupby(["game_id", "hand"]).size()
    return counts.reindex(hands, fill_value=0).astype(np.float64)


def _hands(run: Run) -> pd.DataFrame:
    return run.table("hands", ["game_id", "hand", "seat", "dealer", "points"])


def points_per_seat(run: Run) -> pd.Series:
    """Each hand's points, all seats together, over the seats."""
    return hand_points(run).set_index(["game_id", "hand"])["per_seat"]


def leader_minus_dealer(run: Run) -> pd.Series:
    """Each two-handed hand: the points of the seat on the dealer's left (who leads the
    first trick) minus the dealer's."""
    h = _hands(run)
    sign = np.where(h["seat"] == h["dealer"], -1, 1)
    return (h["points"] * sign).groupby([h["game_id"], h["hand"]]).sum().astype(np.float64)


def points_per_seat_game(run: Run) -> pd.Series:
    games = per_game(run)
    return pd.Series(games["points_per_seat_hand"].to_numpy(), index=games["game_id"])


FIGURES = (
    Headline("rubicon_rate", "Rubicon games ending in a rubicon", "rubicon", rubicons, ".4f",
             0.02, rate=True),
    Headline("polish_compounds", "Polish compound declarations per hand", "polish",
             compounds, ".3f", 0.03, relative=True),
    Headline("ordinary_points", "Ordinary points per seat and hand", "ordinary",
             points_per_seat, ".1f", 0.03, relative=True),
    Headline("leading_first", "Ordinary leading first, leader minus dealer, points per hand",
             "ordinary", leader_minus_dealer, ".1f", 5.0),
)
EFFECT = Headline("double_bezique_all_at_once",
                  "Ordinary double_bezique=all_at_once, points per seat and hand, option "
                  "minus preset", "ordinary", points_per_seat_game, ".1f", 0.10, relative=True)
BELOW = "expert"     # the rung below learned


def estimate(units: pd.Series, rate: bool) -> Estimate:
    if rate:
        return wilson(int(units.sum()), len(units))
    return mean_ci(units.to_numpy())


def matched(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The units both runs hold (a hand a longer game played is not in a shorter one)."""
    both = a.index.intersection(b.index)
    return a.loc[both].to_numpy(np.float64), b.loc[both].to_numpy(np.float64)


def build(ctx: Context, doc: Document) -> None:
    runs: dict[tuple[str, str, bool], Run] = {}

    def run(variant: str, rung: str, option: bool = False) -> Run:
        key = (variant, rung, option)
        if key not in runs:
            games = max(1, round(ctx.games * SCALE.get(variant, 1)))
            label = f"{variant}{'-option' if option else ''}-{SHORT.get(rung, rung)}"
            runs[key] = ctx.simulate(label, variant, rung, games,
                                     options=OPTION if option else None)
        return runs[key]

    units: dict[str, dict[str, pd.Series]] = {}
    for fig in FIGURES:
        units[fig.key] = {rung: fig.units(run(fig.variant, rung)) for rung in RUNGS}
    units[EFFECT.key] = {}
    for rung in RUNGS:
        option = EFFECT.units(run(EFFECT.variant, rung, True))
        preset = EFFECT.units(run(EFFECT.variant, rung))
        units[EFFECT.key][rung] = (option - preset).dropna()     # paired by game

    rows, bullets = [], []
    for fig in (*FIGURES, EFFECT):
        values = {rung: doc.record(f"{fig.key}.{rung}", estimate(units[fig.key][rung],
                                                                   fig.rate))
                  for rung in RUNGS}
        doc.record(f"{fig.key}.units", {rung: len(units[fig.key][rung]) for rung in RUNGS})
        top, second = matched(units[fig.key][TOP], units[fig.key][SECOND])
        diff = doc.record(f"{fig.key}.{TOP}-{SECOND}", paired_difference(top, second))
        rel = doc.record(f"{fig.key}.{TOP}/{SECOND}-1", paired_relative_difference(top, second))
        doc.record(f"{fig.key}.paired_units", len(top))
        moved = doc.record(f"{fig.key}.{TOP}-{BELOW}",
                           paired_difference(*matched(units[fig.key][TOP],
                                                      units[fig.key][BELOW])))
        bound = rel if fig.relative else diff
        settled = doc.record(f"{fig.key}.settled", bool(-fig.tolerance <= bound[1]
                                                        and bound[2] <= fig.tolerance))
        agree = diff[1] <= 0 <= diff[2]
        rows.append([fig.title, *(fig.show(values[r]) for r in RUNGS),
                     fig.show_difference(moved), fig.show_difference(diff),
                     signed(rel, "+.1f", 100, "%"), "yes" if agree else "**no**",
                     "yes" if settled else "**no**"])
        bullets.append(
            f"**{fig.title}**: {fig.show(values[TOP])} under {TOP}, "
            f"{fig.show(values[SECOND])} under {SECOND}, {fig.show(values[BELOW])} under "
            f"{BELOW}. On the same deals {TOP} minus {SECOND} is "
            f"{fig.show_difference(diff)} ({signed(rel, '+.1f', 100, '%')}): "
            + ("the two strongest players agree" if agree else
               "**the two strongest players disagree**")
            + (f", and the answer is settled within {fig.show_tolerance()}." if settled else
               f"; the answer is not yet settled within {fig.show_tolerance()}.")
            + f" From {BELOW} to {TOP} it moved {fig.show_difference(moved)}.")
    doc.section("Answer").add(Bullets(bullets))
    sec = doc.section("By player")
    sec.add(Table(["figure", *RUNGS, f"{TOP} − {BELOW} [95%]", f"{TOP} − {SECOND} [95%]",
                   "relative [95%]", "agree", "settled"], rows,
                  caption="Every rung plays the same deals (one seed); differences are "
                          "paired by deal. Agree: the difference's interval holds 0. "
                          "Settled: it lies within the figure's tolerance ("
                          + "; ".join(f"{f.title.lower()} {f.show_tolerance()}"
                                      for f in (*FIGURES, EFFECT)) + ")."))
    for fig in (*FIGURES, EFFECT):
        values = [doc.numbers[f"{fig.key}.{rung}"] for rung in RUNGS]
        scale = 100 if fig.rate else 1
        chart = plots.bar_ci(list(RUNGS), values, fig.title + (" (%)" if fig.rate else ""),
                             fig.title, scale=scale)
        sec.add(Figure(fig.key, plots.png_bytes(chart),
                       f"{fig.title} under each player, 95% intervals."))

STUDY = Study("strength_convergence", "How settled are the headline answers as the players "
              "get stronger?", seed=101, games=6000, quick_games=8, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
