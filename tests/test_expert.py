"""The ``expert`` policy in concrete positions: which declaration it scores and which card
it plays, against what the rules make each choice worth (docs/rules.md R1.9, R6.2, R6.6)."""

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.offers import legal_declarations
from bezsim.engine.tricks import legal_plays
from bezsim.policies.builtin import EXPERT, GREEDY, HEURISTIC, choose
from bezsim.policy_specs.registry import policy_params
from bezsim.position import build_state, parse_position

# the planner's weights, given so that no tuning of the defaults moves these positions:
# a combination left "to score" scores later with chance 0.95 while four or more stock
# tricks are left, less in proportion below
PLANNER = "expert(later=0.95,defer=4)"


def _tally(S, points=None, brisques=None):
    """Points this hand and brisque points taken, seat by seat (positions start at 0)."""
    for seat, v in enumerate(points or ()):
        S[st.O_SC + C.SC_HAND_POINTS + seat] = v
    for seat, v in enumerate(brisques or ()):
        S[st.O_BRISQ_TAKEN + seat] = v


def _declare(policy_id, data, spec=PLANNER, points=None, brisques=None):
    """The declaration code ``policy_id`` scores in a 'declare' position (A_STOP: none)."""
    pos = parse_position({**data, "phase": "declare"})
    S = build_state(pos)
    _tally(S, points, brisques)
    params = pos.rules.params()
    n = legal_declarations(params, S, pos.to_move, True, True, st.O_ACTS)
    S[st.O_ACTS + n] = C.A_STOP
    S[st.O_APTS + n] = 0
    S[st.O_N_ACTS] = n + 1
    S[st.O_DECISION] = C.D_DECLARE
    offer = {int(S[st.O_ACTS + i]) for i in range(n)}
    rows = policy_params([spec] * pos.rules.players, pos.rules.variant)
    rng = np.zeros((1 + pos.rules.players, 4), np.uint64)
    return int(S[st.O_ACTS + choose(policy_id, S, pos.to_move, rows, rng)]), offer


def _play(policy_id, data, spec="expert", points=None, brisques=None):
    pos = parse_position({**data, "phase": "play"})
    S = build_state(pos)
    _tally(S, points, brisques)
    n = legal_plays(S, pos.to_move, len(pos.current_trick), pos.trumps, pos.stage,
                    int(pos.rules.params()[C.PR_STAGE2_DUTY]))
    S[st.O_N_ACTS] = n
    S[st.O_DECISION] = C.D_PLAY
    rows = policy_params([spec] * pos.rules.players, pos.rules.variant)
    rng = np.zeros((1 + pos.rules.players, 4), np.uint64)
    card = int(S[st.O_ACTS + choose(policy_id, S, pos.to_move, rows, rng)])
    from bezsim.cards import card_name
    return card_name(card)


def code(kind, suit=0):
    return kind * 4 + suit


SEQUENCE_HAND = {"trumps": "♥", "turnup": "9♥", "trick": 6, "to_move": 0,
                 "seats": [{"hand": ["A♥", "10♥", "K♥", "Q♥", "J♥", "7♣", "8♣", "9♠"]},
                           {"hand": []}]}


def test_royal_marriage_before_its_sequence_while_the_stock_is_long():
    # 40 now and the sequence (shown to score) on a later win: 40 + 0.95 * 250 > 250;
    # the sequence first would bar the marriage for good (R1.9.2)
    chosen, offer = _declare(EXPERT, {**SEQUENCE_HAND, "stock": 30})
    assert {code(C.K_ROYAL_MARRIAGE, C.HEARTS), code(C.K_SEQUENCE)} <= offer
    assert chosen == code(C.K_ROYAL_MARRIAGE, C.HEARTS)
    # greedy takes the points now
    assert _declare(GREEDY, {**SEQUENCE_HAND, "stock": 30})[0] == code(C.K_SEQUENCE)


def test_the_sequence_at_once_when_the_stock_runs_out():
    # one stock trick left: 0.95 * 1/4 of 250 is less than what the marriage first loses
    chosen, _ = _declare(EXPERT, {**SEQUENCE_HAND, "stock": 2, "trick": 24})
    assert chosen == code(C.K_SEQUENCE)


BEZIQUE_HAND = {"trumps": "♣", "turnup": "9♣", "trick": 6, "to_move": 0,
                "seats": [{"hand": ["Q♠", "Q♠", "J♦", "J♦", "7♥", "8♥", "9♥", "8♣"]},
                          {"hand": []}]}


def test_single_bezique_before_the_double_while_the_stock_is_long():
    # R1.9.2: a single then the double adding a pair is 40 + 500; the double first bars
    # the single (its cards may not go down within the class)
    chosen, offer = _declare(EXPERT, {**BEZIQUE_HAND, "stock": 30})
    assert {code(C.K_BEZIQUE), code(C.K_DOUBLE_BEZIQUE)} <= offer
    assert chosen == code(C.K_BEZIQUE)
    late, _ = _declare(EXPERT, {**BEZIQUE_HAND, "stock": 2, "trick": 24})
    assert late == code(C.K_DOUBLE_BEZIQUE)


def test_double_at_once_when_a_double_may_not_reuse_a_single():
    # double_bezique=all_at_once: a double may use only cards never in a bezique (R9), so a
    # single first would cost the 500
    data = {**BEZIQUE_HAND, "stock": 30, "options": {"double_bezique": "all_at_once"}}
    assert _declare(EXPERT, data)[0] == code(C.K_DOUBLE_BEZIQUE)


RUBICON_KINGS = {"variant": "rubicon", "trick": 4, "stock": 100, "to_move": 0,
                 "seats": [{"hand": ["K♠", "K♥", "K♦", "K♣", "Q♥", "7♠", "8♠", "9♦", "7♣"]},
                           {"hand": []}]}


def test_rubicon_marriage_before_fours_under_later_class():
    # R6.6 later_class: kings put into four kings may never marry; the marriage first
    # keeps both (a married king may still go into fours)
    chosen, offer = _declare(EXPERT, RUBICON_KINGS)
    assert {code(C.K_FOUR_KINGS), code(C.K_ROYAL_MARRIAGE, C.HEARTS)} <= offer
    assert chosen == code(C.K_ROYAL_MARRIAGE, C.HEARTS)
    assert _declare(GREEDY, RUBICON_KINGS)[0] == code(C.K_FOUR_KINGS)
    assert _declare(HEURISTIC, RUBICON_KINGS)[0] == code(C.K_FOUR_KINGS)


def test_rubicon_trumps_fixed_where_the_sequence_is_held():
    # two marriages offered while trumps are undecided: the heart one makes the held
    # A 10 J of hearts a sequence in trumps (250, R6.2) and leaves the spade marriage (20)
    data = {"variant": "rubicon", "trick": 4, "stock": 100, "to_move": 0,
            "seats": [{"hand": ["K♠", "Q♠", "K♥", "Q♥", "A♥", "10♥", "J♥", "7♣", "8♣"]},
                      {"hand": []}]}
    chosen, offer = _declare(EXPERT, data)
    assert code(C.K_ROYAL_MARRIAGE, C.SPADES) in offer
    assert code(C.K_SEQUENCE, C.HEARTS) in offer
    assert chosen == code(C.K_ROYAL_MARRIAGE, C.HEARTS)


def test_the_seven_of_trumps_is_always_exchanged():
    data = {"trumps": "♥", "turnup": "A♥", "trick": 6, "stock": 30, "to_move": 0,
            "seats": [{"hand": ["7♥", "K♠", "Q♠", "8♣", "9♣", "7♣", "8♦", "9♦"]},
                      {"hand": []}]}
    chosen, offer = _declare(EXPERT, data)
    assert code(C.K_SEVEN_EXCHANGE) in offer
    assert chosen == code(C.K_SEVEN_EXCHANGE)


@pytest.mark.parametrize("spec", ["expert", PLANNER])
def test_leads_a_card_that_completes_nothing(spec):
    # a ready marriage, a bezique in the making and trumps: the plain nine goes
    data = {"trumps": "♥", "turnup": "9♥", "trick": 6, "stock": 30, "to_move": 0,
            "current_trick": [],
            "seats": [{"hand": ["K♠", "Q♠", "J♦", "A♥", "10♥", "K♣", "9♣", "A♦"]},
                      {"hand": []}]}
    assert _play(EXPERT, data, spec) == "9♣"


def test_takes_a_led_ten_with_a_card_it_does_not_need():
    data = {"trumps": "♥", "turnup": "9♥", "trick": 6, "stock": 30, "to_move": 1,
            "current_trick": ["10♣"],
            "seats": [{"hand": []},
                      {"hand": ["A♣", "K♠", "Q♠", "J♦", "7♥", "8♦", "9♦", "7♠"]}]}
    # the ace of clubs or the seven of trumps wins the ten; the bezique and marriage cards
    # are kept
    assert _play(EXPERT, data) in ("A♣", "7♥")


def test_polish_wins_the_card_that_completes_its_marriage():
    # Polish: the led K♠ would join the winner's open cards; seat 1 has Q♠ open, so taking
    # the trick scores the marriage at once (R5.2)
    data = {"variant": "polish", "trumps": "♥", "turnup": "9♥", "trick": 6, "stock": 30,
            "to_move": 1, "current_trick": ["K♠"],
            "seats": [{"hand": []},
                      {"hand": ["A♠", "7♠", "8♣", "9♣", "7♦", "8♦", "9♦", "7♣"],
                       "open": ["Q♠"]}]}
    assert _play(EXPERT, data) == "A♠"


# --- Rubicon: played for the settlement (R6.8) ------------------------------------------------

LATE_RUBICON = {"variant": "rubicon", "trumps": "♠", "trick": 53, "stock": 4, "to_move": 0,
                "seats": [{"hand": ["K♥", "Q♥", "7♦", "8♦", "9♦", "7♣", "8♣", "9♣", "7♥"]},
                          {"hand": []}]}
SETTLING = "expert(endgame=3,settle=0)"


@pytest.mark.parametrize("mine, theirs, my_brisques, their_brisques, declares", [
    # 690 + 20 rounds to 700; with every brisque left (20) and the last trick (50) it can
    # reach neither 1000 nor 1500: a rubiconed loser pays his own rounded total too, so no
    # marriage
    (690, 1500, 0, 300, False),
    # the same points, but his brisques and those left could carry him over 1000: declare
    (690, 1500, 200, 50, True),
    # 670 + 20 stays 600 rounded: the marriage costs nothing, so it is scored
    (670, 1500, 0, 300, True),
    # 690 + 20 reaches the other's 700 rounded: it may win the game
    (690, 720, 0, 300, True),
])
def test_a_sure_rubicon_declares_nothing_that_raises_its_stake(mine, theirs, my_brisques,
                                                                their_brisques, declares):
    chosen, offer = _declare(EXPERT, LATE_RUBICON, SETTLING, (mine, theirs),
                             (my_brisques, their_brisques))
    marriage = code(C.K_COMMON_MARRIAGE, C.HEARTS)
    assert marriage in offer
    assert chosen == (marriage if declares else C.A_STOP)
    # without the endgame logic (endgame=0) the marriage is always scored
    plain, _ = _declare(EXPERT, LATE_RUBICON, "expert(endgame=0)", (mine, theirs),
                        (my_brisques, their_brisques))
    assert plain == marriage


LED_TEN = {"variant": "rubicon", "trumps": "♠", "trick": 53, "stock": 4, "to_move": 1,
           "current_trick": ["10♣"],
           "seats": [{"hand": []},
                     {"hand": ["A♣", "7♦", "8♦", "9♦", "7♥", "8♥", "9♥", "7♣", "8♣"]}]}


@pytest.mark.parametrize("mine, theirs, my_brisques, their_brisques, critical", [
    (850, 800, 100, 100, True),      # level rounded totals: brisques decide (R6.8)
    (700, 1400, 100, 100, False),    # he is ahead and over 1000, I cannot reach 1000 (700 +
    #                                  100 + the 120 left + 50): nothing hangs on brisques...
    (1500, 800, 300, 0, False),      # ...nor here: 800 + the 20 left + 50 cannot reach 1000
    (1500, 800, 100, 0, True),       # but here they may save him: deny him the ten
])
def test_brisques_are_fought_for_when_they_decide_the_settlement(mine, theirs, my_brisques,
                                                                  their_brisques, critical):
    spec = "expert(endgame=3,settle=200)"
    card = _play(EXPERT, LED_TEN, spec, (mine, theirs), (my_brisques, their_brisques))
    assert (card == "A♣") == critical
    # settle=0: the ten is left to him in every case (the ace is worth more kept)
    assert _play(EXPERT, LED_TEN, "expert(endgame=3,settle=0)", (mine, theirs),
                 (my_brisques, their_brisques)) != "A♣"


# --- partners: the partner's cards on the table (R4.2) ----------------------------------------

PARTNER_JACKS = {
    "variant": "four_handed_partners", "trumps": "♥", "turnup": "9♥", "trick": 10,
    "stock": 40, "to_move": 0,
    "seats": [{"hand": ["Q♠#0", "Q♠#1", "A♣", "7♦", "8♦", "9♦", "7♥", "8♠", "9♠"]},
              {"hand": []},
              {"hand": ["Q♠#2", "J♦#0", "J♠#0", "J♥#0", "J♦#1", "J♣#0"],
               "declared": {"Q♠#2": ["bezique"], "J♦#0": ["bezique"], "J♠#0": ["four"],
                            "J♥#0": ["four"], "J♦#1": ["four"], "J♣#0": ["four"]}},
              {"hand": []}]}


def test_the_partners_jacks_on_the_table_make_our_double_bezique():
    """Seat 0 holds Q♠ Q♠; its partner has both J♦ face up (one in a single bezique, one in
    four jacks). A double may take them (R4.2), and the engine offers it: 500."""
    offered = _declare(EXPERT, PARTNER_JACKS)[1]
    assert code(C.K_DOUBLE_BEZIQUE) in offered
    # so a trick the opponents are winning is worth taking with the ace: the win lets us
    # declare the double; expert without the partner's cards (partner=0) lets it go
    data = {**PARTNER_JACKS, "current_trick": ["9♣", "7♣", "8♣"]}   # led by seat 1
    assert _play(EXPERT, data, "expert(partner=0.4)") == "A♣"
    assert _play(EXPERT, data, "expert(partner=0)") != "A♣"


def test_the_offer_scan_counts_what_the_full_scan_counts(tmp_path):
    """expert reads its own cards from the offer when the offer is the whole hand (stage 1,
    or a lead): at every such decision of real games in every variant (the hidden-
    information snapshots), its counts equal those of the full pass over the seat's row."""
    from hidden_info_helpers import capture

    from bezsim.policies.expert.counts import _scan, _scan_offer

    checked = 0
    for snap in capture(tmp_path):
        S = snap.S
        if snap.decision != C.D_PLAY or (snap.stage == 2 and S[st.O_SC + C.SC_N_TRICK]):
            continue
        if S[st.O_RULES + C.PR_OPEN_CARDS]:
            continue                   # Polish play does not count this way
        packs = int(S[st.O_SC + C.SC_PACKS])
        for rubicon, any_class, m2s in ((False, False, True), (True, False, False),
                                        (True, True, True)):
            assert (_scan_offer(S, snap.seat, packs, rubicon, any_class, m2s)
                    == _scan(S, snap.seat, packs, rubicon, any_class, m2s)), snap.case
        checked += 1
    assert checked > 200
