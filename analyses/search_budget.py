"""How strong is search for its budget, and what does each decision cost?

``search`` plays every decision by trying the offered actions in deals of the unseen cards
sampled from what its seat has seen, played out by expert players; ``samples`` is the most
deals a decision gets (the race drops actions that cannot beat expert's well before that).
Each budget plays expert on duplicate deals of the ordinary game (``bezsim tournament``):
win rate over games decided (Wilson), margin and points per hand averaged over a deal's
seatings, intervals over deals. Reference rows: a card-only spec (heuristic
play-outs, 12 deals for every card), the default search without searching the
declarations (``every=0``), and information-set MCTS (``method=1``) with as many play-outs
as the default gives every action before the race (samples x actions).

Cost: card decisions per second on one core, search against heuristic over a few games,
as ``benchmarks/search_cost.py`` counts them (every card the search seat plays, the
opponent's time included). Timings depend on the machine and its load, so they are printed
in the report but not among the numbers ``--check`` compares.

    python analyses/search_budget.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys
import time

from bezsim.analysis import plots
from bezsim.analysis.stats import Estimate
from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.policy_specs.registry import SEARCH_CARDS_HEURISTIC
from bezsim.report.document import Bullets, Document, Figure, Table, est, pct, signed
from bezsim.report.study import Context, Study
from bezsim.rules import Rules

VARIANT = "ordinary"
BUDGETS = (4, 8, 16, 32, 64)           # samples: the most deals a decision gets
DEFAULT = 32
REFERENCES = (("search, 12 deals, heuristic play-outs, cards only",
               f"search({SEARCH_CARDS_HEURISTIC})"),
              ("search, cards only", "search(every=0)"),
              ("ISMCTS, samples=32", "search(method=1)"))
COST_GAMES = 12                          # games per timing (full size; quick: 2)


def spec_of(samples: int) -> str:
    return "search" if samples == DEFAULT else f"search(samples={samples})"


def decisions_per_second(spec: str, games: int) -> float:
    """Card decisions of the search seat per second on one core, against heuristic."""
    rules = Rules.make(VARIANT)
    run_games(rules, [spec, "heuristic"], 1, 0, 1, threads=1)       # compile, warm
    start = time.perf_counter()
    batch = run_games(rules, [spec, "heuristic"], 1, 0, games, threads=1)
    seconds = time.perf_counter() - start
    hands = int(batch.game_info[:, C.GI_HANDS].sum())
    return hands * rules.packs * 32 // 2 / seconds


def _win(r) -> Estimate:
    return Estimate(r.win_rate_a, r.win_rate_low, r.win_rate_high)


def _pph(r) -> Estimate:
    return Estimate(r.points_per_hand_diff, r.pph_low, r.pph_high)


def build(ctx: Context, doc: Document) -> None:
    deals = max(4, ctx.games)
    rows, wins, labels, bullets = [], [], [], []
    lines = [(f"samples={s}" + (" (default)" if s == DEFAULT else ""), spec_of(s))
             for s in BUDGETS] + list(REFERENCES)
    for i, (label, spec) in enumerate(lines):
        frame = ctx.tournament(f"{VARIANT}-{i}", VARIANT, [spec, "expert"], deals,
                               seed=ctx.seed)
        r = frame[frame["policy_b"] == "expert"].iloc[0]      # A: the spec, canonical
        key = label.split(" (")[0].replace(" ", "_")
        doc.record(f"{key}.win_rate", _win(r))
        doc.record(f"{key}.points_per_hand", _pph(r))
        doc.record(f"{key}.games", [int(r.wins_a), int(r.wins_b), int(r.draws)])
        speed = decisions_per_second(spec, COST_GAMES if not ctx.quick else 2)
        ctx.log(f"{label}: {speed:,.0f} card decisions/s")
        rows.append([label, f"`{spec}`", pct(_win(r), 1), signed(_pph(r), "+.1f"),
                     f"{speed:,.0f}"])
        wins.append(_win(r))
        labels.append(label)
        bullets.append(f"**{label}**: {pct(_win(r), 1)} of games against expert, "
                       f"{signed(_pph(r), '+.1f')} points per hand, about {speed:,.0f} card "
                       "decisions a second on one core.")
    doc.section("Answer").add(
        f"Search against expert, ordinary game, the same {deals:,} deals in both seatings "
        f"(seed {ctx.seed}; 95% intervals):", Bullets(bullets))
    doc.section("Budgets").add(Table(
        ["budget", "policy", "win rate against expert [95%]", "points per hand, A − B [95%]",
         "card decisions/s (one core)"], rows, text_columns=2,
        caption="Decisions per second were measured when this report was written (search "
                f"against heuristic, {COST_GAMES} games, one thread): they vary with the "
                "machine and its load and are not among the numbers --check compares."))
    fig = plots.bar_ci(labels, wins, "win rate against expert (%)",
                       "Search against expert by budget (ordinary)", scale=100,
                       reference=0.5, reference_label="even")
    doc.section("Figure").add(Figure("win-rate-by-budget", plots.png_bytes(fig),
                                     "Win rate against expert per budget, 95% Wilson "
                                     "intervals; dashed: 50%."))
    doc.record("deals", deals)
    _ = est


STUDY = Study("search_budget", "How strong is search for its budget?", seed=2424,
              games=1000, quick_games=4, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
