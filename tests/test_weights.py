"""Each policy weight is declared once (bezsim/policies/weight.py records); the registry's
parameters, the kernels' columns, the default rows and the kernel cache key follow from it."""

import pytest

from bezsim.compile_cache import _PACKAGE, kernel_sources
from bezsim.policies import builtin, heuristic, search_params
from bezsim.policies.expert import weights as expert_weights
from bezsim.policies.learned import weights as learned_weights
from bezsim.policies.weight import Weight, defaults, index
from bezsim.policy_specs.registry import BUILTINS, _tuned_table, policy_params, tuned_defaults

DECLARED = {"greedy": builtin.GREEDY_WEIGHTS, "heuristic": heuristic.WEIGHTS,
            "expert": expert_weights.WEIGHTS, "search": search_params.WEIGHTS,
            "learned": learned_weights.WEIGHTS}


@pytest.mark.parametrize("policy", list(DECLARED))
def test_registry_parameters_are_the_declared_weights(policy):
    params = BUILTINS[policy].params
    declared = DECLARED[policy]
    assert [p.name for p in params] == [w.name for w in declared]
    for p, w in zip(params, declared, strict=True):
        assert (p.default, p.meaning, p.low, p.high, p.whole, p.read_when) == (
            w.default, w.meaning, w.low, w.high, w.whole, w.read_when)


def test_kernel_columns_follow_the_declaration():
    assert expert_weights.BASE_WEIGHTS == defaults(expert_weights.WEIGHTS)
    assert expert_weights.N_EXPERT == len(expert_weights.WEIGHTS)
    columns = {k: v for k, v in vars(expert_weights).items() if k.startswith("E_")}
    assert sorted(columns.values()) == list(range(expert_weights.N_EXPERT))
    assert all(type(v) is int for v in columns.values())      # numba freezes plain ints
    assert heuristic.DEFAULT_WEIGHTS == defaults(heuristic.WEIGHTS)
    assert builtin.GREEDY_DEFAULTS == defaults(builtin.GREEDY_WEIGHTS)
    assert list(search_params.SEARCH_DEFAULTS) == list(search_params.INDEX)


@pytest.mark.parametrize("policy", ["expert", "learned"])
def test_tuned_sets_name_declared_weights_and_the_rest_play_their_defaults(policy):
    declared = DECLARED[policy]
    names = [w.name for w in declared]
    for variant, entry in _tuned_table().get(policy, {}).items():
        assert set(entry["params"]) <= set(names), variant
        row = policy_params([policy], variant)[0]
        tuned = tuned_defaults(policy, variant)
        for i, w in enumerate(declared):
            assert row[i] == tuned.get(w.name, w.default)


def test_a_declaration_refuses_duplicate_names_and_defaults_out_of_range():
    with pytest.raises(ValueError, match="duplicate"):
        index((Weight("a", 1.0, "x"), Weight("a", 2.0, "y")))
    with pytest.raises(ValueError, match="outside"):
        index((Weight("a", 5.0, "x", 0, 1),))


def test_the_kernel_cache_key_covers_policy_subpackages():
    names = {p.relative_to(_PACKAGE).as_posix() for p in kernel_sources()}
    assert {"policies/expert/policy.py", "policies/expert/weights.py",
            "engine/settlement.py", "policies/weight.py", "env_kernels/observation.py"} <= names
    assert not names & {"engine_api/games.py", "engine_api/compiling.py",
                        "policy_specs/registry.py"}
