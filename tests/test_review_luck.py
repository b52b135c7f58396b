"""The luck of the cards and the result split into skill and luck (bezsim/review/luck.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.review.record import record_of_run, replay
from bezsim.rules import Rules


def _play_decision(variant: str, seed: int, game: int, nth: int):
    """The state at the ``nth`` stage-1 card play of a learned self-play game, and its
    seat."""
    found = []

    def visit(g, n, index):
        S = g.view()
        if g.decision == "play" and S[st.O_SC + C.SC_STAGE] == 1 and len(found) <= nth:
            found.append((g.state_array(), g.seat))

    rules = Rules.make(variant)
    replay(record_of_run(rules, ["learned"] * rules.players, seed, game), visit)
    return rules, *found[nth]


def _places(W: np.ndarray, rules) -> dict[int, tuple]:
    """Where each card not yet played is: a seat's hand or a place in the stock."""
    out = {}
    for p in range(rules.players):
        for i in range(int(W[st.O_HAND_N + p])):
            out[int(W[st.O_HANDS + p * C.MAX_HAND + i])] = ("hand", p)
    for pos in range(int(W[st.CTR_STOCK_POS]), rules.packs * 32):
        out[int(W[st.O_STOCK + pos])] = ("stock", pos)
    return out


def test_hiding_a_card_deals_the_seat_a_uniform_unseen_card_and_keeps_the_deal():
    """hide_cards on a sampled deal: the seat's card goes where the card it gets was, every
    other card stays put, the knowledge follows the cards, and over many draws the card the
    seat gets is uniform over the cards it has not seen and the hidden one itself."""
    from bezsim.engine.rng import seed_stream
    from bezsim.policies.deals import determinize, hide_cards, rules_of

    rules, S, seat = _play_decision("ordinary", 31, 0, 6)
    params = rules_of(S)
    pool, known = np.empty(st.N_MAX, np.int32), np.empty(C.MAX_HAND, np.int32)
    hidden = np.empty(st.N_MAX, np.int32)
    stream = np.zeros(4, np.uint64)
    seed_stream(stream, 9, 0, 0, seat)
    W = np.empty(st.S_BASE, np.int32)
    assert determinize(S, W, seat, params, stream, pool, known)
    mine = st.O_SEEN + seat * st.N_MAX
    card = int(W[st.O_HANDS + seat * C.MAX_HAND])
    unseen = [c for c in range(64) if W[mine + c] == C.V_UNSEEN]
    before = _places(W, rules)
    got = Counter()
    trials = 6000
    for _ in range(trials):
        W2 = W.copy()
        hide_cards(W2, seat, np.array([card], np.int32), 1, params, stream, hidden)
        after = _places(W2, rules)
        assert set(after) == set(before)
        gained = [c for c, place in after.items()
                  if place == ("hand", seat) and before[c] != ("hand", seat)]
        assert len(gained) == (after[card] != ("hand", seat))
        new = gained[0] if gained else card
        got[new] += 1
        if new != card:
            assert after[card] == before[new] and after[new] == ("hand", seat)
            assert W2[mine + new] == C.V_MINE and W2[mine + card] == C.V_UNSEEN
            assert W2[st.O_LOC + new] == C.LOC_HAND + seat
            if before[new][0] == "hand":
                other = before[new][1]
                row = st.O_SEEN + other * st.N_MAX
                assert W2[row + card] == C.V_MINE and W2[row + new] == C.V_UNSEEN
            else:
                assert W2[st.O_LOC + card] == C.LOC_STOCK
        moved = {c for c in before if after[c] != before[c]}
        assert moved <= {card, new}
    assert set(got) == {card, *unseen}
    expected = trials / (len(unseen) + 1)
    chi2 = sum((n - expected) ** 2 / expected for n in got.values())
    assert chi2 < 100, (chi2, len(unseen))      # 40-odd degrees of freedom: p < 1e-6 above


def test_luck_depends_only_on_what_the_seat_saw():
    """The cards hidden from the seat dealt again (tests/hidden_info_helpers.py): the luck
    table is the same to the last digit; with another seed it is not."""
    from hidden_info_helpers import Snapshot, perturb

    from bezsim.review.luck import luck_table

    rules, S, seat = _play_decision("ordinary", 44, 2, 9)
    cards = [int(S[st.O_HANDS + seat * C.MAX_HAND + i]) for i in range(2)]
    table = luck_table(rules, S, seat, cards, 12, seed=5)
    assert table.shape == (12, 2)
    snap = Snapshot("ordinary", rules.params(), S, np.zeros((4, 4), np.uint64), seat)
    gen = np.random.default_rng(3)
    for _ in range(2):
        S2, changed = perturb(snap, seat, gen)
        assert changed
        assert np.array_equal(luck_table(rules, S2, seat, cards, 12, seed=5), table)
    assert not np.array_equal(luck_table(rules, S, seat, cards, 12, seed=6), table)


def test_a_double_bezique_dealt_is_good_luck_and_its_seats_first_decision():
    """Seat 1 of seed 1152, game 0 is dealt both Q♠ and both J♦ (test_review_values.py):
    the deal is valued at its first card play and is worth a lot to it, the interval clear
    of zero; seat 0's deal is valued too, and counts against seat 1."""
    from test_review_values import BROKEN_DOUBLE

    from bezsim.review.game_review import review_record

    seed, number = BROKEN_DOUBLE
    record = record_of_run(Rules.make("ordinary"), ["greedy", "greedy"], seed, 0)
    review = review_record(record, seats=[number], deals=8, seed=2)
    deals = {e.seat: e for e in review.luck_events if e.kind == "deal" and e.hand == 1}
    mine = deals[number]
    assert sorted(mine.cards).count("Q♠") == 2 and sorted(mine.cards).count("J♦") == 2
    assert mine.number == 1 and len(mine.cards) == 8
    assert mine.low > 0 and mine.value > 100
    split = review.luck[0]
    assert split.hands[0].deal == pytest.approx(mine.value - deals[1 - number].value)


def test_the_split_adds_up_and_two_seats_mirror_each_other():
    """Every seat reviewed in a two-handed game: each hand's result is the score margin,
    result = skill + luck + residue, seat 0's split is seat 1's negated, skill is the
    other's losses minus one's own, and the 47 cards drawn unseen a hand are each valued
    once, every seat's deal at its first card play."""
    from bezsim.review.game_review import review_record

    rules = Rules.make("ordinary", {"target": 600})
    record = record_of_run(rules, ["expert", "learned"], 21, 1)
    review = review_record(record, seats=None, deals=4, seed=7)
    zero, one = review.luck
    final = review.scores
    assert zero.result == pytest.approx(final[0] - final[1])
    assert len(zero.hands) >= 1 and zero.skill_seats == (0, 1)
    for a, b in zip(zero.hands, one.hands, strict=True):
        for name in ("result", "skill", "position", "deal", "draws", "residue"):
            assert getattr(a, name) == pytest.approx(-getattr(b, name))
        assert a.result == pytest.approx(a.skill + a.luck + a.residue)
        losses = {s: sum(d.loss for d in review.decisions if d.seat == s and d.hand == a.hand)
                  for s in (0, 1)}
        assert a.skill == pytest.approx(losses[1] - losses[0])
        events = [e for e in review.luck_events if e.hand == a.hand]
        draws = [e for e in events if e.kind == "draw"]
        assert len(draws) == 47 and all(len(e.cards) == 1 for e in draws)
        assert sorted(e.seat for e in events if e.kind == "deal") == [0, 1]
        for e in events:
            first = min(d.number for d in review.decisions
                        if d.seat == e.seat and d.hand == a.hand and d.kind == "play")
            assert e.kind == ("deal" if e.number == first else "draw")
            assert e.low <= e.value <= e.high
    assert zero.residue == pytest.approx(zero.result - zero.skill - zero.luck)


def test_one_seat_reviewed_counts_its_own_losses_and_says_so():
    from bezsim.review.game_review import luck_line, review_record, unit_of

    rules = Rules.make("rubicon")
    record = record_of_run(rules, ["greedy", "learned"], 5, 2)
    review = review_record(record, seats=[1], deals=4, seed=1)
    (split,) = review.luck
    assert split.skill_seats == (1,)
    assert split.skill == pytest.approx(-sum(d.loss for d in review.decisions))
    assert abs(split.result) >= 100 and len(split.hands) == 1     # the settlement
    text = luck_line(split, rules, unit_of(rules))
    assert text.startswith(f"seat 1's result {split.result:+.1f} settlement points = skill")
    assert "losses of seat 1 only" in text
    data = review.as_json()
    assert data["luck"][0]["residue"] == pytest.approx(split.residue)
    assert {e["seat"] for e in data["luck_events"]} == {0, 1}


def test_a_game_left_in_its_first_hand_has_luck_but_nothing_to_split():
    from dataclasses import replace

    from bezsim.review.game_review import luck_line, review_record, unit_of

    rules = Rules.make("ordinary")
    whole = record_of_run(rules, ["greedy", "greedy"], 12, 0)
    record = replace(whole, actions=whole.actions[:20], end="left")
    review = review_record(record, seats=[0], deals=4, seed=1, luck_deals=2)
    assert all(split.hands == () for split in review.luck)
    assert {e.kind for e in review.luck_events} == {"deal", "draw"}
    assert luck_line(review.luck[0], rules, unit_of(rules)) == (
        "seat 0's result: no hand finished yet, nothing to split")
