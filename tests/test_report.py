"""bezsim report: the report of each committed sample states what the analysis functions
give on that run, in self-contained HTML and in Markdown, and bad input is one line."""

import base64
import json
import re
import shutil

import pytest
from click.testing import CliRunner
from nested_approx import assert_close

from bezsim.analysis import combination_table, policy_comparison, sample_path, sample_run
from bezsim.analysis.compounds import compound_stats
from bezsim.analysis.rubicon_figures import rubicon_stats
from bezsim.analysis.scores import score_summary
from bezsim.analysis.seats import lead_value, seat_stats
from bezsim.cli import cli
from bezsim.report import to_html, to_markdown, write_report
from bezsim.report.document import jsonable, pct, pp
from bezsim.report.run_report import build_run_report

VARIANTS = ["ordinary", "three_handed", "four_handed", "four_handed_partners", "polish",
            "rubicon"]


@pytest.fixture(scope="module")
def reports():
    return {v: build_run_report(sample_path(v)) for v in VARIANTS}


def _same(recorded, value):
    assert_close(recorded, jsonable(value))


@pytest.mark.parametrize("variant", VARIANTS)
def test_report_numbers_are_the_analysis_functions(reports, variant):
    doc = reports[variant]
    run = sample_run(variant)
    path = sample_path(variant)
    numbers = doc.numbers
    assert numbers["games"] == run.n_games == len(run.games)
    for key, value in score_summary(run).items():
        if key not in ("games", "hands"):
            _same(numbers[f"summary.{key}"], value)
    for row in combination_table(run).itertuples():
        _same(numbers[f"combinations.{row.kind}.per_hand"],
              [row.per_hand, row.per_hand_low, row.per_hand_high])
        assert numbers[f"combinations.{row.kind}.scored"] == row.scored
    lead = lead_value(path)
    _same(numbers["lead.leader_minus_dealer"], lead["leader_minus_dealer"])
    seats = seat_stats(path)
    for p, points in enumerate(seats["hand_points_by_position"]):
        _same(numbers[f"positions.{p}.points_per_hand"], points)
    titles = [s.title for s in doc.sections]
    assert titles[:5] == ["Configuration", "Key numbers", "Score distributions",
                          "Combinations: how often, worth how much",
                          "Partnerships and positions" if variant == "four_handed_partners"
                          else "Seats and positions"]
    assert ("Polish compounds (R5.2)" in titles) == (variant == "polish")
    assert ("Rubicon: rubicons and carte blanche (R6)" in titles) == (variant == "rubicon")
    assert ("Policies compared" in titles) == (variant == "ordinary")
    assert "Convergence" in titles
    assert ("triple_bezique.hands_with" in numbers) == (run.players > 2)


def test_variant_sections_state_their_functions(reports):
    polish = compound_stats(sample_path("polish"))
    numbers = reports["polish"].numbers
    _same(numbers["compounds.compounds_per_hand"], polish["compounds_per_hand"])
    _same(numbers["compounds.size_share"], {str(k): v for k, v in polish["size_share"].items()})
    rubicon = rubicon_stats(sample_path("rubicon"))
    numbers = reports["rubicon"].numbers
    for key in ("rubicon", "settlement", "carte_blanche_at_deal_per_seat"):
        _same(numbers[f"rubicon.{key}"], rubicon[key])
    table, diffs = policy_comparison(sample_run("ordinary"))
    numbers = reports["ordinary"].numbers
    h = table.set_index("policy").loc["heuristic"]
    _same(numbers["policies.heuristic.win_rate_per_seat"],
          [h["win_rate"], h["win_low"], h["win_high"]])
    d = diffs.iloc[0]
    _same(numbers["policies.greedy-heuristic.points_per_seat_hand"],
          [d["pph_diff"], d["pph_diff_low"], d["pph_diff_high"]])


def test_a_difference_of_two_rates_is_in_percentage_points(reports):
    """Rates are written in %, the difference of two rates in pp (as the README writes it):
    "+1.20%" would read as a change relative to the rate."""
    assert pp((0.0123, -0.004, 0.0288)) == "+1.23 pp [-0.40 pp, +2.88 pp]"
    doc = reports["ordinary"]
    d = doc.numbers["policies.greedy-heuristic.win_rate_per_seat"]
    row = next(line for line in to_markdown(doc).splitlines()
               if line.startswith("| greedy − heuristic |"))
    win = row.rstrip(" |").rsplit(" | ", 1)[1]
    assert win == pp(d) and "%" not in win


def test_html_is_self_contained_and_says_the_numbers(reports):
    doc = reports["rubicon"]
    page = to_html(doc)
    sources = re.findall(r'src="([^"]+)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert len(sources) == len(doc.figures())
    png = base64.b64decode(sources[0].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<link" not in page and "http" not in page.replace("http-equiv", "")
    rate = pct(doc.numbers["rubicon.rubicon"])
    assert rate in page and rate in to_markdown(doc)
    lead = reports["four_handed"]
    assert "Leading first is worth" in to_html(lead)


def test_figures_are_pngs_with_captions(reports):
    import io

    from PIL import Image

    for fig in reports["ordinary"].figures():
        image = Image.open(io.BytesIO(fig.png))
        assert image.size[0] >= 600 and fig.caption


def test_plots_label_their_axes():
    import numpy as np

    from bezsim.analysis import convergence, plots
    from bezsim.analysis.stats import Estimate

    e = [Estimate(1.0, 0.5, 1.5), Estimate(2.0, 1.5, 2.5)]
    figures = [plots.histogram(np.arange(100) * 10, "points (points)", "t"),
               plots.bar_ci(["a", "b"], e, "rate (%)", "t", scale=100),
               plots.difference_plot(["a", "b"], e, "difference (points)", "t"),
               plots.grouped_bar_ci(["x", "y"], {"a": e, "b": e}, "win rate (%)", "t"),
               plots.convergence_plot(convergence(np.arange(50.0)), "mean (points)", "t")]
    for fig in figures:
        ax = fig.axes[0]
        assert ax.get_title() == "t"
        numeric = ax.get_xlabel() if ax.get_yticklabels()[0].get_text() in ("a", "b") \
            else ax.get_ylabel() or ax.get_xlabel()
        assert "(" in numeric and ")" in numeric          # a unit in brackets
    hist = figures[0].axes[0]
    assert hist.get_xlabel() == "points (points)" and hist.get_ylabel() == "share of games (%)"


def test_report_command_writes_html_markdown_and_json(tmp_path):
    out = tmp_path / "rep"
    result = CliRunner().invoke(cli, ["report", str(sample_path("polish")), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.html").is_file() and (out / "report.md").is_file()
    numbers = json.loads((out / "report.json").read_text())
    assert numbers["variant"] == "polish" and numbers["games"] == 1500
    markdown = (out / "report.md").read_text()
    figures = re.findall(r"\]\((figures/[^)]+\.png)\)", markdown)
    assert figures and all((out / f).is_file() for f in figures)
    assert "## Polish compounds (R5.2)" in markdown


def test_report_default_out_is_inside_the_run(tmp_path):
    run = tmp_path / "rubicon"
    shutil.copytree(sample_path("rubicon"), run)
    paths = write_report(run)
    assert paths["html"] == run / "report" / "report.html" and paths["html"].is_file()


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing", "does not exist"),
    (lambda p: p, "is not a bezsim run directory"),
])
def test_report_bad_input_is_one_line(tmp_path, make, message):
    result = CliRunner().invoke(cli, ["report", str(make(tmp_path))])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezsim: error:") and message in lines[0]


def test_report_refuses_an_incomplete_run(tmp_path):
    run = tmp_path / "short"
    shutil.copytree(sample_path("rubicon"), run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["games"] = 9000
    (run / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(cli, ["report", str(run)])
    assert result.exit_code == 2 and "incomplete (6,000 of 9,000 games)" in result.stderr


def test_a_stored_study_run_of_other_kernels_is_played_again(tmp_path, monkeypatch):
    """A study reuses a finished run only if the kernel sources that played it are today's
    (the digest beside it); a run of other or unknown kernels is removed to be played again,
    one of the same kernels is kept (so an interrupted run resumes)."""
    from bezsim import compile_cache as cache
    from bezsim.report.study import same_kernels

    run = tmp_path / "ordinary-expert"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    monkeypatch.setattr(cache, "kernel_digest", lambda: "aaaa")
    same_kernels(run)                                   # no digest beside it: unknown
    assert not run.exists()
    assert (tmp_path / "ordinary-expert.kernels").read_text() == "aaaa\n"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    same_kernels(run)                                   # the same kernels: kept
    assert (run / "manifest.json").is_file()
    monkeypatch.setattr(cache, "kernel_digest", lambda: "bbbb")
    same_kernels(run)                                   # other kernels: played again
    assert not run.exists()
    assert (tmp_path / "ordinary-expert.kernels").read_text() == "bbbb\n"
