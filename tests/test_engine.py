"""Engine-level properties: compiled and plain-Python runs agree, deals depend only on the
seed (not on the policies), seeds and games are independent streams, outputs are consistent."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games, unpack_events
from bezsim.errors import BezsimError
from bezsim.policy_specs.policy_set import resolve_policies
from bezsim.rules import Rules

RULES = Rules.make()

PURE_PYTHON = """
import json, sys, warnings
warnings.simplefilter("ignore")
from bezsim.engine_api.games import run_games
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
    hs, ev = np.array(plain["hs"]), np.array(plain["ev"])
    assert np.array_equal(np.array(plain["gi"]), compiled.game_info)
    n = min(hs.shape[1], compiled.hand_seat.shape[1])      # rows are sized per call
    assert int(compiled.game_info[:, C.GI_HANDS].max()) <= n
    assert np.array_equal(hs[:, :n], compiled.hand_seat[:, :n])
    k = min(ev.shape[1], compiled.events.shape[1])
    assert int(compiled.game_info[:, C.GI_N_EVENTS].max()) <= k
    assert np.array_equal(ev[:, :k], compiled.events[:, :k])


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
    import bezsim.engine_api.games as api

    monkeypatch.setattr(api, "_SEEN", {})
    roomy = run_games(RULES, ["greedy", "random"], 21, 0, 30)
    monkeypatch.setattr(api, "EVENTS_PER_HAND", 1)
    monkeypatch.setattr(api, "_SEEN", {})      # the first guess, not one learned above
    tight = run_games(RULES, ["greedy", "random"], 21, 0, 30)
    assert (tight.game_info[:, C.GI_OVERFLOW] == 0).all()
    assert np.array_equal(tight.game_info, roomy.game_info)
    assert np.array_equal(tight.hand_seat, roomy.hand_seat)
    assert np.array_equal(tight.hand_info, roomy.hand_info)
    width = int(roomy.game_info[:, C.GI_N_EVENTS].max())
    assert tight.events.shape[1] == width
    assert np.array_equal(tight.events, roomy.events[:, :width])


@pytest.mark.parametrize("variant", ["ordinary", "polish", "four_handed"])
def test_rows_sized_from_earlier_games_give_the_same_games(monkeypatch, variant):
    """After a first batch, rows are sized from what games needed (api._SEEN); a game longer
    than that is rerun alone with wider rows, so the batch equals one that had the rule
    bound's room from the start."""
    import bezsim.engine_api.games as api

    rules = Rules.make(variant)
    pols = ["random", "greedy", "heuristic", "random"][:rules.players]
    monkeypatch.setattr(api, "_SEEN", {})
    roomy = run_games(rules, pols, 8, 0, 200)
    most = (int(roomy.game_info[:, C.GI_HANDS].max()),
            int(roomy.game_info[:, C.GI_N_EVENTS].max()))
    assert api._SEEN[rules.params().tobytes()] == most
    # rows are cut to what the games used, whatever room the call allocated
    assert (roomy.hand_seat.shape[1], roomy.events.shape[1]) == most
    assert roomy.hand_info.shape[1] == most[0]
    again = run_games(rules, pols, 8, 0, 200)
    # far too little room: hands 3, events 17 a game (most games are rerun alone)
    monkeypatch.setattr(api, "_SEEN", {rules.params().tobytes(): (1, 1)})
    tight = run_games(rules, pols, 8, 0, 200)
    for batch in (again, tight):
        assert (batch.hand_seat.shape[1], batch.events.shape[1]) == most
        assert np.array_equal(batch.game_info, roomy.game_info)
        n = batch.hand_seat.shape[1]
        assert np.array_equal(batch.hand_seat, roomy.hand_seat[:, :n])
        assert np.array_equal(batch.hand_info, roomy.hand_info[:, :n])
        k = min(batch.events.shape[1], roomy.events.shape[1])
        assert np.array_equal(batch.events[:, :k], roomy.events[:, :k])
        assert int(batch.game_info[:, C.GI_N_EVENTS].max()) <= k


@pytest.mark.parametrize("variant", ["ordinary", "polish", "rubicon", "four_handed_partners"])
@pytest.mark.parametrize("policies", [["random"], ["greedy", "heuristic"]])
def test_a_game_is_the_same_alone_in_a_fresh_state_or_after_others_in_a_block(variant,
                                                                               policies):
    """run_serial plays consecutive games in one reused state (blocks of a parallel call,
    or every game of a serial one): each game must equal itself played alone, in a fresh
    state, whatever ran before it."""
    rules = Rules.make(variant)
    pols = (policies * rules.players)[:rules.players]
    n = 600                               # more games than batch blocks: blocks of 2-3
    batch = run_games(rules, pols, 31, 100, n)
    serial = run_games(rules, pols, 31, 100, n, parallel=False)
    _assert_same_games(batch, serial)
    for i in (0, 1, 2, 299, 599):
        alone = run_games(rules, pols, 31, 100 + i, 1)
        _assert_same_games(alone, run_games(rules, pols, 31, 100 + i, 1, parallel=False))
        assert np.array_equal(batch.game_info[i], alone.game_info[0])
        k = min(alone.events.shape[1], batch.events.shape[1])
        assert int(alone.game_info[0, C.GI_N_EVENTS]) <= k
        assert np.array_equal(batch.events[i, :k], alone.events[0, :k])


def _assert_same_games(a, b):
    """Equal games: the same game rows, and the same hand and event rows as far as both
    batches have room (rows are sized per call; games never use rows past their counts)."""
    assert np.array_equal(a.game_info, b.game_info)
    n = min(a.hand_seat.shape[1], b.hand_seat.shape[1])
    assert int(a.game_info[:, C.GI_HANDS].max()) <= n
    assert np.array_equal(a.hand_seat[:, :n], b.hand_seat[:, :n])
    assert np.array_equal(a.hand_info[:, :n], b.hand_info[:, :n])
    k = min(a.events.shape[1], b.events.shape[1])
    assert int(a.game_info[:, C.GI_N_EVENTS].max()) <= k
    assert np.array_equal(a.events[:, :k], b.events[:, :k])


def test_shuffle_is_fisher_yates_with_the_streams_draws():
    """rng.shuffle_range keeps the stream's words in registers; it must make the same
    permutation and leave the stream in the same state as a swap per ``below`` draw."""
    from bezsim.engine.rng import below, seed_stream, shuffle_range

    for n, game in ((64, 0), (96, 1), (128, 7), (2, 3), (1, 4)):
        a = np.zeros(4, np.uint64)
        seed_stream(a, 11, game, 1, 5)
        b = a.copy()
        cards = np.arange(200, dtype=np.int32)
        expected = cards.copy()
        for i in range(n - 1, 0, -1):
            j = below(b, i + 1)
            expected[10 + i], expected[10 + j] = expected[10 + j], expected[10 + i]
        shuffle_range(a, cards, 10, n)
        assert np.array_equal(cards, expected)
        assert np.array_equal(a, b)
        assert sorted(cards[10:10 + n]) == list(range(10, 10 + n))


def test_picking_several_copies_at_once_equals_successive_picks():
    """copies._pick_many (one scan) must choose what successive copies._pick calls choose:
    the best key first (new on this trick, most history, shown), lowest id on ties."""
    from bezsim.engine import state as st
    from bezsim.engine.copies import _pick, _pick_many

    rng = np.random.default_rng(5)
    for trial in range(3000):
        packs = int(rng.integers(2, 5))
        by_rank = bool(rng.integers(0, 2))
        match = int(rng.integers(0, 5)) if by_rank else int(rng.integers(0, 32))
        S = st.new_state(0, 0)
        for c in range(packs * 32):
            S[st.O_LOC + c] = rng.choice([C.LOC_HAND, C.LOC_HAND + 1, C.LOC_TABLE,
                                          C.LOC_TABLE + 1, C.LOC_PLAYED, C.LOC_OPEN])
            S[st.O_HIST + c] = int(rng.integers(0, 1 << 10)) if rng.random() < 0.4 else 0
            S[st.O_MARK + c] = int(rng.random() < 0.3)
        forbid = int(rng.choice([0, C.H_FOUR, C.H_MARRIAGE, C.H_BEZ1 | C.H_BEZ2]))
        loc_a, loc_b, loc_c = C.LOC_HAND, C.LOC_TABLE, (C.LOC_OPEN if trial % 3 else -1)
        n_out = int(rng.integers(0, 3))
        for j in range(n_out):
            S[st.O_BUF + j] = int(rng.integers(0, packs * 32))
        count = int(rng.integers(1, 5))
        T = S.copy()
        for i in range(count):
            T[st.O_BUF + n_out + i] = _pick(T, packs, loc_a, loc_b, loc_c, match, by_rank,
                                            forbid, n_out + i)
        assert _pick_many(S, packs, loc_a, loc_b, loc_c, match, by_rank, forbid, n_out,
                          count) == n_out + count
        got = S[st.O_BUF:st.O_BUF + n_out + count]
        assert np.array_equal(got, T[st.O_BUF:st.O_BUF + n_out + count]), trial


def _play_in(S, rules, policies, seed, game):
    """One game played by the engine's per-game kernel in the state buffer S (as run_serial
    does for each game of a block); returns its outcome arrays."""
    from bezsim.engine.game_loop import play_game
    from bezsim.engine.state import reset_game
    from bezsim.engine_api import games as api

    params = rules.params()
    players = int(params[C.PR_PLAYERS])
    seated = resolve_policies(policies, rules)
    ids, pol_params, fns = seated.ids, seated.params, seated.functions
    hs, hi, gi, ev = api._alloc(1, int(params[C.PR_HAND_CAP]), players, 4096)
    reset_game(S)
    play_game(params, ids, pol_params, fns, np.uint64(seed), game, hs[0], hi[0], gi[0], ev[0],
              S, np.zeros((1 + players, 4), np.uint64))
    return hs, hi, gi, ev


def test_role_tables_kept_in_a_state_follow_a_change_of_rules():
    """set_roles keeps its tables per trump suit in the state from game to game (R1.9
    roles). A state reused under other rules, here the bezique pair of option
    ``bezique_pair=by_trump``, must play as a fresh state does, not with the tables of the
    earlier rules."""
    from bezsim.engine import state as st

    fixed = Rules.make("ordinary")
    by_trump = Rules.make("ordinary", {"bezique_pair": "by_trump"})
    policies = ["greedy", "greedy"]
    reused = st.new_state(4096, 0)
    differ = 0
    for game in range(40):
        _play_in(reused, fixed, policies, 5, game)          # fills the tables for ``fixed``
        again = _play_in(reused, by_trump, policies, 5, game)
        fresh = _play_in(st.new_state(4096, 0), by_trump, policies, 5, game)
        for a, b in zip(again, fresh, strict=True):
            assert np.array_equal(a, b), game
        other = _play_in(st.new_state(4096, 0), fixed, policies, 5, game)
        differ += not np.array_equal(other[3], fresh[3])
    assert differ > 0          # the two rules do play differently: the test can tell them apart
