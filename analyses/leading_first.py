"""What is leading first worth, in each variant?

The player on the dealer's left leads the first trick of a hand (R1.4; in a partnership his
team, R4.2). Each hand compares that position with the dealer's in the same deal, so the
luck of the cards cancels: the difference of their points is averaged over hands (paired
interval). The game-level figure is the share of games won by the side that led the first
trick of the game, against the fair share 1/sides; positions rotate with the deal, so in
games of several hands the first lead's effect is diluted (a Rubicon game is one hand).
All seats play learned, the strongest player fast enough for the full size, one seed per
variant; the same deals played by expert, the rung below, are kept beside it, and the report
says whether the two agree (analyses/strength_convergence.py compares learned with search).

    python analyses/leading_first.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys

from bezsim.analysis import plots
from bezsim.analysis.seats import lead_value, seat_stats
from bezsim.analysis.stats import estimate_difference
from bezsim.report.document import (
    Bullets,
    Document,
    Figure,
    Table,
    est,
    pct,
    signed,
    verdict,
)
from bezsim.report.run_report import position_names
from bezsim.report.study import Context, Study
from bezsim.rules import variant_of

VARIANTS = ("ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
            "rubicon", "six_pack")
POLICY = "learned"
COMPARED = "expert"       # the rung below, on the same seeds: do the two agree?
# games per variant relative to --games: a Rubicon game is one hand, so it gets more
SCALE = {"rubicon": 3, "six_pack": 3}


def build(ctx: Context, doc: Document) -> None:
    lead, stats, runs, compared = {}, {}, {}, {}
    for i, variant in enumerate(VARIANTS):
        games = ctx.games * SCALE.get(variant, 1)
        runs[variant] = ctx.simulate(f"{variant}-{POLICY}", variant, POLICY, games,
                                     seed=ctx.seed + i)
        lead[variant] = lead_value(runs[variant].path)
        stats[variant] = seat_stats(runs[variant].path)
        for key in ("leader_minus_dealer", "leader_minus_others", "leader_tops_hand",
                    "first_leader_wins_game", "game_edge", "leader_points", "dealer_points"):
            doc.record(f"{variant}.{key}", lead[variant][key])
        doc.record(f"{variant}.hands", lead[variant]["hands"])
        doc.record(f"{variant}.games", lead[variant]["games"])
        doc.record(f"{variant}.points_by_position", stats[variant]["hand_points_by_position"])
        other = ctx.simulate(f"{variant}-{COMPARED}", variant, COMPARED, games,
                             seed=ctx.seed + i)
        compared[variant] = lead_value(other.path)
        for key in ("leader_minus_dealer", "first_leader_wins_game"):
            doc.record(f"{COMPARED}.{variant}.{key}", compared[variant][key])

    bullets = []
    for v in VARIANTS:
        d = lead[v]["leader_minus_dealer"]
        who = "the leading team" if v == "four_handed_partners" else "the leader"
        bullets.append(
            f"**{v}**: {signed(d, '+.1f')} points per hand for {who} against the dealer"
            f"{'’s team' if v == 'four_handed_partners' else ''} ("
            + verdict(d, "leading first helps", "the dealer's seat is better",
                      "no difference the run can resolve") + ")"
            + ("; against the mean of the other positions "
               f"{signed(lead[v]['leader_minus_others'], '+.1f')}" if lead[v]["sides"] > 2
               else "")
            + f"; the side that led first won {pct(lead[v]['first_leader_wins_game'], 1)} of "
            f"the games decided (fair share {100 / lead[v]['sides']:.1f}%).")
    moved = {v: doc.record(f"{POLICY}-{COMPARED}.{v}.leader_minus_dealer",
                           estimate_difference(lead[v]["leader_minus_dealer"],
                                       compared[v]["leader_minus_dealer"]))
             for v in VARIANTS}
    apart = [v for v in VARIANTS if moved[v][1] > 0 or moved[v][2] < 0]
    bullets.append(
        f"{POLICY.capitalize()} and {COMPARED}, the two strongest rungs, "
        + ("agree in every variant" if not apart else
           "disagree in " + ", ".join(f"{v} ({signed(moved[v], '+.1f')})" for v in apart))
        + f" ({POLICY} minus {COMPARED}, points per hand, the runs taken as independent); "
        "analyses/strength_convergence.py compares them with search.")
    doc.section("Answer").add(
        f"Points per hand of the first leader minus the dealer, {POLICY} play in every "
        "seat, paired within hands (95% intervals):", Bullets(bullets))

    rows = [[v, variant_of(v).section, f"{lead[v]['hands']:,}",
             signed(lead[v]["leader_minus_dealer"], "+.1f"),
             signed(lead[v]["leader_minus_others"], "+.1f") if lead[v]["sides"] > 2 else "=",
             pct(lead[v]["leader_tops_hand"], 1), pct(lead[v]["first_leader_wins_game"], 1),
             f"{100 / lead[v]['sides']:.1f}%"] for v in VARIANTS]
    sec = doc.section("By variant")
    sec.add(Table(["variant", "rules", "hands", "leader − dealer, points/hand [95%]",
                   "leader − other positions [95%]", "leader tops the hand [95%]",
                   "first leader wins the game (of games decided) [95%]", "fair share"], rows,
                  text_columns=2,
                  caption="Two-handed and partnership games have two positions, so the "
                          "leader's edge over the others is the edge over the dealer."))
    fig = plots.difference_plot(list(VARIANTS),
                                [lead[v]["leader_minus_dealer"] for v in VARIANTS],
                                "first leader's points minus the dealer's (points per hand)",
                                "What leading first is worth")
    sec.add(Figure("lead", plots.png_bytes(fig),
                   "Leader minus dealer, points per hand, 95% paired intervals; red: the "
                   "interval excludes zero."))

    sec.add(Table(["variant", f"leader − dealer, {POLICY} [95%]",
                   f"leader − dealer, {COMPARED} [95%]",
                   f"first leader wins the game, {COMPARED} [95%]",
                   f"{POLICY} − {COMPARED} [95%]"],
                  [[v, signed(lead[v]["leader_minus_dealer"], "+.1f"),
                    signed(compared[v]["leader_minus_dealer"], "+.1f"),
                    pct(compared[v]["first_leader_wins_game"], 1), signed(moved[v], "+.1f")]
                   for v in VARIANTS],
                  caption=f"The same deals (same seed per variant) under {COMPARED} play."))

    sec = doc.section("Points per hand by position")
    for v in VARIANTS:
        names = position_names(stats[v]["sides"], stats[v]["partners"])
        sec.add(Table([f"{v}: position", "points per hand [95%]", "tops the hand [95%]"],
                      [[names[p], est(stats[v]["hand_points_by_position"][p], ".1f"),
                        pct(stats[v]["hand_top_by_position"][p], 1)]
                       for p in range(stats[v]["sides"])]))
    multi = [v for v in VARIANTS if stats[v]["sides"] > 2]
    for v in multi:
        names = position_names(stats[v]["sides"], False)
        fig = plots.bar_ci(names, stats[v]["hand_points_by_position"], "points per hand (points)",
                           f"{v}: points per hand by position")
        sec.add(Figure(f"positions-{v}", plots.png_bytes(fig),
                       f"{v}: mean points per hand by position from the dealer's left (95%)."))


STUDY = Study("leading_first", "What is leading first worth, in each variant?", seed=71,
              games=30_000, quick_games=60, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
