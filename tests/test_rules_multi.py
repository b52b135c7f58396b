"""Three- and four-handed bézique, docs/rules.md R3 and R4 (R4.1 independent, R4.2 partnership),
with the common core they rely on: R1.3 trick winner, R1.4 brisques, R1.5 draws, R1.6 stage-2
duty against the card currently winning, R1.8/R1.9 triple and second double bezique, R1.10 one
declaration per trick (per team), R2.6 game, R9 options ``partnership_stage2`` and ``target``,
and the position format for 3 and 4 seats (README "Positions").

Three kinds of test, as in the other rule files:

* positions through ``bezsim.position`` (the engine's compiled ``legal_plays`` /
  ``legal_declarations``): exact sorted lists;
* engine steps on a position's state (``score_combination``, ``play_card``, ``team_declare``,
  ``deal`` from ``bezsim.engine``), then the engine is asked again;
* whole games through ``trace_one`` / ``run_games`` / the runner, checked row by row.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from position_helpers import decl_cards, decls, plays

from bezsim import cards
from bezsim.cli import cli
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.hand import deal, play_card, team_declare
from bezsim.engine.offers import legal_declarations as engine_legal_declarations
from bezsim.engine.rng import PURPOSE_DEAL, seed_stream
from bezsim.engine.scoring import score_combination
from bezsim.engine.tricks import winning_index
from bezsim.engine_api.games import run_games, trace_one, unpack_events
from bezsim.policies.builtin import FIRST_ACTION, LAST_ACTION
from bezsim.position import (
    PositionError,
    build_state,
    explain,
    format_explanation,
    history_names,
    parse_position,
)
from bezsim.rules import Rules, RulesError

VARIANTS = ("three_handed", "four_handed", "four_handed_partners")
PLAYERS = {"three_handed": 3, "four_handed": 4, "four_handed_partners": 4}
STAGE1 = 24                     # R3, R4: 24 stock tricks
ALL_FOUR = {"partnership_stage2": "all_four"}

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def card(text: str, packs: int = 4) -> int:
    return cards.parse_card(text, packs)


def name(c: int) -> str:
    return cards.card_name(int(c), with_copy=True)


def face_down(variant: str, trick: int) -> int:
    """Face-down stock cards after trick ``trick`` of stage 1, before its draws: 71 (3
    players) or 95 (4) at the start, one draw per player per trick (R3, R4)."""
    players = PLAYERS[variant]
    return players * 32 - players * 8 - 1 - players * (trick - 1)


def seats_with(variant: str, seats: dict[int, dict]) -> list[dict]:
    return [seats.get(s, {"hand": []}) for s in range(PLAYERS[variant])]


def declare_pos(variant: str, seats: dict[int, dict], to_move: int = 0, trumps: str = "♥",
                trick: int = 10, **extra) -> dict:
    """``to_move`` declares after its side won trick ``trick`` of stage 1 (before drawing)."""
    return {"variant": variant, "trumps": trumps, "turnup": f"8{trumps}",
            "stock": face_down(variant, trick), "trick": trick, "to_move": to_move,
            "phase": "declare", "seats": seats_with(variant, seats), **extra}


def stage2_pos(variant: str, to_move: int, hand: list[str], current: list[str],
               trumps: str = "♠", trick: int = 27, options: dict | None = None) -> dict:
    """``to_move`` plays to a stage-2 trick (stock and turn-up gone) holding ``hand``."""
    data = {"variant": variant, "trumps": trumps, "turnup": None, "stock": 0, "trick": trick,
            "to_move": to_move, "current_trick": current,
            "seats": seats_with(variant, {to_move: {"hand": hand}})}
    if options:
        data["options"] = options
    return data


def rows_of(variant: str, policies: str, seed: int, game: int = 0,
            options: dict | None = None) -> tuple:
    batch, trace = trace_one(Rules.make(variant, options), [policies], seed, game)
    return batch, np.asarray(trace).tolist()


def hands_of(rows: list[list[int]]) -> dict[int, list[list[int]]]:
    """Trace rows grouped by hand number (every row but the game's end carries it first);
    each group starts with its TR_HAND_START row (the deal's rows precede it in the trace)."""
    out: dict[int, list[list[int]]] = {}
    for row in rows:
        if row[0] != C.TR_GAME_END:
            out.setdefault(row[1], []).append(row)
    for hand_rows in out.values():
        hand_rows.sort(key=lambda r: r[0] != C.TR_HAND_START)     # stable: order kept
    return out


def tricks_of(hand_rows: list[list[int]]) -> dict[int, dict]:
    """Per trick: the (seat, card) plays in order, the winner, and the (seat, card) draws."""
    tricks: dict[int, dict] = {}
    for row in hand_rows:
        if row[0] == C.TR_PLAY:
            tricks.setdefault(row[2], {"plays": [], "draws": []})["plays"].append(
                (row[3], row[4]))
        elif row[0] == C.TR_TRICK_WON:
            tricks[row[2]]["winner"] = row[3]
            tricks[row[2]]["cards"] = [c for c in row[4:8] if c >= 0]
        elif row[0] == C.TR_DRAW:
            tricks[row[2]]["draws"].append((row[3], row[4]))
    return tricks


class Table:
    """A position's engine state, moved on by the engine's own steps."""

    def __init__(self, data: dict) -> None:
        self.pos = parse_position(data)
        self.params = self.pos.rules.params()
        self.S = build_state(self.pos, event_cap=64, trace_cap=512)
        self.trick = self.pos.trick

    def offered(self, seat: int = 0) -> list[tuple]:
        """(kind, points) the engine offers ``seat`` now, sorted."""
        n = engine_legal_declarations(self.params, self.S, seat, True, True, st.O_ACTS)
        return sorted((C.KIND_NAMES[int(c) >> 2], int(p)) for c, p in
                      zip(self.S[st.O_ACTS:st.O_ACTS + n], self.S[st.O_APTS:st.O_APTS + n],
                          strict=True))

    def score(self, kind: int, seat: int = 0) -> None:
        score_combination(self.params, self.S, seat, kind * 4, 0, self.trick, C.EV_SCORED)

    def play(self, text: str, seat: int = 0) -> None:
        """The seat plays a card of its hand to a later trick."""
        self.trick += 1
        self.S[st.O_SC + C.SC_N_TRICK] = 0
        play_card(self.params, self.S, seat, card(text), 0, self.trick, 1)

    def team_declare(self, winner: int, policies: dict[int, int]) -> None:
        """The engine's declaring after ``winner``'s win (R1.7, R4.2); each seat's scripted
        policy: FIRST_ACTION takes the first declaration offered, LAST_ACTION declines."""
        players = self.pos.rules.players
        ids = np.array([policies.get(s, LAST_ACTION) for s in range(players)], np.int64)
        team_declare(self.params, self.S, np.zeros((1 + players, 4), np.uint64), ids,
                     np.zeros((players, 1)), None, winner, 0, self.trick, True)

    def history(self, text: str) -> list[str]:
        return history_names(self.pos.rules, int(self.S[st.O_HIST + card(text)]))

    def events(self) -> list[tuple]:
        """(seat, kind, points) of every scoring event so far."""
        out = np.zeros(64, np.int64)
        n = st.copy_events(self.S, out)
        ev = unpack_events(out[:n])
        return [(int(ev["seat"][i]), C.KIND_NAMES[ev["kind"][i]], int(ev["points"][i]))
                for i in range(n)]

    def declared_cards(self) -> list[tuple]:
        """(declaring seat, card) of every card that scored in a declaration."""
        trace = np.zeros((512, C.TR_SIZE), np.int32)
        n = st.copy_trace(self.S, trace)
        return [(int(r[3]), name(r[4])) for r in trace[:n] if r[0] == C.TR_DECLARED_CARD]

    def seen(self, seat: int, text: str) -> int:
        return int(self.S[st.O_SEEN + seat * st.N_MAX + card(text)])

    def location(self, text: str) -> int:
        return int(self.S[st.O_LOC + card(text)])


# ---------------------------------------------------------------------------------------------
# R3 / R4 presets; R9 player counts
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant,players,packs,teams", [
    ("three_handed", 3, 3, [0, 1, 2]),
    ("four_handed", 4, 4, [0, 1, 2, 3]),
    ("four_handed_partners", 4, 4, [0, 1, 0, 1]),
])
def test_r3_r4_presets(variant, players, packs, teams):
    """R3 / R4: three packs for three, four for four; game 2000 (R9 target); triple bezique
    1500 and no quadruple; R4.2 partners opposite (team t = seats t and t + 2)."""
    rules = Rules.make(variant, players=players)
    assert (rules.players, rules.packs, rules.hand_size) == (players, packs, 8)
    assert rules.teams() == teams
    assert rules.partners == (variant == "four_handed_partners")
    assert rules.options["target"] == 2000
    p = rules.params()
    assert p[C.PR_POINTS + C.K_TRIPLE_BEZIQUE] == 1500
    assert p[C.PR_BEZ_LEVELS] == 3
    assert p[C.PR_TURNUP] == 1
    assert ("partnership_stage2" in rules.options) == (variant == "four_handed_partners")


def test_r4_2_partnership_stage2_option_values():
    """R9 partnership_stage2: pairs (default) / all_four; not an option of the others."""
    assert Rules.make("four_handed_partners").options["partnership_stage2"] == "pairs"
    assert Rules.make("four_handed_partners").params()[C.PR_STAGE2_PAIRS] == 1
    assert Rules.make("four_handed_partners", ALL_FOUR).params()[C.PR_STAGE2_PAIRS] == 0
    for variant in ("three_handed", "four_handed", "ordinary"):
        with pytest.raises(RulesError, match="partnership_stage2"):
            Rules.make(variant, ALL_FOUR)


@pytest.mark.parametrize("variant,players,defined", [
    ("polish", 3, 2), ("polish", 4, 2), ("ordinary", 3, 2), ("ordinary", 4, 2),
    ("rubicon", 3, 2), ("rubicon", 4, 2), ("three_handed", 4, 3), ("three_handed", 2, 3),
    ("four_handed", 3, 4), ("four_handed_partners", 2, 4),
])
def test_r9_variants_refuse_other_player_counts(variant, players, defined):
    """R2, R3, R4, R5, R6: each variant is played by its own number of players; asking for
    another is a one-line error naming both counts."""
    with pytest.raises(RulesError) as info:
        Rules.make(variant, players=players)
    message = str(info.value)
    assert "\n" not in message
    assert f"played by {defined} players" in message and f"not {players}" in message


def test_r9_cli_refuses_polish_for_three_players(tmp_path):
    """R5 is two-handed: ``bezsim simulate --variant polish --players 3`` exits 2 with one
    line on stderr and writes nothing."""
    result = CliRunner().invoke(cli, ["simulate", "--variant", "polish", "--players", "3",
                                      "--games", "2", "--out", str(tmp_path / "run")],
                                prog_name="bezsim")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bezsim: error: variant 'polish' is played by 2 players")
    assert "three_handed" in lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "run").exists()


# ---------------------------------------------------------------------------------------------
# positions for 3 and 4 seats (README "Positions")
# ---------------------------------------------------------------------------------------------

GOOD3 = {"variant": "three_handed", "trumps": "♠", "turnup": None, "stock": 0, "trick": 27,
         "to_move": 2, "current_trick": ["Q♥", "K♥"],
         "seats": [{"hand": []}, {"hand": []}, {"hand": ["A♥", "J♥", "7♠"]}]}
GOOD_PAIRS = {"variant": "four_handed_partners", "trumps": "♠", "turnup": None, "stock": 0,
              "trick": 38, "to_move": 3, "current_trick": ["Q♥"],
              "seats": [{"hand": []}, {"hand": []}, {"hand": []}, {"hand": ["K♥", "9♥"]}]}


def _with(base: dict, **changes) -> dict:
    data = json.loads(json.dumps(base))
    data.update(changes)
    return data


def test_good_multi_positions_parse():
    """The bases of the bad-position cases are valid (so each case tests one fault)."""
    assert plays(GOOD3) == ["A♥"]
    assert plays(GOOD_PAIRS) == ["K♥"]
    # every stock count and trick number up to the limits is a position
    assert parse_position(declare_pos("three_handed", {}, trick=1)).stock == 71
    assert parse_position(declare_pos("four_handed", {}, trick=1)).stock == 95
    assert parse_position(_with(GOOD3, trick=32)).trick == 32
    assert parse_position(_with(GOOD_PAIRS, trick=40)).trick == 40
    # stage 1 of the partnership: four-card tricks
    data = declare_pos("four_handed_partners", {}, phase="play")
    data["current_trick"] = ["Q♥", "K♥", "A♥"]
    assert parse_position(data).current_trick == [card("Q♥"), card("K♥"), card("A♥")]


@pytest.mark.parametrize("data,fragment", [
    (_with(GOOD3, seats=[{"hand": []}, {"hand": []}]), "list of 3 seats"),
    (_with(GOOD3, seats=[{"hand": []}] * 4), "list of 3 seats"),
    (_with(GOOD_PAIRS, seats=[{"hand": []}] * 3), "list of 4 seats"),
    # R3: three packs, so three copies of a card
    (_with(GOOD3, played=["Q♠", "Q♠", "Q♠", "Q♠"]), "more copies of Q♠ than 3 packs hold"),
    (_with(GOOD3, played=["Q♠#3"]), "pack 3 does not exist with 3 packs"),
    (_with(GOOD_PAIRS, played=["J♦"] * 5), "more copies of J♦ than 4 packs hold"),
    (_with(GOOD3, played=["Q♠#2", "Q♠#2"]), "twice"),
    # stock: 96 - 24 - 1 = 71 face down at most; 128 - 32 - 1 = 95
    (_with(GOOD3, stock=72, turnup="9♠"), "'stock'=72 is out of range (0..71)"),
    (_with(GOOD_PAIRS, stock=96, turnup="9♠"), "'stock'=96 is out of range (0..95)"),
    # tricks: 32 a hand; 40 for partners playing stage 2 in pairs
    (_with(GOOD3, trick=33), "'trick'=33 is out of range (1..32)"),
    (_with(GOOD_PAIRS, trick=41), "'trick'=41 is out of range (1..40)"),
    (_with(GOOD_PAIRS, options=ALL_FOUR, trick=33), "'trick'=33 is out of range (1..32)"),
    # a trick has one card per player; a partnership stage-2 trick two (R4.2 pairs)
    (_with(GOOD3, current_trick=["Q♥", "K♥", "A♥"]), "a trick has 3"),
    (_with(GOOD_PAIRS, current_trick=["Q♥", "K♥"]), "a trick has 2"),
    (_with(GOOD_PAIRS, options=ALL_FOUR, trick=30, current_trick=["Q♥", "K♥", "A♥", "J♥"]),
     "a trick has 4"),
    (_with(GOOD3, to_move=3), "'to_move'=3 is out of range (0..2)"),
    # R3 / R4: no quadruple bezique, so no copy can have scored in one
    (_with(GOOD_PAIRS, seats=[{"hand": ["Q♠"], "declared": {"Q♠": ["quadruple_bezique"]}},
                              {"hand": []}, {"hand": []}, {"hand": ["K♥"]}]),
     "unknown declaration 'quadruple_bezique'"),
    # R4.2: only the winner or his partner declares on a win
    (_with(declare_pos("four_handed_partners", {}), trick_winner=1), "cannot declare on"),
    (_with(declare_pos("four_handed", {}), trick_winner=2), "cannot declare on"),
    (_with(GOOD_PAIRS, trick_winner=1), "'declare' position"),
])
def test_bad_multi_positions_raise_one_line_position_error(data, fragment):
    with pytest.raises(PositionError) as info:
        parse_position(data)
    message = str(info.value)
    assert "\n" not in message
    assert fragment in message


def test_r1_9_two_handed_history_has_no_triple():
    """R1.8: two packs hold two Q♠: no copy of an ordinary or Polish game can have scored in a
    triple bezique (the three-handed game can, R3)."""
    seats = [{"hand": ["Q♠"], "declared": {"Q♠": ["triple_bezique"]}}, {"hand": []}]
    with pytest.raises(PositionError, match="unknown declaration 'triple_bezique'"):
        parse_position({"trumps": "♥", "turnup": "8♥", "stock": 20, "seats": seats})
    three = declare_pos("three_handed", {0: {"hand": ["Q♠"],
                                             "declared": {"Q♠": ["triple_bezique"]}}})
    assert history_names(Rules.make("three_handed"),
                         parse_position(three).history[card("Q♠")]) == ["triple_bezique"]


def test_explain_names_the_partner_and_whose_win():
    """R4.2 in ``bezsim explain``: the seat to move, its partner, and that it declares on the
    partner's win."""
    data = declare_pos("four_handed_partners", {2: {"hand": ["Q♠", "J♦"]}}, to_move=2,
                       trick_winner=0)
    d = explain(parse_position(data))
    assert (d["seat"], d["partner"], d["trick_winner"]) == (2, 0, 0)
    assert format_explanation(d).splitlines() == [
        "four_handed_partners bézique, trumps ♥, trick 10 (stage 1), seat 2 to declare "
        "(partner: seat 0, on partner's win)",
        "legal declarations:",
        "  bezique: 40 (Q♠ J♦)",
    ]
    # independent players have no partner
    d = explain(parse_position(declare_pos("four_handed", {2: {"hand": ["Q♠", "J♦"]}},
                                           to_move=2)))
    assert "partner" not in d
    assert format_explanation(d).splitlines()[0] == (
        "four_handed bézique, trumps ♥, trick 10 (stage 1), seat 2 to declare")


def test_explain_cli_three_handed_file(tmp_path):
    """``bezsim explain`` on a three-handed file (R1.6 / R3 duty against the winning card)."""
    file = tmp_path / "pos.json"
    file.write_text(json.dumps(GOOD3, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["explain", str(file)], prog_name="bezsim")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "three_handed bézique, trumps ♠, trick 27 (stage 2), seat 2 to play",
        "on the trick: Q♥ K♥",
        "legal plays: A♥",
    ]


# ---------------------------------------------------------------------------------------------
# R3 / R4 deal, turn order, draws (whole games)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_r4_deal_3_2_3_from_the_dealers_left_then_stock(variant):
    """R3 / R4 (with R2.1): eight cards each in batches 3-2-3 starting left of the dealer,
    then the turn-up (trumps); the stock holds 71 (3 players) or 95 (4) face-down cards, which
    with the turn-up are drawn over the 24 stock tricks: every card of the 3 or 4 packs is
    dealt, drawn or turned up exactly once."""
    players = PLAYERS[variant]
    n_cards = 32 * players
    _, rows = rows_of(variant, "random", 3)
    for h, hand_rows in hands_of(rows).items():
        start = hand_rows[0]
        dealer, trump, turnup = start[2], start[3], start[4]
        deals = [(r[2], r[3]) for r in hand_rows if r[0] == C.TR_DEAL]
        order = [(dealer + k) % players for k in range(1, players + 1)]
        assert [s for s, _ in deals] == ([s for s in order for _ in range(3)]
                                        + [s for s in order for _ in range(2)]
                                        + [s for s in order for _ in range(3)]), h
        draws = [r[4] for r in hand_rows if r[0] == C.TR_DRAW]
        assert len(draws) == players * STAGE1 == n_cards - 8 * players
        stock = draws[:-1]                     # the last draw is the turn-up (or the seven)
        assert len(stock) == n_cards - 8 * players - 1 == {3: 71, 4: 95}[players]
        assert sorted([c for _, c in deals] + stock + [turnup]) == list(range(n_cards)), h
        assert turnup // 8 % 4 == trump


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_r4_deal_kernel_leaves_71_or_95_face_down(variant):
    """R3 / R4: after the deal each hand holds 8 cards and the stock 71 / 95 face-down cards
    beside the turn-up (the engine's own deal, any dealer)."""
    rules = Rules.make(variant)
    players = rules.players
    for dealer in range(players):
        S = st.new_state(16, 0)
        rng = np.zeros((1 + players, 4), np.uint64)
        seed_stream(rng[0], np.uint64(5), 0, PURPOSE_DEAL, dealer)
        deal(rules.params(), S, rng, 0, dealer)
        assert [int(S[st.O_HAND_N + p]) for p in range(players)] == [8] * players
        assert int(S[st.O_SC + C.SC_STOCK_LEFT]) == {3: 71, 4: 95}[players]
        assert int(S[st.O_LOC + S[st.O_SC + C.SC_TURNUP]]) == C.LOC_TURNUP


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_dealing_and_play_go_left_and_the_dealers_left_leads(variant):
    """R3 / R4: the deal passes to the left (dealer + 1 each hand); the player left of the
    dealer leads the first trick; in every trick of all players the seats play to the left of
    the leader (leader, leader + 1, ...); the winner leads the next trick."""
    players = PLAYERS[variant]
    _, rows = rows_of(variant, "random", 4)
    hands = hands_of(rows)
    dealers = [hand_rows[0][2] for hand_rows in hands.values()]
    assert len(dealers) >= 3
    assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:], strict=False))
    for hand_rows in hands.values():
        dealer, first_leader = hand_rows[0][2], hand_rows[0][5]
        assert first_leader == (dealer + 1) % players
        tricks = tricks_of(hand_rows)
        leader = first_leader
        for t in range(1, STAGE1 + 1):
            seats = [s for s, _ in tricks[t]["plays"]]
            assert seats == [(leader + k) % players for k in range(players)], t
            leader = tricks[t]["winner"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r1_5_draws_from_the_winner_to_the_left_turnup_to_the_last_drawer(variant):
    """R1.5 / R3 / R4: after each stock trick the winner draws first and the others follow in
    playing order (winner + 1, ...), one card each; after trick 24 the last of them takes
    the turn-up (or the seven exchanged for it, R2.3)."""
    players = PLAYERS[variant]
    _, rows = rows_of(variant, "greedy", 6)
    exchanged = 0
    for hand_rows in hands_of(rows).values():
        turnup = hand_rows[0][4]
        for r in hand_rows:
            if r[0] == C.TR_EXCHANGE:
                turnup = r[4]                  # the seven now lies in the turn-up's place
                exchanged += 1
        tricks = tricks_of(hand_rows)
        for t in range(1, STAGE1 + 1):
            w = tricks[t]["winner"]
            assert [s for s, _ in tricks[t]["draws"]] == [(w + k) % players
                                                          for k in range(players)], t
        last_seat, last_card = tricks[STAGE1]["draws"][-1]
        assert last_seat == (tricks[STAGE1]["winner"] + players - 1) % players
        assert last_card == turnup
        assert all(tricks[t]["draws"] == [] for t in tricks if t > STAGE1)
    assert exchanged > 0                       # the seven's case was seen too


@pytest.mark.parametrize("variant", VARIANTS)
def test_r1_4_brisques_and_last_trick_per_hand(variant):
    """R1.4: three packs hold 240 brisque points, four 320, all taken in tricks each hand;
    R2.5: the last trick scores 10 (trick 32; trick 40 for partners playing in pairs)."""
    players = PLAYERS[variant]
    batch = run_games(Rules.make(variant), ["random"], 7, 0, 4)
    last = 40 if variant == "four_handed_partners" else 32
    for g in range(batch.n_games):
        n_hands = int(batch.game_info[g, C.GI_HANDS])
        seats = batch.hand_seat[g, :n_hands]
        assert (seats[:, :, C.HS_BRISQUES].sum(axis=1) == 80 * players).all()
        assert (seats[:, :, C.HS_KIND + C.K_LAST_TRICK].sum(axis=1) == 10).all()
        assert (seats[:, :, C.HS_TRICKS_WON].sum(axis=1) == last).all()
        winners_last = batch.hand_info[g, :n_hands, C.HI_WINNER_LAST]
        assert (seats[np.arange(n_hands), winners_last, C.HS_KIND + C.K_LAST_TRICK]
                == 10).all()


# ---------------------------------------------------------------------------------------------
# R1.3 / R1.5 / R1.6 tricks of three and four cards
# ---------------------------------------------------------------------------------------------


def _winner(trick: list[str], trumps: str) -> int:
    S = st.new_state(0, 0)
    for i, text in enumerate(trick):
        S[st.O_TRICK + i] = card(text)
    return int(winning_index(S, len(trick), cards.parse_suit(trumps)))


def test_r1_3_three_and_four_card_tricks():
    """R1.3: highest trump, else highest of the suit led; of identical cards the first."""
    assert _winner(["Q♥", "K♥", "A♥"], "♠") == 2
    assert _winner(["Q♥", "A♣", "K♥"], "♠") == 2          # another plain suit never wins
    assert _winner(["A♥", "7♠", "9♠", "10♥"], "♠") == 2    # the higher trump
    assert _winner(["A♥", "A♥#1", "A♥#2"], "♠") == 0       # identical: the first played
    assert _winner(["9♦", "10♦", "10♦#1", "10♦#3"], "♣") == 1


def test_r1_5_no_duty_in_stage1_with_three():
    """R1.5: while the stock lasts any card may be played, whatever lies on the trick."""
    hand = ["A♥", "J♥", "7♠", "9♦", "K♣"]
    data = {"variant": "three_handed", "trumps": "♠", "turnup": "8♠", "stock": 20, "trick": 18,
            "to_move": 2, "current_trick": ["Q♥", "K♥"],
            "seats": [{"hand": []}, {"hand": []}, {"hand": hand}]}
    assert plays(data) == sorted(hand)


@pytest.mark.parametrize("current,hand,legal", [
    # second player: beat the led card
    (["Q♥"], ["K♥", "9♥", "7♠", "A♦"], ["K♥"]),
    # third player: the card to beat is the one winning (K♥), not the one led (Q♥)
    (["Q♥", "K♥"], ["A♥", "J♥", "7♠"], ["A♥"]),
    # a card of the suit that beats the led card but not the winning one is no better than
    # any other card of the suit
    (["J♥", "K♥"], ["Q♥", "9♥", "A♠"], ["9♥", "Q♥"]),
    # identical to the winning card: does not beat it (R1.3)
    (["J♥", "K♥"], ["K♥#1", "9♥", "A♠"], ["9♥", "K♥#1"]),
    # the led suit is trumped: holding the suit, follow it (no heart can win)
    (["Q♥", "9♠"], ["A♥", "7♥", "K♠"], ["7♥", "A♥"]),
    # void in the suit, a trump winning: over-trump if able
    (["Q♥", "9♠"], ["K♠", "7♠", "A♦"], ["K♠"]),
    (["Q♥", "9♠"], ["A♠", "10♠", "8♠", "A♦"], ["10♠", "A♠"]),
    # void, and no trump beats the winning one: any card (under-trumping included)
    (["Q♥", "9♠"], ["8♠", "7♠", "A♦"], ["7♠", "8♠", "A♦"]),
    # void, nobody trumped yet: any trump beats, so trump
    (["Q♥", "A♥"], ["8♠", "7♠", "A♦"], ["7♠", "8♠"]),
    # trumps led, a lower trump played: beat the highest so far (9♠), not just the 7♠
    (["9♠", "7♠"], ["8♠", "10♠", "A♥"], ["10♠"]),
    (["9♠", "7♠"], ["8♠", "A♥"], ["8♠"]),
    # void in everything useful: any card
    (["Q♥", "9♠"], ["A♦", "9♣"], ["9♣", "A♦"]),
    # trumps led, void in trumps: any card
    (["9♠", "A♠"], ["A♥", "9♦"], ["9♦", "A♥"]),
])
def test_r1_6_r3_three_handed_stage2_duty(current, hand, legal):
    """R1.6 / R3: in the last eight tricks each player follows suit and beats the card
    currently winning the trick if able — by a higher card of the suit, or, void in the
    suit, by a trump (over-trumping a trump that wins); otherwise any card (trumps ♠)."""
    to_move = len(current)
    assert plays(stage2_pos("three_handed", to_move, hand, current)) == legal


@pytest.mark.parametrize("variant,options", [
    ("four_handed", None), ("four_handed_partners", ALL_FOUR)])
@pytest.mark.parametrize("current,hand,legal", [
    # fourth player: 10♦ led, A♦ took it, then trumped with a 7♣: over-trump the 7♣
    (["10♦", "A♦", "7♣"], ["8♣", "7♣#1", "A♥"], ["8♣"]),
    # ... holding diamonds: follow, and no diamond can win: any diamond
    (["10♦", "A♦", "7♣"], ["K♦", "9♦", "8♣"], ["9♦", "K♦"]),
    # nobody trumped: beat the A♦? impossible, so any diamond
    (["10♦", "A♦", "9♦"], ["K♦", "10♦#1", "8♣"], ["10♦#1", "K♦"]),
    # third player: beat the winning 10♦ (the led card), void: trump
    (["10♦", "9♦"], ["A♥", "9♣", "J♣"], ["9♣", "J♣"]),
    # third player void of diamonds and clubs: any card
    (["10♦", "9♦"], ["A♥", "7♠"], ["7♠", "A♥"]),
])
def test_r1_6_r4_four_card_stage2_duty(variant, options, current, hand, legal):
    """R1.6 / R4.1 / R4.2 (partnership_stage2=all_four: "each player must beat the highest
    card so far"): the card currently winning is the one to beat (trumps ♣)."""
    to_move = len(current)
    data = stage2_pos(variant, to_move, hand, current, trumps="♣", options=options)
    assert plays(data) == legal


def test_r1_6_r4_2_pairs_stage2_duty():
    """R4.2 pairs: a stage-2 trick is two cards, the second player bound by R1.6."""
    base = stage2_pos("four_handed_partners", 3, [], ["Q♥"], trumps="♠", trick=35)
    for hand, legal in ((["K♥", "9♥", "7♠", "A♦"], ["K♥"]), (["A♦", "7♠"], ["7♠"]),
                        (["A♦", "9♣"], ["9♣", "A♦"]), (["J♥", "9♥", "A♠"], ["9♥", "J♥"])):
        base["seats"][3]["hand"] = hand
        assert plays(base) == legal


def test_r9_stage2_duty_follow_only_three_handed():
    """R9 stage2_duty=follow_only (Hoyle): follow suit only, even with three players."""
    opts = {"stage2_duty": "follow_only"}
    assert plays(stage2_pos("three_handed", 2, ["A♥", "J♥", "7♠"], ["Q♥", "K♥"],
                            options=opts)) == ["A♥", "J♥"]
    assert plays(stage2_pos("three_handed", 2, ["K♠", "7♠", "A♦"], ["Q♥", "9♠"],
                            options=opts)) == ["7♠", "A♦", "K♠"]


# ---------------------------------------------------------------------------------------------
# R3 triple bezique (three and four packs)
# ---------------------------------------------------------------------------------------------

SIX = ["Q♠", "Q♠#1", "Q♠#2", "J♦", "J♦#1", "J♦#2"]
DOUBLE = {c: ["double_bezique"] for c in ("Q♠", "Q♠#1", "J♦", "J♦#1")}
SINGLE = {c: ["bezique"] for c in ("Q♠", "J♦")}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_triple_bezique_1500_at_once(variant):
    """R3 / R4: all three Q♠ and J♦ unplayed, none declared: triple bezique 1500 (the single
    and the double are the other choices); its cards are all six."""
    data = declare_pos(variant, {0: {"hand": SIX + ["9♣"]}})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500),
                           ("triple_bezique", "", 1500)]
    assert decl_cards(data)[("triple_bezique", "")] == sorted(SIX)


def test_r3_triple_bezique_pair_added_to_declared_double():
    """R3: a pair added to a declared double makes the triple (1500); the new pair may also
    score as a single; no second double (only one new queen)."""
    data = declare_pos("three_handed", {0: {"hand": SIX, "declared": DOUBLE}})
    assert decls(data) == [("bezique", "", 40), ("triple_bezique", "", 1500)]
    got = decl_cards(data)
    assert got[("triple_bezique", "")] == sorted(SIX)
    assert got[("bezique", "")] == ["J♦#2", "Q♠#2"]


def test_r3_triple_bezique_double_added_to_declared_single():
    """R3: a double added to a declared single makes the triple (1500); the two new pairs
    also make a double (500) and a single (40)."""
    data = declare_pos("three_handed", {0: {"hand": SIX, "declared": SINGLE}})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500),
                           ("triple_bezique", "", 1500)]
    got = decl_cards(data)
    assert got[("triple_bezique", "")] == sorted(SIX)
    # the engine builds the double on the declared single (R1.9 rule 2, upward), keeping
    # the fresh pair free
    assert got[("double_bezique", "")] == ["J♦", "J♦#1", "Q♠", "Q♠#1"]


def test_r1_9_rule3_triple_from_a_double_and_a_separate_single_refused():
    """R1.9 rule 3 with R3: a double and a single declared separately: all six cards have
    scored in beziques, so no triple (and nothing else from them)."""
    declared = DOUBLE | {"Q♠#2": ["bezique"], "J♦#2": ["bezique"]}
    data = declare_pos("three_handed", {0: {"hand": SIX, "declared": declared}})
    assert decls(data) == []
    # three singles declared one by one: no double and no triple either
    declared = {c: ["bezique"] for c in SIX}
    assert decls(declare_pos("three_handed", {0: {"hand": SIX, "declared": declared}})) == []


def test_r1_8_triple_needs_all_six_unplayed():
    """R1.8 / R3: a triple needs every card unplayed: with one Q♠ played, two pairs make at
    most a double."""
    data = declare_pos("three_handed", {0: {"hand": ["Q♠#1", "Q♠#2", "J♦", "J♦#1", "J♦#2"]}},
                       played=["Q♠"])
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]


def test_r4_no_quadruple_bezique():
    """R4: four packs, but the four-handed games score no quadruple bezique (R6.3 only)."""
    eight = SIX + ["Q♠#3", "J♦#3"]
    for variant in ("four_handed", "four_handed_partners"):
        assert decls(declare_pos(variant, {0: {"hand": eight}})) == [
            ("bezique", "", 40), ("double_bezique", "", 500), ("four_jacks", "", 40),
            ("four_queens", "", 60), ("triple_bezique", "", 1500)]


def test_r3_triple_scored_after_a_double_through_the_engine():
    """R3 engine steps: double declared (500), later the third pair: triple (1500); the six
    copies then carry both histories and make nothing more."""
    t = Table(declare_pos("three_handed", {0: {"hand": SIX + ["9♣"]}}))
    t.score(C.K_DOUBLE_BEZIQUE)
    assert t.history("Q♠#2") == [] and t.history("Q♠#1") == ["double_bezique"]
    assert t.offered() == [("bezique", 40), ("triple_bezique", 1500)]
    t.score(C.K_TRIPLE_BEZIQUE)
    assert t.history("J♦") == ["double_bezique", "triple_bezique"]
    assert t.history("J♦#2") == ["triple_bezique"]
    assert t.offered() == []          # no single from cards of a triple (R1.9 rule 2)
    assert [e[1:] for e in t.events()] == [("double_bezique", 500), ("triple_bezique", 1500)]


# ---------------------------------------------------------------------------------------------
# R3 second double bezique with the third pair
# ---------------------------------------------------------------------------------------------


def test_r3_second_double_with_third_pair_after_a_pair_was_played():
    """R3: "If double bézique has been scored, and one pair has been played, a second double
    bézique may be made with the third pair and the pair on the table". Position form: the
    pair left on the table has single-bezique history (README)."""
    hand = ["Q♠#1", "J♦#1", "Q♠#2", "J♦#2", "9♣"]
    data = declare_pos("three_handed", {0: {"hand": hand,
                                            "declared": {"Q♠#1": ["bezique"],
                                                         "J♦#1": ["bezique"]}}},
                       played=["Q♠", "J♦"])
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    assert decl_cards(data)[("double_bezique", "")] == ["J♦#1", "J♦#2", "Q♠#1", "Q♠#2"]


def test_r3_no_second_double_while_the_first_is_whole():
    """R3 / R1.9 rule 1: before a pair of the double is played, its cards cannot make a second
    double: the third pair scores only a single."""
    hand = ["Q♠", "Q♠#1", "J♦", "J♦#1", "Q♠#2", "J♦#2"]
    data = declare_pos("three_handed", {0: {"hand": hand, "declared": DOUBLE}})
    assert ("double_bezique", "", 500) not in decls(data)
    # only a queen of it played: the three left are still in the double
    hand = ["Q♠#1", "J♦", "J♦#1", "Q♠#2", "J♦#2"]
    declared = {c: ["double_bezique"] for c in ("Q♠#1", "J♦", "J♦#1")}
    data = declare_pos("three_handed", {0: {"hand": hand, "declared": declared}},
                       played=["Q♠"])
    assert decls(data) == [("bezique", "", 40)]


def test_r3_second_double_through_the_engine():
    """R3 engine steps: after the double, playing its Q♠ alone allows no second double;
    once one of its J♦ is played too, the pair left turns into a declared single and the
    third pair makes a second double (500)."""
    t = Table(declare_pos("three_handed", {0: {"hand": SIX + ["9♣"]}}))
    t.score(C.K_DOUBLE_BEZIQUE)
    double = sorted(c for c in SIX if t.history(c) == ["double_bezique"])
    assert double == ["J♦", "J♦#1", "Q♠", "Q♠#1"]
    t.play("Q♠")
    assert t.offered() == [("bezique", 40)]
    assert t.history("Q♠#1") == ["double_bezique"]
    t.play("J♦")
    assert t.history("Q♠#1") == ["bezique"] and t.history("J♦#1") == ["bezique"]
    assert t.offered() == [("bezique", 40), ("double_bezique", 500)]
    t.score(C.K_DOUBLE_BEZIQUE)
    assert t.history("Q♠#1") == ["bezique", "double_bezique"]
    assert t.history("Q♠#2") == ["double_bezique"]
    assert [e[1:] for e in t.events()] == [("double_bezique", 500), ("double_bezique", 500)]


# ---------------------------------------------------------------------------------------------
# R4.2 partnership declaring
# ---------------------------------------------------------------------------------------------

PARTNERS = "four_handed_partners"


def test_r4_2_partner_declares_from_his_own_cards():
    """R4.2: "A player may declare when he or his partner wins a trick": seat 2 declares,
    on seat 0's win, what his own cards make."""
    data = declare_pos(PARTNERS, {0: {"hand": ["K♣", "Q♣"]},
                                  2: {"hand": ["Q♠", "J♦", "K♥", "Q♥", "9♣"]}},
                       to_move=2, trick_winner=0)
    assert decls(data) == [("bezique", "", 40), ("royal_marriage", "♥", 40)]


def test_r4_2_double_with_the_partners_table_pair():
    """R4.2: "the beziques of a double or triple may come from either partner's cards": a
    pair the partner has declared (on the table, unplayed) completes the double."""
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠", "J♦"], "declared": SINGLE},
                                  2: {"hand": ["Q♠#1", "J♦#1", "9♣"]}},
                       to_move=2, trick_winner=0)
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    got = decl_cards(data)
    assert got[("double_bezique", "")] == ["J♦", "J♦#1", "Q♠", "Q♠#1"]
    assert got[("bezique", "")] == ["J♦#1", "Q♠#1"]
    # the same for the winner himself with his partner's pair
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "J♦#1", "9♣"]},
                                  2: {"hand": ["Q♠", "J♦"], "declared": SINGLE}})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]


def test_r4_2_double_of_one_own_card_and_three_of_the_partner():
    """R4.2: any split of the four copies between the partners' table cards and the
    declarer's hand; at least one card new to beziques (R1.9 rule 3)."""
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "9♣"]},
                                  2: {"hand": ["Q♠", "J♦", "J♦#1"],
                                      "declared": {"Q♠": ["four"], "J♦": ["four"],
                                                   "J♦#1": ["four"]}}})
    assert decls(data) == [("double_bezique", "", 500)]
    assert decl_cards(data)[("double_bezique", "")] == ["J♦", "J♦#1", "Q♠", "Q♠#1"]


def test_r4_2_triple_with_the_partners_table_cards():
    """R4.2 / R3: a triple from the declarer's cards and his partner's declared ones: a pair
    added to the partner's declared double, or the declarer's double added to the partner's
    declared single."""
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#2", "J♦#2", "9♣"]},
                                  2: {"hand": ["Q♠", "Q♠#1", "J♦", "J♦#1"],
                                      "declared": DOUBLE}})
    assert decls(data) == [("bezique", "", 40), ("triple_bezique", "", 1500)]
    assert decl_cards(data)[("triple_bezique", "")] == sorted(SIX)
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "J♦#1", "Q♠#2", "J♦#2"]},
                                  2: {"hand": ["Q♠", "J♦"], "declared": SINGLE}})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500),
                           ("triple_bezique", "", 1500)]
    assert decl_cards(data)[("triple_bezique", "")] == sorted(SIX)


def test_r4_2_never_the_partners_concealed_hand():
    """R4.2: only declared (table) cards of the partner count; his concealed hand never."""
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "J♦#1", "9♣"]},
                                  2: {"hand": ["Q♠", "J♦"]}})
    assert decls(data) == [("bezique", "", 40)]
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#2", "J♦#2"]},
                                  2: {"hand": ["Q♠", "Q♠#1", "J♦", "J♦#1"]}})
    assert decls(data) == [("bezique", "", 40)]
    # one declared pair of the partner and one concealed: a double, not a triple
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#2", "J♦#2"]},
                                  2: {"hand": ["Q♠", "Q♠#1", "J♦", "J♦#1"],
                                      "declared": SINGLE}})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]


def test_r4_2_single_bezique_marriage_fours_never_from_the_partners_cards():
    """R4.2: only a double or triple may use the partner's cards: no single bezique, marriage,
    sequence or four of a rank completed by a card the partner has on the table."""
    partner = {"hand": ["J♦", "Q♠", "K♥", "A♥"],
               "declared": {"J♦": ["four"], "Q♠": ["four"], "K♥": ["four"], "A♥": ["four"]}}
    for hand in (["Q♠#1", "9♣"],                       # bezique with his J♦
                 ["J♦#1", "9♣"],                       # bezique with his Q♠
                 ["K♠", "9♣"],                         # marriage with his Q♠
                 ["Q♥", "10♥", "J♥", "9♣"],           # sequence with his A♥ K♥
                 ["K♣", "K♦", "K♠", "9♣"]):            # four kings with his K♥
        data = declare_pos(PARTNERS, {0: {"hand": hand}, 2: partner})
        assert decls(data) == [], hand


def test_r4_2_opponents_table_cards_never_count():
    """R4.2 / R4.1: an opponent's declared pair is not the declarer's: no double; and in the
    independent game even the player opposite is an opponent."""
    opp = {"hand": ["Q♠", "J♦"], "declared": SINGLE}
    for seat in (1, 3):
        data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "J♦#1"]}, seat: opp})
        assert decls(data) == [("bezique", "", 40)]
    for seat in (1, 2, 3):
        data = declare_pos("four_handed", {0: {"hand": ["Q♠#1", "J♦#1"]}, seat: opp})
        assert decls(data) == [("bezique", "", 40)]


def test_r4_2_r1_9_rule3_two_declared_singles_of_the_partners_make_no_double():
    """R1.9 rule 3 across partners: each partner's separately declared single: every card has
    scored in a bezique, so no double."""
    data = declare_pos(PARTNERS, {0: {"hand": ["Q♠#1", "J♦#1"],
                                      "declared": {"Q♠#1": ["bezique"], "J♦#1": ["bezique"]}},
                                  2: {"hand": ["Q♠", "J♦"], "declared": SINGLE}})
    assert decls(data) == []


def test_r4_2_engine_partner_declares_when_the_winner_scores_nothing():
    """R4.2 engine steps (``team_declare``): the winner (seat 0) declines; his partner then
    declares from his own cards, and the points are his (the team's)."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["K♣", "Q♣", "9♦"]},
                                     2: {"hand": ["Q♠", "J♦", "9♣"]}}))
    t.team_declare(0, {0: LAST_ACTION, 2: FIRST_ACTION, 1: FIRST_ACTION, 3: FIRST_ACTION})
    assert t.events() == [(2, "bezique", 40)]
    assert sorted(t.declared_cards()) == [(2, "J♦"), (2, "Q♠")]
    assert t.location("Q♠") == C.LOC_TABLE + 2


def test_r4_2_r1_10_winners_combination_is_the_teams_one_declaration():
    """R4.2 / R1.10 engine steps: a combination scored by the winner is the side's one
    declaration on this trick: his partner is not asked, though he could declare."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["K♣", "Q♣", "9♦"]},
                                     2: {"hand": ["Q♠", "J♦", "9♣"]}}))
    t.team_declare(0, {0: FIRST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(0, "common_marriage", 20)]
    assert t.location("Q♠") == C.LOC_HAND + 2
    # the opponents never declare on this win
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["9♦"]}, 1: {"hand": ["K♣", "Q♣"]},
                                     3: {"hand": ["Q♠", "J♦"]}}))
    t.team_declare(0, {s: FIRST_ACTION for s in range(4)})
    assert t.events() == []


def test_r4_2_r2_3_partner_makes_the_seven_action_the_winner_left():
    """R4.2 with R2.3 / R1.10: a team's win allows one combination and one seven action in
    all. The winner scores a marriage and holds no seven: his partner is asked and exchanges
    his seven of trumps for the turn-up (10), but may score no combination."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["K♣", "Q♣", "9♦"]},
                                     2: {"hand": ["7♥", "Q♠", "J♦"]}}))
    t.team_declare(0, {0: FIRST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(0, "common_marriage", 20), (2, "seven_exchange", 10)]
    assert t.location("8♥") == C.LOC_HAND + 2 and t.location("Q♠") == C.LOC_HAND + 2


def test_r4_2_r2_3_winners_seven_action_is_the_teams():
    """R4.2 with R2.3: the winner exchanges his seven and scores nothing else; his partner
    may then score one combination, but is offered no seven action of his own."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["7♥", "9♦"]},
                                     2: {"hand": ["K♣", "Q♣", "7♥#1"]}}))
    t.team_declare(0, {0: FIRST_ACTION, 2: LAST_ACTION})
    assert t.events() == [(0, "seven_exchange", 10)]
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["7♥", "9♦"]},
                                     2: {"hand": ["K♣", "Q♣", "7♥#1"]}}))
    t.team_declare(0, {0: FIRST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(0, "seven_exchange", 10), (2, "common_marriage", 20)]
    # his seven stays his for a later win: declared only, the turn-up being a seven now
    assert t.offered(2) == [("seven_declare", 10)]


def test_r4_2_engine_double_with_the_winners_table_pair():
    """R4.2 engine steps: the partner's double takes the winner's declared pair; the pair
    stays on the winner's side of the table with double-bezique history."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["Q♠", "J♦", "9♦"],
                                         "declared": {"Q♠": ["four"], "J♦": ["four"]}},
                                     2: {"hand": ["Q♠#1", "J♦#1"],
                                         "declared": {"Q♠#1": ["bezique"],
                                                      "J♦#1": ["bezique"]}}}))
    assert t.offered(2) == [("double_bezique", 500)]
    t.team_declare(0, {0: LAST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(2, "double_bezique", 500)]
    assert sorted(t.declared_cards()) == [(2, "J♦"), (2, "J♦#1"), (2, "Q♠"), (2, "Q♠#1")]
    assert t.location("Q♠") == C.LOC_TABLE + 0 and t.location("Q♠#1") == C.LOC_TABLE + 2
    assert t.history("Q♠") == ["double_bezique", "four"]
    assert t.history("J♦#1") == ["bezique", "double_bezique"]


def test_r4_2_r1_10_to_score_double_lost_when_the_partner_plays_its_card():
    """R1.10 / R4.2 engine steps: the partner scores a marriage on the winner's win and shows
    the double he could make with the winner's declared pair "to score"; when the winner then
    plays a card of that pair, the partner's double is lost (his single is not)."""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["Q♠", "J♦", "9♦"],
                                         "declared": {"Q♠": ["four"], "J♦": ["four"]}},
                                     2: {"hand": ["K♣", "Q♣", "Q♠#1", "J♦#1"]}}))
    t.team_declare(0, {0: LAST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(2, "common_marriage", 20)]
    assert int(t.S[st.O_PEND_N + 2]) == 2            # bezique and double shown "to score"
    t.play("9♦")
    assert t.events() == [(2, "common_marriage", 20)]
    t.play("J♦")
    assert t.events() == [(2, "common_marriage", 20), (2, "double_bezique", 0)]
    assert int(t.S[st.O_PEND_N + 2]) == 1
    assert t.offered(2) == [("bezique", 40)]


def test_r4_2_partnership_declarations_in_whole_games():
    """R4.2 / R1.10 in real games: in stage 1 only the winning side declares; at most one
    combination per trick for the side; the partner scores a combination only on a trick
    where the winner scored none — and he does so at times."""
    partner_declared = 0
    for seed in range(3):
        _, rows = rows_of(PARTNERS, "greedy", seed)
        for hand_rows in hands_of(rows).values():
            tricks = tricks_of(hand_rows)
            combos: dict[int, list[int]] = {}
            for r in hand_rows:
                if r[0] != C.TR_EVENT or r[4] > C.K_FOUR_JACKS or r[5] == C.EV_LOST:
                    continue
                trick, seat = r[2], r[3]
                assert 1 <= trick <= STAGE1
                w = tricks[trick]["winner"]
                assert seat in (w, (w + 2) % 4), r
                combos.setdefault(trick, []).append(seat)
            for trick, seats in combos.items():
                assert len(seats) == 1, (trick, seats)
                partner_declared += seats[0] != tricks[trick]["winner"]
    assert partner_declared > 0


# ---------------------------------------------------------------------------------------------
# R4.2 partnership stage 2
# ---------------------------------------------------------------------------------------------


def test_r4_2_stage2_pairs_who_plays_which_trick():
    """R4.2 partnership_stage2=pairs: the winner w of trick 24 and the opponent on his left
    (w + 1) play tricks 25-32 against each other, w leading first; then w + 2 and w + 3 play
    tricks 33-40, w + 2 leading first; each trick's winner leads the next; every player plays
    his eight cards; trick 40 is the last trick (10)."""
    n_hands = 0
    for seed in (1, 2):
        batch, rows = rows_of(PARTNERS, "random", seed)
        for h, hand_rows in hands_of(rows).items():
            tricks = tricks_of(hand_rows)
            assert sorted(tricks) == list(range(1, 41))
            w = tricks[STAGE1]["winner"]
            assert batch.hand_info[0, h, C.HI_WINNER_TRICK24] == w
            for first, pair in ((25, (w, (w + 1) % 4)), (33, ((w + 2) % 4, (w + 3) % 4))):
                leader = pair[0]
                for t in range(first, first + 8):
                    seats = [s for s, _ in tricks[t]["plays"]]
                    assert seats == [leader, pair[1] if leader == pair[0] else pair[0]], t
                    assert len(tricks[t]["cards"]) == 2
                    leader = tricks[t]["winner"]
                    assert leader in pair
            assert batch.hand_info[0, h, C.HI_WINNER_LAST] == tricks[40]["winner"]
            last = [r for r in hand_rows if r[0] == C.TR_EVENT and r[4] == C.K_LAST_TRICK]
            assert [(r[2], r[3], r[7]) for r in last] == [(40, tricks[40]["winner"], 10)]
            played = [s for t in range(25, 41) for s, _ in tricks[t]["plays"]]
            assert sorted(played) == sorted(list(range(4)) * 8)
            n_hands += 1
    assert n_hands > 5


def test_r4_2_stage2_all_four():
    """R4.2 partnership_stage2=all_four: eight four-card tricks (25-32), played to the left
    from the leader, the winner leading the next; trick 32 is the last trick."""
    batch, rows = rows_of(PARTNERS, "random", 1, options=ALL_FOUR)
    for h, hand_rows in hands_of(rows).items():
        tricks = tricks_of(hand_rows)
        assert sorted(tricks) == list(range(1, 33))
        leader = tricks[STAGE1]["winner"]
        for t in range(25, 33):
            assert [s for s, _ in tricks[t]["plays"]] == [(leader + k) % 4 for k in range(4)]
            leader = tricks[t]["winner"]
        assert batch.hand_info[0, h, C.HI_WINNER_LAST] == tricks[32]["winner"]


# ---------------------------------------------------------------------------------------------
# R4.2 team score, R2.6 / R3 / R4 game to 2000
# ---------------------------------------------------------------------------------------------


def _check_game_end(scores_by_hand: np.ndarray, winner: int, target: int) -> None:
    """R2.6: the game ends after the first hand at whose end a side has reached the target
    with the single highest total; that side wins."""
    for h, scores in enumerate(scores_by_hand):
        top = scores.max()
        done = top >= target and (scores == top).sum() == 1
        assert done == (h == len(scores_by_hand) - 1), (h, scores)
    assert winner == int(np.argmax(scores_by_hand[-1]))


def test_r4_2_team_score_and_game_to_2000():
    """R4.2: partners share one score: each hand both partners' points are added to the
    team's total, so score_after is equal within a team; R4 game 2000: the game ends when a
    team reaches it, and the winner is a team (0 or 1)."""
    for options in (None, ALL_FOUR):
        batch = run_games(Rules.make(PARTNERS, options), ["greedy"], 2, 0, 12)
        for g in range(batch.n_games):
            n = int(batch.game_info[g, C.GI_HANDS])
            seats = batch.hand_seat[g, :n]
            after = seats[:, :, C.HS_SCORE_AFTER]
            assert (after[:, 0] == after[:, 2]).all() and (after[:, 1] == after[:, 3]).all()
            team_points = seats[:, [0, 1], C.HS_POINTS] + seats[:, [2, 3], C.HS_POINTS]
            assert (after[:, :2] == np.cumsum(team_points, axis=0)).all()
            assert (seats[:, :, C.HS_POINTS] == seats[:, :, C.HS_KIND:].sum(axis=2)).all()
            winner = int(batch.game_info[g, C.GI_WINNER])
            assert winner in (0, 1)
            _check_game_end(after[:, :2], winner, 2000)
            final = batch.game_info[g, C.GI_SCORE:C.GI_SCORE + 4]
            assert list(final) == list(after[-1])
            assert batch.game_info[g, C.GI_DOUBLE] == 0       # double game off (R9)


@pytest.mark.parametrize("variant", ["three_handed", "four_handed"])
def test_r3_r4_1_everyone_for_himself_game_to_2000(variant):
    """R3 / R4.1: each seat keeps its own score; the game ends when one reaches 2000 with
    the single highest total, and the winner is that seat."""
    players = PLAYERS[variant]
    batch = run_games(Rules.make(variant), ["greedy"], 2, 0, 8)
    for g in range(batch.n_games):
        n = int(batch.game_info[g, C.GI_HANDS])
        seats = batch.hand_seat[g, :n]
        after = seats[:, :, C.HS_SCORE_AFTER]
        assert (after == np.cumsum(seats[:, :, C.HS_POINTS], axis=0)).all()
        winner = int(batch.game_info[g, C.GI_WINNER])
        assert 0 <= winner < players
        _check_game_end(after, winner, 2000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_r2_6_double_game_option_against_the_runner_up(variant):
    """R2.6 / R9 double_game, off by default for three and four players (a two-handed rule);
    when set, the game counts double when the best other side ends under half the target,
    and double_game=points stakes the margin over that runner-up (doubled)."""
    rules = Rules.make(variant)
    assert rules.options["double_game"] == "off"
    off = run_games(rules, ["greedy"], 3, 0, 40)
    assert (off.game_info[:, C.GI_DOUBLE] == 0).all() and (off.game_info[:, C.GI_STAKE] == 1).all()
    sides = 2 if rules.partners else rules.players
    doubles = 0
    for mode in ("game", "points"):
        batch = run_games(Rules.make(variant, {"double_game": mode, "target": 200}),
                          ["random"], 3, 0, 200)
        for g in range(batch.n_games):
            scores = [int(batch.game_info[g, C.GI_SCORE + s]) for s in range(sides)]
            winner = int(batch.game_info[g, C.GI_WINNER])
            second = max(v for s, v in enumerate(scores) if s != winner)
            double = 2 * second < 200
            doubles += double
            assert bool(batch.game_info[g, C.GI_DOUBLE]) == double
            stake = int(batch.game_info[g, C.GI_STAKE])
            factor = 2 if double else 1
            assert stake == (factor if mode == "game" else (scores[winner] - second) * factor)
    assert doubles > 0


def test_r9_target_option_in_a_partnership():
    """R9 target: a lower target ends partnership games sooner, still by team."""
    batch = run_games(Rules.make(PARTNERS, {"target": 500}), ["greedy"], 2, 0, 6)
    for g in range(batch.n_games):
        n = int(batch.game_info[g, C.GI_HANDS])
        after = batch.hand_seat[g, :n, :2, C.HS_SCORE_AFTER]
        _check_game_end(after, int(batch.game_info[g, C.GI_WINNER]), 500)


def test_r4_2_tables_team_column_and_team_winner(tmp_path):
    """R4.2 in the stored tables: hands.team is seat % 2 for partners (the seat itself
    otherwise); games.winner is the winning team, whose players' final scores are equal and
    the higher."""
    from bezsim.io.reader import read_run
    from bezsim.running.simulation import run_simulation

    run_simulation(Rules.make(PARTNERS), ["greedy"] * 4, 3, 6, tmp_path / "p", progress=False)
    tables = read_run(tmp_path / "p")
    hands, games = tables["hands"], tables["games"]
    assert (hands["team"] == hands["seat"] % 2).all()
    assert set(hands["seat"]) == {0, 1, 2, 3}
    assert set(games["winner"]) <= {0, 1}
    for _, game in games.iterrows():
        w = int(game["winner"])
        assert game[f"score_{w}"] == game[f"score_{w + 2}"]
        assert game[f"score_{w}"] > game[f"score_{1 - w}"] >= 0
        assert game[f"score_{w}"] >= 2000
    run_simulation(Rules.make("three_handed"), ["greedy"] * 3, 3, 3, tmp_path / "t",
                   progress=False)
    hands = read_run(tmp_path / "t")["hands"]
    assert (hands["team"] == hands["seat"]).all()
    assert set(hands["seat"]) == {0, 1, 2}


# ---------------------------------------------------------------------------------------------
# what a seat may see (the policy contract: only its own seat's knowledge)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["three_handed", "four_handed_partners"])
def test_knowledge_after_the_deal(variant):
    """DESIGN "Policies": after the deal a seat sees its own eight cards and the turn-up;
    every other hand, the partner's included (R4.2: partners declare "each with his own
    knowledge"), and the stock are unseen."""
    rules = Rules.make(variant)
    players = rules.players
    S = st.new_state(16, 0)
    rng = np.zeros((1 + players, 4), np.uint64)
    seed_stream(rng[0], np.uint64(9), 0, PURPOSE_DEAL, 0)
    deal(rules.params(), S, rng, 0, 1)
    turnup = int(S[st.O_SC + C.SC_TURNUP])
    for seat in range(players):
        row = S[st.O_SEEN + seat * st.N_MAX:st.O_SEEN + seat * st.N_MAX + 32 * rules.packs]
        mine = {int(c) for c in S[st.O_HANDS + seat * C.MAX_HAND:
                                  st.O_HANDS + seat * C.MAX_HAND + 8]}
        for c, code in enumerate(row):
            expected = C.V_MINE if c in mine else C.V_TURNUP if c == turnup else C.V_UNSEEN
            assert code == expected, (seat, name(c), code)


def test_r4_2_partners_declared_cards_shown_to_all():
    """R4.2 / the policy contract: what the partner declares on the winner's win lies on the
    table, his (LOC_TABLE + his seat), and every other seat knows it as his (V_SHOWN + his
    seat). (That
    the rest of a hand stays unseen is checked through whole hands below.)"""
    t = Table(declare_pos(PARTNERS, {0: {"hand": ["K♣", "9♦"]},
                                     2: {"hand": ["Q♠", "J♦", "A♣", "10♥", "9♠"]}}))
    t.team_declare(0, {0: LAST_ACTION, 2: FIRST_ACTION})
    assert t.events() == [(2, "bezique", 40)]
    for seat in (0, 1, 3):
        assert t.seen(seat, "Q♠") == C.V_SHOWN + 2 and t.seen(seat, "J♦") == C.V_SHOWN + 2
    assert t.seen(2, "Q♠") == C.V_MINE_SHOWN
    assert t.location("J♦") == C.LOC_TABLE + 2 and t.location("A♣") == C.LOC_HAND + 2


def _check_knowledge(S: np.ndarray, players: int, n_cards: int, turnups: set[int]) -> None:
    """Each seat's knowledge row against where every card is: own cards V_MINE (declared:
    V_MINE_SHOWN); another seat's concealed card unseen, unless it is a turn-up he took
    (the drawn turn-up, or the card taken for the seven, R2.3); declared cards V_SHOWN +
    holder; the stock unseen; the turn-up and played cards known to all."""
    loc = S[st.O_LOC:st.O_LOC + n_cards]
    for p in range(players):
        seen = S[st.O_SEEN + p * st.N_MAX:st.O_SEEN + p * st.N_MAX + n_cards]
        for c in range(n_cards):
            where, code = int(loc[c]), int(seen[c])
            if where == C.LOC_STOCK:
                ok = code == C.V_UNSEEN
            elif where == C.LOC_TURNUP:
                ok = code == C.V_TURNUP
            elif where in (C.LOC_PLAYED, C.LOC_TRICK):
                ok = code in (C.V_PLAYED, C.V_TRICK)
            elif where == C.LOC_HAND + p:
                ok = code == C.V_MINE
            elif where == C.LOC_TABLE + p:
                ok = code == C.V_MINE_SHOWN
            elif C.LOC_HAND <= where < C.LOC_TABLE:
                ok = code == C.V_UNSEEN or (code == C.V_SHOWN + where - C.LOC_HAND
                                            and c in turnups)
            else:
                ok = code == C.V_SHOWN + where - C.LOC_TABLE
            assert ok, (p, name(c), where, code)


@pytest.mark.parametrize("variant", VARIANTS)
def test_knowledge_through_stage1_of_a_hand(variant):
    """DESIGN "Policies" with R4.2 ("each decides with his own knowledge"): through the 24
    stock tricks of a hand played by the engine's own steps (greedy players, who declare,
    partners' doubles included), no seat ever sees a card of another hand, his partner's
    included, except the cards that hand has declared or the turn-up it took."""
    from bezsim.engine.hand import draw, finish_trick, play_trick
    from bezsim.engine.pending import pending_flush
    from bezsim.engine.rng import PURPOSE_POLICY
    from bezsim.policies.builtin import GREEDY

    rules = Rules.make(variant)
    params, players = rules.params(), rules.players
    n_cards = 32 * rules.packs
    declared = 0
    for game in range(2):
        S = st.new_state(512, 0)
        rng = np.zeros((1 + players, 4), np.uint64)
        seed_stream(rng[0], np.uint64(21), game, PURPOSE_DEAL, 0)
        for p in range(players):
            seed_stream(rng[1 + p], np.uint64(21), game, PURPOSE_POLICY, p)
        ids, pol = np.full(players, GREEDY, np.int64), np.zeros((players, 1))
        deal(params, S, rng, 0, players - 1)
        turnups = {int(S[st.O_SC + C.SC_TURNUP])}
        leader = 0
        for t in range(1, STAGE1 + 1):
            w = play_trick(params, S, rng, ids, pol, None, leader, -1, players, 0, t, 1)
            finish_trick(params, S, w, players, 0, t, 40, STAGE1)
            team_declare(params, S, rng, ids, pol, None, w, 0, t, t < STAGE1)
            turnups.add(int(S[st.O_SC + C.SC_TURNUP]))        # a seven exchanged for it
            if t == STAGE1:
                for p in range(players):
                    pending_flush(S, p, 0, t)
            for k in range(players):
                draw(params, S, (w + k) % players, 0, t)
            _check_knowledge(S, players, n_cards, turnups)
            leader = w
        declared += int(S[st.CTR_EVENTS])
    assert declared > 4
