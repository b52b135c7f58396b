"""Position tests for Polish (open) bézique, docs/rules.md R5 (R5.1 open cards, R5.2 compound
declarations with R1.9 rule 1 only, R5.3 brisques and the seven of trumps, R5.4 stage-2
duty), the worked examples E1-E5 of R10, the Polish rule options, ``bezsim explain`` on a
Polish file, and invariants of whole traced Polish games.

Positions go through ``bezsim.position`` and so through the engine's own compiled step after
a trick (``bezsim.engine.open_cards.open_cards_trick``). Every expectation is an exact list
(of events sorted, so the order in which the engine books a compound does not matter). An
event is written ``(kind, suit, points, sorted cards)``; brisques carry no cards.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from bezsim import cards
from bezsim.cli import cli
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.open_cards import open_cards_trick
from bezsim.engine_api.games import trace_one
from bezsim.policies.builtin import FIRST_ACTION, LAST_ACTION
from bezsim.position import (
    PositionError,
    build_state,
    explain,
    legal_plays,
    open_cards_outcomes,
    parse_position,
)
from bezsim.rules import Rules, RulesError

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def won(won_trick: list[str], open_cards: list[str], declared: dict | None = None,
        hand: list[str] | None = None, trumps: str = "♠", turnup: str | None = "9♠",
        trick: int = 10, stock: int | None = None, seven_exchanged: bool = False,
        opponent_open: list[str] | None = None, options: dict | None = None) -> dict:
    """Seat 0 has just won ``won_trick`` (play order) and holds ``open_cards``.

    Stage 1 by default: after trick t (before its draws) 49 - 2 t face-down cards are left.
    ``turnup=None`` with the default stock gives a stage-2 position (stock 0)."""
    if stock is None:
        stock = 49 - 2 * trick if turnup is not None else 0
    seat0 = {"hand": hand or [], "open": open_cards}
    if declared:
        seat0["declared"] = declared
    data = {"variant": "polish", "trumps": trumps, "turnup": turnup, "stock": stock,
            "trick": trick, "to_move": 0, "phase": "declare",
            "seven_exchanged": seven_exchanged, "won_trick": won_trick,
            "seats": [seat0, {"hand": [], "open": opponent_open or []}]}
    if options:
        data["options"] = options
    return data


def _event(e: dict) -> tuple:
    return (e["kind"], e["suit"], e["points"], sorted(e["cards"]))


def outcomes(data: dict) -> list[tuple]:
    """(exchange_seven, sorted events, total) of every outcome (keeping first)."""
    return [(o["exchange_seven"], sorted(_event(e) for e in o["events"]), o["total"])
            for o in open_cards_outcomes(parse_position(data))]


def scores(data: dict) -> list[tuple]:
    """The sorted events of a win that offers no exchange (exactly one outcome)."""
    result = outcomes(data)
    assert len(result) == 1 and result[0][0] is False, result
    events, total = result[0][1], result[0][2]
    assert total == sum(e[2] for e in events)
    return events


def kinds(events: list[tuple]) -> list[tuple]:
    """(kind, suit, points) of each event, without the cards."""
    return [e[:3] for e in events]


def run_step(data: dict, exchange: bool = False) -> np.ndarray:
    """The engine's step after the trick (as ``open_cards_outcomes`` runs it) on a fresh state;
    returns the state, to read the open cards and the turn-up afterwards."""
    pos = parse_position(data)
    params = pos.rules.params()
    S = build_state(pos, event_cap=64, trace_cap=512)
    policy = FIRST_ACTION if exchange else LAST_ACTION
    open_cards_trick(params, S, np.zeros((3, 4), np.uint64), np.full(2, policy, np.int64),
                     np.zeros((2, 1)), None, pos.to_move, 0, pos.trick)
    return S


def open_after(S: np.ndarray, seat: int) -> list[str]:
    base = st.O_OPEN + seat * st.OPEN_MAX
    return sorted(cards.card_name(int(c), with_copy=True)
                  for c in S[base:base + S[st.O_OPEN_N + seat]])


def points_of(S: np.ndarray, seat: int, kind: int) -> int:
    """Points of one kind the engine step booked for the seat."""
    return int(S[st.O_HPTS + seat * C.N_KINDS + kind])


def stage2_play(hand: list[str], led: list[str], trumps: str = "♠") -> dict:
    """Polish, seat 1 to play in stage 2 (stock and turn-up gone)."""
    return {"variant": "polish", "trumps": trumps, "turnup": None, "stock": 0, "trick": 27,
            "to_move": 1, "current_trick": led, "seats": [{"hand": []}, {"hand": hand}]}


def plays(data: dict) -> list[str]:
    return sorted(cards.card_name(c, with_copy=True) for c in legal_plays(parse_position(data)))


SEQ_SPADES = sorted(["A♠", "10♠", "K♠", "Q♠", "J♠"])
SEVEN_KEPT = ("seven_played", None, 10, [])

# ---------------------------------------------------------------------------------------------
# R10 worked examples E1-E5
# ---------------------------------------------------------------------------------------------

# E1: three kings and three queens of the plain suits (their marriages already scored, as they
# would have been when completed), ace, ten and jack of trumps; no fours, no sequence yet.
E1_OPEN = ["K♥", "K♦", "K♣", "Q♥", "Q♦", "Q♣", "A♠", "10♠", "J♠"]
E1_MARRIED = {c: ["marriage"] for c in ("K♥", "K♦", "K♣", "Q♥", "Q♦", "Q♣")}
E1_EVENTS = [
    ("royal_marriage", "♠", 40, ["K♠", "Q♠"]),
    ("sequence", None, 250, SEQ_SPADES),
    ("four_kings", None, 80, ["K♠", "K♣", "K♥", "K♦"]),
    ("four_queens", None, 60, ["Q♠", "Q♣", "Q♥", "Q♦"]),
]


def test_r10_e1_compound_430():
    """E1 / R5.2: trumps ♠; Q♠ led, won with K♠: royal marriage 40, four kings 80, four
    queens 60, sequence 250 = 430, all on one win, K♠ and Q♠ counting in three each."""
    data = won(["Q♠", "K♠"], E1_OPEN, declared=E1_MARRIED)
    assert scores(data) == sorted(E1_EVENTS)
    assert outcomes(data) == [(False, sorted(E1_EVENTS), 430)]
    d = explain(parse_position(data))
    assert [o["total"] for o in d["outcomes"]] == [430]
    assert sorted(_event(e) for e in d["legal_declarations"]) == sorted(E1_EVENTS)
    assert (d["stage"], d["trick"], d["won_trick"]) == (1, 10, ["Q♠", "K♠"])


def test_r10_e1_unmarried_plain_pairs_do_not_score_again():
    """E1 / R5.2: plain K-Q pairs that lie open unmarried complete nothing on this trick (no
    card of the trick is in them): still exactly 430."""
    data = won(["Q♠", "K♠"], E1_OPEN)
    assert outcomes(data) == [(False, sorted(E1_EVENTS), 430)]


def test_r10_e2_fifth_queen_no_fours_370():
    """E2 / R5.2 / R1.9 rule 1: as E1 but four queens (suits may repeat) already open and
    scored as fours: royal marriage 40 + four kings 80 + sequence 250 = 370."""
    open_cards = ["K♥", "K♦", "K♣", "Q♥", "Q♦", "Q♣", "Q♥#1", "A♠", "10♠", "J♠"]
    declared = {"K♥": ["marriage"], "K♦": ["marriage"], "K♣": ["marriage"],
                "Q♥": ["marriage", "four"], "Q♦": ["marriage", "four"],
                "Q♣": ["marriage", "four"], "Q♥#1": ["four"]}
    events = scores(won(["Q♠", "K♠"], open_cards, declared=declared))
    assert sorted(events) == sorted([
        ("royal_marriage", "♠", 40, ["K♠", "Q♠"]),
        ("sequence", None, 250, SEQ_SPADES),
        ("four_kings", None, 80, ["K♠", "K♣", "K♥", "K♦"]),
    ])
    assert sum(e[2] for e in events) == 370


def test_r10_e3_seven_exchange_for_ace_130():
    """E3 / R5.3: turn-up A♠; two open aces; A♥ led, won with 7♠ and exchanged: exchange 10,
    A♥ 10, A♠ 10, four aces 100 = 130. Keeping the seven: A♥ 10 and the seven 10."""
    data = won(["A♥", "7♠"], ["A♦", "A♣"], turnup="A♠")
    assert outcomes(data) == [
        (False, sorted([("brisques", None, 10, []), SEVEN_KEPT]), 20),
        (True, sorted([("brisques", None, 10, []),
                       ("seven_exchange", None, 10, ["7♠", "A♠"]),
                       ("brisques", None, 10, []),
                       ("four_aces", None, 100, ["A♠", "A♣", "A♥", "A♦"])]), 130),
    ]


def test_r10_e4_seven_exchange_no_open_aces_30_then_two_open_aces():
    """E4 / R5.3 / R5.1: the same with no open aces: 30, and afterwards the seat has exactly
    two open aces (A♥ from the trick, A♠ from the turn-up); the 7♠ is the new turn-up."""
    data = won(["A♥", "7♠"], [], turnup="A♠")
    assert outcomes(data) == [
        (False, sorted([("brisques", None, 10, []), SEVEN_KEPT]), 20),
        (True, sorted([("brisques", None, 10, []),
                       ("seven_exchange", None, 10, ["7♠", "A♠"]),
                       ("brisques", None, 10, [])]), 30),
    ]
    S = run_step(data, exchange=True)
    assert open_after(S, 0) == ["A♠", "A♥"]
    assert open_after(S, 1) == []
    assert cards.card_name(int(S[st.O_SC + C.SC_TURNUP])) == "7♠"
    assert S[st.O_SC + C.SC_EXCHANGED] == 1
    # keeping the seven: only A♥ is opened, the turn-up stays
    S = run_step(data, exchange=False)
    assert open_after(S, 0) == ["A♥"]
    assert cards.card_name(int(S[st.O_SC + C.SC_TURNUP])) == "A♠"
    # the follow-up: two more aces won later complete the four with those two open aces
    follow = won(["A♦", "A♣"], open_after(run_step(data, exchange=True), 0), turnup="7♠",
                 seven_exchanged=True, trick=12)
    assert scores(follow) == [("brisques", None, 20, []),
                              ("four_aces", None, 100, ["A♠", "A♣", "A♥", "A♦"])]


def test_r10_e5_queen_in_hand_never_counts():
    """E5 / R5.1: three open queens and a queen in hand; a trick won without a queen gives no
    four queens. Winning a trick with a queen later does."""
    assert scores(won(["J♥", "8♣"], ["Q♥", "Q♦", "Q♣"], hand=["Q♠", "9♦"])) == []
    assert scores(won(["9♣", "10♥"], ["Q♥", "Q♦", "Q♣"], hand=["Q♠", "9♦"])) == [
        ("brisques", None, 10, [])]
    assert scores(won(["Q♠", "8♣"], ["Q♥", "Q♦", "Q♣"], hand=["Q♠", "9♦"])) == [
        ("four_queens", None, 60, ["Q♠#1", "Q♣", "Q♥", "Q♦"])]


# ---------------------------------------------------------------------------------------------
# R5.1 open cards
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trick_cards, opened, brisques", [
    (["A♥", "10♠"], ["10♠", "A♥"], 20),         # any ace; the ten of trumps
    (["K♦", "J♣"], ["J♣", "K♦"], 0),
    (["Q♥", "10♥"], ["Q♥"], 10),                # a plain ten is a brisque, not an open card
    (["10♦", "10♣"], [], 20),
    (["7♥", "8♣"], [], 0),
    (["9♠", "7♦"], [], 0),                      # a trump nine is set aside
    (["8♠", "J♠"], ["J♠"], 0),
])
def test_r5_1_which_trick_cards_become_open(trick_cards, opened, brisques):
    """R5.1: A, K, Q, J of any suit and the ten of trumps (♠) go face up in front of the
    winner; 7, 8, 9 and plain tens are set aside. R5.3: aces and tens score 10 when won."""
    data = won(trick_cards, ["K♣"])
    S = run_step(data)
    assert open_after(S, 0) == sorted(["K♣"] + opened)
    assert open_after(S, 1) == []
    assert scores(data) == ([("brisques", None, brisques, [])] if brisques else [])


def test_r5_1_trump_ten_completes_sequence_plain_ten_does_not():
    """R5.1: the ten of trumps is an open card (it completes the sequence); a plain ten is not
    (it completes nothing, and there is no plain-suit sequence in Polish)."""
    married = {"K♠": ["marriage"], "Q♠": ["marriage"]}
    assert scores(won(["10♠", "8♦"], ["A♠", "K♠", "Q♠", "J♠"], declared=married)) == [
        ("brisques", None, 10, []), ("sequence", None, 250, SEQ_SPADES)]
    married = {"K♥": ["marriage"], "Q♥": ["marriage"]}
    assert scores(won(["10♥", "8♦"], ["A♥", "K♥", "Q♥", "J♥"], declared=married)) == [
        ("brisques", None, 10, [])]


@pytest.mark.parametrize("bad", ["10♥", "10♦#1", "9♠", "8♦", "7♠", "7♣"])
def test_r5_1_open_entry_that_cannot_be_open_is_rejected(bad):
    """R5.1: only A, K, Q, J and the ten of trumps can be open cards: one-line PositionError."""
    with pytest.raises(PositionError) as info:
        parse_position(won(["8♥", "9♥"], ["K♥", bad]))
    message = str(info.value)
    assert "\n" not in message
    assert "cannot be an open card" in message
    assert cards.card_name(cards.parse_card(bad, 2)) in message


def test_r5_1_trump_ten_and_honours_are_accepted_as_open():
    pos = parse_position(won(["8♥", "9♥"], ["10♠", "A♦", "K♥", "Q♣", "J♦#1"]))
    assert sorted(cards.card_name(c, with_copy=True) for c in pos.open[0]) == [
        "10♠", "A♦", "J♦#1", "K♥", "Q♣"]


@pytest.mark.parametrize("bad", ["9♦", "7♠", "10♥"])
def test_r5_1_declared_entry_that_cannot_be_open_is_rejected(bad):
    """R5.1: in Polish ``declared`` gives the history of open cards and adds a card it names
    to the open cards when 'open' does not list it; a card that can never be open (a nine, a
    seven, a plain ten) must be refused with a one-line PositionError like an 'open' entry."""
    with pytest.raises(PositionError) as info:
        parse_position(won(["8♥", "9♥"], ["Q♥"], declared={bad: ["four"]}))
    assert "\n" not in str(info.value)
    assert "cannot be an open card" in str(info.value)


@pytest.mark.parametrize("data, fragment", [
    ({"trumps": "♠", "seats": [{"hand": [], "open": ["K♥"]}, {"hand": []}]}, "'open'"),
    ({"trumps": "♠", "phase": "declare", "won_trick": ["K♥", "Q♥"],
      "seats": [{"hand": []}, {"hand": []}]}, "won_trick"),
    ({"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 29, "trick": 10,
      "phase": "declare", "seats": [{"hand": []}, {"hand": []}]}, "won_trick"),
    ({"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 29, "trick": 10,
      "phase": "declare", "won_trick": ["K♥"], "seats": [{"hand": []}, {"hand": []}]},
     "won_trick"),
    ({"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 29,
      "seats": [{"hand": ["K♥#1"], "open": ["K♥#1"]}, {"hand": []}]}, "twice"),
])
def test_r5_1_bad_polish_positions_one_line_error(data, fragment):
    """'open' and 'won_trick' are Polish keys; a Polish declare position needs the two cards
    of the trick just won; a copy cannot be both in hand and open."""
    with pytest.raises(PositionError) as info:
        parse_position(data)
    assert "\n" not in str(info.value)
    assert fragment in str(info.value)


def test_r5_1_hand_cards_never_count():
    """R5.1: cards in hand never count for declarations: K♥ won with Q♥ in hand is nothing;
    Q♥ open and K♥ won is a marriage."""
    assert scores(won(["K♥", "8♣"], [], hand=["Q♥", "J♦", "Q♠"])) == []
    assert scores(won(["K♥", "8♣"], ["Q♥"], hand=["Q♠"])) == [
        ("common_marriage", "♥", 20, ["K♥", "Q♥"])]
    # J♦ in hand does not make a bezique with a won Q♠
    assert scores(won(["Q♠", "8♣"], [], hand=["J♦"], trumps="♥", turnup="9♥")) == []


def test_r5_1_opponents_open_cards_never_count():
    """R5.1: open cards lie in front of their owner; the other seat's never count."""
    assert scores(won(["K♥", "8♣"], [], opponent_open=["Q♥", "K♦", "K♣", "K♠"])) == []


def test_r5_1_open_cards_are_never_played_again():
    """R5.1: open cards are not part of the hand: they are never a legal play."""
    data = {"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 29, "trick": 10,
            "to_move": 1, "current_trick": ["Q♥"],
            "seats": [{"hand": []}, {"hand": ["9♥", "8♣"], "open": ["K♥", "A♥", "10♠"]}]}
    assert plays(data) == ["8♣", "9♥"]


# ---------------------------------------------------------------------------------------------
# R5.2 declaring: compound, a card of the trick in every declaration, lost declarations
# ---------------------------------------------------------------------------------------------


def test_r5_2_compound_queen_of_spades_in_three_kinds():
    """R5.2: Q♠ (trumps ♥) completes a marriage, a bezique and four queens at once: 120, Q♠
    counting in all three (different kinds)."""
    events = scores(won(["Q♠", "7♦"], ["K♠", "J♦", "Q♥", "Q♦", "Q♣"], trumps="♥",
                        turnup="9♥"))
    assert sorted(events) == sorted([
        ("common_marriage", "♠", 20, ["K♠", "Q♠"]),
        ("bezique", None, 40, ["J♦", "Q♠"]),
        ("four_queens", None, 60, ["Q♠", "Q♣", "Q♥", "Q♦"]),
    ])


@pytest.mark.parametrize("trumps, pair", [("♠", ("Q♣", "J♥")), ("♦", ("Q♣", "J♥")),
                                          ("♥", ("Q♠", "J♦")), ("♣", ("Q♠", "J♦"))])
def test_r9_bezique_pair_by_trump_in_polish(trumps, pair):
    """R9 bezique_pair=by_trump with open cards: a won jack completes the bezique with the
    open queen of the pair trumps give (Q♣ J♥ with ♠ or ♦ trumps, else Q♠ J♦), and the
    other pair scores nothing; a second pair completed by one trick makes the double."""
    opts = {"bezique_pair": "by_trump"}
    other = ("Q♠", "J♦") if pair == ("Q♣", "J♥") else ("Q♣", "J♥")
    queen, jack = pair
    at = {"trumps": trumps, "turnup": f"9{trumps}", "options": opts}
    assert scores(won([jack, "8♥" if trumps != "♥" else "8♦"], [queen, other[0]], **at)) == [
        ("bezique", None, 40, sorted([jack, queen]))]
    assert scores(won([other[1], "7♦" if trumps != "♦" else "7♥"], [other[0]], **at)) == []
    events = scores(won([jack, f"{jack}#1"], [queen, f"{queen}#1"], **at))
    assert sorted(kinds(events)) == [("bezique", None, 40), ("double_bezique", None, 500)]


def test_r5_2_combination_of_old_open_cards_only_is_lost():
    """R5.2: every declaration must include a card of the trick just won; a combination whose
    cards were all open before this trick (not declared before drawing) is never offered."""
    unrelated = ["J♣", "8♦"]
    # a marriage
    assert scores(won(unrelated, ["K♥", "Q♥"])) == []
    # four kings
    assert scores(won(unrelated, ["K♠", "K♥", "K♦", "K♣"])) == []
    # the sequence (its king and queen married)
    married = {"K♠": ["marriage"], "Q♠": ["marriage"]}
    assert scores(won(unrelated, ["A♠", "10♠", "K♠", "Q♠", "J♠"], declared=married)) == []
    # a bezique (trumps ♥)
    assert scores(won(unrelated, ["Q♠", "J♦"], trumps="♥", turnup="9♥")) == []


def test_r5_2_same_combination_scores_when_the_trick_brings_one_of_its_cards():
    """R5.2: the same combinations score when a card of the trick completes them, and the
    scoring copies include that card."""
    assert scores(won(["Q♥", "8♦"], ["K♥"])) == [("common_marriage", "♥", 20, ["K♥", "Q♥"])]
    # old K♥ Q♥ never declared: a new Q♥ marries the king (one marriage of a suit per trick)
    assert scores(won(["Q♥#1", "8♦"], ["K♥", "Q♥"])) == [
        ("common_marriage", "♥", 20, ["K♥", "Q♥#1"])]
    # four kings lying undeclared: a fifth, new king makes four kings that include it
    events = scores(won(["K♦#1", "8♦"], ["K♠", "K♥", "K♦", "K♣"]))
    assert kinds(events) == [("four_kings", None, 80)]
    assert "K♦#1" in events[0][3] and len(set(events[0][3])) == 4
    married = {"K♠": ["marriage"], "Q♠": ["marriage"]}
    events = scores(won(["J♠#1", "8♦"], ["A♠", "10♠", "K♠", "Q♠", "J♠"], declared=married))
    assert events == [("sequence", None, 250, sorted(["A♠", "10♠", "K♠", "Q♠", "J♠#1"]))]
    assert scores(won(["J♦", "8♣"], ["Q♠"], trumps="♥", turnup="9♥")) == [
        ("bezique", None, 40, ["J♦", "Q♠"])]


def test_r5_2_both_cards_of_the_trick_can_complete():
    """R5.2: when both cards of the trick are scoring cards, both join the open cards and
    either may complete: K♥ and Q♥ won together marry; J♦ completes a bezique at once."""
    assert scores(won(["K♥", "Q♥"], [])) == [("common_marriage", "♥", 20, ["K♥", "Q♥"])]
    assert scores(won(["K♥", "J♦"], ["Q♥", "Q♠"], trumps="♣", turnup="9♣")) == sorted([
        ("common_marriage", "♥", 20, ["K♥", "Q♥"]), ("bezique", None, 40, ["J♦", "Q♠"])])


# ---------------------------------------------------------------------------------------------
# R5.2 with R1.9 rule 1 per physical copy (rules 2 and 3 do not hold in Polish)
# ---------------------------------------------------------------------------------------------


def test_r5_2_two_marriages_of_different_suits_on_one_trick():
    """R5.2: K♥ and K♦ won together with Q♥ and Q♦ open: both marriages score (40)."""
    assert scores(won(["K♥", "K♦"], ["Q♥", "Q♦"])) == [
        ("common_marriage", "♥", 20, ["K♥", "Q♥"]),
        ("common_marriage", "♦", 20, ["K♦", "Q♦"])]


def test_r5_2_one_marriage_of_a_suit_per_trick_engine_reading():
    """The engine's reading (README "Compounds": at most one of each kind, for marriages one
    of each suit, per trick): two open unmarried K♥ and a trick bringing both Q♥ score one
    marriage of hearts, 20 (docs/rules.md R5.2 "every combination" could also be read as 40)."""
    events = scores(won(["Q♥", "Q♥#1"], ["K♥", "K♥#1"]))
    assert kinds(events) == [("common_marriage", "♥", 20)]


def test_r1_9_rule1_married_queen_never_marries_again():
    """R5.2 / R1.9 rule 1: a queen once married never marries again, even a new king; a new
    king and a new queen of the suit marry each other."""
    declared = {"K♥": ["marriage"], "Q♥": ["marriage"]}
    assert scores(won(["K♥#1", "8♣"], ["K♥", "Q♥"], declared=declared)) == []
    assert scores(won(["Q♥#1", "8♣"], ["K♥", "Q♥"], declared=declared)) == []
    assert scores(won(["K♥#1", "Q♥#1"], ["K♥", "Q♥"], declared=declared)) == [
        ("common_marriage", "♥", 20, ["K♥#1", "Q♥#1"])]


def test_r1_9_rule1_fifth_king_scores_no_fours():
    """R5.2 / R1.9 rule 1: a fifth king added to four declared kings scores no fours."""
    four = {k: ["four"] for k in ("K♠", "K♥", "K♦", "K♣")}
    assert scores(won(["K♦#1", "8♣"], ["K♠", "K♥", "K♦", "K♣"], declared=four)) == []
    # the other four kings, all fresh, are a new four kings
    events = scores(won(["K♦#1", "K♣#1"], ["K♠", "K♥", "K♦", "K♣", "K♠#1", "K♥#1"],
                        declared=four))
    assert events == [("four_kings", None, 80, ["K♠#1", "K♣#1", "K♥#1", "K♦#1"])]


def test_r1_9_rule1_only_marriage_from_declared_sequence():
    """R5.2: only rule 1 of R1.9 holds, so rule 2 does not: a king that scored in the
    sequence but never married marries a new queen of trumps (40)."""
    declared = {c: ["sequence"] for c in SEQ_SPADES} | {"Q♠": ["sequence", "marriage"],
                                                        "K♠#1": ["marriage"]}
    events = scores(won(["Q♠#1", "8♥"], SEQ_SPADES + ["K♠#1"], declared=declared))
    assert events == [("royal_marriage", "♠", 40, ["K♠", "Q♠#1"])]


def test_r1_9_rule1_single_bezique_copies_make_the_double():
    """R5.2: a copy in a single bezique may still make the double (no rule 2 or 3). With Q♠
    J♦ declared as a single and J♦#1 open, the trick's Q♠#1 completes a new single (Q♠#1 J♦#1)
    and the double (all four): the engine scores both, 540 (README: both score)."""
    declared = {"Q♠": ["bezique"], "J♦": ["bezique"]}
    assert scores(won(["Q♠#1", "8♣"], ["Q♠", "J♦", "J♦#1"], trumps="♥", turnup="9♥",
                      declared=declared)) == [
        ("bezique", None, 40, ["J♦#1", "Q♠#1"]),
        ("double_bezique", None, 500, ["J♦", "J♦#1", "Q♠", "Q♠#1"])]


def test_r1_9_rule1_bezique_and_double_from_the_same_trick_both_score():
    """R5.2, the engine's reading (README "Compounds"): open J♦ and J♦#1, a trick bringing
    both Q♠ completes a single and a double bezique at once, and both score: 540 (one single
    only: at most one combination of a kind per trick, although two disjoint singles could
    be formed)."""
    assert scores(won(["Q♠", "Q♠#1"], ["J♦", "J♦#1"], trumps="♥", turnup="9♥")) == [
        ("bezique", None, 40, ["J♦", "Q♠"]),
        ("double_bezique", None, 500, ["J♦", "J♦#1", "Q♠", "Q♠#1"])]


def test_r9_double_bezique_all_at_once_scores_a_double_completed_at_once():
    """R9 option double_bezique=all_at_once in Polish: the double may not grow from a declared
    single, but a double whose four cards were never in a bezique and are completed by one
    trick is declared all at once and scores (the single alongside scores as with the
    default, the engine's reading). A double built on a declared single does not score."""
    opts = {"double_bezique": "all_at_once"}
    events = scores(won(["Q♠", "Q♠#1"], ["J♦", "J♦#1"], trumps="♥", turnup="9♥",
                        options=opts))
    assert kinds(events) == sorted([("bezique", None, 40), ("double_bezique", None, 500)])
    declared = {"Q♠": ["bezique"], "J♦": ["bezique"]}
    assert scores(won(["Q♠#1", "8♣"], ["Q♠", "J♦", "J♦#1"], trumps="♥", turnup="9♥",
                      declared=declared, options=opts)) == [
        ("bezique", None, 40, ["J♦#1", "Q♠#1"])]


def test_r9_marriage_to_sequence_false_only_stops_a_later_sequence():
    """R9 option marriage_to_sequence=false ("a married K, Q may *later* be part of the
    sequence", R6.6 "a marriage cannot later grow into a sequence"): a K♠ Q♠ married on an
    earlier win make no sequence; but in E1 the marriage and the sequence are declared
    together on the same win, so E1 still scores 430."""
    opts = {"marriage_to_sequence": "false"}
    married = {"K♠": ["marriage"], "Q♠": ["marriage"]}
    assert scores(won(["J♠", "8♦"], ["A♠", "10♠", "K♠", "Q♠"], declared=married,
                      options=opts)) == []
    assert kinds(scores(won(["J♠", "8♦"], ["A♠", "10♠", "K♠", "Q♠"],
                            declared=married))) == [("sequence", None, 250)]
    data = won(["Q♠", "K♠"], E1_OPEN, declared=E1_MARRIED, options=opts)
    assert scores(data) == sorted(E1_EVENTS)


def test_r1_9_rule1_double_bezique_copies_never_double_again():
    """R1.9 rule 1: copies that scored in a double bezique make no second double."""
    declared = {"Q♠": ["bezique", "double_bezique"], "Q♠#1": ["double_bezique"],
                "J♦": ["bezique", "double_bezique"]}
    # J♦#1 arrives: its only possible double uses the three doubled copies: nothing;
    # a single Q♠#1 + J♦#1 (Q♠#1 never in a single) does score
    assert scores(won(["J♦#1", "8♣"], ["Q♠", "Q♠#1", "J♦"], trumps="♥", turnup="9♥",
                      declared=declared)) == [("bezique", None, 40, ["J♦#1", "Q♠#1"])]


# ---------------------------------------------------------------------------------------------
# R5.3 aces and tens, the seven of trumps
# ---------------------------------------------------------------------------------------------


def test_r5_3_brisques_score_when_won():
    """R5.3: aces and tens (plain tens too) score 10 each as soon as the trick is won."""
    assert scores(won(["A♥", "10♦"], [])) == [("brisques", None, 20, [])]
    assert scores(won(["10♠", "A♠#1"], [])) == [("brisques", None, 20, [])]
    assert scores(won(["K♦", "9♦"], [])) == []


def test_r5_3_seven_kept_or_exchanged_for_a_plain_turnup():
    """R5.3: the seven of trumps in the won trick scores 10 for the winner when kept; when
    exchanged, 10 for the exchange, and a turn-up that cannot be declared (9♠) is set aside."""
    data = won(["8♥", "7♠"], [])
    assert outcomes(data) == [(False, [SEVEN_KEPT], 10),
                              (True, [("seven_exchange", None, 10, ["7♠", "9♠"])], 10)]
    S = run_step(data, exchange=True)
    assert open_after(S, 0) == []
    assert cards.card_name(int(S[st.O_SC + C.SC_TURNUP])) == "7♠"


def test_r5_3_seven_played_by_the_loser_scores_for_the_winner():
    """R5.3: the seven scores for the winner of the trick that contains it, whoever played it
    (7♠ led, won by 8♠)."""
    assert outcomes(won(["7♠", "8♠"], [])) == [
        (False, [SEVEN_KEPT], 10),
        (True, [("seven_exchange", None, 10, ["7♠", "9♠"])], 10)]


def test_r5_3_plain_seven_scores_nothing():
    assert outcomes(won(["7♥", "8♥"], [])) == [(False, [], 0)]


@pytest.mark.parametrize("turnup, open_cards, declared, exchanged, opened", [
    # the king of trumps turned up becomes an open card and marries the open Q♠ at once
    ("K♠", ["Q♠"], None, [("seven_exchange", None, 10, ["7♠", "K♠"]),
                          ("royal_marriage", "♠", 40, ["K♠", "Q♠"])], ["K♠", "Q♠"]),
    # the ten of trumps: 10 as a brisque, an open card, and it completes the sequence
    ("10♠", ["A♠", "K♠", "Q♠", "J♠"], {"K♠": ["marriage"], "Q♠": ["marriage"]},
     [("seven_exchange", None, 10, ["10♠", "7♠"]), ("brisques", None, 10, []),
      ("sequence", None, 250, SEQ_SPADES)], SEQ_SPADES),
    # a jack of trumps: an open card, no brisque
    ("J♠", [], None, [("seven_exchange", None, 10, ["7♠", "J♠"])], ["J♠"]),
    # an eight of trumps: set aside
    ("8♠", [], None, [("seven_exchange", None, 10, ["7♠", "8♠"])], []),
])
def test_r5_3_exchanged_turnup_becomes_open_if_declarable(turnup, open_cards, declared,
                                                          exchanged, opened):
    """R5.3: a turn-up that can be declared (A/K/Q/J/10 of trumps) becomes the winner's open
    card when exchanged and completes combinations at once; an ace or ten scores 10."""
    data = won(["8♥", "7♠"], open_cards, declared=declared, turnup=turnup)
    assert outcomes(data) == [(False, [SEVEN_KEPT], 10),
                              (True, sorted(exchanged), sum(e[2] for e in exchanged))]
    assert open_after(run_step(data, exchange=True), 0) == sorted(opened)
    assert open_after(run_step(data, exchange=False), 0) == sorted(open_cards)


def test_r5_3_no_exchange_once_exchanged():
    """R5.3 / R2.3: one exchange per hand: the turn-up is now the other 7♠ (or the flag
    alone): the seven is kept, 10, and there is one outcome."""
    assert outcomes(won(["8♥", "7♠"], [], turnup="7♠", seven_exchanged=True)) == [
        (False, [SEVEN_KEPT], 10)]
    assert outcomes(won(["8♥", "7♠"], [], turnup="A♠", seven_exchanged=True)) == [
        (False, [SEVEN_KEPT], 10)]
    S = run_step(won(["8♥", "7♠"], [], turnup="A♠", seven_exchanged=True), exchange=True)
    assert cards.card_name(int(S[st.O_SC + C.SC_TURNUP])) == "A♠"


def test_r5_3_no_exchange_for_a_turned_up_seven():
    """R5.3 / R2.1: a seven turned up is not exchanged for the other seven; the engine does
    not offer it even to a seat that always exchanges."""
    data = won(["8♥", "7♠"], [], turnup="7♠")
    assert outcomes(data) == [(False, [SEVEN_KEPT], 10)]
    S = run_step(data, exchange=True)
    assert S[st.O_SC + C.SC_EXCHANGED] == 0
    assert cards.card_name(int(S[st.O_SC + C.SC_TURNUP]), with_copy=True) == "7♠"
    assert (points_of(S, 0, C.K_SEVEN_PLAYED), points_of(S, 0, C.K_SEVEN_EXCHANGE)) == (10, 0)


def test_r5_3_no_exchange_in_stage_2():
    """R5.3: in stage 2 (stock 0, no turn-up) the seven is kept: 10, one outcome."""
    data = won(["8♥", "7♠"], [], turnup=None, trick=27)
    assert parse_position(data).stage == 2
    assert outcomes(data) == [(False, [SEVEN_KEPT], 10)]
    S = run_step(data, exchange=True)
    assert S[st.O_SC + C.SC_TURNUP] == C.NO_CARD and S[st.O_SC + C.SC_EXCHANGED] == 0
    assert (points_of(S, 0, C.K_SEVEN_PLAYED), points_of(S, 0, C.K_SEVEN_EXCHANGE)) == (10, 0)
    # the winner of trick 24 (one face-down card and the turn-up left) may still exchange
    data = won(["8♥", "7♠"], [], turnup="A♠", trick=24, stock=1)
    assert [(o[0], o[2]) for o in outcomes(data)] == [(False, 10), (True, 20)]


def test_r5_3_both_sevens_in_one_trick():
    """R5.3: each seven of trumps scores once; after one is exchanged the other is kept."""
    assert outcomes(won(["7♠", "7♠#1"], [])) == [
        (False, [SEVEN_KEPT, SEVEN_KEPT], 20),
        (True, [("seven_exchange", None, 10, ["7♠", "9♠"]), SEVEN_KEPT], 20)]


def test_r5_3_explain_lists_both_outcomes():
    d = explain(parse_position(won(["A♥", "7♠"], ["A♦", "A♣"], turnup="A♠")))
    assert [(o["exchange_seven"], o["total"]) for o in d["outcomes"]] == [(False, 20),
                                                                       (True, 130)]
    # legal_declarations are the combinations of the first (keeping) outcome: none
    assert d["legal_declarations"] == []


LAST_TRICK_10 = ("last_trick", None, 10, [])


@pytest.mark.parametrize("option, trick, stage2, scored", [
    (None, 32, True, True),             # R2.5: the hand's last trick
    (None, 31, True, False),
    (None, 24, False, False),
    ("trick24", 24, False, True),       # option last_trick: the last stock trick instead
    ("trick24", 32, True, False),
    ("both", 24, False, True),
    ("both", 32, True, True),
])
def test_r2_5_last_trick_is_part_of_what_the_win_scores(option, trick, stage2, scored):
    """R2.5 (R5: as the ordinary game): a Polish win of the last trick scores its 10 with the
    trick's brisques and compounds: 20 + 100 + 10 for two aces completing four aces."""
    data = won(["A♥", "A♣"], ["A♠", "A♦"], trick=trick, turnup=None if stage2 else "9♠",
               options={"last_trick": option} if option else None)
    expected = [("brisques", None, 20, []),
                ("four_aces", None, 100, sorted(["A♠", "A♣", "A♦", "A♥"]))]
    expected += [LAST_TRICK_10] if scored else []
    assert scores(data) == sorted(expected)
    assert outcomes(data)[0][2] == (130 if scored else 120)

# ---------------------------------------------------------------------------------------------
# R5.4 stage 2; declarations continue in stage 2 (R5.2)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hand, led, legal", [
    (["K♥", "9♥", "7♠", "A♦"], ["Q♥"], ["K♥"]),               # follow and beat in suit
    (["A♥", "K♥", "9♥", "7♠"], ["Q♥"], ["A♥", "K♥"]),
    (["J♥", "9♥", "7♠", "A♦"], ["Q♥"], ["9♥", "J♥"]),          # follow, cannot beat
    (["A♦", "7♠", "8♠", "9♣"], ["Q♥"], ["7♠", "8♠"]),          # void: must trump
    (["A♦", "9♣"], ["Q♥"], ["9♣", "A♦"]),                      # void, no trump: any card
    (["A♠", "K♠", "A♥"], ["10♠"], ["A♠"]),                     # trump led: beat it
    (["Q♠", "J♠", "A♥"], ["10♠"], ["J♠", "Q♠"]),
    (["10♥#1", "9♥"], ["10♥"], ["10♥#1", "9♥"]),               # an identical card never beats
])
def test_r5_4_stage2_duty(hand, led, legal):
    """R5.4: the second player must follow suit, beat the led card in suit if able, and if
    void must trump if able."""
    assert plays(stage2_play(hand, led)) == sorted(legal)


def test_r5_4_stage1_and_leader_any_card():
    """R1.5: in stage 1 any card may be played; the stage-2 leader plays anything."""
    data = {"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 29, "trick": 10,
            "to_move": 1, "current_trick": ["Q♥"],
            "seats": [{"hand": []}, {"hand": ["K♥", "7♠", "A♦"]}]}
    assert plays(data) == ["7♠", "A♦", "K♥"]
    data = stage2_play(["K♥", "7♠", "A♦"], [])
    assert plays(data) == ["7♠", "A♦", "K♥"]


def test_r5_2_declarations_continue_in_stage_2():
    """R5.2: declarations continue through stage 2: at trick 27 (stock 0, no turn-up) a won
    queen completes a marriage and four queens."""
    data = won(["Q♥", "9♣"], ["K♥", "Q♦", "Q♣", "Q♠"], turnup=None, trick=27)
    pos = parse_position(data)
    assert (pos.stage, pos.stock, pos.turnup) == (2, 0, C.NO_CARD)
    assert sorted(scores(data)) == sorted([
        ("common_marriage", "♥", 20, ["K♥", "Q♥"]),
        ("four_queens", None, 60, ["Q♠", "Q♣", "Q♥", "Q♦"])])
    d = explain(pos)
    assert d["stage"] == 2 and [o["total"] for o in d["outcomes"]] == [80]
    # the last trick too, with its 10 (R2.5)
    data = won(["A♥", "A♣"], ["A♠", "A♦"], turnup=None, trick=32)
    assert scores(data) == [("brisques", None, 20, []),
                            ("four_aces", None, 100, ["A♠", "A♣", "A♥", "A♦"]),
                            LAST_TRICK_10]


# ---------------------------------------------------------------------------------------------
# Polish rule options (R9)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, value", [
    ("brisques_when", "end_of_hand"),
    ("seven_scores_when", "played"),
    ("seven_exchange_is_declaration", "true"),
    ("declare_after_last_stock_trick", "true"),
])
def test_r9_options_fixed_by_polish_are_refused(name, value):
    """R5.3 / R9: options that Polish fixes are refused with a one-line RulesError."""
    with pytest.raises(RulesError) as info:
        Rules.make("polish", {name: value})
    message = str(info.value)
    assert "\n" not in message
    assert "does not apply" in message and name in message and "polish" in message
    with pytest.raises(PositionError):
        parse_position(won(["8♥", "9♥"], [], options={name: value}))


def test_r9_polish_target_default_2000():
    """R5 / R9: Polish is played to 2000 unless set otherwise."""
    rules = Rules.make("polish")
    assert rules.options["target"] == 2000
    assert rules.params()[C.PR_TARGET] == 2000
    assert rules.params()[C.PR_OPEN_CARDS] == 1
    assert rules.params()[C.PR_BRISQUES_WHEN] == C.BRISQUES_WHEN_WON
    assert Rules.make("polish", {"target": 1500}).options["target"] == 1500
    assert Rules.make("ordinary").options["target"] == 1000


def test_r9_other_variant_option_refused_for_polish():
    with pytest.raises(RulesError) as info:
        Rules.make("polish", {"rubicon_reuse": "any_class"})
    assert "\n" not in str(info.value) and "rubicon" in str(info.value)


# ---------------------------------------------------------------------------------------------
# bezsim explain on a Polish file
# ---------------------------------------------------------------------------------------------


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="bezsim")


def _write(tmp_path, data: dict):
    file = tmp_path / "polish.json"
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(file)


def _norm(line: str) -> str:
    """An event line with its cards sorted: "  four_aces: 100 (A♠ A♣ A♥ A♦)"."""
    head, _, shown = line.partition(" (")
    return f"{head} ({' '.join(sorted(shown.rstrip(')').split()))})" if shown else head


def test_explain_cli_polish_text_shows_totals(tmp_path):
    """E3 through the command line: both outcomes with their totals and events."""
    file = _write(tmp_path, won(["A♥", "7♠"], ["A♦", "A♣"], turnup="A♠"))
    result = _invoke("explain", file)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == ["polish bézique, trumps ♠, trick 10 (stage 1), seat 0 to declare",
                         "won: A♥ 7♠", "keeping the seven: 20"]
    at = lines.index("exchanging the seven: 130")
    assert sorted(_norm(ln) for ln in lines[3:at]) == ["  brisques: 10", "  seven_played: 10"]
    assert sorted(_norm(ln) for ln in lines[at + 1:]) == [
        "  brisques: 10", "  brisques: 10", "  four_aces: 100 (A♠ A♣ A♥ A♦)",
        "  seven_exchange: 10 (7♠ A♠)"]


def test_explain_cli_polish_text_e1(tmp_path):
    file = _write(tmp_path, won(["Q♠", "K♠"], E1_OPEN, declared=E1_MARRIED))
    result = _invoke("explain", file)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == ["polish bézique, trumps ♠, trick 10 (stage 1), seat 0 to declare",
                         "won: Q♠ K♠", "scores: 430"]
    assert sorted(_norm(ln) for ln in lines[3:]) == [
        "  four_kings: 80 (K♠ K♣ K♥ K♦)", "  four_queens: 60 (Q♠ Q♣ Q♥ Q♦)",
        "  royal_marriage ♠: 40 (K♠ Q♠)", "  sequence: 250 (10♠ A♠ J♠ K♠ Q♠)"]


def test_explain_cli_polish_json_outcomes(tmp_path):
    file = _write(tmp_path, won(["A♥", "7♠"], ["A♦", "A♣"], turnup="A♠"))
    result = _invoke("explain", file, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["variant"] == "polish" and out["phase"] == "declare"
    assert [(o["exchange_seven"], o["total"]) for o in out["outcomes"]] == [(False, 20),
                                                                         (True, 130)]
    assert sorted(_event(e) for e in out["outcomes"][1]["events"]) == sorted([
        ("brisques", None, 10, []), ("seven_exchange", None, 10, ["7♠", "A♠"]),
        ("brisques", None, 10, []), ("four_aces", None, 100, ["A♠", "A♣", "A♥", "A♦"])])
    assert sorted(_event(e) for e in out["outcomes"][0]["events"]) == sorted([
        ("brisques", None, 10, []), SEVEN_KEPT])


def test_explain_cli_polish_bad_open_card_one_line(tmp_path):
    file = _write(tmp_path, won(["8♥", "9♥"], ["10♥"]))
    result = _invoke("explain", file)
    assert result.exit_code != 0
    assert "cannot be an open card" in result.output
    assert len(result.output.strip().splitlines()) == 1


# ---------------------------------------------------------------------------------------------
# whole traced games
# ---------------------------------------------------------------------------------------------

_SIZE = {C.K_COMMON_MARRIAGE: 2, C.K_ROYAL_MARRIAGE: 2, C.K_SEQUENCE: 5, C.K_BEZIQUE: 2,
         C.K_DOUBLE_BEZIQUE: 4, C.K_FOUR_ACES: 4, C.K_FOUR_KINGS: 4, C.K_FOUR_QUEENS: 4,
         C.K_FOUR_JACKS: 4}
_HIST_KIND = {C.K_COMMON_MARRIAGE: "marriage", C.K_ROYAL_MARRIAGE: "marriage",
              C.K_SEQUENCE: "sequence", C.K_BEZIQUE: "bezique",
              C.K_DOUBLE_BEZIQUE: "double", C.K_FOUR_ACES: "four", C.K_FOUR_KINGS: "four",
              C.K_FOUR_QUEENS: "four", C.K_FOUR_JACKS: "four"}
_SEVENS = (C.K_SEVEN_TURNUP, C.K_SEVEN_EXCHANGE, C.K_SEVEN_PLAYED)


def _openable(card: int, trump: int) -> bool:
    r = cards.rank_of(card)
    return r in (cards.ACE, cards.KING, cards.QUEEN, cards.JACK) or (
        r == cards.TEN and cards.suit_of(card) == trump)


def _check_polish_game(rows: list[list[int]], batch, seed: int) -> dict:
    """Check one traced Polish game; return counts for the caller."""
    seen = {"stage2_combos": 0, "compounds": 0, "exchanges": 0, "combos": 0}
    trump = -1
    open_cards: dict[int, set[int]] = {}
    opened_now: dict[tuple, set[int]] = {}
    used: set[tuple] = set()               # (card, history kind) of R1.9 rule 1
    run: list[tuple] = []                  # declared cards preceding an event
    per_hand: dict[int, dict] = {}
    per_trick: dict[tuple, list[tuple]] = {}
    exchange_turnup: dict[tuple, int] = {}
    won_rows: list[list[int]] = []
    for row in rows:
        tag = row[0]
        if tag == C.TR_HAND_START:
            hand, trump = row[1], row[3]
            open_cards = {0: set(), 1: set()}
            used = set()
            per_hand[hand] = {"brisques": 0, "sevens": [], "combos": {0: 0, 1: 0}}
        elif tag == C.TR_TRICK_WON:
            won_rows.append(row)
        elif tag == C.TR_OPEN:
            hand, trick, seat, c = row[1:5]
            assert _openable(c, trump), ("not an open card", seed, row)
            assert all(c not in s for s in open_cards.values()), ("opened twice", seed, row)
            open_cards[seat].add(c)
            opened_now.setdefault((hand, trick, seat), set()).add(c)
        elif tag == C.TR_EXCHANGE:
            hand, trick, seat, seven, turnup = row[1:6]
            exchange_turnup[(hand, trick, seat)] = turnup
            seen["exchanges"] += 1
        elif tag == C.TR_DECLARED_CARD:
            hand, trick, seat, c, kind = row[1:6]
            run.append((hand, trick, seat, c, kind))
            continue
        elif tag == C.TR_EVENT:
            hand, trick, seat, kind, status, extra, points = row[1:8]
            if kind == C.K_BRISQUES:
                per_hand[hand]["brisques"] += points
            if kind in _SEVENS:
                per_hand[hand]["sevens"].append(kind)
            assert kind != C.K_SEVEN_DECLARE, ("no declared seven in Polish", seed, row)
            if kind <= C.K_FOUR_JACKS:
                assert status == C.EV_SCORED and points == C.ORDINARY_POINTS[kind], row
                assert run, ("a combination without its cards", seed, row)
                assert {r[:3] for r in run} == {(hand, trick, seat)}, (seed, row, run)
                assert {r[4] for r in run} == {kind}, (seed, row, run)
                declared = [r[3] for r in run]
                assert len(set(declared)) == len(declared) == _SIZE[kind], (seed, row, run)
                # every card is the seat's open card (R5.1: hand cards never count) ...
                assert set(declared) <= open_cards[seat], ("not open", seed, row, declared)
                # ... and at least one joined its open cards on this very trick (R5.2)
                assert set(declared) & opened_now.get((hand, trick, seat), set()), (
                    "no card of the trick just won", seed, row, declared)
                for c in declared:     # R1.9 rule 1: a copy never scores twice in a kind
                    key = (c, _HIST_KIND[kind])
                    assert key not in used, ("copy reused in the same kind", seed, row)
                    used.add(key)
                per_trick.setdefault((hand, trick, seat), []).append((kind, extra))
                per_hand[hand]["combos"][seat] += 1
                seen["combos"] += 1
                if trick > 24:
                    seen["stage2_combos"] += 1
        run = []
    # R5.1: the winner's new open cards are exactly the declarable cards of the trick (plus
    # a declarable turn-up taken in exchange for the trick's seven)
    for row in won_rows:
        hand, trick, winner = row[1:4]
        expected = {c for c in row[4:6] if _openable(c, _trump_of(rows, hand))}
        turnup = exchange_turnup.get((hand, trick, winner))
        if turnup is not None and _openable(turnup, _trump_of(rows, hand)):
            expected.add(turnup)
        assert opened_now.get((hand, trick, winner), set()) == expected, (seed, row)
        assert (hand, trick, 1 - winner) not in opened_now
    for hand, info in per_hand.items():
        assert info["brisques"] == 160, ("brisques of a hand", seed, hand, info)
        # each of the two sevens of trumps scores exactly once; at most one exchange
        assert len(info["sevens"]) == 2, (seed, hand, info["sevens"])
        assert info["sevens"].count(C.K_SEVEN_EXCHANGE) <= 1
        assert info["sevens"].count(C.K_SEVEN_TURNUP) <= 1
        for seat in (0, 1):
            assert batch.hand_seat[0, hand, seat, C.HS_COMBINATIONS] == info["combos"][seat]
    for key, ks in per_trick.items():
        # one combination of each kind (marriages: of each suit) per trick
        assert len(ks) == len(set(ks)), (seed, key, ks)
        if len(ks) > 1:
            seen["compounds"] += 1
    assert len(per_hand) == int(batch.game_info[0, C.GI_HANDS])
    return seen


def _trump_of(rows: list[list[int]], hand: int) -> int:
    for row in rows:
        if row[0] == C.TR_HAND_START and row[1] == hand:
            return row[3]
    raise AssertionError(hand)


def test_polish_games_trace_invariants():
    """R5.1, R5.2, R5.3, R1.9 rule 1 in whole games (greedy v greedy): every combination is
    made of the winner's open cards, at least one of which joined them on that trick; a copy
    never scores twice in a kind; combinations also happen in stage 2; each hand's brisques
    total 160; each seven of trumps scores exactly once."""
    totals = {"stage2_combos": 0, "compounds": 0, "exchanges": 0, "combos": 0}
    for seed in (1, 2, 3):
        batch, trace = trace_one(Rules.make("polish"), ["greedy", "greedy"], seed, 0)
        seen = _check_polish_game(np.asarray(trace).tolist(), batch, seed)
        for k in totals:
            totals[k] += seen[k]
        assert max(batch.game_info[0, C.GI_SCORE:C.GI_SCORE + 2]) >= 2000
    assert totals["stage2_combos"] > 0
    assert totals["compounds"] > 0
    assert totals["exchanges"] > 0
    assert totals["combos"] > 0
