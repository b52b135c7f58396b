"""A decision's options valued for the seat to decide (bezsim/review/values.py)."""

from __future__ import annotations

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.policies.solver import exact_stage2_values
from bezsim.review.record import record_of_run, replay
from bezsim.review.values import decision_values
from bezsim.rules import Rules


def _decisions(variant: str, policies: list[str], seed: int, game: int, want):
    """(game, n, action) at the first decision of each kind ``want(game)`` names, values
    taken there and then."""
    found = {}

    def visit(g, n, index):
        kind = want(g)
        if kind is not None and kind not in found:
            found[kind] = (n, decision_values(g, 48, seed=n), index,
                           g.state_array(), g.seat)

    replay(record_of_run(Rules.make(variant), policies, seed, game), visit)
    return found


def test_search_values_a_game_from_the_seats_view_stage_2_exactly():
    def kind(g):
        S = g.view()
        stage = int(S[st.O_SC + C.SC_STAGE])
        return f"{g.decision}-{stage}" if g.seat == 0 else None

    found = _decisions("ordinary", ["learned", "expert"], 7, 3, kind)
    assert set(found) == {"play-1", "declare-1", "play-2"}
    n, values, played, S, seat = found["play-2"]
    assert values.method == "exact" and values.deals == 0
    acts = np.array([int(S[st.O_ACTS + o.index]) for o in values.options], np.int32)
    exact = np.zeros(len(acts), np.int64)
    assert exact_stage2_values(S.copy(), seat, acts, exact)
    assert [o.value for o in values.options] == [float(v) for v in exact]
    assert values.options[values.best].value == exact.max()
    assert all(o.loss == exact.max() - o.value for o in values.options)
    for key in ("play-1", "declare-1"):
        n, values, played, S, seat = found[key]
        assert values.method == "sampled" and values.deals == 48
        best = values.options[values.best]
        assert best.loss == 0.0
        assert all(o.loss >= 0 and o.low <= o.value <= o.high for o in values.options)
        assert all(o.loss == 0 or o.loss_low > 0 for o in values.options)
        assert len({o.name for o in values.options}) == len(values.options)


def test_search_values_depend_only_on_what_the_seat_saw():
    """At decisions of real games, the cards hidden from the deciding seat dealt again
    (tests/hidden_info_helpers.py, perturb): the seat's values are the same to the last digit;
    with another seed for the deals they are not (the values do follow the deals)."""
    from hidden_info_helpers import Snapshot, perturb

    from bezsim.review.record import option_label, recorded_action
    from bezsim.review.values import state_values

    checked, moved = 0, 0
    for variant, policies in (("ordinary", ["expert", "learned"]),
                              ("three_handed", ["expert", "random", "greedy"])):
        rules = Rules.make(variant)
        points = []

        def visit(g, n, index, points=points):
            S = g.view()
            if (g.decision == "play" and S[st.O_SC + C.SC_STAGE] == 1 and n % 7 == 3
                    and len(points) < 3):
                names = [option_label(recorded_action(g, a.index)) for a in g.actions()]
                points.append((g.state_array(), g.seat, names, n))

        replay(record_of_run(rules, policies, 12, 1), visit)
        assert len(points) == 3
        gen = np.random.default_rng(5)
        for S, seat, names, n in points:
            values = state_values(rules, S, seat, names, 24, seed=n)
            snap = Snapshot(variant, rules.params(), S, np.zeros((4, 4), np.uint64), seat)
            for _ in range(2):
                S2, changed = perturb(snap, seat, gen)
                moved += changed
                assert state_values(rules, S2, seat, names, 24, seed=n) == values
                checked += 1
            assert state_values(rules, S, seat, names, 24, seed=n + 1) != values
    assert checked == 12 and moved >= 10
