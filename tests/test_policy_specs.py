"""A policy spec is parsed once into a PolicySpec that travels: its canonical text carrying
the policy and its values; search's play-out policy is written by name."""

from __future__ import annotations

import pickle

import pytest

from bezsim.errors import PolicyError
from bezsim.policies.search_params import P_ROLLOUT
from bezsim.policy_specs import registry
from bezsim.policy_specs.policy_set import resolve_policies
from bezsim.policy_specs.registry import (
    PolicySpec,
    parse_policies,
    policy_params,
    spec_of,
)
from bezsim.rules import Rules


@pytest.fixture
def parses(monkeypatch):
    """Every text the registry reads, in order."""
    seen: list[str] = []
    read = registry._parse_text

    def counted(text):
        seen.append(text)
        return read(text)

    monkeypatch.setattr(registry, "_parse_text", counted)
    return seen


def test_a_spec_is_its_canonical_text_and_carries_its_values():
    spec = spec_of(" greedy( stage2_win_margin = 8.0 ) ")
    assert isinstance(spec, PolicySpec) and isinstance(spec, str)
    assert spec == "greedy(stage2_win_margin=8)" and spec.name == "greedy"
    assert dict(spec.values) == {"stage2_win_margin": 8.0}
    assert spec_of(spec) is spec
    with pytest.raises(TypeError):
        spec.values["stage2_win_margin"] = 1.0
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and dict(again.values) == dict(spec.values)
    assert {spec: 1}["greedy(stage2_win_margin=8)"] == 1


def test_a_line_up_is_parsed_once_on_its_way_to_the_kernels(parses):
    specs = parse_policies("random,greedy(stage2_win_margin=8)", 2)
    assert parses == ["random", "greedy(stage2_win_margin=8)"]
    resolved = resolve_policies(specs, Rules.make("ordinary"))
    column = [p.name for p in registry.BUILTINS["greedy"].params].index("stage2_win_margin")
    assert list(resolved.specs) == specs and resolved.params[1, column] == 8.0
    assert len(parses) == 2


def test_a_tournament_parses_each_policy_once(parses):
    from bezsim.tournament import run_tournament

    frame = run_tournament(Rules.make("ordinary"), "random,greedy(stage2_win_margin=8)", 2, 5)
    assert set(frame.policy_a) == set(frame.policy_b) == {"random",
                                                          "greedy(stage2_win_margin=8)"}
    assert parses == ["random", "greedy(stage2_win_margin=8)"]


def test_overrides_make_new_specs_and_leave_the_given_ones_alone():
    given = parse_policies("greedy,random", 2)
    changed = parse_policies(given, 2, ["greedy.stage2_win_margin=9"])
    assert changed == ["greedy(stage2_win_margin=9)", "random"]
    assert given == ["greedy", "random"] and dict(given[0].values) == {}


@pytest.mark.parametrize("written, canonical, code", [
    ("search(rollout=expert)", "search(rollout=expert)", 3),
    ("search(rollout=3)", "search(rollout=expert)", 3),
    ("search(rollout=Heuristic)", "search(rollout=heuristic)", 2),
    ("search(rollout=1,samples=8)", "search(rollout=greedy,samples=8)", 1),
    ("search(rollout=learned)", "search", 4),
    ("search(rollout=4)", "search", 4),
])
def test_rollout_takes_names_and_shows_numbers_as_names(written, canonical, code):
    spec = spec_of(written)
    assert spec == canonical
    assert policy_params([spec], "ordinary")[0, P_ROLLOUT] == code


@pytest.mark.parametrize("written, message", [
    ("search(rollout=random)", "rollout='random' is not a number or one of: greedy, "
                               "heuristic, expert, learned"),
    ("search(rollout=5)", "rollout=5 is out of range (greedy (1), heuristic (2), expert (3), "
                          "learned (4))"),
])
def test_a_bad_rollout_says_what_it_may_be(written, message):
    with pytest.raises(PolicyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        spec_of(written)
