"""``bezsim report RUN_DIR``: what one run says, as a Document (rendered by render.py).

Sections: configuration, headline numbers, score distributions, combinations (how often,
worth how much), seats and positions (what leading first is worth; teams in a partnership),
the variant's own questions (Polish compounds, Rubicon rubicons and carte blanche), policies
when the run has several, and convergence. Every number comes from ``bezsim.analysis`` and
is recorded in ``Document.numbers``. A figure that two sections state comes from one
computation and reads the same in both (label, digits); "declared" is
``bezsim.analysis.declared``'s, and shares of games won are of the games decided.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np

from bezsim.analysis import plots
from bezsim.analysis.combinations import LABELS, combination_table, estimate
from bezsim.analysis.compare import policy_comparison
from bezsim.analysis.convergence import convergence
from bezsim.analysis.load import Run, load_run, n_hands
from bezsim.analysis.scores import hand_points, per_game, quantiles, score_summary
from bezsim.analysis.stats import Estimate
from bezsim.report.document import Bullets, Document, Figure, Table, est, pct, pp, signed

SUMMARY_LABELS = {
    "points_per_seat_hand": ("points per seat and hand", "points", ".1f"),
    "hands_per_game": ("hands per game", "hands", ".2f"),
    "winner_score": ("winner's final score", "points", ".1f"),
    "margin": ("winning margin (winner minus best other)", "points", ".1f"),
    "double_game_rate": ("double games (loser under half the target)", "share of games", "%"),
    "first_leader_wins": ("games won by the side that led the first trick",
                          "share of games decided", "%"),
    "settlement": ("settlement the winner scores (R6.8)", "points, games decided", ".1f"),
    "rubicon_rate": ("games ending in a rubicon (loser under 1000, R6.8)", "share of games",
                     "%"),
    "draw_rate": ("drawn games (equal rounded totals and brisques)", "share of games", "%"),
    "winner_points": ("winner's points in the hand", "points, games decided", ".1f"),
    "loser_points": ("loser's points in the hand", "points, games decided", ".1f"),
}
# the means the distributions table states again beside its quantiles (same digits)
DISTRIBUTION_MEANS = {"points per seat and hand": "points_per_seat_hand",
                      "winner's final score": "winner_score", "winner's points": "winner_points",
                      "loser's points": "loser_points", "settlement": "settlement",
                      "hands per game": "hands_per_game"}


def default_options(variant: str) -> dict:
    from bezsim.rules import Rules

    return Rules.make(variant).options


# six-pack's settlement (R7.5) in the labels Rubicon's (R6.8) are written in
SIX_PACK_WORDS = (("under 1000, R6.8", "under 3000, R7.5"), ("(R6.8)", "(R7.5)"),
                  ("equal rounded totals and brisques", "equal points"))


def summary_cells(key: str, value, six_pack: bool = False) -> list[str]:
    """Label, unit and value of a key number, as every section that states it shows it."""
    label, unit, fmt = SUMMARY_LABELS[key]
    if six_pack:
        for rubicon, six in SIX_PACK_WORDS:
            label = label.replace(rubicon, six)
    return [label, unit, pct(value) if fmt == "%" else est(value, fmt)]


def figure(name: str, fig, caption: str) -> Figure:
    return Figure(name, plots.png_bytes(fig), caption)


def reproduce_command(run: Run) -> str:
    defaults = default_options(run.variant)
    options = " ".join(f"--option {k}={v}" for k, v in sorted(run.options.items())
                       if defaults.get(k) != v)
    policies = ",".join(run.policies)
    return (f"bezsim simulate --variant {run.variant} --games {run.n_games} --seed {run.seed} "
            f"--policies {shlex.quote(policies)}" + (f" {options}" if options else ""))


def position_names(sides: int, partners: bool) -> list[str]:
    if partners:
        return ["team on the dealer's left (leads first)", "dealer's team"]
    if sides == 2:
        return ["non-dealer (leads first)", "dealer"]
    return ["dealer's left (leads first)"] + [f"position {p}" for p in range(1, sides - 1)] \
        + ["dealer (plays last)"]


# --- sections ------------------------------------------------------------------------------

def configuration(doc: Document, run: Run) -> None:
    s = doc.section("Configuration")
    defaults = default_options(run.variant)
    rows = [["variant", f"{run.variant} (docs/rules.md {run.definition.section})"],
            ["players", f"{run.players}" + (" in two partnerships (seats 0+2, 1+3)"
                                            if run.partners else "")],
            ["policies by seat", ", ".join(f"{i}: {p}" for i, p in enumerate(run.policies))],
            ["seed", str(run.seed)], ["games", f"{run.n_games:,}"],
            ["hands played", f"{doc.numbers['hands']:,}"]]
    for name, value in sorted(run.options.items()):
        note = ("default" if defaults.get(name) == value
                else f"**changed**, default {defaults[name]}")
        rows.append([f"option `{name}`", f"{value} ({note})"])
    m = run.manifest
    rows.append(["made by", f"bezsim {m.get('bezsim_version', '?')}, "
                 + ", ".join(f"{k} {v}" for k, v in sorted(m.get("versions", {}).items()))])
    if m.get("created"):
        rows.append(["created", str(m["created"])])
    s.add(Table(["setting", "value"], rows, text_columns=2),
          f"Reproduce the tables with `{reproduce_command(run)}`: a run is a pure function of "
          "rules, policies, seed and games.")


def headline(doc: Document, run: Run) -> None:
    summary = score_summary(run)
    s = doc.section("Key numbers")
    rows = []
    for key, value in summary.items():
        if key in ("games", "hands"):
            continue
        doc.record(f"summary.{key}", value)
        rows.append(summary_cells(key, value, run.definition.trump_fours))
    s.add(Table(["measure", "unit", "estimate [95% interval]"], rows,
                caption=f"{summary['games']:,} games, {summary['hands']:,} hands. Means use "
                        "hands (or games) as units; rates have Wilson intervals.",
                text_columns=2))


def distributions(doc: Document, run: Run) -> None:
    s = doc.section("Score distributions")
    hp = hand_points(run)
    seat_points = run.table("hands", ["points"])["points"].to_numpy()
    g = per_game(run)
    decided = g[g["winner"] >= 0]
    s.add(figure("hand-points", plots.histogram(
        seat_points, "points scored by one seat in one hand (points)",
        "Points per seat and hand", ylabel="share of seat-hands (%)"),
        f"Points one seat scores in one hand ({len(seat_points):,} seat-hands)."))
    if run.one_hand_game:
        s.add(figure("settlement", plots.histogram(
            {"rubicon": decided.loc[decided["rubicon"], "stake"].to_numpy(),
             "no rubicon": decided.loc[~decided["rubicon"], "stake"].to_numpy()},
            "settlement the winner scores (points)", "Settlement of a Rubicon game (R6.8)"),
            "What the winner scores, split by whether the loser was rubiconed."))
        finals = {"winner's points": decided["winner_score"].to_numpy(),
                  "loser's points": decided["runner_up_score"].to_numpy()}
    else:
        finals = {"winner's final score": decided["winner_score"].to_numpy(),
                  "best other final score": decided["runner_up_score"].to_numpy()}
        s.add(figure("final-scores", plots.histogram(
            finals, "final score (points)", "Final scores of a game"),
            f"Final scores of the winner and of the best other side ({len(decided):,} games)."))
    rows = []
    for label, values in [("points per seat and hand", seat_points),
                          ("points per hand, all seats", hp["total"].to_numpy()), *finals.items(),
                          *([("settlement", decided["stake"].to_numpy())]
                            if run.one_hand_game else
                            [("hands per game", g["hands"].to_numpy())])]:
        q = quantiles(values)
        key = DISTRIBUTION_MEANS.get(label)
        if key in SUMMARY_LABELS and f"summary.{key}" in doc.numbers:    # one mean, one way
            mean = f"{doc.numbers[f'summary.{key}'][0]:{SUMMARY_LABELS[key][2]}}"
        else:
            mean = f"{np.nanmean(values):.1f}"
        rows.append([label, mean,
                     *(f"{q[k]:.0f}" for k in ("p5", "p25", "p50", "p75", "p95"))])
    s.add(Table(["quantity", "mean", "5%", "25%", "median", "75%", "95%"], rows,
                caption="Quantiles of each distribution (points, or hands)."))


def combinations(doc: Document, run: Run) -> None:
    s = doc.section("Combinations: how often, worth how much")
    table = combination_table(run)
    rows, other_rows = [], []
    for r in table.itertuples():
        row = table.loc[r.Index]
        key = f"combinations.{r.kind}"
        doc.record(f"{key}.scored", int(r.scored))
        doc.record(f"{key}.per_hand", estimate(row, "per_hand"))
        doc.record(f"{key}.hands_with", estimate(row, "hands_with"))
        doc.record(f"{key}.points_per_hand", estimate(row, "points_per_hand"))
        if r.group == "combination":
            doc.record(f"{key}.lost", int(r.lost))
            rows.append([LABELS[r.kind], f"{r.scored:,}",
                         est(estimate(row, "per_hand"), ".2f", 100),
                         pct(estimate(row, "hands_with")), f"{r.points_each:.0f}",
                         est(estimate(row, "points_per_hand"), ".2f"),
                         f"{100 * r.share_of_points:.1f}%", f"{r.lost:,}"])
        else:
            other_rows.append([LABELS[r.kind], f"{r.scored:,}",
                               est(estimate(row, "points_per_hand"), ".2f"),
                               f"{100 * r.share_of_points:.1f}%"])
    combos = table[table["group"] == "combination"]
    aside = (" Rubicon counts brisques aside for the settlement (R6.8): they score no points "
             "and are in no row or share here." if run.definition.brisques_decide
             else " Brisques count for nothing in six-pack (R7.3): they are in no row or share "
             "here." if run.one_hand_game else "")
    s.add("Counts are per hand with all seats together. A combination is *declared* when it "
          "scores, on the trick it is shown or on a later one after being shown \"to score\" "
          "(R1.10), and then counts once; one shown \"to score\" and never scored was not "
          "declared and counts only as *lost*." + aside,
          Table(["combination", "declared", "per 100 hands [95%]", "hands with one [95%]",
                 "points each", "points per hand [95%]", "share of all points", "lost"], rows),
          Table(["other points", "events", "points per hand [95%]", "share of all points"],
                other_rows))
    if len(combos):
        labels = [LABELS[k] for k in combos["kind"]]
        s.add(figure("combinations-rate", plots.bar_ci(
            labels, [estimate(combos.loc[i], "per_hand") for i in combos.index],
            "combinations declared per 100 hands (all seats)", "How often each combination "
            "is declared", scale=100), "Declared per 100 hands, with 95% intervals."),
            figure("combinations-points", plots.bar_ci(
                labels, [estimate(combos.loc[i], "points_per_hand") for i in combos.index],
                "points per hand from the combination (points, all seats)",
                "What each combination is worth per hand"),
                "Points per hand each combination brings (rate x value), with 95% intervals."))


def seats(doc: Document, run: Run) -> None:
    from bezsim.analysis.seats import lead_value, seat_stats

    title = "Partnerships and positions" if run.partners else "Seats and positions"
    s = doc.section(title)
    stats = seat_stats(run.path)
    lead = lead_value(run.path)
    sides = stats["sides"]
    names = position_names(sides, stats["partners"])
    rows = []
    for p in range(sides):
        key = f"positions.{p}"
        doc.record(f"{key}.points_per_hand", stats["hand_points_by_position"][p])
        doc.record(f"{key}.tops_hand", stats["hand_top_by_position"][p])
        doc.record(f"{key}.wins_game_from_first_hand", stats["game_wins_by_first_position"][p])
        rows.append([names[p], est(stats["hand_points_by_position"][p], ".1f"),
                     pct(stats["hand_top_by_position"][p]),
                     pct(stats["game_wins_by_first_position"][p])])
    unit = "team" if stats["partners"] else "seat"
    doc.record("lead.leader_minus_dealer", lead["leader_minus_dealer"])
    doc.record("lead.leader_minus_others", lead["leader_minus_others"])
    doc.record("lead.first_leader_wins_game", lead["first_leader_wins_game"])
    doc.record("games_decided", stats["games_decided"])
    others = ("the dealer's team" if stats["partners"] else
              "the dealer" if sides == 2 else "the dealer (who plays last)")
    text = (f"**Leading first is worth {signed(lead['leader_minus_dealer'], '+.1f')} points per "
            f"hand** against {others} (the leader's points minus the dealer's in the same hand, "
            "so the deal's luck cancels; negative: the dealer does better)")
    if sides > 2:
        text += (f", and {signed(lead['leader_minus_others'], '+.1f')} against the mean of "
                 "the other positions")
    text += (f". The side leading the game's first trick won {pct(lead['first_leader_wins_game'])}"
             f" of the games decided (fair share {100 / sides:.1f}%).")
    s.add(text, Table(["position from the dealer's left", "points per hand [95%]",
                       "hands with the most points [95%]",
                       "games decided won, by position at the first hand [95%]"], rows,
                      caption=f"Positions of the {unit}s in each hand: the player on the "
                              "dealer's left leads first; the deal passes to the left, so "
                              "positions rotate from hand to hand. Ties at the top: "
                              f"{pct(stats['hands_tied_at_top'])} of hands."))
    side_rows = []
    for side, won in enumerate(stats["game_wins_by_side"]):
        doc.record(f"sides.{side}.wins", won)
        who = f"team {side} (seats {side}, {side + 2})" if stats["partners"] else f"seat {side}"
        side_rows.append([who, run.policies[side], pct(won)])
    same = len(set(run.policies)) == 1
    s.add(Table([unit, "policy", "games decided won [95%]"], side_rows, text_columns=2,
                caption="The first dealer is drawn at random, so with one policy these "
                        "should agree." if same else "Seats play different policies: see "
                        "Policies compared."))
    if run.players > 2:      # three or four packs: triple bezique (R3, R4)
        doc.record("triple_bezique.hands_with", stats["hands_with_triple_bezique"])
        doc.record("triple_bezique.declared", stats["triple_beziques"])
        doc.record("triple_bezique.lost", stats["triple_beziques_lost"])
        s.add(f"Triple bezique (1500, R3) was declared in "
              f"{pct(stats['hands_with_triple_bezique'], 3)} of hands "
              f"({stats['triple_beziques']:,} declared; {stats['triple_beziques_lost']:,} "
              "shown to score and lost).")
    s.add(figure("positions", plots.bar_ci(
        names, stats["hand_points_by_position"], "points per hand (points)",
        "Points per hand by position"),
        "Mean points per hand by position from the dealer's left, with 95% intervals."))


def polish(doc: Document, run: Run) -> None:
    from bezsim.analysis.compounds import compound_stats

    stats = compound_stats(run.path)
    s = doc.section("Polish compounds (R5.2)")
    for key in ("compounds_per_hand", "hands_with_a_compound", "compound_points",
                "declaration_points"):
        doc.record(f"compounds.{key}", stats[key])
    doc.record("compounds.compounds", stats["compounds"])
    doc.record("compounds.declarations", stats["declarations"])
    doc.record("compounds.declarations_per_hand", stats["declarations_per_hand"])
    doc.record("compounds.size_share", {str(k): v for k, v in stats["size_share"].items()})
    s.add(f"A declaration is everything declared on one trick won; a **compound** declares two "
          f"or more combinations at once. Of {stats['declarations']:,} declarations, "
          f"{stats['compounds']:,} were compounds.",
          Table(["measure", "estimate [95%]"], [
              ["declarations per hand", est(stats["declarations_per_hand"], ".4f")],
              ["compounds per hand", est(stats["compounds_per_hand"], ".4f")],
              ["hands with a compound", pct(stats["hands_with_a_compound"])],
              ["mean points of a compound", est(stats["compound_points"], ".1f")],
              ["mean points of any declaration", est(stats["declaration_points"], ".1f")]]),
          Table(["combinations in the compound", "count", "share of compounds [95%]"],
                [[str(size), f"{stats['size_count'][size]:,}", pct(share)]
                 for size, share in stats["size_share"].items()]))
    if stats["size_share"]:
        sizes = list(stats["size_share"])
        s.add(figure("compound-sizes", plots.bar_ci(
            [f"{k} combinations" for k in sizes], [stats["size_share"][k] for k in sizes],
            "share of compound declarations (%)", "Size of compound declarations", scale=100),
            "How many combinations a compound scores, with 95% intervals."))


def rubicon(doc: Document, run: Run) -> None:
    from bezsim.analysis.exact import carte_blanche_probability
    from bezsim.analysis.rubicon_figures import rubicon_stats

    stats = rubicon_stats(run.path)
    rules = run.rules()
    name = "Rubicon" if rules.definition.brisques_decide else "Six-pack"
    s = doc.section(f"{name}: rubicons and carte blanche ({rules.definition.section})")
    packs, dealt = rules.packs, rules.hand_size
    six_pack = rules.definition.trump_fours
    exact = carte_blanche_probability(packs, dealt)
    for key in ("rubicon", "draws", "settlement", "carte_blanche_at_deal_per_seat",
                "games_with_carte_blanche", "carte_blanche_points_per_game",
                "games_with_triple_bezique", "games_with_quadruple_bezique", "triple_beziques",
                "triple_beziques_lost", "quadruple_beziques", "quadruple_beziques_lost"):
        doc.record(f"rubicon.{key}", stats[key])
    doc.record("rubicon.carte_blanche_exact", exact)
    cb = stats["carte_blanche_at_deal_per_seat"]
    seats = 2 * stats["games"]
    expected = exact * seats
    z = (cb[0] * seats - expected) / np.sqrt(expected * (1 - exact))
    doc.record("rubicon.carte_blanche_z", float(z))
    agree = "inside" if cb[1] <= exact <= cb[2] else "**outside**"

    def declared(kind: str) -> str:
        return (f"{stats[f'{kind}_beziques']:,} declared; {stats[f'{kind}_beziques_lost']:,} "
                "shown to score and lost")

    s.add(Table(["measure", "unit", "estimate [95%]"], [
        # the key numbers again, as Key numbers states them
        summary_cells("rubicon_rate", stats["rubicon"], six_pack),
        summary_cells("draw_rate", stats["draws"], six_pack),
        summary_cells("settlement", stats["settlement"], six_pack),
        ["carte blanche at the deal", "share of seats", pct(cb, 3)],
        ["games with a carte blanche", "share of games", pct(stats["games_with_carte_blanche"], 2)],
        ["carte blanche points per game", "points",
         est(stats["carte_blanche_points_per_game"], ".2f")],
        ["games with a triple bezique declared", f"share of games ({declared('triple')})",
         pct(stats["games_with_triple_bezique"], 2)],
        ["games with a quadruple bezique declared",
         f"share of games ({declared('quadruple')})",
         pct(stats["games_with_quadruple_bezique"], 2)]], text_columns=2),
          f"Check against counting: a {dealt}-card hand from {packs} packs holds no court card "
          f"with probability C({20 * packs},{dealt})/C({32 * packs},{dealt}) = "
          f"{100 * exact:.3f}%, {agree} the simulated "
          f"interval: {round(cb[0] * seats):,} carte blanches at the deal against "
          f"{expected:.1f} expected in {seats:,} seats (z = {z:+.2f}; |z| > 1.96 happens in "
          "one check out of twenty by chance alone).")


def policies(doc: Document, run: Run) -> None:
    if len(set(run.policies)) < 2:
        return
    table, diffs = policy_comparison(run)
    s = doc.section("Policies compared")
    rows = []
    for r in table.itertuples():
        win = Estimate(r.win_rate, r.win_low, r.win_high)
        pph = Estimate(r.pph, r.pph_low, r.pph_high)
        doc.record(f"policies.{r.policy}.win_rate_per_seat", win)
        doc.record(f"policies.{r.policy}.points_per_seat_hand", pph)
        rows.append([r.policy, r.seats, pct(win), f"{100 * r.fair_share:.1f}%", est(pph, ".1f")])
    diff_rows, labels, values = [], [], []
    for r in diffs.itertuples():
        d_pph = Estimate(r.pph_diff, r.pph_diff_low, r.pph_diff_high)
        d_win = Estimate(r.win_diff, r.win_diff_low, r.win_diff_high)
        doc.record(f"policies.{r.policy}-{r.against}.points_per_seat_hand", d_pph)
        doc.record(f"policies.{r.policy}-{r.against}.win_rate_per_seat", d_win)
        diff_rows.append([f"{r.policy} − {r.against}", signed(d_pph, "+.1f"),
                          pp(d_win)])
        labels.append(f"{r.policy} − {r.against}")
        values.append(d_pph)
    s.add("The policies share the run's games, each in its own seats; the first dealer is "
          "drawn at random, so no seat is favoured. Differences are paired within games.",
          Table(["policy", "seats", "win rate per seat, games decided [95%]", "fair share",
                 "points per seat and hand [95%]"], rows),
          Table(["difference", "points per seat and hand [95%]",
                 "win rate per seat, games decided [95%]"],
                diff_rows),
          figure("policies", plots.difference_plot(
              labels, values, "difference in points per seat and hand (points)",
              "Policies against the first policy"),
              "Each policy's points per seat and hand minus the first policy's (95%)."),
          "For the strength ladder on duplicate deals use `bezsim tournament` "
          "(see `analyses/policy_ladder.py`).")


def convergence_section(doc: Document, run: Run) -> None:
    s = doc.section("Convergence")
    hp = hand_points(run)
    conv = convergence(hp["per_seat"].to_numpy(), "mean")
    s.add("How the estimate settles as hands accumulate (in game order): the 95% band "
          "narrows as 1/√n. Read the digits that the final band leaves fixed.",
          figure("convergence-points", plots.convergence_plot(
              conv, "points per seat and hand (points)",
              "Mean points per seat and hand against hands simulated"),
              "Running mean of points per seat and hand, with its 95% band."))
    if run.one_hand_game:
        rub = convergence(per_game(run)["rubicon"].to_numpy(), "rate")
        s.add(figure("convergence-rubicon", plots.convergence_plot(
            rub, "games ending in a rubicon (%)", "Rubicon rate against games simulated",
            xlabel="games simulated (log scale)", scale=100),
            "Running rubicon rate with its Wilson band."))


def notes(doc: Document, run: Run) -> None:
    doc.section("How to read this report").add(Bullets([
        "Every figure is an estimate with a 95% interval: Wilson score intervals for rates, "
        "the normal approximation for means, paired per-game (or per-hand) differences where "
        "two things are compared on the same deals.",
        "Units: a *hand* is one deal played out; a *game* runs until a side reaches the target "
        "(R2.6; a Rubicon game is one hand). Per-hand counts add all seats.",
        "Hands are treated as independent units for per-hand figures (each hand is dealt "
        "afresh from the seed).",
        "The numbers of this report are also in `report.json` beside it.",
    ]))


def build_run_report(run_dir: str | Path | Run, title: str | None = None) -> Document:
    """The report of one run directory as a Document."""
    run = run_dir if isinstance(run_dir, Run) else load_run(run_dir)
    run.check_complete()
    doc = Document(title or f"bezsim report: {run.variant} bézique",
                   f"Run `{run.label}`: {run.n_games:,} games, policies "
                   f"{', '.join(run.policies)}, seed {run.seed}.")
    doc.record("variant", run.variant)
    doc.record("games", run.n_games)
    doc.record("hands", n_hands(run))
    configuration(doc, run)
    headline(doc, run)
    distributions(doc, run)
    combinations(doc, run)
    seats(doc, run)
    if run.definition.open_cards:
        polish(doc, run)
    if run.definition.settlement:
        rubicon(doc, run)
    policies(doc, run)
    convergence_section(doc, run)
    notes(doc, run)
    return doc
