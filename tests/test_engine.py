"""Engine-level properties: compiled and plain-Python runs agree, deals depend only on the
seed (not on the policies), seeds and games are independent streams, outputs are consistent."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine.api import run_games, unpack_events
from bezsim.errors import BezsimError
from bezsim.rules import Rules

RULES = Rules.make()

PURE_PYTHON = """
import json, sys, warnings
warnings.simplefilter("ignore")
from bezsim.engine.api import run_games
from bezsim.rules import Rules
b = run_games(Rules.make(), sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]),
              int(sys.argv[4]), parallel=False)
print(json.dumps({"gi": b.game_info.tolist(), "hs": b.hand_seat.tolist(),
                  "ev": b.events.tolist()}))
"""


@pytest.mark.parametrize("policies", [["random", "random"], ["greedy", "random"]])
def test_compiled_engine_equals_the_same_code_run_as_plain_python(policies):
    seed, start, n = 2024, 17, 3
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", PURE_PYTHON, ",".join(policies), str(seed),
                          str(start), str(n)], env=env, capture_output=True, text=True,
                         check=True)
    plain = json.loads(out.stdout)
    compiled = run_games(RULES, policies, seed, start, n, parallel=False)
    assert np.array_equal(np.array(plain["gi"]), compiled.game_info)
    assert np.array_equal(np.array(plain["hs"]), compiled.hand_seat)
    assert np.array_equal(np.array(plain["ev"]), compiled.events)


def _turnups(batch):
    return [tuple(batch.hand_info[g, :batch.game_info[g, C.GI_HANDS], C.HI_TURNUP])
            for g in range(batch.n_games)]


def test_deals_do_not_depend_on_policies():
    """The deal has its own stream: the same seed deals the same cards to any policies."""
    a = run_games(RULES, ["random", "random"], 5, 0, 40)
    b = run_games(RULES, ["greedy", "greedy"], 5, 0, 40)
    n = np.minimum(a.game_info[:, C.GI_HANDS], b.game_info[:, C.GI_HANDS])
    for g in range(40):
        assert _turnups(a)[g][:n[g]] == _turnups(b)[g][:n[g]]
    assert np.array_equal(a.game_info[:, C.GI_FIRST_DEALER], b.game_info[:, C.GI_FIRST_DEALER])


def test_a_game_depends_on_its_index_not_on_the_batch():
    whole = run_games(RULES, ["random"], 9, 0, 30)
    part = run_games(RULES, ["random"], 9, 12, 5)
    assert np.array_equal(whole.game_info[12:17], part.game_info)
    assert np.array_equal(whole.events[12:17, :part.events.shape[1]], part.events)


def test_different_seeds_and_games_differ():
    a = run_games(RULES, ["random"], 1, 0, 50)
    b = run_games(RULES, ["random"], 2, 0, 50)
    assert _turnups(a) != _turnups(b)
    assert len(set(_turnups(a))) == 50          # no two games share their turn-up sequence
    # the first dealer is drawn per game: both seats deal first in a fair share of games
    first = run_games(RULES, ["random"], 3, 0, 2000).game_info[:, C.GI_FIRST_DEALER]
    assert 900 < int((first == 0).sum()) < 1100


def test_game_rows_are_consistent():
    b = run_games(RULES, ["greedy", "random"], 11, 0, 200)
    for g in range(b.n_games):
        h = b.game_info[g, C.GI_HANDS]
        seat_rows = b.hand_seat[g, :h]
        final = seat_rows[-1, :, C.HS_SCORE_AFTER]
        assert list(final) == list(b.game_info[g, C.GI_SCORE:C.GI_SCORE + 2])
        assert np.array_equal(seat_rows[:, :, C.HS_POINTS].sum(axis=0), final)
        assert np.array_equal(seat_rows[:, :, C.HS_KIND:].sum(axis=2),
                              seat_rows[:, :, C.HS_POINTS])
        winner = b.game_info[g, C.GI_WINNER]
        assert final[winner] >= 1000 and final[winner] > final[1 - winner]
        # before the last hand nobody had won yet
        if h > 1:
            before = seat_rows[-2, :, C.HS_SCORE_AFTER]
            assert before.max() < 1000 or before[0] == before[1]
        double = b.game_info[g, C.GI_DOUBLE]
        assert double == int(final[1 - winner] < 500)
        assert b.game_info[g, C.GI_STAKE] == (2 if double else 1)
        ev = unpack_events(b.events[g, :b.game_info[g, C.GI_N_EVENTS]])
        for seat in (0, 1):
            assert ev["points"][ev["seat"] == seat].sum() == final[seat]


def test_double_game_options_change_the_stake():
    points = run_games(Rules.make(options={"double_game": "points"}), ["random"], 4, 0, 300)
    off = run_games(Rules.make(options={"double_game": "off"}), ["random"], 4, 0, 300)
    gi = points.game_info
    margin = np.abs(gi[:, C.GI_SCORE] - gi[:, C.GI_SCORE + 1])
    assert np.array_equal(gi[:, C.GI_STAKE], margin * np.where(gi[:, C.GI_DOUBLE] == 1, 2, 1))
    assert gi[:, C.GI_DOUBLE].sum() > 0
    assert off.game_info[:, C.GI_DOUBLE].sum() == 0
    assert set(off.game_info[:, C.GI_STAKE]) == {1}


def test_target_option_shortens_games():
    short = run_games(Rules.make(options={"target": 300}), ["random"], 4, 0, 200)
    full = run_games(RULES, ["random"], 4, 0, 200)
    assert short.game_info[:, C.GI_HANDS].mean() < full.game_info[:, C.GI_HANDS].mean() / 2
    assert (short.game_info[:, C.GI_SCORE:C.GI_SCORE + 2].max(axis=1) >= 300).all()


def test_brisques_when_won_gives_the_same_points_per_trick():
    end = run_games(RULES, ["random"], 8, 0, 20)
    won = run_games(Rules.make(options={"brisques_when": "when_won"}), ["random"], 8, 0, 20)
    # same seed, same deals and choices: identical points, only the events differ
    assert np.array_equal(end.hand_seat, won.hand_seat)
    ev = unpack_events(won.events[0, :won.game_info[0, C.GI_N_EVENTS]])
    brisque_tricks = ev["trick"][ev["kind"] == C.K_BRISQUES]
    assert brisque_tricks.max() <= 32 and len(brisque_tricks) > 2


def test_bad_arguments_are_user_errors():
    with pytest.raises(BezsimError, match="threads must be between 1 and"):
        run_games(RULES, ["random"], 1, 0, 5, threads=99)
    with pytest.raises(BezsimError, match="seed"):
        run_games(RULES, ["random"], -1, 0, 5)
    with pytest.raises(BezsimError, match="unknown policy"):
        run_games(RULES, ["randm"], 1, 0, 5)


def test_games_that_outgrow_the_event_rows_are_rerun_whole(monkeypatch):
    """A game with more events than the first guess is replayed alone with room enough:
    the result equals a run that had room from the start."""
    import bezsim.engine.api as api

    roomy = run_games(RULES, ["greedy", "random"], 21, 0, 30)
    monkeypatch.setattr(api, "EVENTS_PER_HAND", 1)
    tight = run_games(RULES, ["greedy", "random"], 21, 0, 30)
    assert (tight.game_info[:, C.GI_OVERFLOW] == 0).all()
    assert np.array_equal(tight.game_info, roomy.game_info)
    assert np.array_equal(tight.hand_seat, roomy.hand_seat)
    width = int(roomy.game_info[:, C.GI_N_EVENTS].max())
    assert tight.events.shape[1] == width
    assert np.array_equal(tight.events, roomy.events[:, :width])
