"""The learned policy and ``bezsim learn``: learned at its neutral weights is expert, card for
card, in every preset; its fitted weights change play; the recorded training data and the
fitted model are pure functions of their seed; a fit raises the value it optimises."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine_api.games import run_games
from bezsim.policies.learned.weights import FEATURE_NAMES, FEATURES, WEIGHTS
from bezsim.policy_specs.registry import policy_params
from bezsim.rules import VARIANTS, Rules

NEUTRAL = "learned(" + ",".join(f"{w.name}={w.default:g}" for w in WEIGHTS) + ")"
# the games of learned compile its own kernels; recording compiles the function-slot kernels
# that search's tests compile too, so those tests share search's worker (tests/conftest.py)
LEARNED_GROUP = pytest.mark.xdist_group("learned")
EXTERNAL_GROUP = pytest.mark.xdist_group("external")


def _same_games(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in ((a.hand_seat, b.hand_seat),
                                                 (a.game_info, b.game_info),
                                                 (a.events, b.events)))


@LEARNED_GROUP
@pytest.mark.parametrize("variant", VARIANTS)
def test_learned_at_neutral_weights_plays_expert_games(variant):
    """Weight 1 on expert's value and 0 on every other feature: the same games as expert, so
    every feature the model adds starts from expert's play (and learned's row carries
    expert's tuned weights for the preset)."""
    rules = Rules.make(variant)
    expert = run_games(rules, "expert", 3, 0, 4, threads=1)
    learned = run_games(rules, NEUTRAL, 3, 0, 4, threads=1)
    assert _same_games(expert, learned)


@LEARNED_GROUP
def test_other_weights_change_the_cards_played():
    """Not vacuous: a weight on a feature other than expert's value changes games."""
    rules = Rules.make("ordinary")
    base = run_games(rules, NEUTRAL, 3, 0, 4, threads=1)
    other = run_games(rules, NEUTRAL.replace("trump=0", "trump=40"), 3, 0, 4, threads=1)
    assert not _same_games(base, other)


def test_learned_row_carries_expert_weights_for_the_preset():
    """learned's row carries expert's tuned row for the preset, but for ``endgame`` when
    learned sets its own (the shipped Rubicon set does: 0); at -1 it is expert's."""
    from bezsim.policies.expert.weights import E_ENDGAME
    from bezsim.policies.learned.weights import EXPERT_COLUMN, OWN_ENDGAME
    from bezsim.policy_specs.registry import expert_row

    for variant in ("ordinary", "rubicon"):
        want = expert_row(variant)
        row = policy_params(["learned(endgame=-1)"], variant)[0]
        assert np.array_equal(row[EXPERT_COLUMN:EXPERT_COLUMN + len(want)], want)
        row = policy_params(["learned(endgame=2.5)"], variant)[0]
        assert row[EXPERT_COLUMN + E_ENDGAME] == 2.5
        others = np.arange(len(want)) != E_ENDGAME
        assert np.array_equal(row[EXPERT_COLUMN:EXPERT_COLUMN + len(want)][others],
                              want[others])
    shipped = policy_params(["learned"], "rubicon")[0]
    assert shipped[OWN_ENDGAME] == 0 and shipped[EXPERT_COLUMN + E_ENDGAME] == 0
    assert expert_row("rubicon")[E_ENDGAME] > 0


@EXTERNAL_GROUP
def test_recorded_games_are_a_function_of_the_seed():
    """The recording seats' data does not depend on the thread count, and each record holds
    distinct cards with their features and a value; learned's pick is one of them."""
    from bezsim.learn.generate import Budget, record_games

    rules = Rules.make("ordinary")
    row = policy_params([NEUTRAL], "ordinary")[0]
    budget = Budget(deals=2, horizon=12, early=0.1)
    one = record_games(rules, row, 5, range(3), budget, threads=1)
    two = record_games(rules, row, 5, range(3), budget, threads=2)
    for f in ("game", "n", "pick", "value", "features"):
        assert np.array_equal(getattr(one, f), getattr(two, f)), f
    assert len(one.n) > 20
    assert (one.n >= 2).all() and (one.pick < one.n).all()
    assert one.features.shape == (int(one.n.sum()), len(FEATURE_NAMES))
    # the expert features are expert's value: the pick of neutral learned scores highest
    neutral = np.array([w.default for w in FEATURES])
    score = one.features @ neutral
    for d, s in enumerate(one.start):
        block = score[s:s + one.n[d]]
        assert block[one.pick[d]] == block.max()


@EXTERNAL_GROUP
def test_learn_writes_the_same_model_for_the_same_seed(tmp_path):
    """A tiny ``bezsim learn`` run twice: the same model file; the fit raises the value of
    the recorded decisions under its softmax policy; resuming reuses the shards."""
    from click.testing import CliRunner

    from bezsim.cli import cli

    args = ["learn", "--variant", "ordinary", "--rounds", "1", "--games", "6", "--deals",
            "2", "--horizon", "12", "--eval-games", "20", "--seed", "9", "--threads", "2",
            "--no-progress"]
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        result = CliRunner().invoke(cli, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        runs.append(out)
    models = [json.loads((out / "round-1" / "model.json").read_text()) for out in runs]
    assert models[0] == models[1]
    assert models[0]["spec"].startswith("learned(")
    summary = json.loads((runs[0] / "summary.json").read_text())
    fitted = summary["rounds"][0]
    assert fitted["value_after"] > fitted["value_before"]
    shards = sorted((runs[0] / "round-1").glob("records-*.npz"))
    assert shards
    stamp = [s.stat().st_mtime_ns for s in shards]
    again = CliRunner().invoke(cli, [*args, "--out", str(runs[0])])
    assert again.exit_code == 0, again.output
    assert [s.stat().st_mtime_ns for s in shards] == stamp
    assert json.loads((runs[0] / "round-1" / "model.json").read_text()) == models[0]


@LEARNED_GROUP
def test_a_model_file_is_a_policy(tmp_path):
    """model.json is accepted wherever a policy is: --policies @model.json."""
    from bezsim.policy_specs.registry import parse_policies

    path = tmp_path / "model.json"
    path.write_text(json.dumps({"spec": NEUTRAL.replace("trump=0", "trump=2")}))
    specs = parse_policies(f"@{path},expert", 2)
    assert specs[0].startswith("learned(") and "trump=2" in specs[0]
    batch = run_games(Rules.make("ordinary"), specs, 1, 0, 2, threads=1)
    assert (batch.game_info[:, C.GI_HANDS] > 0).all()


@LEARNED_GROUP
def test_declaration_weights_weigh_expert_terms_in_a_rubicon_position():
    """R6.6 under later_class: a king put into four kings never marries after it, but a
    married king still counts in a later four. Seat 0, hearts trumps, has just won a trick
    with K♠ Q♠ and a king of every suit: common marriage ♠ (20) and four kings (80) are
    offered. Weighing what the marriage leaves for later (four kings still to score) above
    its points takes the marriage first; weighing it at nothing takes the 80 now. At 1 and 1
    learned chooses as expert does."""
    from bezsim.engine import state as st
    from bezsim.engine.offers import legal_declarations
    from bezsim.policies.expert import expert_policy
    from bezsim.policies.learned import learned_policy
    from bezsim.position import build_state, parse_position

    position = parse_position({
        "variant": "rubicon", "trumps": "♥", "stock": 92, "trick": 10, "to_move": 0,
        "phase": "declare",
        "seats": [{"hand": ["K♠", "Q♠", "K♥", "K♦", "K♣", "7♦", "8♣", "9♣", "7♣"],
                   "declared": {}}, {"hand": []}]})
    S0 = build_state(position, event_cap=64)
    n = legal_declarations(position.rules.params(), S0, 0, True, True, st.O_ACTS)
    S0[st.O_ACTS + n] = C.A_STOP            # as the engine offers them (engine/hand.py)
    S0[st.O_APTS + n] = 0
    n += 1
    S0[st.O_N_ACTS] = n
    S0[st.O_DECISION] = C.D_DECLARE
    offers = ["stop" if c == C.A_STOP else C.KIND_NAMES[int(c) >> 2]
              for c in S0[st.O_ACTS:st.O_ACTS + n]]
    assert offers == ["common_marriage", "four_kings", "stop"]
    rng = np.zeros((3, 4), np.uint64)

    def choice(spec: str) -> str:
        row = policy_params([spec], "rubicon")[0]
        policy = expert_policy if spec == "expert" else learned_policy
        return offers[policy(S0.copy(), 0, row, rng)]

    assert choice("learned(declare_later=4)") == "common_marriage"
    assert choice("learned(declare_later=0,declare_lock=0)") == "four_kings"
    assert choice(NEUTRAL) == choice("expert")


def test_a_fit_moves_only_the_weights_it_is_given():
    """Two recorded decisions of two cards each, where search values the card with the
    larger feature 0 and the larger feature 1 higher: a fit of weight 1 alone raises weight
    1 and the recorded value, and leaves every other weight at its start."""
    from bezsim.learn.fit import fit
    from bezsim.learn.generate import Records

    features = np.zeros((4, len(FEATURES)))
    features[:, 0] = [1.0, 0.0, 0.0, 1.0]
    features[:, 1] = [1.0, 0.0, 0.0, 1.0]
    features[:, 2] = [0.0, 1.0, 2.0, 3.0]
    records = Records(game=np.array([1, 2], np.int64), n=np.array([2, 2], np.int32),
                      pick=np.array([0, 0], np.int32), value=np.array([30.0, 0.0, 0.0, 30.0]),
                      features=features)
    start = np.zeros(len(FEATURES))
    free = np.zeros(len(FEATURES), bool)
    free[1] = True
    result = fit(records, start, free=free)
    assert result.weights[1] > 0
    assert np.array_equal(result.weights[~free], start[~free])
    assert result.value_after > result.value_before
    with pytest.raises(ValueError, match="no weight left free"):
        fit(records, start, free=np.zeros(len(FEATURES), bool))


def test_learn_refuses_to_resume_a_run_begun_with_other_settings(tmp_path):
    """A learn run's shards are a function of its settings: resuming with another seed or
    other fitted weights is refused in one line before any game; more rounds resume."""
    from bezsim.errors import BezsimError
    from bezsim.learn.generate import Budget
    from bezsim.learn.run import PLAN, Plan, _plan_doc, check_plan

    plan = Plan("rubicon", 5, 10, 1, Budget(deals=2), 20, "learned", ("late_rank",))
    (tmp_path / PLAN).write_text(json.dumps(_plan_doc(plan)))
    check_plan(tmp_path, plan)
    check_plan(tmp_path, Plan("rubicon", 5, 10, 3, Budget(deals=2), 50, "learned",
                              ("late_rank",)))
    for other, named in ((Plan("rubicon", 6, 10, 1, Budget(deals=2), 20, "learned",
                               ("late_rank",)), "seed"),
                         (Plan("rubicon", 5, 10, 1, Budget(deals=2), 20, "learned",
                               ("late_wins",)), "params"),
                         (Plan("rubicon", 5, 10, 1, Budget(deals=2), 20, "learned(trump=3)",
                               ("late_rank",)), "start, start_weights")):
        with pytest.raises(BezsimError, match=f"other settings \\({named}\\)"):
            check_plan(tmp_path, other)


@LEARNED_GROUP
def test_reform_points_price_a_declared_four_or_bezique_scoring_again():
    """R6.6 re-forming: seat 0 (Rubicon, hearts trumps, 8 stock cards left) has four aces
    and a bezique declared and intact, and holds a fifth ace and a second queen of spades.
    An ace of the four, once played, lets the fifth ace re-form four aces (100); the queen
    of the bezique lets the other queen re-form it (40); a card in no intact combination,
    or one with no like card to stand in, re-forms nothing."""
    from bezsim.cards import parse_card
    from bezsim.policies.learned.features import reform_points
    from bezsim.position import build_state, parse_position

    def points(hand, declared, card):
        position = parse_position({
            "variant": "rubicon", "trumps": "♥", "stock": 8, "trick": 52, "to_move": 0,
            "phase": "play", "seats": [{"hand": hand, "declared": declared}, {"hand": []}]})
        S = build_state(position, event_cap=64)
        held = [c for c in range(128) if S[st.O_SEEN + c] in (C.V_MINE, C.V_MINE_SHOWN)]
        face = parse_card(card.split("#")[0]) & 31
        copies = sorted((c for c in held if (c & 31) == face),
                        key=lambda c: (S[st.O_HIST + c] == 0) != card.endswith("#free"))
        return reform_points(S, 0, copies[0], 4)

    four = {"A♠": ["four"], "A♥": ["four"], "A♦": ["four"], "A♣": ["four"],
            "Q♠": ["bezique"], "J♦": ["bezique"]}
    hand = ["A♠", "A♥", "A♦", "A♣", "Q♠", "J♦", "A♠", "Q♠", "7♣"]
    assert points(hand, four, "A♦") == 100
    assert points(hand, four, "Q♠") == 40
    assert points(hand, four, "J♦") == 0          # no second jack of diamonds held
    assert points(hand, four, "7♣") == 0
    assert points(hand, four, "A♠#free") == 0     # the fifth ace is in no combination
    no_fifth = ["A♠", "A♥", "A♦", "A♣", "Q♠", "J♦", "9♠", "8♥", "7♣"]
    assert points(no_fifth, four, "A♦") == 0
