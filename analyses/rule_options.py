"""How much does each rule option (docs/rules.md R9) change outcomes?

For every variant, a run with the preset's options and one run per other value of each
option, all on the same seed: game g of every run starts from the same deal, so the
difference of a per-game measure is averaged over games (paired interval). Every seat plays
learned, the strongest player fast enough for the full size, whose play reads the rules, so
an option's effect is what it does to good play. The same runs under expert play, the rung
below, say whether the two strongest players agree on each effect; under greedy play, which
declares whatever scores most at once, they show the rules' effect without a strategy's
adaptation to them.
Measures: points per seat and hand and hands per game (Rubicon, one hand a game: points
per seat and hand, rubicon rate and settlement). ``target`` is tried at 1.5 times the preset's.

    python analyses/rule_options.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys

from bezsim.analysis import plots
from bezsim.analysis.compare import compare_runs
from bezsim.analysis.stats import Estimate, estimate_difference
from bezsim.report.document import (
    Bullets,
    Document,
    Figure,
    Table,
    est,
    excludes_zero,
    pct,
    signed,
)
from bezsim.report.study import Context, Study
from bezsim.rules import Rules, option_choices, option_names, variant_of

VARIANTS = ("ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
            "rubicon", "six_pack")
QUICK_VARIANTS = ("ordinary", "four_handed_partners", "rubicon")
POLICY = "learned"
BELOW = "expert"          # the rung below, on the same seeds and options: do they agree?
COMPARED = "greedy"       # the same seeds and options, for the column of unadapted play
SCALE = {"three_handed": 0.4, "four_handed": 0.4, "four_handed_partners": 0.6, "rubicon": 2,
         "six_pack": 2}
METRICS = {"default": ("points_per_seat_hand", "hands"),
           "rubicon": ("points_per_seat_hand", "rubicon", "stake"),
           "six_pack": ("points_per_seat_hand", "rubicon", "stake")}
METRIC_TEXT = {"points_per_seat_hand": ("points per seat and hand", "+.2f", 1, ""),
               "hands": ("hands per game", "+.3f", 1, ""),
               "rubicon": ("rubicon rate", "+.2f", 100, " pp"),    # a difference of rates
               "stake": ("settlement, points", "+.1f", 1, "")}


def alternatives(variant: str) -> list[tuple[str, str]]:
    """(option, value) for every value of every option other than the preset's."""
    preset = Rules.make(variant).options
    out = []
    for name in option_names(variant):
        choices = option_choices(name)
        if isinstance(choices, str):              # an integer option: target
            out.append((name, str(int(preset[name]) * 3 // 2)))
            continue
        out += [(name, value) for value in choices if value != str(preset[name])]
    return out


def _est(row, prefix: str) -> Estimate:
    keys = {"a": ("value_a", "low_a", "high_a"), "b": ("value_b", "low_b", "high_b"),
            "diff": ("diff", "diff_low", "diff_high")}[prefix]
    return Estimate(*(float(row[k]) for k in keys))


def _run_name(policy: str, variant: str, label: str) -> str:
    # greedy's runs keep the names they had when greedy was the headline (reused runs)
    return f"{variant}-{label}" if policy == COMPARED else f"{variant}-{policy}-{label}"


def build(ctx: Context, doc: Document) -> None:
    variants = QUICK_VARIANTS if ctx.quick else VARIANTS
    answer = doc.section("Answer")
    answer.add("Each figure is the option's value minus the preset, paired by game on one "
               f"seed, {POLICY} play (95% intervals). Options whose interval excludes zero, "
               "largest effect on points per seat and hand first:")
    bullets: list[str] = []
    detail = []
    identical: list[tuple[str, str]] = []
    disagree: list[tuple[str, str, Estimate]] = []
    compared_effects = 0
    for i, variant in enumerate(variants):
        games = max(10, round(ctx.games * SCALE.get(variant, 1)))
        seed = ctx.seed + i
        base = ctx.simulate(_run_name(POLICY, variant, "preset"), variant, POLICY, games,
                            seed=seed)
        base_c = ctx.simulate(_run_name(COMPARED, variant, "preset"), variant, COMPARED,
                              games, seed=seed)
        base_b = ctx.simulate(_run_name(BELOW, variant, "preset"), variant, BELOW, games,
                              seed=seed)
        metrics = METRICS.get(variant, METRICS["default"])
        rows, labels, diffs, found = [], [], [], []
        base_values = compare_runs(base, base, metrics).set_index("metric")
        for metric in metrics:
            doc.record(f"{variant}.preset.{metric}", _est(base_values.loc[metric], "a"))
        for name, value in alternatives(variant):
            label = f"{name}={value}"
            run = ctx.simulate(_run_name(POLICY, variant, label), variant, POLICY, games,
                               seed=seed, options={name: value})
            table = compare_runs(run, base, metrics).set_index("metric")
            run_c = ctx.simulate(_run_name(COMPARED, variant, label), variant, COMPARED,
                                 games, seed=seed, options={name: value})
            d_c = doc.record(f"{COMPARED}.{variant}.{label}.points_per_seat_hand", _est(
                compare_runs(run_c, base_c, ["points_per_seat_hand"]).iloc[0], "diff"))
            run_b = ctx.simulate(_run_name(BELOW, variant, label), variant, BELOW, games,
                                 seed=seed, options={name: value})
            d_b = doc.record(f"{BELOW}.{variant}.{label}.points_per_seat_hand", _est(
                compare_runs(run_b, base_b, ["points_per_seat_hand"]).iloc[0], "diff"))
            cells = []
            for metric in metrics:
                d = _est(table.loc[metric], "diff")
                doc.record(f"{variant}.{label}.{metric}", d)
                text, fmt, scale, unit = METRIC_TEXT[metric]
                cell = signed(d, fmt, scale, unit)
                cells.append(f"**{cell}**" if excludes_zero(d) else cell)
            if all(_est(table.loc[m], "diff") == (0.0, 0.0, 0.0) for m in metrics):
                identical.append((variant, label))
            d_pph = _est(table.loc["points_per_seat_hand"], "diff")
            cell_c = signed(d_c, "+.2f")
            cell_b = signed(d_b, "+.2f")
            apart = estimate_difference(d_pph, d_b)
            if excludes_zero(apart):
                disagree.append((variant, label, apart))
            compared_effects += 1
            rows.append([f"`{label}`", *cells, f"**{cell_b}**" if excludes_zero(d_b) else cell_b,
                         f"**{cell_c}**" if excludes_zero(d_c) else cell_c])
            labels.append(label)
            diffs.append(d_pph)
            if excludes_zero(d_pph):
                found.append((abs(d_pph[0]), label, d_pph))
        found.sort(reverse=True)
        preset_pph = doc.numbers[f"{variant}.preset.points_per_seat_hand"]
        top = "; ".join(f"`{label}` {signed(d, '+.1f')}" for _, label, d in found[:4])
        bullets.append(f"**{variant}** ({games:,} games per run; preset "
                       f"{preset_pph[0]:.1f} points per seat and hand): "
                       + (top if top else "no option changes it measurably")
                       + (f"; {len(found) - 4} more" if len(found) > 4 else "") + ".")
        heads = [f"Δ {METRIC_TEXT[m][0]} [95%]" for m in metrics] + [
            f"{BELOW} play: Δ points per seat and hand [95%]",
            f"{COMPARED} play: Δ points per seat and hand [95%]"]
        preset_text = ", ".join(
            f"{METRIC_TEXT[m][0]} " + (pct(doc.numbers[f"{variant}.preset.{m}"])
                                       if METRIC_TEXT[m][3] == " pp" else
                                       est(doc.numbers[f"{variant}.preset.{m}"], ".2f"))
            for m in metrics)
        detail.append((variant, Table([f"{variant}: option", *heads], rows,
                                      caption=f"Option minus preset, paired by game over "
                                              f"{games:,} games (seed {seed}). Preset: "
                                              f"{preset_text}. Bold: the interval excludes 0."),
                       Figure(f"{variant}", plots.png_bytes(plots.difference_plot(
                           labels, diffs, "change in points per seat and hand (points)",
                           f"{variant}: each option against the preset")),
                           f"{variant}: change in points per seat and hand, 95% paired "
                           "intervals; red: the interval excludes zero.")))
    doc.record(f"{POLICY}-{BELOW}.effects_compared", compared_effects)
    doc.record(f"{POLICY}-{BELOW}.effects_apart", len(disagree))
    bullets.append(
        f"{POLICY.capitalize()} and {BELOW}, the two strongest rungs, agree on "
        f"{compared_effects - len(disagree)} of {compared_effects} effects on points per seat "
        "and hand (the runs taken as independent)"
        + ("; they differ on " + "; ".join(f"`{v}: {label}` ({signed(d, '+.1f')})"
                                          for v, label, d in disagree) if disagree else "")
        + "; analyses/strength_convergence.py compares the largest effect under search.")
    answer.add(Bullets(bullets))
    if identical:
        answer.add("Identical outcomes in every game (all differences exactly zero): "
                   + ", ".join(f"`{v}: {label}`" for v, label in identical) + ". These "
                   "values change what is recorded when, or what a game is worth, or a "
                   "situation that never arose in these games, not the points scored.")
    for variant, table, figure in detail:
        doc.section(f"{variant} (docs/rules.md {variant_of(variant).section})").add(table, figure)


STUDY = Study("rule_options", "How much does each rule option change outcomes?", seed=81,
              games=10_000, quick_games=40, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
