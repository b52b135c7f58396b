"""How do the policies rank: random, greedy, heuristic, expert, learned (and search)?

A round robin on duplicate deals in every variant (``bezsim tournament``): every pair plays
the same deals in every seating, so the luck of the deal cancels. Win rate: games the first
policy wins out of games decided (Wilson); margin and points per hand: averaged over a
deal's seatings, intervals over deals. The ``search`` policy tops the ladder at full size
(ordinary only): search against expert, whose play-outs it uses (docs: README "Policies";
analyses/search_budget.py for its strength by budget).

    python analyses/policy_ladder.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys

import pandas as pd

from bezsim.analysis import plots
from bezsim.analysis.stats import Estimate
from bezsim.report.document import Bullets, Document, Figure, Table, est, pct, signed
from bezsim.report.study import Context, Study
from bezsim.rules import variant_of

VARIANTS = ("ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
            "rubicon", "six_pack")
POLICIES = ("random", "greedy", "heuristic", "expert", "learned")
# deals per pair relative to --games: three- and four-handed deals are played in 6 or 8
# seatings and last longer; a Rubicon deal is one hand
SCALE = {"three_handed": 0.3, "four_handed": 0.25, "four_handed_partners": 0.6,
         "rubicon": 2, "six_pack": 2}
# ordinary, the search rungs (A, B, deals), full size only
SEARCH_RUNGS = (("search", "expert", 1000),)
# each tournament's seed, after the study's: the search rungs take 6 + k
SEED_OFFSET = {"ordinary": 0, "three_handed": 1, "four_handed": 2, "four_handed_partners": 3,
               "polish": 4, "rubicon": 5, "six_pack": 6 + len(SEARCH_RUNGS)}
SEARCH_SEED = 6
ALL = "(all)"


def _win(r) -> Estimate:
    return Estimate(r.win_rate_a, r.win_rate_low, r.win_rate_high)


def _margin(r) -> Estimate:
    return Estimate(r.margin, r.margin_low, r.margin_high)


def _pph(r) -> Estimate:
    return Estimate(r.points_per_hand_diff, r.pph_low, r.pph_high)


def ladder(frame: pd.DataFrame) -> list[str]:
    """Policies from strongest to weakest by win rate against all the others."""
    overall = frame[frame["policy_b"] == ALL].sort_values("win_rate_a", ascending=False)
    return list(overall["policy_a"])


def pair_rows(frame: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Each pair once, the stronger policy as A."""
    rank = {p: i for i, p in enumerate(order)}
    pairs = frame[frame["policy_b"] != ALL]
    keep = pairs.apply(lambda r: rank[r.policy_a] < rank[r.policy_b], axis=1)
    return pairs[keep].sort_values(["policy_a", "policy_b"],
                                   key=lambda c: c.map(rank)).reset_index(drop=True)


def row(frame: pd.DataFrame, a: str, b: str) -> pd.Series:
    """The row of A against B."""
    return frame[(frame["policy_a"] == a) & (frame["policy_b"] == b)].iloc[0]


def record_rows(doc: Document, variant: str, frame: pd.DataFrame) -> None:
    for r in frame.itertuples():
        key = f"{variant}.{r.policy_a}-vs-{r.policy_b}"
        doc.record(f"{key}.win_rate", _win(r))
        doc.record(f"{key}.margin", _margin(r))
        doc.record(f"{key}.points_per_hand", _pph(r))
        doc.record(f"{key}.games", [int(r.wins_a), int(r.wins_b), int(r.draws)])


def build(ctx: Context, doc: Document) -> None:
    frames, orders = {}, {}
    for variant in VARIANTS:
        deals = max(4, round(ctx.games * SCALE.get(variant, 1)))
        # a directory per line-up: one written for another line-up is never overwritten
        frame = ctx.tournament(f"{variant}-{len(POLICIES)}", variant, POLICIES, deals,
                               seed=ctx.seed + SEED_OFFSET[variant])
        frames[variant] = frame
        orders[variant] = ladder(frame)
        record_rows(doc, variant, frame)
        doc.record(f"{variant}.ladder", orders[variant])
    searches = []
    if not ctx.quick:
        for k, (a, b, deals) in enumerate(SEARCH_RUNGS):
            # the first rung keeps the seed and directory it had alone
            name = "ordinary-search" if k == 0 else f"ordinary-search-{k}"
            frame = ctx.tournament(name, "ordinary", [a, b], deals,
                                   seed=ctx.seed + SEARCH_SEED + k)
            searches.append(frame[frame["policy_a"] == a])
            record_rows(doc, "ordinary", searches[-1])

    bullets = []
    for v in VARIANTS:
        eh, hg = row(frames[v], "expert", "heuristic"), row(frames[v], "heuristic", "greedy")
        gr, le = row(frames[v], "greedy", "random"), row(frames[v], "learned", "expert")
        bullets.append(f"**{v}**: {' > '.join(orders[v])}. Learned wins "
                       f"{pct(_win(le), 1)} of games against expert "
                       f"({signed(_pph(le), '+.1f')} points per hand); expert beats the "
                       f"heuristic in "
                       f"{pct(_win(eh), 1)} of games ({signed(_pph(eh), '+.1f')} points per "
                       f"hand), the heuristic beats greedy in {pct(_win(hg), 1)}, greedy "
                       f"beats random in {pct(_win(gr), 1)}.")
    for s in (frame.iloc[0] for frame in searches):
        bullets.append(f"**ordinary, top rung**: {s.policy_a} beats {s.policy_b} in "
                       f"{pct(_win(s), 1)} of {int(s.wins_a + s.wins_b):,} games "
                       f"({int(s.deals):,} deals), {signed(_pph(s), '+.1f')} points per hand.")
    doc.section("Answer").add("The ladder, strongest first, by win rate against all others on "
                              "duplicate deals (95% intervals):", Bullets(bullets))

    for v in VARIANTS:
        order = orders[v]
        rows = []
        for r in pair_rows(frames[v], order).itertuples():
            rows.append([r.policy_a, r.policy_b, f"{int(r.deals):,} × {int(r.seatings)}",
                         pct(_win(r), 2), est(_margin(r), ".1f"), signed(_pph(r), "+.2f")])
        for r in (frames[v][frames[v]["policy_b"] == ALL]
                  .set_index("policy_a", drop=False).loc[order].itertuples()):
            rows.append([r.policy_a, "all others", f"{int(r.deals):,} × {int(r.seatings)}",
                         pct(_win(r), 2), est(_margin(r), ".1f"), signed(_pph(r), "+.2f")])
        for search in searches if v == "ordinary" else []:
            for r in search.itertuples():
                rows.append([r.policy_a, r.policy_b, f"{int(r.deals):,} × {int(r.seatings)}",
                             pct(_win(r), 2), est(_margin(r), ".1f"),
                             signed(_pph(r), "+.2f")])
        margin = (f"settlement from A's side ({variant_of(v).settlement_rule})"
                  if variant_of(v).settlement else "A's final score − B's best")
        doc.section(f"{v} (docs/rules.md {variant_of(v).section})").add(Table(
            ["A", "B", "deals × seatings", "A's win rate [95%]", f"margin: {margin} [95%]",
             "points per hand, A − B [95%]"], rows, text_columns=2,
            caption=f"Seed {int(frames[v]['seed'].iloc[0])}. Win rate over games decided "
                    "(drawn Rubicon and six-pack games apart)."))

    pairs = [("learned", "expert"), ("expert", "heuristic"), ("heuristic", "greedy"),
             ("greedy", "random")]
    groups = {f"{a} vs {b}": [_win(row(frames[v], a, b)) for v in VARIANTS] for a, b in pairs}
    fig = plots.grouped_bar_ci(list(VARIANTS), groups, "first policy's win rate (%)",
                               "Head to head on duplicate deals", scale=100)
    fig.axes[0].axhline(50, color="#444", linewidth=0.8, linestyle=":")
    fig.axes[0].tick_params(axis="x", labelrotation=15)
    doc.section("Figure").add(Figure("win-rates", plots.png_bytes(fig),
                                     "Win rate of the first policy of each pair, per variant "
                                     "(95% Wilson intervals); dotted: 50%."))


STUDY = Study("policy_ladder", "How do the policies rank?", seed=91, games=10_000,
              quick_games=12, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
