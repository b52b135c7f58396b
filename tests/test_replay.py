"""replay: the transcript of one seeded game is the game a batch run played."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.cards import suit_name
from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games, trace_one
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


def test_hands_are_numbered_from_one_as_play_shows_them():
    """Hand 1 is the tables' hand 0 (bezsim play numbers hands from 1 too: test_play.py)."""
    text = transcript(RULES, ["greedy", "greedy"], 11, 4)
    batch, g = _batch_row(["greedy", "greedy"], 11, 4)
    hands = int(batch.game_info[g, C.GI_HANDS])
    numbers = [int(x.split()[1]) for x in text.splitlines() if x.startswith("Hand ")]
    assert hands >= 2 and numbers == list(range(1, hands + 1))
    dealers = [int(re.search(r"dealer: seat (\d)", x).group(1)) for x in text.splitlines()
               if x.startswith("Hand ")]
    assert dealers == [int(batch.hand_info[g, h, C.HI_DEALER]) for h in range(hands)]


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
    """(hand as the trace counts it, from 0; trick; line) of every line."""
    hand, trick = -1, 0
    for line in text.splitlines():
        if line.startswith("Hand "):
            hand, trick = int(line.split()[1]) - 1, 0     # the transcript counts from 1
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


# --- Rubicon (R6): trumps undecided until fixed, carte blanche, brisques aside, settlement ----

RUBICON = Rules.make("rubicon")
RUBICON_CASES = [
    (["greedy", "greedy"], 1, 0),         # a royal marriage shown, then scored: trumps ♦
    (["greedy", "greedy"], 1, 6),         # the first sequence (in trumps, 250) fixes trumps ♣
    (["random", "random"], 3, 111),       # carte blanche at the deal and after seven draws
    (["random", "greedy"], 4, 0),         # trumps never fixed; 0 - 90: won on brisques
    (["greedy", "greedy"], 2, 37201),     # the loser saved from the rubicon by his brisques
    (["random", "random"], 3, 27),        # rounded totals and brisques tie: a draw
]
SETTLE_TOTALS = re.compile(r"^  totals: seat 0 (\d+), seat 1 (\d+) \| rounded down to 100: "
                           r"seat 0 (\d+), seat 1 (\d+)$")
SETTLE_BRISQUES = re.compile(r"^  brisques \(counted aside\): seat 0 (\d+), seat 1 (\d+)$")
HAND_BRISQUES = re.compile(r"^  brisques \(counted aside, not scored\): seat 0 (\d+), "
                           r"seat 1 (\d+)$")
STAKE = re.compile(r"^  stake (\d+) = (.+)$")
TRUMPS_FIXED = re.compile(r"^\s+trumps fixed: (\S+) \(seat (\d)'s (marriage|sequence), "
                          r"the first declared\)$")
CARTE_BLANCHE = re.compile(r"^\s+seat (\d) carte blanche(?:, no K, Q or J| again, drew (\S+)):"
                           r" shows (.+): \+50$")


def _rubicon(policies, seed, game):
    text = transcript(RUBICON, policies, seed, game)
    batch, trace = trace_one(RUBICON, policies, seed, game)
    return text, batch, trace.tolist()


@pytest.mark.parametrize(("policies", "seed", "game"), RUBICON_CASES)
def test_rubicon_transcript_points_brisques_and_settlement(policies, seed, game):
    """One hand of 64 tricks (55 with draws) whose '+points' lines add up to each seat's
    points; brisques listed aside (R6.7); the settlement lines are the batch's R6.8 result."""
    text, _, _ = _rubicon(policies, seed, game)
    batch = run_games(RUBICON, policies, seed, game, 1)
    info, seats = batch.game_info[0], batch.hand_seat[0, 0]
    lines = text.splitlines()
    assert lines[0] == header(RUBICON, policies, seed, game)
    starts = [x for x in lines if x.startswith("Hand ")]
    assert len(starts) == 1 and "trumps undecided (no turn-up" in starts[0]
    assert len([x for x in lines if TRICK_LINE.match(x)]) == 64
    assert len([x for x in lines if "draws: " in x]) == 55
    sums = [0, 0]
    for line in lines:
        if m := POINTS.match(line):
            sums[int(m.group(1))] += int(m.group(2))
    assert sums == [int(seats[s, C.HS_POINTS]) for s in range(2)]
    assert [m.groups() for x in lines if (m := HAND_LINE.match(x))] == [
        tuple(str(sums[s]) for s in (0, 1)) * 2]
    aside = [list(map(int, m.groups())) for x in lines if (m := HAND_BRISQUES.match(x))]
    assert aside == [[int(seats[s, C.HS_BRISQUES]) for s in range(2)]]
    assert sum(aside[0]) == 320
    assert "brisques: +" not in text                       # never scored (R6.7)

    end = lines.index("Game over (Rubicon: one hand is the game, R6.8)")
    tail = lines[end + 1:]
    totals = SETTLE_TOTALS.match(tail[0]).groups()
    assert list(map(int, totals)) == [int(info[C.GI_SCORE]), int(info[C.GI_SCORE + 1]),
                                      int(info[C.GI_ROUNDED]), int(info[C.GI_ROUNDED + 1])]
    assert list(map(int, SETTLE_BRISQUES.match(tail[1]).groups())) == [
        int(info[C.GI_BRISQUES]), int(info[C.GI_BRISQUES + 1])]
    winner, stake = int(info[C.GI_WINNER]), int(info[C.GI_STAKE])
    if winner < 0:
        assert tail[2:] == ["  draw: rounded totals and brisques both tie; stake 0"]
        return
    assert tail[2].startswith(f"  seat {winner} wins ")
    rubiconed = f"  seat {1 - winner} is rubiconed: "
    assert tail[3].startswith(rubiconed if info[C.GI_RUBICON] else f"  seat {1 - winner} is "
                              "not rubiconed: ")
    m = STAKE.match(tail[4])
    assert int(m.group(1)) == stake and len(tail) == 5
    terms = re.sub(r" \(counted as 100\)| for \w+", "", m.group(2)).replace("- ", "+ -")
    assert sum(int(t) for t in terms.split(" + ")) == stake


def test_rubicon_settlement_on_points_when_rounded_totals_tie():
    """R6.8 rubicon_close=points: 190 and 100 both round to 100; seat 0 has fewer brisques
    (140 to 180) but more points, so he wins on points (with brisques seat 1 would)."""
    rules = Rules.make("rubicon", {"rubicon_close": "points"})
    info = run_games(rules, ["random", "greedy"], 4, 48, 1).game_info[0]
    assert [int(info[C.GI_SCORE + s]) for s in range(2)] == [190, 100]
    assert [int(info[C.GI_BRISQUES + s]) for s in range(2)] == [140, 180]
    lines = transcript(rules, ["random", "greedy"], 4, 48).splitlines()
    tail = lines[lines.index("Game over (Rubicon: one hand is the game, R6.8)") + 1:]
    assert tail[2] == "  seat 0 wins on points (190 to 100), the rounded totals tying"
    assert int(info[C.GI_WINNER]) == 0
    assert RUBICON.options["rubicon_close"] == "brisques"
    assert int(run_games(RUBICON, ["random", "greedy"], 4, 48, 1).game_info[0, C.GI_WINNER]) == 1


@pytest.mark.parametrize(("policies", "seed", "game"), RUBICON_CASES)
def test_rubicon_trumps_fixed_line(policies, seed, game):
    """Trumps are undecided until the first marriage or sequence is declared (R6.2): one line
    says so, under that trick, naming the suit hand_info records; none if never fixed."""
    text, batch, rows = _rubicon(policies, seed, game)
    trump = int(batch.hand_info[0, 0, C.HI_TRUMP])
    fixing = [r for r in rows if r[0] == C.TR_EVENT and r[5] != C.EV_LOST
              and r[4] in (C.K_ROYAL_MARRIAGE, C.K_COMMON_MARRIAGE, C.K_SEQUENCE,
                           C.K_PLAIN_SEQUENCE)]
    found = [(trick, m.groups()) for _, trick, line in _walk(text)
             if (m := TRUMPS_FIXED.match(line))]
    if trump < 0:
        assert not fixing and not found
        return
    what = "marriage" if fixing[0][4] <= C.K_ROYAL_MARRIAGE else "sequence"
    assert found == [(fixing[0][2], (suit_name(trump), str(fixing[0][3]), what))]


@pytest.mark.parametrize(("policies", "seed", "game"), RUBICON_CASES[:4])
def test_rubicon_carte_blanche_lines(policies, seed, game):
    """R6.4: one line per carte blanche scored, at the deal or after the draw that brought no
    court card, showing a hand without K, Q or J."""
    text, batch, rows = _rubicon(policies, seed, game)
    events = [(r[2], r[3]) for r in rows if r[0] == C.TR_EVENT and r[4] == C.K_CARTE_BLANCHE]
    draws = {(r[2], r[3]): r[4] for r in rows if r[0] == C.TR_DRAW}
    found = []
    for _, trick, line in _walk(text):
        if m := CARTE_BLANCHE.match(line):
            seat, drawn, shown = int(m.group(1)), m.group(2), m.group(3).split()
            assert len(shown) == 9 and not any(c[0] in "KQJ" for c in shown)
            if drawn is not None:
                assert drawn == cards_text([draws[(trick, seat)]]) and drawn in shown
            found.append((trick, seat))
    assert found == events
    assert len(found) == int(batch.hand_seat[0, 0, :, C.HS_CARTE_BLANCHES].sum())
    assert found or game != 111


def test_cli_replay_rubicon():
    result = CliRunner().invoke(cli.cli, ["replay", "--variant", "rubicon", "--seed", "1",
                                          "--policies", "greedy"], prog_name="bezsim")
    assert result.exit_code == 0, result.output
    assert result.stdout == transcript(RUBICON, ["greedy", "greedy"], 1, 0)
    assert "trumps fixed: ♦ (seat 1's marriage, the first declared)" in result.stdout


# --- three- and four-handed (R3, R4): seats, teams, stage 2 in pairs --------------------------

MULTI_CASES = [("three_handed", "random", 5, 2), ("four_handed", "greedy", 9, 0),
               ("four_handed_partners", "greedy", 1, 0),
               ("four_handed_partners", "random", 4, 3)]
SEAT_POINTS = re.compile(r"seat (\d) (-?\d+)")


def _multi_hand_lines(text: str) -> list[tuple[list[int], list[int]]]:
    """(points per seat, scores per seat or team) of each 'hand points' line."""
    out = []
    for line in text.splitlines():
        if "hand points:" in line:
            points_part, scores_part = line.split("|")
            points = [int(v) for _, v in SEAT_POINTS.findall(points_part)]
            scores = [int(v) for v in re.findall(r"(?:seat|team) \d (-?\d+)", scores_part)]
            out.append((points, scores))
    return out


@pytest.mark.parametrize(("variant", "policy", "seed", "game"), MULTI_CASES)
def test_multi_seat_transcript_matches_the_batch(variant, policy, seed, game):
    """Every seat's '+points' lines add up to its hand points; the hand lines and the last
    line carry the batch's points, scores (team scores in a partnership) and winner."""
    rules = Rules.make(variant)
    players = rules.players
    batch = run_games(rules, [policy], seed, game, 1)
    info = batch.game_info[0]
    text = transcript(rules, [policy], seed, game)
    hands = int(info[C.GI_HANDS])
    hand_lines = _multi_hand_lines(text)
    assert len(hand_lines) == hands
    for h, (points, scores) in enumerate(hand_lines):
        rows = batch.hand_seat[0, h]
        assert points == [int(rows[s, C.HS_POINTS]) for s in range(players)]
        sides = range(2) if rules.partners else range(players)
        assert scores == [int(rows[s, C.HS_SCORE_AFTER]) for s in sides]
    sums = [0] * players
    for line in text.splitlines():
        if (m := POINTS.match(line)) and "hand points" not in line:
            sums[int(m.group(1))] += int(m.group(2))
    assert sums == [int(batch.hand_seat[0, :hands, s, C.HS_POINTS].sum())
                    for s in range(players)]
    winner = int(info[C.GI_WINNER])
    who = f"team {winner} (seats {winner} and {winner + 2})" if rules.partners \
        else f"seat {winner}"
    last = text.splitlines()[-1]
    assert last.startswith(f"Game over after {hands} hands: {who} wins "
                           f"{int(info[C.GI_SCORE + winner])} to ")
    tricks = 40 if rules.partners else 32
    assert len([x for x in text.splitlines() if re.match(r"^\s+trick\s+\d+:", x)]) == \
        tricks * hands
    assert len([x for x in text.splitlines() if "stage 2 in pairs (R4.2)" in x]) == \
        (hands if rules.partners else 0)


def test_pairs_transcript_shows_two_card_tricks_between_the_named_seats():
    """R4.2 pairs: tricks 25-32 are between the trick-24 winner and the opponent on his left,
    tricks 33-40 between the other two; the transcript names them and shows two cards."""
    rules = Rules.make("four_handed_partners")
    text = transcript(rules, ["greedy"], 1, 0)
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if "stage 2 in pairs" in x)
    a, b, c, d = (int(v) for v in re.findall(r"seat (\d)", lines[at]))
    assert (b, c, d) == ((a + 1) % 4, (a + 2) % 4, (a + 3) % 4)
    tricks = [x for x in lines[at:] if re.match(r"^\s+trick\s+\d+:", x)][:16]
    for i, line in enumerate(tricks):
        seats = {int(s) for s in re.findall(r"seat (\d) (?:leads|plays)", line)}
        assert seats == ({a, b} if i < 8 else {c, d}), line
    assert re.match(rf"^\s+trick 25: seat {a} leads", tricks[0])
    assert re.match(rf"^\s+trick 33: seat {c} leads", tricks[8])
