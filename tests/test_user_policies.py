"""User policies (``--policies package.module:function``): the documented example runs from
the CLI, a plug-in plays exactly like the built-in it copies, and bad plug-ins get one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.errors import BezsimError
from bezsim.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
TESTS = Path(__file__).resolve().parent


def bezsim(*args: str, path: Path = EXAMPLES) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), os.environ.get(
        "PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "bezsim", *args], capture_output=True,
                          text=True, env=env, timeout=900)


def test_the_documented_example_runs_from_the_cli(tmp_path):
    """docs/user_policies.md: the weakest-card policy against greedy, written to Parquet."""
    out = tmp_path / "weakest"
    done = bezsim("simulate", "--policy", "my_policies:weakest_card,greedy", "--games", "30",
                  "--seed", "1", "--out", str(out), "--no-progress")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["policies"] == ["my_policies:weakest_card", "greedy"]
    games = pd.read_parquet(out / "games").sort_values("game_id")
    assert len(games) == 30
    # the CLI ran the plug-in: its games are the ones the Python API plays with it
    sys.path.insert(0, str(EXAMPLES))
    batch = run_games(Rules.make("ordinary", {}), ["my_policies:weakest_card", "greedy"], 1,
                      0, 30)
    assert games["winner"].tolist() == batch.game_info[:, C.GI_WINNER].tolist()
    assert games["hands"].tolist() == batch.game_info[:, C.GI_HANDS].tolist()
    # and it played its weakest card: greedy wins most games
    assert (games["winner"] == 1).mean() > 0.6


def test_a_plugin_plays_exactly_like_the_builtin_it_copies():
    """The plug-in calls the built-in greedy with its (zero) parameter row: every table equals
    the built-in's with both margins 0, in two variants."""
    sys.path.insert(0, str(TESTS))
    for variant in ("ordinary", "polish"):
        rules = Rules.make(variant, {})
        mine = run_games(rules, ["user_policies_for_tests:greedy_copy", "random"], 3, 0, 40)
        builtin = run_games(rules, ["greedy(stage1_win_margin=0,stage2_win_margin=0)",
                                    "random"], 3, 0, 40)
        for a, b in ((mine.hand_seat, builtin.hand_seat), (mine.game_info, builtin.game_info),
                     (mine.events, builtin.events)):
            assert np.array_equal(a, b), variant
        assert mine.game_info[:, C.GI_HANDS].sum() > 100


@pytest.mark.parametrize("spec, message", [
    ("no_such_module_xyz:policy", "cannot import module 'no_such_module_xyz'"),
    ("user_policies_for_tests:missing", "has no 'missing'"),
    ("user_policies_for_tests:not_compiled", "is not an @njit function"),
    ("user_policies_for_tests:wrong_arguments", "does not compile as policy(S, seat, params, "
                                                "rng)"),
    ("user_policies_for_tests:greedy_copy(x=1)", "takes no parameters"),
])
def test_a_bad_plugin_gets_one_line(spec, message):
    sys.path.insert(0, str(TESTS))
    with pytest.raises(BezsimError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_games(Rules.make("ordinary", {}), [spec, "random"], 1, 0, 1)
    done = bezsim("simulate", "--policies", f"{spec},random", "--games", "2", "--seed", "1",
                  "--no-progress",
                  "--out", str(TESTS / "never-written"), path=TESTS)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert not (TESTS / "never-written").exists()


def test_a_plugin_that_answers_outside_the_offer_stops_the_run_with_one_line(tmp_path):
    """The engine flags the fault; the run ends with an error naming the policies, exit 2."""
    sys.path.insert(0, str(TESTS))
    with pytest.raises(BezsimError, match="outside the ones offered in game 0"):
        run_games(Rules.make("ordinary", {}), ["user_policies_for_tests:out_of_range",
                                               "random"], 1, 0, 3)
    done = bezsim("simulate", "--policies", "user_policies_for_tests:out_of_range,random",
                  "--games", "2", "--seed", "1", "--no-progress", "--out",
                  str(tmp_path / "run"), path=TESTS)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "user_policies_for_tests:out_of_range" in lines[0], done.stderr
