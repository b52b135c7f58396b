"""``bezsim tune``: CMA-ES on duplicate deals improves a bad parameter set, checkpoints,
resumes to the same result, and writes a parameters file the other commands accept."""

import json

import pytest

from bezsim import tune as tuning
from bezsim.cli import main
from bezsim.policy_specs.registry import parse_policies, parse_spec
from bezsim.rules import Rules

# a deliberately bad expert: values no combination, never wins a trick to declare, hoards
# trumps and aces
BAD = "expert(combo=0,cash=0,declare_win=0,trump=60,ace=60,rank=0)"


def _setup(generations: int, **extra) -> tuning.TuneSetup:
    args = dict(variant="ordinary", options=(), policy=BAD, against=("greedy",), deals=60,
                seed=5, generations=generations, popsize=4, sigma=1.0,
                params=("combo", "cash", "declare_win", "trump", "ace"))
    args.update(extra)
    return tuning.TuneSetup(**args)


@pytest.fixture(scope="module")
def two_generations(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "run"
    return out, tuning.tune(_setup(2), out)


def test_tuning_raises_the_fitness_of_a_bad_parameter_set(two_generations):
    out, state = two_generations
    start, best = state["start"]["fitness"], state["best"]["fitness"]
    assert best > start + 0.05, (start, best)
    # the fitness is what a tournament on the same deals measures
    rules = Rules.make("ordinary")
    assert tuning.fitness(rules, state["best"]["spec"], ("greedy",), 60, 5) == best
    assert [g for g, _, _ in state["history"]] == [1, 2]
    assert state["history"][-1][1] == best


def test_best_file_is_a_policy_the_commands_accept(two_generations, capsys):
    out, state = two_generations
    doc = json.loads((out / tuning.BEST).read_text())
    assert doc["spec"] == state["best"]["spec"] and doc["variant"] == "ordinary"
    assert parse_policies(f"@{out / tuning.BEST},greedy", 2)[0] == state["best"]["spec"]
    info, values = parse_spec(f"@{out / tuning.BEST}")
    assert info.name == "expert" and values == state["best"]["values"]
    code = None
    try:
        main(["replay", "--policies", f"@{out / tuning.BEST},greedy", "--seed", "3"])
    except SystemExit as exc:
        code = exc.code
    assert code == 0
    assert "seat 0 expert(" in capsys.readouterr().out


def test_an_interrupted_tuning_resumes_to_the_same_result(tmp_path, two_generations):
    _, whole = two_generations
    out = tmp_path / "run"
    first = tuning.tune(_setup(1), out)           # stops after one generation
    assert first["generation"] == 1
    resumed = tuning.tune(_setup(2), out)         # the same run, asked for two
    assert resumed["generation"] == 2
    assert resumed["best"] == whole["best"]
    assert resumed["history"] == whole["history"]


def test_a_directory_of_another_tuning_is_refused(tmp_path):
    out = tmp_path / "run"
    tuning.tune(_setup(1, deals=20), out)
    with pytest.raises(tuning.TuneError, match="other settings"):
        tuning.tune(_setup(1, deals=21), out)


def test_bad_tuning_input_is_one_line_and_nonzero(tmp_path, capsys):
    for args, message in (
            (["--policy", "greedy(nope=1)"], "no parameter 'nope'"),
            (["--policy", "random"], "no parameters to tune"),
            (["--params", "cash,bogus"], "no parameter 'bogus'"),
            (["--against", "nobody"], "unknown policy 'nobody'"),
            (["--policy", f"@{tmp_path / 'missing.json'}"], "does not exist")):
        try:
            main(["tune", "--deals", "5", "--generations", "1", "--seed", "1", "--out",
                  str(tmp_path / "x"), *args])
        except SystemExit as exc:
            assert exc.code != 0
        err = capsys.readouterr().err.strip()
        assert err.startswith("bezsim: error:") and message in err and "\n" not in err, err


def test_a_run_made_with_other_expert_defaults_is_not_resumed(tmp_path, monkeypatch):
    """Plain ``expert`` means the shipped tuned set: a run directory made under another set
    is a different run, never resumed into a mix of two players under one name."""
    from bezsim.errors import BezsimError
    from bezsim.policy_specs import registry
    from bezsim.running.simulation import run_simulation

    rules = Rules.make("ordinary")
    out = tmp_path / "run"
    run_simulation(rules, ["expert", "greedy"], 3, 4, out, progress=False)
    run_simulation(rules, ["expert", "greedy"], 3, 4, out, progress=False)   # same: resumes
    table = json.loads(json.dumps(registry._tuned_table()))
    table["expert"]["ordinary"]["params"]["cash"] = 0.123
    monkeypatch.setattr(registry, "_tuned_table", lambda: table)
    with pytest.raises(BezsimError, match="tuned defaults have changed"):
        run_simulation(rules, ["expert", "greedy"], 3, 4, out, progress=False)


@pytest.mark.parametrize("variant, read, unread", [
    ("ordinary", {"combo", "later"}, {"rubicon_brisque", "settle", "open_potential",
                                      "partner", "trump_suit", "endgame"}),
    ("rubicon", {"settle", "endgame", "rubicon_brisque", "trump_suit"},
     {"open_potential", "partner"}),
    ("four_handed_partners", {"partner", "combo"}, {"settle", "open_potential"}),
])
def test_by_default_only_the_parameters_a_variant_reads_are_tuned(tmp_path, variant, read,
                                                                  unread):
    """A Rubicon weight tuned in the ordinary game would only add noise to the search."""
    state = tuning.tune(_setup(1, variant=variant, params=(), deals=2, popsize=2,
                               policy="expert"), tmp_path / variant)
    tuned = set(state["setup"]["params"])
    assert read <= tuned and not (unread & tuned)


def test_each_weight_steps_in_its_own_unit():
    """A weight on points starting at 0 steps by tenths; learned's bonuses in points by 5
    points (a tenth of a point would take CMA-ES dozens of generations to leave 0); a
    nonzero start steps by half its value, within a quarter of the range."""
    setup = _setup(1, policy="learned", variant="rubicon",
                   params=("keep", "wins", "expert", "trump"))
    start = {"keep": 0.0, "wins": 0.0, "expert": 1.0, "trump": -1000.0}
    assert tuning._steps(setup, start).tolist() == [0.1, 5.0, 0.5, 500.0]
