"""Bad input through the Python API: every malformed value raises a BezsimError
subclass (one type for a caller to catch) with a one-line message naming the bad value,
never a KeyError/TypeError traceback, and never a silently wrong run.

The catalogues are data: (what, call, fragment of the message). Property tests (hypothesis)
draw random options and policy texts: the result is either valid or the documented error.
The command line's catalogue is test_bad_input.py, position files' test_bad_input_positions.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from bad_input_helpers import raises_one_line
from hypothesis import given, settings
from hypothesis import strategies as st

from bezsim import tournament as T
from bezsim.analysis import load
from bezsim.analysis.compounds import compound_stats
from bezsim.analysis.rubicon_figures import rubicon_stats
from bezsim.analysis.seats import seat_stats
from bezsim.engine_api import games as api
from bezsim.errors import BezsimError
from bezsim.io.reader import read_run, read_table
from bezsim.policy_specs.registry import parse_policies
from bezsim.replay import transcript
from bezsim.rules import VARIANTS, Rules, RulesError, option_choices, option_names
from bezsim.running.simulation import run_simulation

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
ORDINARY = Rules.make("ordinary")
PROPERTY = settings(max_examples=200, deadline=None, derandomize=True)


# --- rules -------------------------------------------------------------------------------------

RULES = [
    ("direct unknown variant", lambda: Rules("bogus"), "unknown variant 'bogus'"),
    ("direct unknown option", lambda: Rules("ordinary", {"x": 1}), "unknown option 'x'"),
    ("direct bad value", lambda: Rules("ordinary", {"target": "lots"}),
     "option target must be a whole number, got 'lots'"),
    ("direct options a list", lambda: Rules("ordinary", ["target=5"]),
     "options must map option names to values"),
    ("variant None", lambda: Rules.make(None), "variant must be a name"),
    ("variant a number", lambda: Rules.make(5), "variant must be a name"),
    ("variant misspelt", lambda: Rules.make("six_pak"), "unknown variant 'six_pak'"),
    ("options text", lambda: Rules.make("ordinary", "target=5"), "options must map option"),
    ("target None", lambda: Rules.make("ordinary", {"target": None}), "got None"),
    ("target float", lambda: Rules.make("ordinary", {"target": 1500.5}), "got 1500.5"),
    ("target bool", lambda: Rules.make("ordinary", {"target": True}), "got True"),
    ("target 0", lambda: Rules.make("ordinary", {"target": 0}), "option target=0 is out of"),
    ("choice a bool", lambda: Rules.make("ordinary", {"stage2_duty": True}),
     "option stage2_duty=True is not one of"),
    ("choice a list", lambda: Rules.make("ordinary", {"stage2_duty": ["follow_only"]}),
     "is not one of"),
    ("option name a number", lambda: Rules.make("ordinary", {5: "x"}), "unknown option 5"),
    ("fixed option", lambda: Rules.make("polish", {"brisques_when": "when_won"}),
     "option brisques_when does not apply to variant 'polish'"),
    ("Rubicon option elsewhere", lambda: Rules.make("polish", {"rubicon_reuse": "any_class"}),
     "applies to rubicon"),
    ("players text", lambda: Rules.make("ordinary", players="x"), "players must be a whole"),
    ("players float", lambda: Rules.make("ordinary", players=2.5), "got 2.5"),
    ("players wrong", lambda: Rules.make("three_handed", players=2), "is played by 3 players"),
    ("from_strings text", lambda: Rules.from_strings("ordinary", "target=5"),
     "options must be a list of name=value strings, got 'target=5'"),
    ("from_strings None", lambda: Rules.from_strings("ordinary", None), "got None"),
    ("from_strings number", lambda: Rules.from_strings("ordinary", [5]),
     "option 5 must be a name=value string"),
    ("from_strings no =", lambda: Rules.from_strings("ordinary", ["target"]),
     "option 'target' must look like name=value"),
    ("from_strings twice", lambda: Rules.from_strings("ordinary", ["target=5", "target=6"]),
     "option target is given twice ('5' and '6')"),
]


@pytest.mark.parametrize(("label", "call", "fragment"), RULES, ids=[c[0] for c in RULES])
def test_bad_rules_are_rules_errors(label, call, fragment):
    raises_one_line(call, fragment, RulesError)


def test_direct_construction_is_make():
    """Rules("ordinary") used to skip validation and fail later in params() (KeyError)."""
    assert Rules("ordinary") == Rules.make("ordinary")
    assert np.array_equal(Rules("polish", {"target": 1500}).params(),
                          Rules.make("polish", {"target": 1500}).params())
    assert Rules(" Rubicon ").variant == "rubicon"


_ANY_OPTION = sorted({name for v in VARIANTS for name in option_names(v)}
                     | {"brisques_when", "seven_scores_when", "trumps", "TARGET", ""})
_VALUES = st.one_of(st.sampled_from(sorted({c for v in VARIANTS for n in option_names(v)
                                            if not isinstance(option_choices(n), str)
                                            for c in option_choices(n)})),
                    st.integers(-5, 20_000), st.booleans(), st.none(), st.text(max_size=6),
                    st.floats(allow_nan=True))


@PROPERTY
@given(st.sampled_from(VARIANTS + ("pinochle", "Polish ", "")),
       st.dictionaries(st.sampled_from(_ANY_OPTION), _VALUES, max_size=4))
def test_random_options_are_valid_rules_or_rules_error(variant, options):
    try:
        rules = Rules.make(variant, options)
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    again = Rules.make(rules.variant, rules.options)
    assert again == rules == Rules(rules.variant, rules.options)
    assert np.array_equal(again.params(), rules.params())
    assert set(rules.options) == set(option_names(rules.variant))


_SPEC_TEXT = st.lists(st.sampled_from(["random", "greedy", "heuristic", "search", "nobody",
                                       "(", ")", ",", "=", "stage1_win_margin",
                                       "stage2_win_margin", "samples", "rollout", "trump",
                                       "1", "2.5", "-3", "0", "abc", "nan", " ", "."]),
                      max_size=9).map("".join)


@PROPERTY
@given(_SPEC_TEXT, st.integers(2, 4))
def test_random_policy_text_is_parsed_or_a_bezsim_error(text, players):
    try:
        specs = parse_policies(text, players)
    except BezsimError as exc:
        assert "\n" not in str(exc)
        return
    assert len(specs) == players
    assert parse_policies(",".join(specs), players) == specs      # canonical: a fixed point


# --- engine, runner, tournament, replay ------------------------------------------------------

R = ["random", "random"]
ENGINE = [
    ("rules a name", lambda: api.run_games("ordinary", R, 1, 0, 2), "rules must be a bezsim"),
    ("rules None", lambda: api.trace_one(None, R, 1, 0), "rules must be a bezsim.rules.Rules"),
    ("policies None", lambda: api.run_games(ORDINARY, None, 1, 0, 2), "got None"),
    ("policies numbers", lambda: api.run_games(ORDINARY, [1, 2], 1, 0, 2), "got [1, 2]"),
    ("three policies", lambda: api.run_games(ORDINARY, R + R[:1], 1, 0, 2),
     "3 policies given for 2 seats"),
    ("unknown policy", lambda: api.trace_one(ORDINARY, ["x", "random"], 1, 0),
     "unknown policy 'x'"),
    ("seed negative", lambda: api.run_games(ORDINARY, R, -1, 0, 2), "got -1"),
    ("seed 2**64", lambda: api.run_games(ORDINARY, R, 2**64, 0, 2), "seed must be a whole "
                                                                   "number from 0 to 2**64 - 1"),
    ("seed float", lambda: api.run_games(ORDINARY, R, 1.5, 0, 2), "got 1.5"),
    ("seed text", lambda: api.run_games(ORDINARY, R, "1", 0, 2), "got '1'"),
    ("seed bool", lambda: api.trace_one(ORDINARY, R, True, 0), "got True"),
    ("seed nan", lambda: api.run_games(ORDINARY, R, float("nan"), 0, 2), "got nan"),
    ("start negative", lambda: api.run_games(ORDINARY, R, 1, -1, 2), "game index must be a "
                                                                    "whole number >= 0, got -1"),
    ("start float", lambda: api.run_games(ORDINARY, R, 1, 1.5, 2), "got 1.5"),
    ("start past int64", lambda: api.run_games(ORDINARY, R, 1, 2**63 - 1, 2),
     "game indices must stay below 2**63"),
    ("game past int64", lambda: api.trace_one(ORDINARY, R, 1, 2**63), "stay below 2**63"),
    ("game None", lambda: api.trace_one(ORDINARY, R, 1, None), "got None"),
    ("n negative", lambda: api.run_games(ORDINARY, R, 1, 0, -1), "number of games must be"),
    ("n float", lambda: api.run_games(ORDINARY, R, 1, 0, 2.5), "got 2.5"),
    ("n too many", lambda: api.run_games(ORDINARY, R, 1, 0, 10**12), "not enough memory for "
                                                                    "the outcome arrays"),
    ("threads 0", lambda: api.run_games(ORDINARY, R, 1, 0, 2, threads=0),
     "threads must be between 1 and"),
    ("threads float", lambda: api.run_games(ORDINARY, R, 1, 0, 2, threads=1.5),
     "threads must be a whole number, got 1.5"),
    ("threads text", lambda: api.check_threads("1"), "threads must be a whole number, got '1'"),
    ("replay policies None", lambda: transcript(ORDINARY, None, 1, 0), "got None"),
    ("replay game float", lambda: transcript(ORDINARY, R, 1, 0.5), "got 0.5"),
    ("search samples 0", lambda: api.run_games(ORDINARY, ["search(samples=0)"] * 2, 1, 0, 1),
     "samples=0 is out of range"),
]


@pytest.mark.parametrize(("label", "call", "fragment"), ENGINE, ids=[c[0] for c in ENGINE])
def test_bad_engine_call_is_a_bezsim_error(label, call, fragment):
    raises_one_line(call, fragment)


@pytest.fixture
def no_games(monkeypatch):
    calls: list = []

    def engine(*args, **kwargs):
        calls.append(args)
        raise AssertionError("a refused run reached the engine")

    monkeypatch.setattr(api, "run_games", engine)
    return calls


RUN = [  # keyword changes to a good run_simulation call
    ({"rules": "ordinary"}, "rules must be a bezsim.rules.Rules"),
    ({"policies": "random"}, "policies must be a list of policy names, one per seat"),
    ({"policies": None}, "got None"),
    ({"policies": [1, 2]}, "policies must be policy names"),
    ({"policies": ["random"]}, "2 seats need 2 policies, got 1"),
    ({"policies": ["greedy(x=1)", "random"]}, "policy 'greedy' has no parameter 'x'"),
    ({"games": 0}, "games must be at least 1, got 0"),
    ({"games": 2.0}, "games must be a whole number, got 2.0"),
    ({"games": "3"}, "games must be a whole number, got '3'"),
    ({"games": True}, "got True"),
    ({"games": 2**63}, "games must be at most"),
    ({"games": 10**9, "shard_size": 100}, "make more than 1,000,000 shards"),
    ({"shard_size": 0}, "shard size must be at least 1"),
    ({"shard_size": 1.5}, "shard size must be a whole number, got 1.5"),
    ({"seed": -1}, "seed must be a whole number from 0 to"),
    ({"seed": 2**63}, "seed must be a whole number from 0 to"),
    ({"seed": 1.5}, "got 1.5"),
    ({"seed": None}, "got None"),
    ({"threads": "1"}, "threads must be a whole number, got '1'"),
    ({"threads": 0}, "threads must be between 1 and"),
    ({"out_dir": None}, "output directory must be a non-empty path or URL, got None"),
    ({"out_dir": ""}, "output directory must be a non-empty path or URL, got ''"),
    ({"out_dir": 5}, "got 5"),
    ({"dask": 5}, "dask must be 'local' or a scheduler address, got 5"),
    ({"dask": "nonsense"}, "--dask takes 'local' or a scheduler address"),
]


@pytest.mark.parametrize(("changes", "fragment"), RUN, ids=[str(c) for c, _ in RUN])
def test_bad_run_simulation_writes_nothing(changes, fragment, tmp_path, no_games,
                                           monkeypatch):
    monkeypatch.chdir(tmp_path)          # an empty out_dir used to mean the current directory
    kwargs = {"rules": ORDINARY, "policies": R, "seed": 1, "games": 10,
              "out_dir": tmp_path / "run", "shard_size": 5, "progress": False} | changes
    raises_one_line(lambda: run_simulation(**kwargs), fragment)
    assert no_games == [] and list(tmp_path.iterdir()) == []


def test_run_records_canonical_policies(tmp_path, fake_engine):
    """A policy written loosely is recorded as it runs (the manifest and a resume compare
    specs): "GREEDY " and "greedy" are one policy."""
    fake_engine.calls.clear()
    run_simulation(ORDINARY, ["random", "greedy"], 1, 4, tmp_path, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["policies"] == ["random", "greedy"]


TOURNAMENT = [
    ("rules a name", lambda: T.run_tournament("ordinary", "random,greedy", 3, 1),
     "rules must be a bezsim.rules.Rules"),
    ("policies None", lambda: T.check_policies(None), "got None"),
    ("policies a number", lambda: T.check_policies(5), "got 5"),
    ("empty policy", lambda: T.check_policies("random,,greedy"), "empty policy in"),
    ("one policy", lambda: T.check_policies(["random"]), "at least two distinct policies"),
    ("games float", lambda: T.run_tournament(ORDINARY, "random,greedy", 1.5, 1),
     "games must be at least 1, got 1.5"),
    ("seed text", lambda: T.run_tournament(ORDINARY, "random,greedy", 3, "1"), "seed must be"),
    ("threads text", lambda: T.run_tournament(ORDINARY, "random,greedy", 3, 1, threads="x"),
     "threads must be a whole number"),
    ("read nothing", lambda: T.read_tournament("/nonexistent-bezsim"), "no tournament in "),
    ("out empty", lambda: T.check_out_dir("", {}), "output directory must be a non-empty path"),
]


@pytest.mark.parametrize(("label", "call", "fragment"), TOURNAMENT,
                         ids=[c[0] for c in TOURNAMENT])
def test_bad_tournament_call_is_a_tournament_error(label, call, fragment, no_games):
    raises_one_line(call, fragment)
    assert no_games == []


def test_tournament_refuses_an_output_that_holds_something_else(tmp_path):
    description = T.describe_run(ORDINARY, ["random", "greedy"], 3, 1)
    (tmp_path / "file").write_text("x")
    raises_one_line(lambda: T.check_out_dir(tmp_path / "file", description),
                    "exists and is not a directory")
    raises_one_line(lambda: T.check_out_dir(tmp_path, description), "is not empty and holds "
                                                                    "no tournament")
    run = tmp_path / "run"
    shutil.copytree(SAMPLES / "ordinary", run)
    raises_one_line(lambda: T.check_out_dir(run, description), "holds a simulation run")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / T.JSON_NAME).write_text(json.dumps(description))
    T.check_out_dir(mine, description)                                 # the same: fine
    other = T.describe_run(ORDINARY, ["random", "greedy"], 3, 2)
    raises_one_line(lambda: T.check_out_dir(mine, other), "holds a different tournament")


# --- reading runs -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("not-runs")
    out = {"missing": root / "missing", "file": root / "file", "empty": root / "empty",
           "bad_json": root / "bad_json", "list_manifest": root / "list_manifest",
           "wrong_types": root / "wrong_types"}
    out["file"].write_text("x")
    for name in ("empty", "bad_json", "list_manifest", "wrong_types"):
        out[name].mkdir()
    (out["bad_json"] / "manifest.json").write_text("{bad")
    (out["list_manifest"] / "manifest.json").write_text("[1]")
    (out["wrong_types"] / "manifest.json").write_text(json.dumps(
        {"rules": 5, "policies": 3, "seed": "x", "games": None}))
    for variant in ("polish", "rubicon"):       # tables that are not Parquet
        out[f"garbage_{variant}"] = root / f"garbage_{variant}"
        shutil.copytree(SAMPLES / variant, out[f"garbage_{variant}"])
        for part in out[f"garbage_{variant}"].glob("*/*.parquet"):
            part.write_bytes(b"PAR1 this is not parquet")
    return out


READERS = [  # (name, reader, reads the manifest first)
    ("read_run", read_run, False), ("read_table", lambda p: read_table(p, "games"), False),
    ("load_run().games", lambda p: load.load_run(p).games, True),
    ("compound_stats", compound_stats, True), ("rubicon_stats", rubicon_stats, True),
    ("seat_stats", seat_stats, True),
]
NOT_RUNS = [  # (place, fragment when the manifest is read first, or by the table readers)
    ("missing", "{path}", "{path}"), ("file", "{path}", "{path}"), ("empty", "{path}", "{path}"),
    ("bad_json", "manifest.json is not valid JSON", "table in {path}"),
    ("list_manifest", "manifest.json is not a bezsim manifest", "table in {path}"),
    ("wrong_types", "manifest.json is malformed", "table in {path}"),
    ("garbage_tables", "cannot read the", "cannot read the"),
    (None, "a run directory must be a path or URL, got None", "must be a path or URL"),
    (5, "a run directory must be a path or URL, got 5", "got 5"),
]


@pytest.mark.parametrize(("where", "by_manifest", "by_table"), NOT_RUNS,
                         ids=[str(w) for w, *_ in NOT_RUNS])
@pytest.mark.parametrize(("label", "reader", "manifest_first"), READERS,
                         ids=[r[0] for r in READERS])
def test_reading_what_is_not_a_run_is_a_bezsim_error(label, reader, manifest_first, where,
                                                     by_manifest, by_table, places):
    if where == "garbage_tables":                 # of the variant the reader needs
        where = "garbage_rubicon" if label == "rubicon_stats" else "garbage_polish"
    path = places.get(where, where) if isinstance(where, str) else where
    fragment = (by_manifest if manifest_first else by_table).replace("{path}", str(path))
    raises_one_line(lambda: reader(path), fragment)


LOADERS = [
    ("table name", lambda: load.load_run(SAMPLES / "ordinary").table("foo"),
     "unknown table 'foo'"),
    ("table name with columns", lambda: load.load_run(SAMPLES / "ordinary").table("foo", ["x"]),
     "unknown table 'foo'"),
    ("unknown column", lambda: load.load_run(SAMPLES / "ordinary").table("games", ["nope"]),
     "cannot read the games table"),
    ("stack unknown table", lambda: load.stack(load.load_runs([SAMPLES / "ordinary"]), "foo"),
     "unknown table 'foo'"),
    ("load_runs one path", lambda: load.load_runs(str(SAMPLES / "ordinary")),
     "load_runs takes a list of run directories"),
    ("load_runs labels", lambda: load.load_runs([SAMPLES / "ordinary"], ["a", "b"]),
     "1 runs need 1 labels, got 2"),
    ("compounds of ordinary", lambda: compound_stats(SAMPLES / "ordinary"),
     "compound statistics need a polish run"),
    ("rubicon of polish", lambda: rubicon_stats(SAMPLES / "polish"),
     "rubicon statistics need a rubicon or six_pack run"),
    ("read_table name", lambda: read_table(SAMPLES / "ordinary", "foo"), "unknown table 'foo'"),
]


@pytest.mark.parametrize(("label", "call", "fragment"), LOADERS, ids=[c[0] for c in LOADERS])
def test_bad_analysis_call_is_a_bezsim_error(label, call, fragment):
    raises_one_line(call, fragment)
