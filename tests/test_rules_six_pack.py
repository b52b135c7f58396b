"""Six-pack bézique, docs/rules.md R7 (R7.1 deal, R7.2 trumps, R7.3 combinations: the fours in
trumps and the bezique by trumps, carte blanche and the last trick 250, no brisques, R7.4 reuse,
R7.5 settlement) and its options (R9).

As in tests/test_rules_rubicon.py: positions through ``bezsim.position`` (what the engine's
compiled ``legal_declarations`` offers, as sorted ``(kind, suit, points)``), engine steps on a
position's state, and whole games through ``trace_one`` / ``run_games``.
"""

from __future__ import annotations

import numpy as np
import pytest
from position_helpers import Table, decl_cards, decls

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.engine.settlement import settle
from bezsim.engine_api.games import run_games, trace_one, unpack_events
from bezsim.io.tables import batch_to_tables
from bezsim.position import PositionError, parse_position
from bezsim.rules import Rules, RulesError

SIX = Rules.make("six_pack")
PACKS = 6
STAGE1_TRICKS = 84       # R7.1: 168 stock cards, two drawn per trick
N_TRICKS = 96
COURTS = (cards.KING, cards.QUEEN, cards.JACK)
TRUMP_FOUR = {"A": ("four_trump_aces", 1000), "10": ("four_trump_tens", 900),
              "K": ("four_trump_kings", 800), "Q": ("four_trump_queens", 600),
              "J": ("four_trump_jacks", 400)}
PLAIN_FOUR = {"A": ("four_aces", 100), "K": ("four_kings", 80), "Q": ("four_queens", 60),
              "J": ("four_jacks", 40)}


def card(text: str) -> int:
    return cards.parse_card(text, PACKS)


def name(c: int) -> str:
    return cards.card_name(int(c), with_copy=True)


def declare_pos(hand: list[str], trumps: str | None = None, declared: dict | None = None,
                trick: int = 10, options: dict | None = None) -> dict:
    """Seat 0 has just won stock trick ``trick`` and may declare, before drawing: 168 - 2 (t -
    1) cards are face down. ``trumps=None``: undecided (R7.2)."""
    data = {"variant": "six_pack", "trumps": trumps, "stock": 170 - 2 * trick, "trick": trick,
            "to_move": 0, "phase": "declare",
            "seats": [{"hand": hand, "declared": declared or {}}, {"hand": []}]}
    if options:
        data["options"] = options
    return data


def kinds_scored(table: Table) -> list[tuple[str, int]]:
    """(kind, points) of every event of the table, in order."""
    return [(kind, points) for _, _, kind, _, points in table.events()]


# ---------------------------------------------------------------------------------------------
# the preset (R7.1, R7.3, R7.5, R9)
# ---------------------------------------------------------------------------------------------


def test_r7_preset_and_its_names():
    """R7.1: six packs, twelve cards each by threes, no turn-up, trumps by the first marriage
    or sequence; one hand a game; `chinese` and `six-pack` name the same preset."""
    p = SIX.params()
    assert (SIX.packs, SIX.hand_size, SIX.hand_cap(), SIX.players) == (6, 12, 1, 2)
    assert [int(p[k]) for k in (C.PR_DEAL_B1, C.PR_DEAL_B2, C.PR_DEAL_B3, C.PR_DEAL_B4)] == \
        [3, 3, 3, 3]
    assert (p[C.PR_TURNUP], p[C.PR_TRUMP_BY_MARRIAGE], p[C.PR_NO_SEVEN]) == (0, 1, 1)
    assert (p[C.PR_RUBICON_LINE], p[C.PR_GAME_BONUS], p[C.PR_RUBICON_GAME_BONUS],
            p[C.PR_BRISQUES_COUNT], p[C.PR_BRISQUE_BONUS]) == (3000, 1000, 1000, 0, 0)
    for alias in ("chinese", "Six-Pack", "six_pack"):
        assert Rules.make(alias) == SIX
    assert SIX.definition.kinds[-5:] == ("four_trump_aces", "four_trump_tens",
                                         "four_trump_kings", "four_trump_queens",
                                         "four_trump_jacks")
    assert Rules.make("rubicon").definition.kinds == C.KIND_NAMES[:C.N_BASE_KINDS]


def test_r7_3_point_table():
    """R7.3: the points of every kind six-pack scores, sevens and brisques nothing."""
    p = SIX.params()
    points = {C.KIND_NAMES[k]: int(p[C.PR_POINTS + k]) for k in range(C.N_KINDS)}
    assert {k: points[k] for k in C.KIND_NAMES if k not in (
        "seven_turnup", "seven_exchange", "seven_declare", "seven_played", "brisques")} == {
        "common_marriage": 20, "royal_marriage": 40, "sequence": 250, "plain_sequence": 150,
        "bezique": 40, "double_bezique": 500, "triple_bezique": 1500,
        "quadruple_bezique": 4500, "four_aces": 100, "four_kings": 80, "four_queens": 60,
        "four_jacks": 40, "last_trick": 250, "carte_blanche": 250, "four_trump_aces": 1000,
        "four_trump_tens": 900, "four_trump_kings": 800, "four_trump_queens": 600,
        "four_trump_jacks": 400}


@pytest.mark.parametrize("option, refused", [
    ("four_trump_queens=900", "applies to six_pack bézique, not to variant 'rubicon'"),
    ("rubicon_game_bonus=2000", "applies to six_pack bézique, not to variant 'rubicon'"),
])
def test_r9_six_pack_options_belong_to_six_pack(option, refused):
    with pytest.raises(RulesError, match=refused):
        Rules.from_strings("rubicon", [option])


@pytest.mark.parametrize("option, why", [
    ("rubicon_close=brisques", "brisques count for nothing in six-pack"),
    ("rubicon_brisque_bonus=320", "brisques count for nothing in six-pack"),
    ("bezique_pair=fixed", "the queen of trumps with a jack of the other colour"),
    ("target=2000", "a six-pack game is one hand"),
])
def test_r9_options_six_pack_fixes_say_why(option, why):
    with pytest.raises(RulesError, match=why):
        Rules.from_strings("six_pack", [option])


@pytest.mark.parametrize("game", [0, 1])
def test_r7_1_real_game_deal_tricks_and_draws(game):
    """R7.1: twelve cards each dealt by threes, non-dealer first, no turn-up; 84 stock tricks
    each followed by two draws (168 cards), then 12 tricks: 96 in all, every card once."""
    _, trace = trace_one(SIX, ["greedy"], 5, game)
    rows = np.asarray(trace).tolist()
    deal = [r for r in rows if r[0] == C.TR_DEAL]
    seats = [r[2] for r in deal]
    first = seats[0]
    assert seats == ([first] * 3 + [1 - first] * 3) * 4
    start = [r for r in rows if r[0] == C.TR_HAND_START]
    assert [start[0][3], start[0][4], start[0][5]] == [C.NO_TRUMP, C.NO_CARD, first]
    draws = [r for r in rows if r[0] == C.TR_DRAW]
    assert len(draws) == 168
    assert sorted({r[2] for r in draws}) == list(range(1, STAGE1_TRICKS + 1))
    assert [r[2] for r in rows if r[0] == C.TR_TRICK_WON] == list(range(1, N_TRICKS + 1))
    assert sorted([r[3] for r in deal] + [r[4] for r in draws]) == list(range(192))


def test_position_six_packs_of_copies():
    """R1.1 with six packs: copies Q♠#0 .. Q♠#5; a seventh does not exist; up to thirteen
    cards in hand."""
    pos = parse_position(declare_pos(["Q♠"] * 6, trumps="♥"))
    assert sorted(pos.hands[0]) == [card(f"Q♠#{k}") for k in range(6)]
    with pytest.raises(PositionError, match="more copies of Q♠ than 6 packs"):
        parse_position(declare_pos(["Q♠"] * 7, trumps="♥"))
    hand = ["7♠", "8♠", "9♠", "7♥", "8♥", "9♥", "7♦", "8♦", "9♦", "7♣", "8♣", "9♣", "7♠"]
    assert len(parse_position(declare_pos(hand)).hands[0]) == 13
    with pytest.raises(PositionError, match="14 cards in hand, at most 13"):
        parse_position(declare_pos([*hand, "8♠"]))


# ---------------------------------------------------------------------------------------------
# R7.3 fours in trumps
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", ["A", "10", "K", "Q", "J"])
@pytest.mark.parametrize("trumps", ["♠", "♥", "♦", "♣"])
def test_r7_3_each_four_in_trumps(rank, trumps):
    """R7.3: four cards of one rank in trumps score the four in trumps (A 1000, 10 900, K 800,
    Q 600, J 400) or, but for tens, the plain four of the rank; the cards are the four."""
    data = declare_pos([f"{rank}{trumps}"] * 4 + ["9♣"], trumps=trumps)
    kind, points = TRUMP_FOUR[rank]
    want = [(kind, "", points)] + ([(*PLAIN_FOUR[rank][:1], "", PLAIN_FOUR[rank][1])]
                                   if rank in PLAIN_FOUR else [])
    assert decls(data) == sorted(want)
    assert decl_cards(data)[(kind, "")] == [f"{rank}{trumps}"] + [f"{rank}{trumps}#{k}"
                                                                 for k in (1, 2, 3)]


def test_r7_3_a_four_in_trumps_needs_four_cards_of_the_trump_suit():
    """Four aces of mixed suits, or three in trumps: the plain four only; four plain-suit
    aces of one face: the plain four only."""
    assert decls(declare_pos(["A♥", "A♥", "A♥", "A♠"], trumps="♥")) == [("four_aces", "", 100)]
    assert decls(declare_pos(["A♠"] * 4, trumps="♥")) == [("four_aces", "", 100)]
    assert decls(declare_pos(["10♠"] * 4, trumps="♥")) == []        # no plain four tens


def test_r7_3_no_four_in_trumps_while_trumps_are_undecided():
    assert decls(declare_pos(["A♥"] * 4)) == [("four_aces", "", 100)]
    assert decls(declare_pos(["10♥"] * 4)) == []


def test_r7_3_five_or_six_copies_make_one_four():
    data = declare_pos(["K♦"] * 6, trumps="♦")
    assert decls(data) == [("four_kings", "", 80), ("four_trump_kings", "", 800)]
    assert len(decl_cards(data)[("four_trump_kings", "")]) == 4


# ---------------------------------------------------------------------------------------------
# R7.3 the bezique by trumps
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trumps, pair, others", [
    ("♠", ["Q♠", "J♦"], [["Q♦", "J♠"], ["Q♥", "J♣"], ["Q♣", "J♥"]]),
    ("♦", ["Q♦", "J♠"], [["Q♠", "J♦"], ["Q♥", "J♣"], ["Q♣", "J♥"]]),
    ("♥", ["Q♥", "J♣"], [["Q♠", "J♦"], ["Q♦", "J♠"], ["Q♣", "J♥"]]),
    ("♣", ["Q♣", "J♥"], [["Q♠", "J♦"], ["Q♦", "J♠"], ["Q♥", "J♣"]]),
])
def test_r7_3_the_bezique_of_each_trump_suit(trumps, pair, others):
    """R7.3: the queen of trumps with the jack of the other colour paired with trumps is the
    bezique, 40; every other queen-jack pair, Q♠ J♦ included, is none."""
    assert decls(declare_pos([*pair, "9♣"], trumps=trumps)) == [("bezique", "", 40)]
    assert decl_cards(declare_pos([*pair, "9♣"], trumps=trumps))[("bezique", "")] == \
        sorted(pair)
    for wrong in others:
        assert decls(declare_pos([*wrong, "9♣"], trumps=trumps)) == []


def test_r7_3_no_bezique_while_trumps_are_undecided():
    """Reading of R7.3: no bezique before trumps are fixed, whichever pair is held (the four
    queens and four jacks stay)."""
    hand = ["Q♠", "J♦", "Q♦", "J♠", "Q♥", "J♣", "Q♣", "J♥"]
    assert decls(declare_pos(hand)) == [("four_jacks", "", 40), ("four_queens", "", 60)]


def test_r7_3_single_then_double_bezique():
    """R7.3 and R7.4 (R6.6 same class upward): a single 40 scored, then a second pair: the
    double 500 from both pairs; the double's cards then make no second double."""
    t = Table(declare_pos(["Q♥", "J♣", "9♠"], trumps="♥"))
    assert t.offered() == [("bezique", "", 40)]
    assert t.score(C.K_BEZIQUE) == ["J♣", "Q♥"]
    data = declare_pos(["Q♥", "J♣", "Q♥#1", "J♣#1"], trumps="♥",
                       declared={"Q♥": ["bezique"], "J♣": ["bezique"]})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    t = Table(data)
    assert t.score(C.K_DOUBLE_BEZIQUE) == ["J♣", "J♣#1", "Q♥", "Q♥#1"]
    assert kinds_scored(t) == [("double_bezique", 500)]
    assert t.offered() == []


def test_r7_3_quadruple_bezique_in_clubs():
    data = declare_pos(["Q♣"] * 4 + ["J♥"] * 4, trumps="♣")
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500),
                           ("four_jacks", "", 40), ("four_queens", "", 60),
                           ("four_trump_queens", "", 600), ("quadruple_bezique", "", 4500),
                           ("triple_bezique", "", 1500)]


# ---------------------------------------------------------------------------------------------
# R7.4 reuse of the fours in trumps
# ---------------------------------------------------------------------------------------------


def test_r7_4_plain_four_steps_up_to_the_four_in_trumps_not_down():
    """R7.4: the cards of a plain four may make the four in trumps (same class upward); the
    cards of a four in trumps never make the plain four (no step down within a class)."""
    t = Table(declare_pos(["A♥"] * 4 + ["9♠"], trumps="♥"))
    t.score(C.K_FOUR_ACES)
    assert t.offered() == [("four_trump_aces", "", 1000)]
    t.score(C.K_FOUR_TRUMP_ACES)
    assert t.offered() == []
    assert kinds_scored(t) == [("four_aces", 100), ("four_trump_aces", 1000)]
    t = Table(declare_pos(["A♥"] * 4 + ["9♠"], trumps="♥"))
    t.score(C.K_FOUR_TRUMP_ACES)
    assert t.offered() == []
    # a broken four in trumps: its cards still make no plain four
    data = declare_pos(["A♥#1", "A♥#2", "A♥#3", "A♠"], trumps="♥",
                       declared={f"A♥#{k}": ["broken:trump_four"] for k in (1, 2, 3)})
    assert decls(data) == []


def test_r7_4_reforming_a_four_in_trumps():
    """R7.4 (R6.6 re-forming, E8's form): four aces of trumps declared, one played, a fifth
    ace of trumps: 1000 again, with the three left and the new ace."""
    t = Table(declare_pos(["A♠"] * 5 + ["9♦"], trumps="♠"))
    assert t.score(C.K_FOUR_TRUMP_ACES) == ["A♠", "A♠#1", "A♠#2", "A♠#3"]
    # the fifth ace and three of the intact four: no four, plain or in trumps
    assert t.offered() == []
    t.play("A♠")
    assert t.offered() == [("four_trump_aces", "", 1000)]
    assert t.score(C.K_FOUR_TRUMP_ACES) == ["A♠#1", "A♠#2", "A♠#3", "A♠#4"]
    assert kinds_scored(t) == [("four_trump_aces", 1000), ("four_trump_aces", 1000)]


def test_r7_4_a_four_in_trumps_may_follow_a_bezique():
    """R6.6 later_class: class F after class B: the queens of a declared double bezique make
    the four queens of trumps."""
    data = declare_pos(["Q♦"] * 4 + ["J♠", "J♠"], trumps="♦",
                       declared={"Q♦": ["double_bezique"], "Q♦#1": ["double_bezique"],
                                 "J♠": ["double_bezique"], "J♠#1": ["double_bezique"]})
    assert ("four_trump_queens", "", 600) in decls(data)


# ---------------------------------------------------------------------------------------------
# R9 options of the point table
# ---------------------------------------------------------------------------------------------


def test_r9_four_trump_queens_900_and_four_trump_jacks_none():
    queens = declare_pos(["Q♣"] * 4, trumps="♣", options={"four_trump_queens": "900"})
    assert ("four_trump_queens", "", 900) in decls(queens)
    jacks = declare_pos(["J♣"] * 4, trumps="♣", options={"four_trump_jacks": "none"})
    assert decls(jacks) == [("four_jacks", "", 40)]
    assert decls(declare_pos(["J♣"] * 4, trumps="♣")) == [("four_jacks", "", 40),
                                                           ("four_trump_jacks", "", 400)]


# ---------------------------------------------------------------------------------------------
# whole games: carte blanche and the last trick 250, no brisques (R7.3)
# ---------------------------------------------------------------------------------------------


def _events(batch) -> tuple[dict, np.ndarray]:
    ev = unpack_events(batch.events)
    valid = np.arange(batch.events.shape[1])[None, :] < batch.game_info[:, C.GI_N_EVENTS, None]
    return ev, valid


@pytest.mark.parametrize("last", ["250", "50"])
def test_r7_3_last_trick_and_no_brisques_in_real_games(last):
    """R7.3: trick 96's winner scores the last trick (250; option 50), nobody scores
    brisques; brisques are still counted on the side, 480 in six packs."""
    rules = Rules.make("six_pack", {"last_trick_points": last})
    batch = run_games(rules, ["greedy", "random"], 3, 0, 40)
    ev, valid = _events(batch)
    last_events = valid & (ev["kind"] == C.K_LAST_TRICK)
    assert np.all(last_events.sum(axis=1) == 1)
    assert set(ev["trick"][last_events].tolist()) == {N_TRICKS}
    assert set(ev["points"][last_events].tolist()) == {int(last)}
    assert not np.any(valid & (ev["kind"] == C.K_BRISQUES))
    gi = batch.game_info
    assert np.all(gi[:, C.GI_BRISQUES] + gi[:, C.GI_BRISQUES + 1] == 480)


def test_r7_3_carte_blanche_250_at_the_deal_in_real_games():
    """R7.3 (R6.4 at 250): a seat dealt twelve cards without K, Q, J scores 250 at trick 0,
    and only such a seat."""
    batch = run_games(SIX, ["random"], 12, 0, 1500)
    ev, valid = _events(batch)
    cb = valid & (ev["kind"] == C.K_CARTE_BLANCHE) & (ev["trick"] == C.TRICK_DEAL)
    games = [int(g) for g in np.nonzero(cb.any(axis=1))[0]]
    assert games
    assert set(ev["points"][valid & (ev["kind"] == C.K_CARTE_BLANCHE)].tolist()) == {250}
    for game in games[:5]:
        _, trace = trace_one(SIX, ["random"], 12, game)
        rows = np.asarray(trace).tolist()
        for seat in (0, 1):
            dealt = [r[3] for r in rows if r[0] == C.TR_DEAL and r[2] == seat]
            blank = not any(cards.rank_of(c) in COURTS for c in dealt)
            at_deal = [r for r in rows if r[0] == C.TR_EVENT and r[4] == C.K_CARTE_BLANCHE
                       and r[2] == C.TRICK_DEAL and r[3] == seat]
            assert len(at_deal) == int(blank)


def test_r7_3_the_tables_show_the_fours_in_trumps_only_for_six_pack():
    """R8: the hands table has a points column for each four in trumps in six-pack, and the
    other presets' tables keep their columns."""
    batch = run_games(SIX, ["greedy"], 2, 0, 30)
    hands = batch_to_tables(batch, ["greedy", "greedy"])["hands"]
    assert "pts_four_trump_aces" in hands.column_names
    total = sum(int(np.sum(hands.column(f"pts_{k}").to_numpy())) for k in SIX.definition.kinds)
    assert total == int(np.sum(hands.column("points").to_numpy()))
    other = run_games(Rules.make("rubicon"), ["greedy"], 2, 0, 3)
    assert "pts_four_trump_aces" not in batch_to_tables(other, ["greedy", "greedy"])[
        "hands"].column_names


# ---------------------------------------------------------------------------------------------
# R7.5 settlement
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p0, p1, b0, b1, want", [
    # plain win: 1000 + the rounded difference; brisques count for nothing
    (4250, 3180, 0, 480, (0, 4200, 3100, 0, 2100)),
    # the loser reaches exactly 3000: no rubicon
    (3000, 5120, 0, 0, (1, 3000, 5100, 0, 3100)),
    # 2990 is under 3000: rubiconed, whatever his brisques (300 would have saved him in Rubicon)
    (2990, 5120, 300, 0, (1, 2900, 5100, 1, 5100 + 2900 + 1000)),
    # a rubiconed loser under 100 counts as 100
    (40, 1200, 0, 0, (1, 0, 1200, 1, 1200 + 100 + 1000)),
    # equal rounded totals: the unrounded points decide, not the brisques
    (3480, 3410, 0, 480, (0, 3400, 3400, 0, 1000)),
    # equal points: a draw, whatever the brisques
    (3410, 3410, 480, 0, (-1, 3400, 3400, 0, 0)),
])
def test_r7_5_settlement(p0, p1, b0, b1, want):
    assert tuple(int(v) for v in settle(SIX.params(), p0, p1, b0, b1)) == want


def test_r9_rubicon_game_bonus_2000():
    rules = Rules.make("six_pack", {"rubicon_game_bonus": "2000"})
    assert tuple(int(v) for v in settle(rules.params(), 2990, 5120, 0, 0)) == \
        (1, 2900, 5100, 1, 5100 + 2900 + 2000)
    assert int(settle(rules.params(), 3000, 5120, 0, 0)[4]) == 3100     # plain wins unchanged


def test_r7_5_game_info_matches_settle_in_real_games():
    batch = run_games(SIX, ["greedy", "heuristic"], 8, 0, 200)
    gi = batch.game_info
    for g in range(gi.shape[0]):
        got = (gi[g, C.GI_WINNER], gi[g, C.GI_ROUNDED], gi[g, C.GI_ROUNDED + 1],
               gi[g, C.GI_RUBICON], gi[g, C.GI_STAKE])
        want = settle(SIX.params(), gi[g, C.GI_SCORE], gi[g, C.GI_SCORE + 1],
                      gi[g, C.GI_BRISQUES], gi[g, C.GI_BRISQUES + 1])
        assert tuple(int(v) for v in got) == tuple(int(v) for v in want), g
