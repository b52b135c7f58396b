"""replay: the transcript of one seeded game is the game a batch run played."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.engine import constants as C
from bezsim.engine.api import run_games, trace_one
from bezsim.errors import BezsimError
from bezsim.replay import cards_text, header, transcript
from bezsim.rules import Rules

RULES = Rules.make("ordinary")
CASES = [(["random", "random"], 3, 0), (["greedy", "greedy"], 11, 4),
         (["random", "greedy"], 2024, 17)]
HAND_LINE = re.compile(r"^\s+hand points: seat 0 (\d+), seat 1 (\d+) \| "
                       r"scores: seat 0 (\d+), seat 1 (\d+)$")
POINTS = re.compile(r"^\s+seat (\d) .*: \+(\d+)$")


def _batch_row(policies, seed, game):
    """Game ``game`` as played inside a batch that does not start at it."""
    start = max(0, game - 2)
    return run_games(RULES, policies, seed, start, 5), game - start


@pytest.mark.parametrize(("policies", "seed", "game"), CASES)
def test_transcript_ends_with_the_batch_result(policies, seed, game):
    text = transcript(RULES, policies, seed, game)
    batch, g = _batch_row(policies, seed, game)
    info = batch.game_info[g]
    winner, hands = int(info[C.GI_WINNER]), int(info[C.GI_HANDS])
    scores = [int(info[C.GI_SCORE]), int(info[C.GI_SCORE + 1])]
    lines = text.splitlines()
    assert lines[0] == header(RULES, policies, seed, game)
    assert lines[-1].startswith(f"Game over after {hands} hands: seat {winner} wins "
                                f"{scores[winner]} to {scores[1 - winner]}")
    assert lines[-1].endswith(f"stake {int(info[C.GI_STAKE])}")
    assert ("double game" in lines[-1]) == bool(info[C.GI_DOUBLE])
    assert len([x for x in lines if x.startswith("Hand ")]) == hands
    assert len([x for x in lines if re.match(r"^\s+trick\s+\d+:", x)]) == 32 * hands
    assert len([x for x in lines if "draws: " in x]) == 24 * hands


@pytest.mark.parametrize(("policies", "seed", "game"), CASES)
def test_every_scoring_event_is_in_the_transcript(policies, seed, game):
    """Per hand, the '+points' lines of each seat add up to its hand points and totals."""
    batch, g = _batch_row(policies, seed, game)
    text = transcript(RULES, policies, seed, game)
    hand, sums = 0, [0, 0]
    for line in text.splitlines():
        if m := POINTS.match(line):
            sums[int(m.group(1))] += int(m.group(2))
        elif m := HAND_LINE.match(line):
            points = [int(m.group(1)), int(m.group(2))]
            scores = [int(m.group(3)), int(m.group(4))]
            rows = batch.hand_seat[g, hand]
            assert points == sums == [int(rows[s, C.HS_POINTS]) for s in range(2)]
            assert scores == [int(rows[s, C.HS_SCORE_AFTER]) for s in range(2)]
            hand, sums = hand + 1, [0, 0]
    assert hand == int(batch.game_info[g, C.GI_HANDS])


def test_same_seed_same_text_and_other_game_other_text():
    first = transcript(RULES, ["random", "greedy"], 8, 2)
    assert transcript(RULES, ["random", "greedy"], 8, 2) == first
    assert transcript(RULES, ["random", "greedy"], 8, 3) != first


def test_cli_replay_prints_the_transcript():
    result = CliRunner().invoke(cli.cli, ["replay", "--seed", "11", "--game", "4",
                                          "--policies", "greedy"], prog_name="bezsim")
    assert result.exit_code == 0, result.output
    assert result.stdout == transcript(RULES, ["greedy", "greedy"], 11, 4)


def test_header_names_only_changed_options():
    rules = Rules.make("ordinary", {"target": 1500, "last_trick": "both"})
    line = header(rules, ["random", "greedy"], 5, 9)
    assert line == ("bezsim replay | variant ordinary | options: last_trick=both, target=1500 "
                    "| policies: seat 0 random, seat 1 greedy | seed 5 | game 9")
    text = transcript(rules, ["random", "greedy"], 5, 9)
    assert text.splitlines()[0] == line
    assert "last trick: +10" in text


def test_cards_sorted_by_suit_then_rank():
    # ids: 10♥ = 9, A♠ = 0, 7♠#1 = 39, K♣ = 26, A♥ = 8
    assert cards_text([9, 0, 39, 26, 8]) == "A♠ 7♠ A♥ 10♥ K♣"


def test_a_long_game_is_replayed_whole_or_refused_never_truncated():
    """A 5000-point game needs more trace rows than trace_one's first buffer (4096)."""
    rules = Rules.make("ordinary", {"target": 5000})
    hands = int(run_games(rules, ["random", "random"], 1, 0, 1).game_info[0, C.GI_HANDS])
    try:
        text = transcript(rules, ["random", "random"], 1, 0)
    except BezsimError as exc:
        assert "cannot be replayed" in str(exc)
        return
    assert text.splitlines()[-1].startswith(f"Game over after {hands} hands")
    assert len([x for x in text.splitlines() if x.startswith("Hand ")]) == hands


@pytest.mark.parametrize("policies", [["random", "random"], ["greedy", "random"]])
def test_trace_one_reproduces_the_batch_rows(policies):
    """trace_one runs the same kernel: its arrays equal the batch's row for that game."""
    seed, g0, n = 31, 5, 40
    batch = run_games(RULES, policies, seed, g0, n)
    for g in (5, 6, 19, 33, 44):
        one, trace = trace_one(RULES, policies, seed, g)
        i = g - g0
        hands = int(one.game_info[0, C.GI_HANDS])
        events = int(one.game_info[0, C.GI_N_EVENTS])
        np.testing.assert_array_equal(one.game_info[0], batch.game_info[i])
        np.testing.assert_array_equal(one.hand_seat[0, :hands], batch.hand_seat[i, :hands])
        np.testing.assert_array_equal(one.hand_info[0, :hands], batch.hand_info[i, :hands])
        np.testing.assert_array_equal(one.events[0, :events], batch.events[i, :events])
        ends = trace[trace[:, 0] == C.TR_HAND_END]
        assert ends[:, 2:4].tolist() == batch.hand_seat[i, :hands, :, C.HS_SCORE_AFTER].tolist()
