"""Position tests for the ordinary two-handed game: one or more tests per rule of docs/rules.md
that can be checked on a position (R1.3, R1.5, R1.6, R1.8, R1.9, R1.10, R2.3, R2.4, R9 and
the worked examples E6, E7, E11, E12), plus bad-position errors and ``bezsim explain``.

Every expectation is an exact list/set. Positions go through ``bezsim.position`` and so
through the engine's compiled kernels; trick winners through ``bezsim.engine.tricks``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from position_helpers import decl_cards, decls

from bezsim import cards
from bezsim.cards import card_id
from bezsim.cli import cli
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.tricks import beats, winning_index
from bezsim.engine_api.games import trace_one
from bezsim.position import (
    PositionError,
    explain,
    legal_declarations,
    legal_plays,
    parse_position,
)
from bezsim.rules import Rules

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def card(text: str) -> int:
    return cards.parse_card(text, 2)


def names(ids) -> list[str]:
    return sorted(cards.card_name(c, with_copy=True) for c in ids)


def trick_winner(led: str, second: str, trumps: str) -> int:
    """Play-order index of the winner of a two-card trick, through the engine kernel."""
    S = st.new_state(0, 0)
    S[st.O_TRICK] = card(led)
    S[st.O_TRICK + 1] = card(second)
    return int(winning_index(S, 2, cards.parse_suit(trumps)))


def stage1_play(hand: list[str], led: list[str], trumps: str = "♠", **extra) -> dict:
    """Seat 1 to play in stage 1 (trick 10: 29 face-down cards and the turn-up left)."""
    return {"trumps": trumps, "turnup": f"8{trumps}", "stock": 29, "trick": 10, "to_move": 1,
            "current_trick": led, "seats": [{"hand": []}, {"hand": hand}], **extra}


def stage2_play(hand: list[str], led: list[str], trumps: str = "♠", options=None) -> dict:
    """Seat 1 to play in stage 2 (stock and turn-up gone)."""
    data = {"trumps": trumps, "turnup": None, "stock": 0, "trick": 27, "to_move": 1,
            "current_trick": led, "seats": [{"hand": []}, {"hand": hand}]}
    if options:
        data["options"] = options
    return data


def plays(data: dict) -> list[str]:
    return names(legal_plays(parse_position(data)))


def declare_pos(hand: list[str], trumps: str = "♥", declared=None, turnup: str | None = None,
                trick: int = 10, options=None, scored=None, seven_exchanged: bool = False,
                stock: int | None = None) -> dict:
    """Seat 0 has just won trick ``trick`` of stage 1 and may declare (before drawing).

    After trick t of stage 1 (before its draws) 47 - 2 (t - 1) face-down cards are left.
    """
    data = {"trumps": trumps, "turnup": turnup if turnup is not None else f"8{trumps}",
            "stock": 49 - 2 * trick if stock is None else stock, "trick": trick,
            "to_move": 0, "phase": "declare", "seven_exchanged": seven_exchanged,
            "seats": [{"hand": hand, "declared": declared or {}}, {"hand": []}]}
    if options:
        data["options"] = options
    if scored:
        data["scored_this_trick"] = scored
    return data


# ---------------------------------------------------------------------------------------------
# R1.3 trick winner (E11)
# ---------------------------------------------------------------------------------------------


def test_r1_3_e11_identical_cards_first_played_wins():
    """R1.3 / E11: 10♦ led, 10♦ played: the leader wins."""
    assert trick_winner("10♦", "10♦#1", "♠") == 0
    assert not beats(card("10♦#1"), card("10♦"), cards.parse_suit("♠"))
    # identical trumps: the first still wins
    assert trick_winner("7♠", "7♠#1", "♠") == 0


def test_r1_3_e11_other_plain_suit_never_wins():
    """R1.3 / E11: 9♥ led, A♣ played (♣ not trumps): the leader wins."""
    assert trick_winner("9♥", "A♣", "♠") == 0
    assert not beats(card("A♣"), card("9♥"), cards.parse_suit("♠"))


def test_r1_3_e11_trump_seven_beats_led_ace():
    """R1.3 / E11: A♥ led, a trump seven played: the seven wins."""
    assert trick_winner("A♥", "7♠", "♠") == 1
    assert beats(card("7♠"), card("A♥"), cards.parse_suit("♠"))


def test_r1_3_higher_card_of_suit_led_wins():
    """R1.3 with R1.2 rank A > 10 > K > Q > J > 9 > 8 > 7."""
    order = ["A♥", "10♥", "K♥", "Q♥", "J♥", "9♥", "8♥", "7♥"]
    for hi, high in enumerate(order):
        for lo, low in enumerate(order):
            if hi < lo:
                assert trick_winner(low, high, "♠") == 1, (low, high)
                assert trick_winner(high, low, "♠") == 0, (high, low)


def test_r1_3_trump_beats_plain_ace_and_higher_trump_wins():
    """R1.3: any trump beats a plain ace; a lower trump loses to a higher trump."""
    assert trick_winner("A♦", "8♣", "♣") == 1
    assert trick_winner("8♣", "A♦", "♣") == 0
    assert trick_winner("9♠", "K♠", "♠") == 1
    assert trick_winner("K♠", "9♠", "♠") == 0
    assert trick_winner("10♠", "A♠", "♠") == 1
    # three cards (the kernel's general form): the highest trump wins
    S = st.new_state(0, 0)
    for i, text in enumerate(["A♥", "9♠", "K♠"]):
        S[st.O_TRICK + i] = card(text)
    assert winning_index(S, 3, cards.parse_suit("♠")) == 2
    for i, text in enumerate(["A♥", "K♠", "9♠"]):
        S[st.O_TRICK + i] = card(text)
    assert winning_index(S, 3, cards.parse_suit("♠")) == 1


# ---------------------------------------------------------------------------------------------
# R1.5 stage 1 / R1.6 stage-2 duty (E12)
# ---------------------------------------------------------------------------------------------


def test_r1_5_stage1_any_card_even_trumping_while_holding_suit():
    """R1.5: in stage 1 no duty to follow or win: the whole hand is legal."""
    hand = ["K♥", "9♥", "7♠", "A♦", "J♣", "Q♠", "10♥", "8♦"]
    assert plays(stage1_play(hand, ["Q♥"])) == sorted(hand)
    # the leader too
    assert plays(stage1_play(hand, [])) == sorted(hand)
    # even at trick 24 (last stock card still face down)
    data = stage1_play(hand, ["Q♥"])
    data.update(stock=1, trick=24)
    assert plays(data) == sorted(hand)


def test_r1_6_e12_must_follow_and_beat():
    """R1.6 / E12: trumps ♠, Q♥ led, {K♥, 9♥, 7♠, A♦}: only K♥."""
    assert plays(stage2_play(["K♥", "9♥", "7♠", "A♦"], ["Q♥"])) == ["K♥"]


def test_r1_6_e12_void_must_trump():
    """R1.6 / E12: trumps ♠, Q♥ led, {A♦, 7♠}: only 7♠."""
    assert plays(stage2_play(["A♦", "7♠"], ["Q♥"])) == ["7♠"]


def test_r1_6_e12_void_no_trump_any_card():
    """R1.6 / E12: trumps ♠, Q♥ led, {A♦, 9♣}: either."""
    assert plays(stage2_play(["A♦", "9♣"], ["Q♥"])) == ["9♣", "A♦"]


def test_r1_6_leader_in_stage2_may_play_anything():
    """R1.6: the duty binds the follower; the leader plays any card."""
    hand = ["K♥", "9♥", "7♠", "A♦", "J♣"]
    assert plays(stage2_play(hand, [])) == sorted(hand)


def test_r1_6_follow_with_lower_card_when_unable_to_beat():
    """R1.6: holding the suit but no higher card: any card of the suit (not a trump)."""
    assert plays(stage2_play(["J♥", "9♥", "A♠", "A♦"], ["Q♥"])) == ["9♥", "J♥"]


def test_r1_6_several_winning_cards_all_legal():
    """R1.6: every card that beats is legal; lower cards of the suit are not."""
    assert plays(stage2_play(["A♥", "K♥", "J♥", "7♠"], ["Q♥"])) == ["A♥", "K♥"]
    # void: every trump beats a plain card, so every trump is legal
    assert plays(stage2_play(["A♦", "7♠", "K♠", "9♣"], ["Q♥"])) == ["7♠", "K♠"]


def test_r1_6_led_trump_must_be_overtrumped_if_able():
    """R1.6: trump led: follow with a higher trump if able, else any trump."""
    assert plays(stage2_play(["A♠", "K♠", "7♠", "A♥"], ["10♠"])) == ["A♠"]
    assert plays(stage2_play(["K♠", "7♠", "A♥"], ["10♠"])) == ["7♠", "K♠"]
    assert plays(stage2_play(["A♥", "9♦"], ["10♠"])) == ["9♦", "A♥"]


def test_r1_6_identical_card_does_not_beat():
    """R1.3 + R1.6: the same card of the other pack does not beat, so with only it and lower
    cards of the suit every card of the suit is legal."""
    assert plays(stage2_play(["Q♥#1", "9♥", "A♠"], ["Q♥"])) == ["9♥", "Q♥#1"]
    # with a higher card too, only the higher card
    assert plays(stage2_play(["Q♥#1", "K♥", "A♠"], ["Q♥"])) == ["K♥"]
    # identical trump led: no trump beats it: all trumps legal
    assert plays(stage2_play(["A♠#1", "7♠", "A♥"], ["A♠"])) == ["7♠", "A♠#1"]


def test_r9_stage2_duty_follow_only():
    """R9 stage2_duty=follow_only (R1.6 Hoyle): follow suit only; void: any card."""
    opts = {"stage2_duty": "follow_only"}
    assert plays(stage2_play(["K♥", "9♥", "7♠", "A♦"], ["Q♥"], options=opts)) == ["9♥", "K♥"]
    assert plays(stage2_play(["A♦", "7♠"], ["Q♥"], options=opts)) == ["7♠", "A♦"]
    assert plays(stage2_play(["A♦", "9♣"], ["Q♥"], options=opts)) == ["9♣", "A♦"]
    assert plays(stage2_play(["A♠", "K♠", "7♠", "A♥"], ["10♠"], options=opts)) == [
        "7♠", "A♠", "K♠"]


# ---------------------------------------------------------------------------------------------
# R1.8 combinations and points
# ---------------------------------------------------------------------------------------------


def test_r1_8_common_marriage_20():
    assert decls(declare_pos(["K♣", "Q♣", "9♦"], trumps="♥")) == [("common_marriage", "♣", 20)]


def test_r1_8_royal_marriage_40():
    assert decls(declare_pos(["K♥", "Q♥", "9♦"], trumps="♥")) == [("royal_marriage", "♥", 40)]


def test_r1_8_king_and_queen_of_different_suits_no_marriage():
    assert decls(declare_pos(["K♣", "Q♦", "K♥", "Q♠"], trumps="♥")) == []


def test_r1_8_sequence_250():
    """R1.8: A,10,K,Q,J of trumps: sequence 250 (the royal marriage in it is the other choice)."""
    data = declare_pos(["A♥", "10♥", "K♥", "Q♥", "J♥", "9♣"], trumps="♥")
    assert decls(data) == [("royal_marriage", "♥", 40), ("sequence", "", 250)]
    assert decl_cards(data)[("sequence", "")] == ["10♥", "A♥", "J♥", "K♥", "Q♥"]


def test_r1_8_plain_suit_sequence_is_not_a_combination():
    """R1.8: the sequence is in trumps only (plain-suit sequences are Rubicon, R6.3)."""
    assert decls(declare_pos(["A♣", "10♣", "K♣", "Q♣", "J♣"], trumps="♥")) == [
        ("common_marriage", "♣", 20)]


def test_r1_8_bezique_40():
    data = declare_pos(["Q♠", "J♦", "9♣"], trumps="♥")
    assert decls(data) == [("bezique", "", 40)]
    assert decl_cards(data) == {("bezique", ""): ["J♦", "Q♠"]}


def test_r1_8_double_bezique_500():
    """R1.8: both Q♠ and both J♦: double bezique 500 (a single is the other choice)."""
    data = declare_pos(["Q♠", "Q♠", "J♦", "J♦", "9♣"], trumps="♥")
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    assert decl_cards(data)[("double_bezique", "")] == ["J♦", "J♦#1", "Q♠", "Q♠#1"]


@pytest.mark.parametrize("rank,kind,points", [
    ("A", "four_aces", 100), ("K", "four_kings", 80), ("Q", "four_queens", 60),
    ("J", "four_jacks", 40)])
def test_r1_8_fours(rank, kind, points):
    """R1.8: four aces / kings / queens / jacks, one of each suit (trumps ♥)."""
    # kings and queens of four different suits without their partners: no marriage;
    # J♦ without Q♠ and Q♠ without J♦: no bezique
    hand = [f"{rank}♠", f"{rank}♥", f"{rank}♦", f"{rank}♣", "9♣", "8♦"]
    assert decls(declare_pos(hand, trumps="♥")) == [(kind, "", points)]


def test_r1_8_four_aces_suits_may_repeat():
    """R1.8: suits may repeat across copies: A♠ A♠#1 A♥ A♦ are four aces."""
    data = declare_pos(["A♠", "A♠#1", "A♥", "A♦", "9♣"], trumps="♥")
    assert decls(data) == [("four_aces", "", 100)]
    assert decl_cards(data) == {("four_aces", ""): ["A♠", "A♠#1", "A♥", "A♦"]}
    # a face listed twice without #k takes the next copy automatically
    data = declare_pos(["A♠", "A♠", "A♥", "A♦", "9♣"], trumps="♥")
    assert decls(data) == [("four_aces", "", 100)]
    assert decl_cards(data) == {("four_aces", ""): ["A♠", "A♠#1", "A♥", "A♦"]}
    # four kings all of one suit
    data = declare_pos(["K♣", "K♣", "K♦", "K♦", "9♣"], trumps="♥")
    assert decls(data) == [("four_kings", "", 80)]


def test_r1_8_three_of_a_rank_is_nothing():
    assert decls(declare_pos(["A♠", "A♥", "A♦", "9♣", "8♣"], trumps="♥")) == []


def test_r1_8_four_tens_and_four_nines_score_nothing():
    assert decls(declare_pos(["10♠", "10♥", "10♦", "10♣", "8♣"], trumps="♥")) == []
    assert decls(declare_pos(["9♠", "9♥", "9♦", "9♣", "8♣"], trumps="♥")) == []
    assert decls(declare_pos(["8♠", "8♥", "8♦", "8♣", "7♣"], trumps="♥")) == []


def test_r1_8_r2_3_seven_of_trumps_exchange_10_and_declare_10():
    """R1.8 / R2.3: the seven of trumps: exchange for the turn-up 10, or declare 10."""
    data = declare_pos(["7♥", "9♣"], trumps="♥", turnup="A♥")
    assert decls(data) == [("seven_declare", "", 10), ("seven_exchange", "", 10)]
    assert decl_cards(data) == {("seven_declare", ""): ["7♥"], ("seven_exchange", ""): ["7♥"]}
    # a plain seven is nothing
    assert decls(declare_pos(["7♣", "9♣"], trumps="♥", turnup="A♥")) == []


def test_r1_8_several_combinations_offered_together():
    """R1.8 + R1.10: every combination the hand makes is offered (one will score)."""
    hand = ["K♠", "Q♠", "J♦", "K♥", "Q♥", "7♥", "9♣"]
    assert decls(declare_pos(hand, trumps="♥", turnup="A♥")) == [
        ("bezique", "", 40), ("common_marriage", "♠", 20), ("royal_marriage", "♥", 40),
        ("seven_declare", "", 10), ("seven_exchange", "", 10)]


# ---------------------------------------------------------------------------------------------
# R1.9 reuse of declared cards, per physical copy (E7)
# ---------------------------------------------------------------------------------------------


def test_r1_9_rule1_e7_married_queen_cannot_marry_the_other_king():
    """R1.9 rule 1 / E7: a married Q♠ with the other K♠: no score."""
    data = declare_pos(["K♠", "Q♠", "K♠#1", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage"]})
    assert decls(data) == []


def test_r1_9_rule1_married_king_cannot_marry_the_other_queen():
    """R1.9 rule 1: a married K♠ (its queen since played) with a fresh Q♠#1: no score."""
    data = declare_pos(["K♠", "Q♠#1", "9♣"], trumps="♥", declared={"K♠": ["marriage"]})
    assert decls(data) == []


def test_r1_9_rule1_fresh_copies_marry_again():
    """R1.9 / R1.1: history belongs to the copy: a fresh K♠#1 and Q♠#1 marry (20), and the
    engine scores those copies, not the married ones."""
    data = declare_pos(["K♠", "Q♠", "K♠#1", "Q♠#1", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage"]})
    assert decls(data) == [("common_marriage", "♠", 20)]
    assert decl_cards(data) == {("common_marriage", "♠"): ["K♠#1", "Q♠#1"]}
    # one fresh king, queen married: still no marriage
    data = declare_pos(["K♠", "Q♠", "K♠#1", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage"]})
    assert decls(data) == []


def test_r1_9_rule1_e7_fifth_king_scores_nothing():
    """R1.9 rule 1 / E7: a fifth king added to four declared kings: nothing."""
    declared = {"K♠": ["four"], "K♥": ["four"], "K♦": ["four"], "K♣": ["four"]}
    data = declare_pos(["K♠", "K♥", "K♦", "K♣", "K♣#1", "9♣"], trumps="♥", declared=declared)
    assert decls(data) == []


def test_r1_9_rule1_single_bezique_copy_cannot_make_second_single():
    """R1.9 rule 1: a Q♠ that scored in a single bezique + the other J♦: no bezique."""
    data = declare_pos(["Q♠", "J♦", "J♦#1", "9♣"], trumps="♥",
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == []
    data = declare_pos(["Q♠", "Q♠#1", "J♦", "9♣"], trumps="♥",
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == []


def test_r1_9_rule2_e7_no_marriage_from_declared_sequence():
    """R1.9 rule 2 / E7: no (royal) marriage from cards declared in a sequence."""
    hand = ["A♥", "10♥", "K♥", "Q♥", "J♥", "9♣"]
    declared = {c: ["sequence"] for c in hand[:5]}
    assert decls(declare_pos(hand, trumps="♥", declared=declared)) == []


def test_r1_9_rule2_no_single_bezique_from_declared_double():
    """R1.9 rule 2: no single bezique from a declared double."""
    hand = ["Q♠", "Q♠#1", "J♦", "J♦#1", "9♣"]
    declared = {"Q♠": ["double_bezique"], "Q♠#1": ["double_bezique"],
                "J♦": ["double_bezique"], "J♦#1": ["double_bezique"]}
    assert decls(declare_pos(hand, trumps="♥", declared=declared)) == []


def test_r1_9_rule2_e7_royal_marriage_then_sequence_290():
    """R1.9 rule 2 / E7: royal marriage (40) then the sequence (250) on a later win: 290."""
    hand = ["A♥", "10♥", "K♥", "Q♥", "J♥", "9♣"]
    first = decls(declare_pos(hand, trumps="♥", trick=10))
    assert first == [("royal_marriage", "♥", 40), ("sequence", "", 250)]
    later = declare_pos(hand, trumps="♥", trick=14,
                        declared={"K♥": ["marriage"], "Q♥": ["marriage"]})
    assert decls(later) == [("sequence", "", 250)]
    assert decl_cards(later) == {("sequence", ""): ["10♥", "A♥", "J♥", "K♥", "Q♥"]}
    total = dict(((k, s), p) for k, s, p in first)[("royal_marriage", "♥")] + decls(later)[0][2]
    assert total == 290


def test_r1_9_rule2_single_then_double_bezique_500():
    """R1.9 rule 2: single bezique then the other Q♠ and J♦: double bezique 500 offered
    (and a second single from the two new copies, R1.9 rule 1 being per copy)."""
    hand = ["Q♠", "J♦", "Q♠#1", "J♦#1", "9♣"]
    data = declare_pos(hand, trumps="♥", declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    got = decl_cards(data)
    assert got[("double_bezique", "")] == ["J♦", "J♦#1", "Q♠", "Q♠#1"]
    assert got[("bezique", "")] == ["J♦#1", "Q♠#1"]


def test_r1_9_rule2_double_with_only_one_new_card():
    """R1.8 / R1.9: a declared single plus only the other J♦ is no double (the other Q♠ is
    missing) and no second single (the Q♠ already scored in one)."""
    data = declare_pos(["Q♠", "J♦", "J♦#1", "9♣"], trumps="♥",
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == []


def test_r1_9_rule3_two_singles_never_make_a_double():
    """R1.9 rule 3: all four cards scored in singles: no double bezique."""
    hand = ["Q♠", "J♦", "Q♠#1", "J♦#1", "9♣"]
    declared = {c: ["bezique"] for c in hand[:4]}
    assert decls(declare_pos(hand, trumps="♥", declared=declared)) == []


def test_r1_9_rule3_across_classes_no_new_card_needed():
    """R1.9 rule 3: kings and queens declared as fours may still marry, each suit's pair."""
    hand = ["K♠", "K♥", "K♦", "K♣", "Q♠", "Q♥", "Q♦"]
    declared = {c: ["four"] for c in hand}
    assert decls(declare_pos(hand, trumps="♥", declared=declared)) == [
        ("common_marriage", "♠", 20), ("common_marriage", "♦", 20),
        ("royal_marriage", "♥", 40)]


def test_r1_9_rule4_queen_in_marriage_bezique_and_four_queens():
    """R1.9 rule 4: Q♠ may score in a marriage, a bezique and four queens."""
    # married Q♠ makes a bezique
    data = declare_pos(["K♠", "Q♠", "J♦", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage"]})
    assert decls(data) == [("bezique", "", 40)]
    # a Q♠ in a bezique marries
    data = declare_pos(["K♠", "Q♠", "J♦", "9♣"], trumps="♥",
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == [("common_marriage", "♠", 20)]
    # married and in a bezique: still one of four queens
    data = declare_pos(["K♠", "Q♠", "J♦", "Q♥", "Q♦", "Q♣", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage", "bezique"],
                                 "J♦": ["bezique"]})
    assert decls(data) == [("four_queens", "", 60)]
    assert decl_cards(data) == {("four_queens", ""): ["Q♠", "Q♣", "Q♥", "Q♦"]}
    # in four queens: still marries and makes a bezique
    declared = {q: ["four"] for q in ["Q♠", "Q♥", "Q♦", "Q♣"]}
    data = declare_pos(["K♠", "Q♠", "J♦", "Q♥", "Q♦", "Q♣", "9♣"], trumps="♥",
                       declared=declared)
    assert decls(data) == [("bezique", "", 40), ("common_marriage", "♠", 20)]


def test_r1_9_rule4_married_king_in_four_kings():
    """R1.9 rule 4: a married K♠ still counts in four kings."""
    data = declare_pos(["K♠", "Q♠", "K♥", "K♦", "K♣", "9♣"], trumps="♥",
                       declared={"K♠": ["marriage"], "Q♠": ["marriage"]})
    assert decls(data) == [("four_kings", "", 80)]
    assert decl_cards(data) == {("four_kings", ""): ["K♠", "K♣", "K♥", "K♦"]}


def test_r1_9_rule4_four_cards_in_sequence():
    """R1.9 rule 4: trump cards declared as fours still make the sequence."""
    hand = ["A♥", "10♥", "K♥", "Q♥", "J♥", "9♣"]
    declared = {"A♥": ["four"], "K♥": ["four"], "Q♥": ["four"], "J♥": ["four"]}
    assert decls(declare_pos(hand, trumps="♥", declared=declared)) == [
        ("royal_marriage", "♥", 40), ("sequence", "", 250)]


def test_r1_9_declared_history_first_copy_without_number():
    """R1.1: a 'declared' face without #k names the first copy of it in the hand."""
    data = declare_pos(["Q♠", "Q♠", "J♦", "9♣"], trumps="♥", declared={"Q♠": ["bezique"]})
    assert decls(data) == [("bezique", "", 40)]
    assert decl_cards(data) == {("bezique", ""): ["J♦", "Q♠#1"]}


def test_r1_9_declared_history_by_copy_number():
    """R1.1 / R1.9: history named by copy ('Q♠#1') belongs to that copy only."""
    hand = ["K♠", "Q♠", "Q♠#1", "9♣"]
    # Q♠#1 married before (with a king since played); Q♠ (pack 0) is fresh: marriage
    data = declare_pos(hand, trumps="♥", declared={"Q♠#1": ["marriage"]})
    assert decls(data) == [("common_marriage", "♠", 20)]
    assert decl_cards(data) == {("common_marriage", "♠"): ["K♠", "Q♠"]}


# ---------------------------------------------------------------------------------------------
# R1.10 one declaration per trick, "to score" (E6)
# ---------------------------------------------------------------------------------------------


def test_r1_10_e6_shows_bezique_and_marriage():
    """R1.10 / E6: trumps ♥; K♠ Q♠ J♦ after a win: bezique 40 and marriage 20 offered."""
    data = declare_pos(["K♠", "Q♠", "J♦", "9♣"], trumps="♥")
    assert decls(data) == [("bezique", "", 40), ("common_marriage", "♠", 20)]


def test_r1_10_e6_one_combination_per_trick_seven_still_allowed():
    """R1.10 / R2.3 (seven_exchange_is_declaration=false): after the bezique no further
    combination on this trick, but the seven of trumps still may be exchanged or declared."""
    data = declare_pos(["K♠", "Q♠", "J♦", "9♣"], trumps="♥", scored=["bezique"],
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == []
    data = declare_pos(["K♠", "Q♠", "J♦", "7♥"], trumps="♥", turnup="A♥", scored=["bezique"],
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == [("seven_declare", "", 10), ("seven_exchange", "", 10)]


def test_r2_3_seven_then_combination_same_trick():
    """R2.3 default: after the seven on this win a combination may still score, but no
    second seven action."""
    data = declare_pos(["K♠", "Q♠", "J♦", "7♥", "7♥#1"], trumps="♥", turnup="A♥",
                       scored=["seven_declare"], declared={"7♥": ["seven"]})
    assert decls(data) == [("bezique", "", 40), ("common_marriage", "♠", 20)]


def test_r9_seven_exchange_is_declaration_true():
    """R2.3 option seven_exchange_is_declaration=true: the seven is the one declaration."""
    opts = {"seven_exchange_is_declaration": "true"}
    hand = ["K♠", "Q♠", "J♦", "7♥"]
    assert decls(declare_pos(hand, trumps="♥", turnup="A♥", options=opts)) == [
        ("bezique", "", 40), ("common_marriage", "♠", 20),
        ("seven_declare", "", 10), ("seven_exchange", "", 10)]
    after_seven = declare_pos(["K♠", "Q♠", "J♦", "7♥"], trumps="♥", turnup="A♥",
                              options=opts, scored=["seven_declare"],
                              declared={"7♥": ["seven"]})
    assert decls(after_seven) == []
    after_exchange = declare_pos(["K♠", "Q♠", "J♦", "A♥"], trumps="♥", turnup="7♥",
                                 options=opts, scored=["seven_exchange"],
                                 seven_exchanged=True)
    assert decls(after_exchange) == []
    after_combo = declare_pos(hand, trumps="♥", turnup="A♥", options=opts,
                              scored=["bezique"],
                              declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(after_combo) == []


def test_r1_10_e6_pending_marriage_offered_on_later_win():
    """R1.10 / E6: the marriage shown 'to score' (on the table, no history) is offered again
    on a later win while K♠ and Q♠ are unplayed."""
    data = declare_pos(["K♠", "Q♠", "J♦", "9♣", "8♣"], trumps="♥", trick=12,
                       declared={"K♠": [], "Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == [("common_marriage", "♠", 20)]
    assert decl_cards(data) == {("common_marriage", "♠"): ["K♠", "Q♠"]}
    # K♠ played meanwhile (only Q♠ left): the marriage is gone
    data = declare_pos(["Q♠", "J♦", "9♣", "8♣"], trumps="♥", trick=12,
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == []


def _combo_code(kind: int, extra: int) -> int:
    return kind * 4 + (extra - 1 if kind <= C.K_ROYAL_MARRIAGE else 0)


def test_r1_10_e6_trace_pending_scored_or_lost():
    """R1.10 in real games: a 'scored_pending' event follows a show of that combination by
    that seat, on a later trick, and none of its shown cards was played since; a 'lost' one
    had a shown card played by that seat (and is lost at once, before the next card), or
    stage 1 ended (trick 24). At most one combination scores per trick won, and nothing
    stays 'to score' past a hand."""
    n_pending = n_lost = 0
    for policies in (["greedy", "greedy"], ["random", "random"]):
        for seed in range(12):
            _, trace = trace_one(Rules.make(), policies, seed, 0)
            pending, lost = _check_to_score_trace(np.asarray(trace).tolist(), seed)
            n_pending += pending
            n_lost += lost
    assert n_pending > 0 and n_lost > 0


def _check_to_score_trace(rows: list[list[int]], seed: int) -> tuple[int, int]:
    n_pending = n_lost = 0
    shown: dict[tuple[int, int], dict] = {}
    scored_per_trick: dict[tuple[int, int, int], int] = {}
    declared_run: list[int] = []      # cards of the declaration being scored (precede it)
    for row in rows:
        tag = row[0]
        if tag == C.TR_DECLARED_CARD:
            declared_run.append(row[4])
            continue
        run, declared_run = declared_run, []
        if tag in (C.TR_PLAY, C.TR_TRICK_WON, C.TR_HAND_END):
            killed = [key for key, group in shown.items() if group["played"]]
            assert killed == [], ("a played card did not lose its 'to score'", seed, killed)
        if tag == C.TR_HAND_START:
            assert shown == {}
        elif tag == C.TR_SHOW:
            hand, trick, seat, c, code = row[1:6]
            group = shown.setdefault((seat, code), {"trick": trick, "hand": hand,
                                                     "cards": set(), "played": False})
            assert group["trick"] == trick and group["hand"] == hand
            group["cards"].add(c)
        elif tag == C.TR_PLAY:
            hand, trick, seat, c = row[1:5]
            for (s, _), group in shown.items():
                if s == seat and c in group["cards"]:
                    group["played"] = True
        elif tag == C.TR_EVENT:
            hand, trick, seat, kind, status, extra, points = row[1:8]
            if kind <= C.K_FOUR_JACKS and status != C.EV_LOST:
                key = (hand, trick, seat)
                scored_per_trick[key] = scored_per_trick.get(key, 0) + 1
                assert scored_per_trick[key] == 1, ("two combinations on one trick", seed, row)
            if status == C.EV_SCORED:
                continue
            group = shown.pop((seat, _combo_code(kind, extra)), None)
            assert group is not None, ("pending event never shown", seed, row)
            assert group["hand"] == hand
            if status == C.EV_SCORED_PENDING:
                n_pending += 1
                assert not group["played"], ("scored although a card was played", seed, row)
                assert sorted(run) == sorted(group["cards"]), ("scored other cards than shown",
                                                               seed, row)
                assert trick > group["trick"]
                assert points == C.ORDINARY_POINTS[kind]
            else:
                assert status == C.EV_LOST
                n_lost += 1
                assert points == 0
                assert group["played"] or trick == 24, ("lost without cause", seed, row)
        elif tag == C.TR_HAND_END:
            assert shown == {}, ("'to score' combinations left at the end of a hand", seed)
    return n_pending, n_lost


def test_r2_2_stock_holds_47_face_down_cards_at_trick_1():
    """R2.2: stage 1 starts with 47 face-down stock cards plus the turn-up; after trick t
    (before its draws) 47 - 2 (t - 1) are left, so every stock count 0..47 is a position."""
    for trick, stock in ((1, 47), (5, 39), (9, 31)):
        data = declare_pos(["K♣", "Q♣", "9♦"], trumps="♥", trick=trick, stock=stock)
        pos = parse_position(data)
        assert (pos.stock, pos.stage) == (stock, 1)
        assert decls(data) == [("common_marriage", "♣", 20)]
    with pytest.raises(PositionError):
        parse_position(declare_pos(["K♣"], trumps="♥", trick=1, stock=48))


# ---------------------------------------------------------------------------------------------
# R2.3 seven of trumps
# ---------------------------------------------------------------------------------------------


def test_r2_3_no_exchange_after_the_exchange():
    """R2.3: one exchange per hand: after seven_exchanged only the declaration is left."""
    # realistic: the turn-up is now the exchanged 7♥; the player holds the other 7♥
    data = declare_pos(["7♥#1", "9♣"], trumps="♥", turnup="7♥", seven_exchanged=True)
    assert decls(data) == [("seven_declare", "", 10)]
    # the flag alone stops the exchange
    data = declare_pos(["7♥", "9♣"], trumps="♥", turnup="A♥", seven_exchanged=True)
    assert decls(data) == [("seven_declare", "", 10)]


def test_r2_3_no_exchange_when_turnup_is_a_seven():
    """R2.1 / R2.3: a seven turned up is not exchanged for a seven."""
    data = declare_pos(["7♥#1", "9♣"], trumps="♥", turnup="7♥")
    assert decls(data) == [("seven_declare", "", 10)]


def test_r2_3_no_exchange_once_turnup_taken_stage2():
    """R2.3 / R1.5: once the turn-up is taken (stage 2) nothing is offered."""
    data = declare_pos(["7♥", "9♣"], trumps="♥", turnup=None, stock=0, trick=26)
    data["turnup"] = None
    assert decls(data) == []


def test_r2_3_seven_scores_once_per_copy():
    """R2.3 / R1.9: a seven with 'seven' history cannot score again; the other copy can."""
    data = declare_pos(["7♥", "9♣"], trumps="♥", turnup="A♥", declared={"7♥": ["seven"]})
    assert decls(data) == []
    data = declare_pos(["7♥", "7♥#1", "9♣"], trumps="♥", turnup="A♥",
                       declared={"7♥": ["seven"]})
    assert decls(data) == [("seven_declare", "", 10), ("seven_exchange", "", 10)]
    assert decl_cards(data) == {("seven_declare", ""): ["7♥#1"],
                                ("seven_exchange", ""): ["7♥#1"]}


def test_r9_seven_scores_when_played():
    """R2.3 option seven_scores_when=played: no declaration of the seven; exchange still."""
    data = declare_pos(["7♥", "9♣"], trumps="♥", turnup="A♥",
                       options={"seven_scores_when": "played"})
    assert decls(data) == [("seven_exchange", "", 10)]


# ---------------------------------------------------------------------------------------------
# R2.4 end of stage 1; no declarations in stage 2
# ---------------------------------------------------------------------------------------------


def test_r2_4_declaration_after_trick_24():
    """R2.4: the winner of trick 24 (one face-down card and the turn-up left) may declare."""
    data = declare_pos(["K♣", "Q♣", "9♦"], trumps="♥", trick=24, stock=1)
    assert parse_position(data).stage == 1
    assert decls(data) == [("common_marriage", "♣", 20)]


def test_r9_declare_after_last_stock_trick_false():
    data = declare_pos(["K♣", "Q♣", "9♦"], trumps="♥", trick=24, stock=1,
                       options={"declare_after_last_stock_trick": "false"})
    assert decls(data) == []
    # trick 23 is unaffected by the option
    data = declare_pos(["K♣", "Q♣", "9♦"], trumps="♥", trick=23,
                       options={"declare_after_last_stock_trick": "false"})
    assert decls(data) == [("common_marriage", "♣", 20)]


def test_r1_5_r2_4_no_declarations_in_stage2():
    hand = ["K♣", "Q♣", "Q♠", "J♦", "7♥"]
    for trick in (25, 28, 32):
        data = declare_pos(hand, trumps="♥", turnup=None, trick=trick, stock=0)
        data["turnup"] = None
        assert parse_position(data).stage == 2
        assert decls(data) == []


def test_r1_7_declarations_only_in_declare_phase():
    """R1.7: only the trick winner, after winning: a play-phase position offers none."""
    data = declare_pos(["K♣", "Q♣", "9♦"], trumps="♥")
    data["phase"] = "play"
    assert decls(data) == []
    assert explain(parse_position(data))["legal_plays"] == ["K♣", "Q♣", "9♦"]


# ---------------------------------------------------------------------------------------------
# R9 options on declarations
# ---------------------------------------------------------------------------------------------


def test_r9_bezique_pair_by_trump():
    """R9 bezique_pair=by_trump (docs/rules.md R9): when spades or diamonds are trumps the
    bezique is Q♣ + J♥, when hearts or clubs are trumps Q♠ + J♦; no other pair scores."""
    opts = {"bezique_pair": "by_trump"}
    hand = ["Q♠", "J♦", "Q♣", "J♥", "Q♥", "J♣"]   # both pairs, and the trump-colour ones
    for trumps, pair in (("♠", ["J♥", "Q♣"]), ("♦", ["J♥", "Q♣"]),
                         ("♥", ["J♦", "Q♠"]), ("♣", ["J♦", "Q♠"])):
        data = declare_pos(hand, trumps=trumps, options=opts)
        assert decl_cards(data) == {("bezique", ""): pair}, trumps
        other = ["Q♠", "J♦"] if pair == ["J♥", "Q♣"] else ["Q♣", "J♥"]
        assert decls(declare_pos(other + ["9♣"], trumps=trumps, options=opts)) == [], trumps
        assert decls(declare_pos(pair + ["9♣"], trumps=trumps, options=opts)) == [
            ("bezique", "", 40)], trumps
    # the same pair makes the double
    data = declare_pos(["Q♣", "Q♣", "J♥", "J♥", "9♦"], trumps="♦", options=opts)
    assert decls(data) == [("bezique", "", 40), ("double_bezique", "", 500)]
    assert decl_cards(data)[("double_bezique", "")] == ["J♥", "J♥#1", "Q♣", "Q♣#1"]
    assert decls(declare_pos(["Q♠", "Q♠", "J♦", "J♦", "9♦"], trumps="♦", options=opts)) == []


def test_r9_bezique_pair_fixed_default_ignores_trumps():
    assert decls(declare_pos(["Q♠", "J♦", "9♦"], trumps="♣")) == [("bezique", "", 40)]
    assert decls(declare_pos(["Q♥", "J♦", "9♣"], trumps="♥")) == []


def test_r9_double_bezique_all_at_once():
    """R9 double_bezique=all_at_once: a single then the other pair gives no double."""
    opts = {"double_bezique": "all_at_once"}
    hand = ["Q♠", "J♦", "Q♠#1", "J♦#1", "9♣"]
    data = declare_pos(hand, trumps="♥", options=opts,
                       declared={"Q♠": ["bezique"], "J♦": ["bezique"]})
    assert decls(data) == [("bezique", "", 40)]
    # all four fresh: the double is there
    assert decls(declare_pos(hand, trumps="♥", options=opts)) == [
        ("bezique", "", 40), ("double_bezique", "", 500)]


def test_r9_marriage_to_sequence_false():
    """R9 marriage_to_sequence=false: royal-married K/Q cannot be in a sequence."""
    hand = ["A♥", "10♥", "K♥", "Q♥", "J♥", "9♣"]
    married = {"K♥": ["marriage"], "Q♥": ["marriage"]}
    opts = {"marriage_to_sequence": "false"}
    assert decls(declare_pos(hand, trumps="♥", declared=married, options=opts)) == []
    # unmarried: the sequence is still there under the option
    assert decls(declare_pos(hand, trumps="♥", options=opts)) == [
        ("royal_marriage", "♥", 40), ("sequence", "", 250)]
    # a fresh K♥#1 replaces the married king: sequence with the fresh one
    hand2 = ["A♥", "10♥", "K♥", "Q♥", "J♥", "K♥#1", "Q♥#1"]
    data = declare_pos(hand2, trumps="♥", declared=married, options=opts)
    assert decls(data) == [("royal_marriage", "♥", 40), ("sequence", "", 250)]
    assert decl_cards(data)[("sequence", "")] == ["10♥", "A♥", "J♥", "K♥#1", "Q♥#1"]


# ---------------------------------------------------------------------------------------------
# bad positions
# ---------------------------------------------------------------------------------------------

GOOD = {"trumps": "♠", "turnup": None, "stock": 0, "current_trick": ["Q♥"], "to_move": 1,
        "seats": [{"hand": ["A♣"]}, {"hand": ["K♥", "9♥", "7♠", "A♦"]}]}


def _with(**changes) -> dict:
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


@pytest.mark.parametrize("data,fragment", [
    (_with(current_trick=["Z♥"]), "Z♥"),
    (_with(seats=[{"hand": ["Q♠", "Q♠"]}, {"hand": ["Q♠"]}]), "copies"),
    (_with(seats=[{"hand": ["Q♠#1"]}, {"hand": ["Q♠#1"]}]), "twice"),
    (_with(bogus=1), "unknown key 'bogus'"),
    (_with(stock="ten"), "'stock'"),
    (_with(trick=True), "'trick'"),
    (_with(seats={"hand": []}), "'seats'"),
    (_with(seats=[{"hand": ["A♣"]}]), "'seats'"),
    (_with(seats=[{"hand": "A♣"}, {"hand": []}]), "seat 0"),
    (_with(seats=[{"hand": [3]}, {"hand": []}]), "seat 0"),
    (_with(trumps=None), "'trumps'"),
    (_with(seats=[{"hand": ["A♣"], "declared": {"A♣#2": ["four"]}}, {"hand": []}]),
     "pack 2 does not exist"),
    (_with(seats=[{"hand": ["K♣", "K♣"]}, {"hand": [], "declared": {"K♣": ["marriage"]}}]),
     "more copies of K♣"),
    (_with(current_trick=["Q♥", "K♥"]), "current_trick"),
    (_with(seats=[{"hand": ["A♣"], "declared": {"A♣": ["fours"]}}, {"hand": []}]),
     "unknown declaration 'fours'"),
    (_with(scored_this_trick=["marriage"]), "unknown kind 'marriage'"),
    (_with(phase="declaring"), "'phase'"),
    (_with(options={"stage2_duty": "never"}), "stage2_duty"),
    (_with(turnup="A♥"), "turnup"),
    ("not a dict", "JSON object"),
])
def test_bad_positions_raise_one_line_position_error(data, fragment):
    with pytest.raises(PositionError) as info:
        parse_position(data)
    message = str(info.value)
    assert "\n" not in message
    assert fragment in message


def test_r1_7_declared_card_not_listed_in_hand_is_added_to_it():
    """Declared cards stay part of the hand (R1.7): a 'declared' key that is not in the
    'hand' list is one more card of that hand, on the table."""
    pos = parse_position({"trumps": "♥", "turnup": "9♥", "stock": 20, "trick": 14,
                          "phase": "declare",
                          "seats": [{"hand": ["K♣"], "declared": {"Q♣": ["four"],
                                                                  "K♣#1": ["four"]}},
                                    {"hand": []}]})
    assert sorted(pos.hands[0]) == sorted([card_id(0, 3, 2), card_id(0, 3, 3),
                                           card_id(1, 3, 2)])
    assert pos.shown[0] == {card_id(0, 3, 3), card_id(1, 3, 2)}
    assert [(d["kind"], d["points"]) for d in legal_declarations(pos)] == [
        ("common_marriage", 20)]


def test_good_position_parses():
    """The base of the bad-position cases is itself valid (so each case tests one fault)."""
    assert plays(GOOD) == ["K♥"]


# ---------------------------------------------------------------------------------------------
# bezsim explain
# ---------------------------------------------------------------------------------------------


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="bezsim")


def test_explain_cli_text(tmp_path):
    """E12 through the command line."""
    file = tmp_path / "pos.json"
    file.write_text(json.dumps(GOOD, ensure_ascii=False), encoding="utf-8")
    result = _invoke("explain", str(file))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "ordinary bézique, trumps ♠, trick 25 (stage 2), seat 1 to play",
        "on the trick: Q♥",
        "legal plays: K♥",
    ]


def test_explain_cli_json_declarations(tmp_path):
    """E6 through the command line, as JSON."""
    file = tmp_path / "pos.json"
    file.write_text(json.dumps(declare_pos(["K♠", "Q♠", "J♦", "9♣"], trumps="♥"),
                               ensure_ascii=False), encoding="utf-8")
    result = _invoke("explain", str(file), "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["phase"] == "declare" and out["stage"] == 1 and out["trick"] == 10
    assert out["legal_plays"] == []
    assert sorted((d["kind"], d["points"], tuple(sorted(d["cards"])))
                  for d in out["legal_declarations"]) == [
        ("bezique", 40, ("J♦", "Q♠")), ("common_marriage", 20, ("K♠", "Q♠"))]


@pytest.mark.parametrize("text", ["{not json", '{"seats": [{"hand": ["Z♠"]}, {"hand": []}],'
                                  ' "trumps": "♠"}', "[]"])
def test_explain_cli_bad_file_one_line_error(tmp_path, text):
    file = tmp_path / "bad.json"
    file.write_text(text, encoding="utf-8")
    result = _invoke("explain", str(file))
    assert result.exit_code != 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bezsim: error:")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
