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


# --- Polish (R5): open cards, the seven of the trick, compounds on one line --------------------

POLISH = Rules.make("polish")
POLISH_CASES = [(["random", "random"], 3, 0), (["greedy", "greedy"], 11, 4),
                (["random", "greedy"], 2024, 17)]
TRICK_LINE = re.compile(r"^\s+trick\s+(\d+): ")
COMPOUND = re.compile(r"^\s+seat (\d) declares (.+) = (\d+)$")
OPEN_LINE = re.compile(r"^\s+open cards seat (\d): (.+) \(new: (.+)\)$")
COMBINATION_KINDS = set(range(C.K_FOUR_JACKS + 1))


def _walk(text: str):
    """(hand, trick, line) of every line after the first trick line of hand 0."""
    hand, trick = -1, 0
    for line in text.splitlines():
        if line.startswith("Hand "):
            hand, trick = int(line.split()[1]), 0
        elif m := TRICK_LINE.match(line):
            trick = int(m.group(1))
        yield hand, trick, line


@pytest.mark.parametrize(("policies", "seed", "game"), POLISH_CASES)
def test_polish_transcript_totals_equal_the_batch(policies, seed, game):
    """Per hand, the '+points' lines and the compound totals of each seat add up to its hand
    points and score; the last line is the batch's result."""
    text = transcript(POLISH, policies, seed, game)
    batch = run_games(POLISH, policies, seed, game, 1)
    info = batch.game_info[0]
    lines = text.splitlines()
    assert lines[0] == header(POLISH, policies, seed, game)
    winner = int(info[C.GI_WINNER])
    scores = [int(info[C.GI_SCORE]), int(info[C.GI_SCORE + 1])]
    assert lines[-1].startswith(f"Game over after {int(info[C.GI_HANDS])} hands: seat {winner} "
                                f"wins {scores[winner]} to {scores[1 - winner]}")
    hand, sums = 0, [0, 0]
    for line in lines:
        if m := POINTS.match(line):
            sums[int(m.group(1))] += int(m.group(2))
        elif m := COMPOUND.match(line):
            sums[int(m.group(1))] += int(m.group(3))
        elif m := HAND_LINE.match(line):
            rows = batch.hand_seat[0, hand]
            assert [int(m.group(1)), int(m.group(2))] == sums == [
                int(rows[s, C.HS_POINTS]) for s in range(2)]
            assert [int(m.group(3)), int(m.group(4))] == [
                int(rows[s, C.HS_SCORE_AFTER]) for s in range(2)]
            hand, sums = hand + 1, [0, 0]
    assert hand == int(info[C.GI_HANDS])
    assert len([x for x in lines if TRICK_LINE.match(x)]) == 32 * hand


@pytest.mark.parametrize(("policies", "seed", "game"), POLISH_CASES)
def test_polish_compound_line_is_the_tricks_combination_events(policies, seed, game):
    """A compound is ONE line naming each combination with its points; its total is the sum
    of that trick's combination events, and every trick with two or more has such a line."""
    text = transcript(POLISH, policies, seed, game)
    _, trace = trace_one(POLISH, policies, seed, game)
    combos: dict[tuple[int, int], list[tuple]] = {}
    for r in trace.tolist():
        if r[0] == C.TR_EVENT and r[4] in COMBINATION_KINDS:
            combos.setdefault((r[1], r[2]), []).append(r)
    seen = set()
    for hand, trick, line in _walk(text):
        if m := COMPOUND.match(line):
            events = combos[(hand, trick)]
            assert len(events) >= 2
            assert int(m.group(3)) == sum(r[7] for r in events)
            assert all(int(m.group(1)) == r[3] for r in events)
            parts = m.group(2).split(" + ")
            assert [int(p.rsplit(" ", 1)[1]) for p in parts] == [r[7] for r in events]
            seen.add((hand, trick))
    compounds = {k for k, v in combos.items() if len(v) >= 2}
    assert seen == compounds
    assert compounds or policies != ["greedy", "greedy"]


@pytest.mark.parametrize(("policies", "seed", "game"), POLISH_CASES[:2])
def test_polish_open_cards_and_sevens_are_shown(policies, seed, game):
    """After each trick the winner's open cards are listed, the new ones named (R5.1); every
    exchange of the trick's seven and every seven scored as it lies has its line (R5.3)."""
    text = transcript(POLISH, policies, seed, game)
    _, trace = trace_one(POLISH, policies, seed, game)
    rows = trace.tolist()
    joined: dict[tuple[int, int], list[int]] = {}
    for r in rows:
        if r[0] == C.TR_OPEN:
            joined.setdefault((r[1], r[2]), []).append(r[4])
    opened, open_cards = {}, {}
    for hand, trick, line in _walk(text):
        if m := OPEN_LINE.match(line):
            opened[(hand, trick)] = m.group(3)
            open_cards[(hand, int(m.group(1)))] = m.group(2)
    assert opened == {k: cards_text(v) for k, v in joined.items()}
    for (hand, seat), listed in open_cards.items():    # the last line holds them all
        cards = [r[4] for r in rows if r[0] == C.TR_OPEN and r[1] == hand and r[3] == seat]
        assert listed == cards_text(cards)
    n_exchanges = sum(r[0] == C.TR_EXCHANGE for r in rows)
    n_played = sum(r[0] == C.TR_EVENT and r[4] == C.K_SEVEN_PLAYED for r in rows)
    assert text.count("exchanges the trick's 7") == n_exchanges
    assert text.count("wins the seven of trumps 7") == n_played
    assert n_exchanges + n_played > 0
