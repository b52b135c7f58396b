"""How often do Polish compound declarations occur (R5.2), and of what size?

A compound declaration scores two or more combinations on one trick won (docs/rules.md R5.2,
E1: 430 points at once). Polish is played by four policies, each on its own seed, so the
runs are independent samples and their differences get Newcombe (rates) and Welch (means)
intervals; learned, the strongest player fast enough for the full size, gives the headline
answer, and the report says whether it agrees with expert, the rung below
(analyses/strength_convergence.py compares it with search).

    python analyses/polish_compounds.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys

from bezsim.analysis import plots
from bezsim.analysis.compounds import compound_stats, compounds_per_hand, stage2_share
from bezsim.analysis.convergence import convergence
from bezsim.analysis.stats import Estimate, mean_difference, rate_difference
from bezsim.report.document import (
    Bullets,
    Document,
    Figure,
    Table,
    est,
    pct,
    pp,
    signed,
    verdict,
)
from bezsim.report.study import Context, Study

POLICIES = ("random", "greedy", "heuristic", "expert", "learned")   # seeds: seed + index
HEAD, BELOW = POLICIES[-1], POLICIES[-2]     # the headline player and the rung below


def build(ctx: Context, doc: Document) -> None:
    runs = {p: ctx.simulate(f"polish-{p}", "polish", p, ctx.games, seed=ctx.seed + i)
            for i, p in enumerate(POLICIES)}
    stats = {p: compound_stats(run.path) for p, run in runs.items()}
    per_hand = {p: compounds_per_hand(run.path) for p, run in runs.items()}
    stage2 = {p: stage2_share(run.path) for p, run in runs.items()}
    for p in POLICIES:
        s = stats[p]
        for key in ("compounds_per_hand", "hands_with_a_compound", "compound_points"):
            doc.record(f"{p}.{key}", s[key])
        doc.record(f"{p}.hands", s["hands"])
        doc.record(f"{p}.compounds", s["compounds"])
        doc.record(f"{p}.size_share", {str(k): v for k, v in s["size_share"].items()})
        doc.record(f"{p}.stage2_share", stage2[p])

    def diff_rate(a: str, b: str) -> Estimate:
        ka = round(stats[a]["hands_with_a_compound"][0] * stats[a]["hands"])
        kb = round(stats[b]["hands_with_a_compound"][0] * stats[b]["hands"])
        return rate_difference(ka, stats[a]["hands"], kb, stats[b]["hands"])

    d_top = doc.record(f"{HEAD}-{BELOW}.compounds_per_hand",
                       mean_difference(per_hand[HEAD], per_hand[BELOW]))
    d_top_share = doc.record(f"{HEAD}-{BELOW}.hands_with_a_compound", diff_rate(HEAD, BELOW))
    d_expert = doc.record("expert-heuristic.compounds_per_hand",
                          mean_difference(per_hand["expert"], per_hand["heuristic"]))
    d_expert_share = doc.record("expert-heuristic.hands_with_a_compound",
                                diff_rate("expert", "heuristic"))
    d_rate = doc.record("heuristic-greedy.compounds_per_hand",
                        mean_difference(per_hand["heuristic"], per_hand["greedy"]))
    d_share = doc.record("heuristic-greedy.hands_with_a_compound",
                         diff_rate("heuristic", "greedy"))
    d_random = doc.record("greedy-random.compounds_per_hand",
                          mean_difference(per_hand["greedy"], per_hand["random"]))

    e = stats[HEAD]
    sizes = sorted({k for s in stats.values() for k in s["size_share"]})
    common = max(e["size_share"], key=lambda k: e["size_share"][k][0]) if sizes else 2
    doc.section("Answer").add(Bullets([
        f"**A compound declaration comes {est(e['compounds_per_hand'], '.3f')} times per "
        f"hand** (both players together) under {HEAD} play; "
        f"**{pct(e['hands_with_a_compound'], 1)} of hands** have at least one.",
        f"Most compounds score **{common} combinations** "
        f"({pct(e['size_share'][common], 1)} of them); "
        + ", ".join(f"{k}: {pct(e['size_share'][k], 2)}" for k in e["size_share"] if k != common)
        + ".",
        f"A compound is worth {est(e['compound_points'], '.0f')} points on average.",
        f"{HEAD.capitalize()} minus {BELOW}, the two strongest rungs: "
        f"{signed(d_top, '+.3f')} compounds per hand ("
        + verdict(d_top, f"{HEAD} makes more: the answer still moves with the players",
                  f"{HEAD} makes fewer: the answer still moves with the players",
                  "they agree")
        + "; analyses/strength_convergence.py compares them with search"
        + f"). Expert minus heuristic: {signed(d_expert, '+.3f')} compounds per hand ("
        + verdict(d_expert, "expert play makes more", "expert play makes fewer")
        + f"); heuristic minus greedy: {signed(d_rate, '+.3f')} ("
        + verdict(d_rate, "the heuristic makes more", "the heuristic makes fewer")
        + f"); greedy minus random: {signed(d_random, '+.3f')} ("
        + verdict(d_random, "greedy makes more", "greedy makes fewer") + ").",
        f"{pct(stage2[HEAD], 1)} of compounds come in stage 2, after the stock is gone "
        "(open cards keep completing combinations, R5.2).",
    ]))

    rows = [[p, f"{stats[p]['hands']:,}", est(stats[p]["compounds_per_hand"], ".4f"),
             pct(stats[p]["hands_with_a_compound"]), est(stats[p]["compound_points"], ".1f"),
             pct(stage2[p], 1)] for p in POLICIES]
    sec = doc.section("By policy")
    sec.add(Table(["policy", "hands", "compounds per hand [95%]", "hands with one [95%]",
                   "points per compound [95%]", "made in stage 2 [95%]"], rows,
                  caption=f"{ctx.games:,} games of Polish per policy (both seats play it); "
                          "per hand = both seats together."),
            Table(["difference", "compounds per hand [95%]", "hands with one [95%]"], [
                [f"{HEAD} − {BELOW}", signed(d_top, "+.4f"), pp(d_top_share)],
                ["expert − heuristic", signed(d_expert, "+.4f"), pp(d_expert_share)],
                ["heuristic − greedy", signed(d_rate, "+.4f"), pp(d_share)],
                ["greedy − random", signed(d_random, "+.4f"),
                 pp(diff_rate("greedy", "random"))]],
                caption="Independent runs (one seed each): Welch interval for the mean, "
                        "Newcombe for the share."))

    size_rows = [[f"{k} combinations"] + [
        pct(stats[p]["size_share"][k], 2) if k in stats[p]["size_share"] else "0"
        for p in POLICIES] for k in sizes]
    sec = doc.section("Size of compounds")
    sec.add(Table(["compound of", *[f"{p} [95%]" for p in POLICIES]], size_rows,
                  caption="Share of compound declarations by how many combinations they score."))
    if sizes:
        nan = Estimate(0.0, 0.0, 0.0)
        fig = plots.grouped_bar_ci(
            [str(k) for k in sizes],
            {p: [stats[p]["size_share"].get(k, nan) for k in sizes] for p in POLICIES},
            "share of compound declarations (%)", "Size of Polish compound declarations",
            scale=100, xlabel="combinations scored at once")
        sec.add(Figure("sizes", plots.png_bytes(fig),
                       "Share of compounds by size, per policy, with 95% intervals."))

    conv = convergence(per_hand[HEAD], "mean")
    fig = plots.convergence_plot(conv, "compound declarations per hand",
                                 f"Compounds per hand ({HEAD}) against hands simulated")
    doc.section("Convergence").add(
        Figure("convergence", plots.png_bytes(fig),
               f"Running estimate of compounds per hand under {HEAD} play, with its 95% band."))


STUDY = Study("polish_compounds", "How often do Polish compound declarations occur, and of "
              "what size?", seed=51, games=40_000, quick_games=150, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
