"""``bezsim explain --evaluate``: every legal card's value at a position.

Stage 2 of the two-handed game is checked against the full minimax of the rules as stated
(tests/test_solver.py's reference); stage 1 against what search plays there; the rest is
the command's contract (intervals, seeds, bad input)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from test_solver import ref_moves

from bezsim import cards
from bezsim.cli import cli
from bezsim.engine import state as st
from bezsim.engine.constants import DUTY_FOLLOW_AND_WIN
from bezsim.policies.search import search_decision
from bezsim.policies.search_params import P_FIRST, P_HORIZON, P_ROLLOUT, P_SAMPLES, P_Z
from bezsim.position import PositionError, parse_position
from bezsim.position.evaluate import (
    Z95,
    deal_stream,
    decision_state,
    evaluate,
    evaluation_row,
)

pytestmark = pytest.mark.xdist_group("external")     # search's kernels (conftest)
SUITS = cards.SUIT_SYMBOLS


def _names(ids: list[int]) -> list[str]:
    return [cards.card_name(c, with_copy=True) for c in ids]


def stage2_position(rng: np.random.Generator, n: int, lead: bool) -> tuple[dict, list, list,
                                                                           int, int]:
    """An ordinary stage-2 position: seat 0 holds n cards, leads or follows seat 1's card."""
    deck = [int(c) for c in rng.permutation(64)]
    mine = deck[:n]
    theirs = deck[n:2 * n] if lead else deck[n:2 * n - 1]
    led = -1 if lead else deck[2 * n - 1]
    played = deck[2 * n if lead else 2 * n:]
    trump = int(rng.integers(4))
    data = {"variant": "ordinary", "trumps": SUITS[trump], "stock": 0, "trick": 33 - n,
            "to_move": 0, "phase": "play", "current_trick": [] if lead else _names([led]),
            "seats": [{"hand": _names(mine)}, {"hand": _names(theirs)}],
            "played": _names(played)}
    return data, mine, theirs, led, trump


def test_stage2_values_are_the_full_minimax_of_every_legal_card():
    rng = np.random.default_rng(91)
    checked = 0
    for k in range(40):
        n = 1 + k % 5
        data, mine, theirs, led, trump = stage2_position(rng, n, lead=k % 2 == 0)
        result = evaluate(parse_position(data))
        moves = ref_moves(mine, theirs, led, trump, DUTY_FOLLOW_AND_WIN, 10, 10)
        expected = {cards.card_name(mine[i]): v for i, v in moves.items()}
        got = {row["card"]: row["value"] for row in result["values"]}
        assert got == expected, data
        assert result["best"] in {c for c, v in expected.items()
                                  if v == max(expected.values())}
        assert result["deals"] == 0 and result["method"].startswith("exact")
        checked += 1
    assert checked == 40


def stage1_position(rng: np.random.Generator, done: int) -> dict:
    """An ordinary stage-1 position after ``done`` tricks, seat 0 to lead."""
    deck = [int(c) for c in rng.permutation(64)]
    mine, theirs, turnup = deck[:8], deck[8:16], deck[16]
    played = deck[17:17 + 2 * done]
    return {"variant": "ordinary", "trumps": SUITS[cards.suit_of(turnup)],
            "turnup": cards.card_name(turnup, with_copy=True), "stock": 47 - 2 * done,
            "trick": done + 1, "to_move": 0, "phase": "play",
            "seats": [{"hand": _names(mine)}, {"hand": _names(theirs)}],
            "played": _names(played)}


def test_stage1_best_card_is_searchs_choice_over_the_same_deals():
    """The best card is the one search plays when it gets the evaluation's deals (the same
    stream, every card every deal, searched whatever the stock): its base policy's card
    unless another clears the gate. Where the top value clears the gate against the base
    card (z standard errors of their paired difference) it is the top value."""
    rng = np.random.default_rng(5)
    clear = 0
    for k in range(12):
        pos = parse_position(stage1_position(rng, int(rng.integers(12, 23))))
        deals, seed = 120 + 20 * k, k
        result = evaluate(pos, deals=deals, seed=seed)
        rows = result["values"]
        assert len(rows) == len({cards.face(c) for c in pos.hands[0]})
        for row in rows:
            assert row["low"] <= row["value"] <= row["high"]
        S, _ = decision_state(pos)
        row = evaluation_row("search", "ordinary", settlement=False)
        row[P_SAMPLES], row[P_FIRST], row[P_HORIZON] = deals, 0, 1000
        index = search_decision(S.copy(), 0, row, deal_stream(seed, 0, 0))
        assert cards.card_name(int(S[st.O_ACTS + index])) == result["best"], pos
        top = max(rows, key=lambda r: r["value"])
        base_card = result["choices"][{3: "expert", 4: "learned"}[int(row[P_ROLLOUT])]]
        base = next(r for r in rows if r["card"] == base_card)
        standard_error = (base["vs_top_high"] - base["vs_top"]) / Z95
        if base is top or base["vs_top"] + row[P_Z] * standard_error < 0:
            clear += 1
            assert result["best"] == top["card"]
    assert clear >= 1


def test_values_are_a_function_of_the_seed():
    pos = parse_position(stage1_position(np.random.default_rng(8), 18))
    a, b = evaluate(pos, deals=40, seed=1), evaluate(pos, deals=40, seed=1)
    c = evaluate(pos, deals=40, seed=2)
    assert a == b
    assert [r["value"] for r in a["values"]] != [r["value"] for r in c["values"]]
    assert a["deals"] == 40 and a["value"] == "margin"


def test_rubicon_values_are_the_settlement():
    rng = np.random.default_rng(4)
    deck = [int(c) for c in rng.permutation(128)]
    done = 53                        # Rubicon: 128 cards, 9 each, 110 in the stock
    data = {"variant": "rubicon", "trumps": "♠", "stock": 110 - 2 * done, "trick": done + 1,
            "to_move": 0, "phase": "play", "points": [2000, 0],
            "seats": [{"hand": _names(deck[:9])}, {"hand": _names(deck[9:18])}],
            "played": _names(deck[18:18 + 2 * done])}
    result = evaluate(parse_position(data), deals=30)
    assert result["value"] == "settlement"
    # 2,000 points against none with 11 tricks left: a rubicon whatever is played (R6.8),
    # worth the winner's rounded total, the loser's floor of 100, the brisques bonus and the
    # 1,000 for the game; the hand margin would be about 2,000
    assert all(r["value"] >= 2000 + 100 + 300 + 1000 for r in result["values"])


def test_positions_it_cannot_value_are_one_line_errors():
    data = stage1_position(np.random.default_rng(1), 16)
    with pytest.raises(PositionError, match="every card placed"):
        evaluate(parse_position({**data, "played": data["played"][:-2]}))
    with pytest.raises(PositionError, match="phase 'play'"):
        evaluate(parse_position({**data, "phase": "declare"}))


def test_cli_prints_values_and_each_policys_card(tmp_path):
    path = tmp_path / "p.json"
    data, *_ = stage2_position(np.random.default_rng(3), 4, lead=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(cli, ["explain", "--evaluate", str(path)])
    assert out.exit_code == 0, out.output
    assert "best:" in out.output and "policies play: random" in out.output
    got = CliRunner().invoke(cli, ["explain", "--evaluate", "--json", str(path)])
    evaluation = json.loads(got.output)["evaluation"]
    assert set(evaluation["choices"]) == {"random", "greedy", "heuristic", "expert",
                                          "learned", "search"}
