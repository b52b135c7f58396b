"""A run compiles only what its variant and its seats use (engine/external.py): the policy
set says which built-in policies and which variant code the kernels carry, search's play-outs
carry their variant's code, and a pruned engine plays the same games as the engine with
everything in (the rest of the suite runs with BEZSIM_COMPILE_ALL, conftest.py)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from bezsim.compile_cache import COMPILE_ALL
from bezsim.engine.external import (
    SET_EXPERT,
    SET_GREEDY,
    SET_HEURISTIC,
    SET_LEARNED,
    SET_OPEN_CARDS,
    SET_PAIRS,
    SET_SIZE,
    SET_TREE,
)
from bezsim.engine_api import compiling
from bezsim.policy_specs.registry import policy_functions, set_flags, variant_shape
from bezsim.rules import Rules

pytestmark = pytest.mark.xdist_group("compile_shapes")


@pytest.fixture
def pruned(monkeypatch):
    monkeypatch.delenv(COMPILE_ALL, raising=False)


def _present(fns: tuple) -> set[int]:
    return {i for i in range(SET_SIZE) if fns[i] is not None}


def test_a_run_set_holds_what_its_seats_and_variant_use(pruned):
    ordinary = Rules.make("ordinary").definition
    assert _present(policy_functions(["random", "random"], ordinary)) == set()
    assert _present(policy_functions(["greedy", "expert"], ordinary)) == {SET_EXPERT, SET_GREEDY}
    assert _present(policy_functions(["learned", "heuristic"], ordinary)) == {
        SET_EXPERT, SET_LEARNED, SET_HEURISTIC}
    polish = Rules.make("polish").definition
    assert _present(policy_functions(["random", "random"], polish)) == {SET_OPEN_CARDS}
    partners = Rules.make("four_handed_partners").definition
    assert _present(policy_functions(["random"] * 4, partners)) == {SET_PAIRS}
    # no variant: every variant's code; the tree policy only ever in search's ISMCTS
    assert _present(policy_functions(["random", "random"])) == {SET_OPEN_CARDS, SET_PAIRS}


def test_a_tournament_compiles_one_engine_for_its_pairs(pruned):
    rules = Rules.make("rubicon")
    names = ["random", "greedy", "heuristic"]
    sets = {numba.typeof(policy_functions([a, b], rules.definition, names))
            for a in names for b in names if a != b}
    assert len(sets) == 1
    assert set_flags(["random", "random"], rules.definition, names) == {
        "greedy": True, "heuristic": True, "open_cards": False, "pairs": False}


def test_search_plays_out_with_its_variants_code(pruned, monkeypatch):
    from bezsim.policies.search import playout_set

    assert variant_shape(Rules.make("ordinary").definition) == "plain"
    assert variant_shape(Rules.make("six_pack").definition) == "plain"
    assert variant_shape(Rules.make("polish").definition) == "open"
    assert variant_shape(Rules.make("four_handed_partners").definition) == "pairs"
    assert variant_shape(None) == "all"
    assert playout_set("play", "all") is None            # every built-in, every variant
    assert _present(playout_set("play", "plain")) == {
        SET_EXPERT, SET_LEARNED, SET_GREEDY, SET_HEURISTIC}
    assert _present(playout_set("tree", "open")) == {
        SET_EXPERT, SET_LEARNED, SET_GREEDY, SET_HEURISTIC, SET_OPEN_CARDS, SET_TREE}
    monkeypatch.setenv(COMPILE_ALL, "1")
    assert variant_shape(Rules.make("polish").definition) == "all"
    assert set_flags(["random"], Rules.make("ordinary").definition) == {
        "greedy": True, "heuristic": True, "open_cards": True, "pairs": True}


def test_the_cache_check_types_the_set_a_run_compiles(pruned):
    """The compile estimate asks the cache for the very type the run's kernels take."""
    for variant in ("ordinary", "polish", "four_handed_partners"):
        rules = Rules.make(variant)
        for seats in (["random"], ["greedy", "expert"], ["learned"]):
            specs = (seats * rules.players)[:rules.players]
            fns = policy_functions(specs, rules.definition)
            assert numba.typeof(fns) == compiling._set_type(
                compiling.kernel_set(specs), compiling.run_flags(specs, rules))


def test_a_pruned_engine_plays_the_same_games(monkeypatch):
    """The ordinary engine without Polish, pairs, greedy or heuristic code plays game for
    game what the engine with all of it plays."""
    from bezsim.engine_api.games import run_games

    rules = Rules.make("ordinary")
    batches = []
    for setting in ("1", "0"):
        monkeypatch.setenv(COMPILE_ALL, setting)
        batches.append(run_games(rules, ["random", "random"], 11, 0, 40))
    everything, pruned_ = batches
    for name in ("game_info", "hand_seat", "hand_info", "events"):
        assert np.array_equal(getattr(everything, name), getattr(pruned_, name)), name
    assert everything.game_info.shape[0] == 40
