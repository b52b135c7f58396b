"""analyses/: every script runs at its reduced size, writes its report, states numbers that
the analysis functions give on its runs, and gives exactly the committed reduced-size numbers
again (a study is a pure function of seed and size; --check compares)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from nested_approx import assert_close

from bezsim.analysis import compare_runs, load_run
from bezsim.analysis.compounds import compound_stats
from bezsim.analysis.rubicon_figures import rubicon_stats
from bezsim.analysis.scores import per_game
from bezsim.analysis.seats import lead_value
from bezsim.analysis.stats import paired_difference
from bezsim.report.document import jsonable
from bezsim.report.study import compare_numbers

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = ["polish_compounds", "rubicon_rate", "leading_first", "rule_options", "policy_ladder",
           "search_budget", "strength_convergence", "rl_baseline"]
SEARCHING = ("search_budget", "strength_convergence")


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(f"analyses_{name}",
                                                  REPO / "analyses" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module       # as an import would: a dataclass looks it up
    spec.loader.exec_module(module)
    return module


# a script's tests share one worker, so that its quick run (a module fixture) runs once; those
# that compile search go to search's worker (tests/conftest.py), marked here since a mark the
# conftest adds by name does not reach these parametrised fixtures' tests
PARAMS = [pytest.param(name, marks=pytest.mark.xdist_group(
    "external" if name in SEARCHING else f"analyses-{name}")) for name in SCRIPTS]


@pytest.fixture(scope="module", params=PARAMS)
def quick(request, tmp_path_factory):
    """One script run at --quick into a scratch directory."""
    name = request.param
    root = tmp_path_factory.mktemp(name)
    module = load_script(name)
    assert module.STUDY.main(["--quick", "--out", str(root / "out"),
                              "--runs", str(root / "runs")]) == 0
    return name, module, root


def test_script_writes_its_report(quick):
    name, module, root = quick
    out = root / "out"
    markdown = (out / f"{name}.md").read_text()
    html = (out / f"{name}.html").read_text()
    numbers = json.loads((out / f"{name}.json").read_text())
    assert markdown.startswith(f"# {module.STUDY.question}")
    assert "## Answer" in markdown and "## Reproduce" in markdown and "[95%]" in markdown
    assert f"seed {module.STUDY.seed}" in markdown
    assert numbers["seed"] == module.STUDY.seed
    assert numbers["games"] == module.STUDY.quick_games
    figures = sorted((out / "figures").glob(f"{name}-*.png"))
    assert figures and html.count("data:image/png;base64,") == len(figures)
    for figure in figures:
        assert f"figures/{figure.name}" in markdown


def test_script_numbers_match_the_committed_quick_report(quick):
    name, _, root = quick
    fresh = json.loads((root / "out" / f"{name}.json").read_text())
    committed = json.loads((REPO / "analyses" / "reports" / "quick" / f"{name}.json")
                           .read_text())
    assert compare_numbers(committed, fresh) == []


def test_script_numbers_are_the_analysis_functions(quick):
    name, module, root = quick
    numbers = json.loads((root / "out" / f"{name}.json").read_text())
    runs = root / "runs"
    if name == "polish_compounds":
        stats = compound_stats(runs / "polish-greedy")
        assert numbers["greedy.compounds_per_hand"] == pytest.approx(
            list(stats["compounds_per_hand"]))
        assert_close(numbers["greedy.size_share"],
                     jsonable({str(k): v for k, v in stats["size_share"].items()}))
    elif name == "rubicon_rate":
        for policy in ("random", "greedy", "heuristic", "expert"):
            stats = rubicon_stats(runs / f"rubicon-{policy}")
            assert numbers[f"{policy}.rubicon"] == pytest.approx(list(stats["rubicon"]))
    elif name == "leading_first":
        lead = lead_value(runs / "three_handed-learned")
        assert numbers["three_handed.leader_minus_dealer"] == pytest.approx(
            list(lead["leader_minus_dealer"]))
        lead = lead_value(runs / "three_handed-expert")
        assert numbers["expert.three_handed.leader_minus_dealer"] == pytest.approx(
            list(lead["leader_minus_dealer"]))
    elif name == "rule_options":
        preset = load_run(runs / "ordinary-learned-preset")
        played = load_run(runs / "ordinary-learned-seven_scores_when=played")
        row = compare_runs(played, preset, ["points_per_seat_hand"]).iloc[0]
        assert numbers["ordinary.seven_scores_when=played.points_per_seat_hand"] == \
            pytest.approx([row["diff"], row["diff_low"], row["diff_high"]])
        assert row["method"] == "paired"
    elif name == "policy_ladder":
        import pandas as pd
        frame = pd.read_parquet(runs / "polish-5" / "tournament.parquet")
        r = frame[(frame["policy_a"] == "heuristic") & (frame["policy_b"] == "greedy")].iloc[0]
        assert numbers["polish.heuristic-vs-greedy.win_rate"] == pytest.approx(
            [r["win_rate_a"], r["win_rate_low"], r["win_rate_high"]])
    elif name == "search_budget":
        import pandas as pd
        frame = pd.read_parquet(runs / "ordinary-3" / "tournament.parquet")
        r = frame[frame["policy_a"] == "search"].iloc[0]
        assert r["policy_b"] == "expert"
        assert numbers["samples=32.win_rate"] == pytest.approx(
            [r["win_rate_a"], r["win_rate_low"], r["win_rate_high"]])
    elif name == "rl_baseline":
        from bezsim.analysis.stats import wilson
        from bezsim.rl.baseline import Agent, evaluate
        agent = Agent.load(runs / "agent.npz")
        wins, losses, _ = evaluate(agent, "greedy", numbers["games"],
                                   module.STUDY.seed * 1000 + 902)
        assert numbers["final.vs_greedy.win_rate"] == pytest.approx(
            list(wilson(wins, wins + losses)))
    elif name == "strength_convergence":
        rates = rubicon_stats(runs / "rubicon-learned")
        assert numbers["rubicon_rate.learned"] == pytest.approx(list(rates["rubicon"]))
        games = {p: per_game(load_run(runs / f"rubicon-{p}")) for p in ("learned", "search4")}
        assert numbers["rubicon_rate.search(rollout=4)-learned"] == pytest.approx(list(
            paired_difference(games["search4"]["rubicon"].to_numpy(float),
                              games["learned"]["rubicon"].to_numpy(float))), nan_ok=True)


def test_check_mode_recomputes_and_compares(tmp_path, capsys):
    module = load_script("polish_compounds")
    quick_dir = REPO / "analyses" / "reports" / "quick"
    assert module.STUDY.main(["--quick", "--check"]) == 0
    assert "numbers match" in capsys.readouterr().out
    # a committed number that the code does not give is reported
    numbers = json.loads((quick_dir / "polish_compounds.json").read_text())
    numbers["greedy.compounds"] += 1
    (tmp_path / "polish_compounds.json").write_text(json.dumps(numbers))
    assert module.STUDY.main(["--quick", "--check", "--out", str(tmp_path)]) == 1
    assert "greedy.compounds: committed" in capsys.readouterr().out


def test_full_reports_are_committed_with_their_seed_and_size():
    for name in SCRIPTS:
        module = load_script(name)
        numbers = json.loads((REPO / "analyses" / "reports" / f"{name}.json").read_text())
        assert (numbers["seed"], numbers["games"]) == (module.STUDY.seed, module.STUDY.games)
        markdown = (REPO / "analyses" / "reports" / f"{name}.md").read_text()
        assert f"seed {module.STUDY.seed}" in markdown and "## Answer" in markdown


def test_script_runs_as_a_program(tmp_path):
    result = subprocess.run([sys.executable, str(REPO / "analyses" / "leading_first.py"),
                             "--help"], capture_output=True, text=True, check=True)
    assert "--quick" in result.stdout and "--check" in result.stdout


def test_a_quick_run_in_a_copy_of_the_repository_leaves_it_unchanged(tmp_path):
    """`python analyses/X.py --quick` rewrites its tracked JSON with the same bytes (floats
    are rounded, bezsim/report/render.py), so a regenerated quick report is no change."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(REPO / "analyses", copy / "analyses",
                    ignore=shutil.ignore_patterns("__pycache__", "*.html", "*.md", "*.png"))
    shutil.copy(REPO / ".gitignore", copy / ".gitignore")

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(copy), *args], capture_output=True, text=True,
                              check=False)

    git("init", "-q")
    git("add", "-A")
    assert git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"
               ).returncode == 0
    done = subprocess.run([sys.executable, str(copy / "analyses" / "polish_compounds.py"),
                           "--quick"], capture_output=True, text=True, cwd=copy)
    assert done.returncode == 0, done.stderr
    assert (copy / "analyses" / "reports" / "quick" / "polish_compounds.md").is_file()
    assert git("diff", "--quiet").returncode == 0, git("diff", "--stat").stdout
    assert git("status", "--porcelain").stdout == ""
