"""How often do Rubicon games end in a rubicon (R6.8), and six-pack games (R7.5)?

A Rubicon game is one hand. The loser is rubiconed when his points plus his brisques are
under 1000; the winner then scores his total, the loser's, 300 for brisques and 1000 for
game. Five policies play, each on its own seed (independent samples: Newcombe intervals
for differences of rates); learned, the strongest player fast enough for the full size,
gives the headline answer, and the report says whether it agrees with expert, the rung
below (analyses/strength_convergence.py compares it with search). Carte blanche
at the deal depends on the cards only, so every
run checks the simulation against the exact probability C(80,9)/C(128,9).

Six-pack (R7) asks the same with its own line, 3000 points and no brisques: the same five
policies on their own seeds, and under learned play how often each four in trumps and each
bezique size is declared.

    python analyses/rubicon_rate.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys

import numpy as np

from bezsim.analysis import plots
from bezsim.analysis.combinations import combination_table
from bezsim.analysis.convergence import convergence
from bezsim.analysis.exact import carte_blanche_probability
from bezsim.analysis.rubicon_figures import rubicon_stats
from bezsim.analysis.scores import per_game, score_summary
from bezsim.analysis.stats import Estimate, mean_ci, rate_difference, wilson
from bezsim.report.document import (
    Bullets,
    Document,
    Figure,
    Table,
    est,
    pct,
    pp,
    verdict,
)
from bezsim.report.study import Context, Study

POLICIES = ("random", "greedy", "heuristic", "expert", "learned")   # seeds: seed + index
HEAD, BELOW = POLICIES[-1], POLICIES[-2]     # the headline player and the rung below


def loser_total(run, brisques_count: bool = True) -> np.ndarray:
    """Per decided game, the loser's points plus brisques: under 1000 is a rubicon (six-pack:
    his points alone, ``brisques_count=False``; under 3000)."""
    games = run.table("games", ["winner", "score_0", "score_1", "brisques_0", "brisques_1"])
    games = games[games["winner"] >= 0]
    loser = 1 - games["winner"].to_numpy()
    scores = games[["score_0", "score_1"]].to_numpy()
    brisques = games[["brisques_0", "brisques_1"]].to_numpy()
    rows = np.arange(len(games))
    total = scores[rows, loser] + (brisques[rows, loser] if brisques_count else 0)
    return total.astype(np.float64)


def build(ctx: Context, doc: Document) -> None:
    runs = {p: ctx.simulate(f"rubicon-{p}", "rubicon", p, ctx.games, seed=ctx.seed + i)
            for i, p in enumerate(POLICIES)}
    stats = {p: rubicon_stats(run.path) for p, run in runs.items()}
    games = {p: per_game(run) for p, run in runs.items()}
    for p in POLICIES:
        for key in ("rubicon", "draws", "settlement", "carte_blanche_at_deal_per_seat",
                    "games_with_triple_bezique"):
            doc.record(f"{p}.{key}", stats[p][key])
        doc.record(f"{p}.games", stats[p]["games"])
        g = games[p][games[p]["winner"] >= 0]
        doc.record(f"{p}.settlement_rubicon", mean_ci(g.loc[g["rubicon"], "stake"].to_numpy()))
        doc.record(f"{p}.settlement_no_rubicon",
                   mean_ci(g.loc[~g["rubicon"], "stake"].to_numpy()))
        doc.record(f"{p}.loser_points_and_brisques", mean_ci(loser_total(runs[p])))

    def rate_diff(a: str, b: str) -> Estimate:
        return rate_difference(stats[a]["rubicons"], stats[a]["games"],
                               stats[b]["rubicons"], stats[b]["games"])

    d_top = doc.record(f"{HEAD}-{BELOW}.rubicon", rate_diff(HEAD, BELOW))
    d_eh = doc.record("expert-heuristic.rubicon", rate_diff("expert", "heuristic"))
    d_hg = doc.record("heuristic-greedy.rubicon", rate_diff("heuristic", "greedy"))
    d_gr = doc.record("greedy-random.rubicon", rate_diff("greedy", "random"))
    seats = sum(2 * stats[p]["games"] for p in POLICIES)
    blanks = sum(round(stats[p]["carte_blanche_at_deal_per_seat"][0] * 2 * stats[p]["games"])
                 for p in POLICIES)
    pooled = doc.record("carte_blanche_pooled", wilson(blanks, seats))
    exact = doc.record("carte_blanche_exact", carte_blanche_probability(4, 9))

    def sequences_per_hand(p: str) -> Estimate:
        kinds = combination_table(runs[p]).set_index("kind")
        return Estimate(*(sum(kinds.loc[k, c] for k in ("sequence", "plain_sequence")
                              if k in kinds.index)
                          for c in ("per_hand", "per_hand_low", "per_hand_high")))

    for p in ("greedy", HEAD):
        doc.record(f"{p}.sequences_per_hand", sequences_per_hand(p))
        doc.record(f"{p}.points_per_seat_hand",
                   score_summary(runs[p])["points_per_seat_hand"])
    e, g, h = stats[HEAD], stats["greedy"], stats["heuristic"]
    doc.section("Answer").add(Bullets([
        f"**{pct(e['rubicon'])} of Rubicon games end in a rubicon** under {HEAD} play, "
        f"{pct(stats[BELOW]['rubicon'])} under {BELOW} play; "
        f"{pct(h['rubicon'])} under the heuristic, {pct(g['rubicon'])} under greedy play, "
        f"{pct(stats['random']['rubicon'])} under random play.",
        f"{HEAD.capitalize()} minus {BELOW}, the two strongest rungs: "
        f"{pp(d_top)} ("
        + verdict(d_top, f"more rubicons with {HEAD}: the answer still moves with the players",
                  f"fewer rubicons with {HEAD}: the answer still moves with the players",
                  "they agree")
        + "; analyses/strength_convergence.py compares them with search"
        + f"). Expert minus heuristic: {pp(d_eh)} ("
        + verdict(d_eh, "more rubicons with expert play", "fewer rubicons with expert play")
        + f"); heuristic minus greedy: {pp(d_hg)} ("
        + verdict(d_hg, "more rubicons with the heuristic", "fewer rubicons with the heuristic")
        + "); greedy minus random: "
        f"{pp(d_gr)} ("
        + verdict(d_gr, "more rubicons with greedy", "fewer rubicons with greedy") + ").",
        "Why: one hand rarely gives the loser 1000 points; his points and brisques "
        f"together average {est(doc.numbers[f'{HEAD}.loser_points_and_brisques'], '.0f')} "
        f"under {HEAD} play, "
        f"{est(doc.numbers['greedy.loser_points_and_brisques'], '.0f')} under greedy play.",
        f"A rubicon settles for {est(doc.numbers[f'{HEAD}.settlement_rubicon'], '.0f')} "
        f"points on average ({HEAD}); {pct(e['draws'])} of games are drawn.",
        f"Carte blanche at the deal: {pct(pooled, 3)} of seats over all runs, against "
        f"{100 * exact:.3f}% by counting ("
        + ("inside" if pooled[1] <= exact <= pooled[2] else "**outside**")
        + " the interval).",
        f"The rate belongs to the players: a {HEAD} player scores "
        f"{est(doc.numbers[f'{HEAD}.points_per_seat_hand'], '.0f')} points per hand and makes "
        f"{est(doc.numbers[f'{HEAD}.sequences_per_hand'], '.3f')} sequences per hand; greedy "
        f"play {est(doc.numbers['greedy.points_per_seat_hand'], '.0f')} points and "
        f"{est(doc.numbers['greedy.sequences_per_hand'], '.3f')} sequences.",
    ]))
    rows = [[p, f"{stats[p]['games']:,}", pct(stats[p]["rubicon"]), pct(stats[p]["draws"]),
             est(stats[p]["settlement"], ".0f"),
             est(doc.numbers[f"{p}.loser_points_and_brisques"], ".0f"),
             pct(stats[p]["carte_blanche_at_deal_per_seat"], 3)] for p in POLICIES]
    sec = doc.section("By policy")
    sec.add(Table(["policy", "games", "rubicon [95%]", "drawn [95%]",
                   "settlement, points [95%]", "loser's points + brisques [95%]",
                   "carte blanche at the deal, per seat [95%]"], rows,
                  caption="Both seats play the policy; each policy has its own seed."))
    fig = plots.bar_ci(list(POLICIES), [stats[p]["rubicon"] for p in POLICIES],
                       "games ending in a rubicon (%)", "Rubicon rate by policy", scale=100)
    sec.add(Figure("rate", plots.png_bytes(fig), "Rubicon rate with 95% Wilson intervals."))
    fig = plots.histogram({p: loser_total(runs[p]) for p in POLICIES},
                          "loser's points plus brisques in the hand (points)",
                          "How far the loser gets", mark=1000,
                          mark_label="1000: under it, a rubicon")
    sec.add(Figure("loser", plots.png_bytes(fig),
                   "Loser's points plus brisques per decided game; left of the line the "
                   "loser is rubiconed (R6.8)."))
    conv = convergence(games[HEAD]["rubicon"].to_numpy(), "rate")
    fig = plots.convergence_plot(conv, "games ending in a rubicon (%)",
                                 f"Rubicon rate ({HEAD}) against games simulated",
                                 xlabel="games simulated (log scale)", scale=100)
    doc.section("Convergence").add(Figure("convergence", plots.png_bytes(fig),
                                          "Running rubicon rate with its Wilson band."))


SIX_PACK_KINDS = ("four_trump_aces", "four_trump_tens", "four_trump_kings", "four_trump_queens",
                  "four_trump_jacks", "bezique", "double_bezique", "triple_bezique",
                  "quadruple_bezique", "four_aces", "sequence", "plain_sequence")


def six_pack(ctx: Context, doc: Document) -> None:
    """R7.5: the rubicon rate of six-pack by policy, the line at 3000; and what learned
    declares (R7.3)."""
    runs = {p: ctx.simulate(f"six_pack-{p}", "six_pack", p, ctx.games, seed=ctx.seed + 10 + i)
            for i, p in enumerate(POLICIES)}
    stats = {p: rubicon_stats(run.path) for p, run in runs.items()}
    for p in POLICIES:
        for key in ("rubicon", "draws", "settlement", "carte_blanche_at_deal_per_seat"):
            doc.record(f"six_pack.{p}.{key}", stats[p][key])
        doc.record(f"six_pack.{p}.games", stats[p]["games"])
        doc.record(f"six_pack.{p}.loser_points", mean_ci(loser_total(runs[p], False)))
        doc.record(f"six_pack.{p}.points_per_seat_hand",
                   score_summary(runs[p])["points_per_seat_hand"])
    d_top = doc.record(f"six_pack.{HEAD}-{BELOW}.rubicon", rate_difference(
        stats[HEAD]["rubicons"], stats[HEAD]["games"], stats[BELOW]["rubicons"],
        stats[BELOW]["games"]))
    seats = sum(2 * stats[p]["games"] for p in POLICIES)
    blanks = sum(round(stats[p]["carte_blanche_at_deal_per_seat"][0] * 2 * stats[p]["games"])
                 for p in POLICIES)
    pooled = doc.record("six_pack.carte_blanche_pooled", wilson(blanks, seats))
    exact = doc.record("six_pack.carte_blanche_exact", carte_blanche_probability(6, 12))
    kinds = combination_table(runs[HEAD]).set_index("kind")
    shown = [k for k in SIX_PACK_KINDS if k in kinds.index]
    for k in shown:
        doc.record(f"six_pack.{HEAD}.per_hand.{k}",
                   Estimate(*(kinds.loc[k, c] for c in ("per_hand", "per_hand_low",
                                                        "per_hand_high"))))
        doc.record(f"six_pack.{HEAD}.hands_with.{k}",
                   Estimate(*(kinds.loc[k, c] for c in ("hands_with", "hands_with_low",
                                                        "hands_with_high"))))
    e = stats[HEAD]
    sec = doc.section("Six-pack (R7)")
    sec.add(Bullets([
        f"**{pct(e['rubicon'])} of six-pack games end in a rubicon** under {HEAD} play (the "
        f"loser under 3000 points, R7.5), {pct(stats[BELOW]['rubicon'])} under {BELOW} play; "
        f"{HEAD} minus {BELOW}: {pp(d_top)} ("
        + verdict(d_top, f"more rubicons with {HEAD}", f"fewer rubicons with {HEAD}",
                  "they agree") + ").",
        f"The loser scores {est(doc.numbers[f'six_pack.{HEAD}.loser_points'], '.0f')} points "
        f"on average under {HEAD} play; a seat "
        f"{est(doc.numbers[f'six_pack.{HEAD}.points_per_seat_hand'], '.0f')}. A rubicon "
        f"settles for {est(e['settlement'], '.0f')} points on average over decided games.",
        f"Carte blanche at the deal: {pct(pooled, 3)} of seats over all six-pack runs, against "
        f"{100 * exact:.3f}% by counting, C(120,12)/C(192,12) ("
        + ("inside" if pooled[1] <= exact <= pooled[2] else "**outside**")
        + " the interval).",
    ]))
    sec.add(Table(["policy", "games", "rubicon [95%]", "drawn [95%]",
                   "settlement, points [95%]", "loser's points [95%]",
                   "points per seat [95%]"],
                  [[p, f"{stats[p]['games']:,}", pct(stats[p]["rubicon"]),
                    pct(stats[p]["draws"]), est(stats[p]["settlement"], ".0f"),
                    est(doc.numbers[f"six_pack.{p}.loser_points"], ".0f"),
                    est(doc.numbers[f"six_pack.{p}.points_per_seat_hand"], ".0f")]
                   for p in POLICIES],
                  caption="Six-pack: both seats play the policy; each policy has its own "
                          "seed."))
    sec.add(Table(["combination", "declared per hand [95%]", "hands with one [95%]"],
                  [[k.replace("_", " "), est(doc.numbers[f"six_pack.{HEAD}.per_hand.{k}"],
                                             ".3f"),
                    pct(doc.numbers[f"six_pack.{HEAD}.hands_with.{k}"])] for k in shown],
                  caption=f"What {HEAD} declares in six-pack (both seats together), the fours "
                          "in trumps and the bezique sizes first (R7.3)."))
    fig = plots.histogram({p: loser_total(runs[p], False) for p in POLICIES},
                          "loser's points in the hand (points)", "How far the six-pack loser gets",
                          mark=3000, mark_label="3000: under it, a rubicon")
    sec.add(Figure("six-pack-loser", plots.png_bytes(fig),
                   "Six-pack: the loser's points per decided game (brisques count for "
                   "nothing); left of the line he is rubiconed (R7.5)."))


def build_both(ctx: Context, doc: Document) -> None:
    build(ctx, doc)
    six_pack(ctx, doc)


STUDY = Study("rubicon_rate", "How often do Rubicon and six-pack games end in a rubicon?",
              seed=61,
              games=100_000, quick_games=300, build=build_both)

if __name__ == "__main__":
    sys.exit(STUDY.main())
