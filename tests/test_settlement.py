"""Rubicon settlement (R6.7, R6.8) and the exact carte blanche probability (R6.4)."""

import itertools
import math

import numpy as np
import pytest
from numba import njit

from bezsim.analysis.exact import carte_blanche_probability
from bezsim.engine.settlement import settle as settle_rules
from bezsim.rules import Rules


def rubicon_params(bonus: int = 300, close_by_points: int = 0) -> np.ndarray:
    """The Rubicon rules table with options rubicon_brisque_bonus and rubicon_close."""
    return Rules.make("rubicon", {"rubicon_brisque_bonus": str(int(bonus)),
                                  "rubicon_close": "points" if close_by_points
                                  else "brisques"}).params()


def settle(p0, p1, b0, b1, bonus=300, close_by_points=0):
    """The engine's settlement of a Rubicon game (R6.8) under those two options."""
    return tuple(int(v) for v in settle_rules(rubicon_params(bonus, close_by_points),
                                              p0, p1, b0, b1))

# (points0, points1, brisques0, brisques1, bonus) -> (winner, rounded0, rounded1, rubicon, stake)
CASES = [
    # plain wins: 500 + difference of the rounded totals
    pytest.param((2350, 1480, 0, 0, 300), (0, 2300, 1400, 0, 1400), id="plain-win"),
    pytest.param((1390, 1000, 0, 0, 300), (0, 1300, 1000, 0, 800), id="plain-loser-exactly-1000"),
    pytest.param((1480, 3999, 60, 90, 300), (1, 1400, 3900, 0, 3000), id="plain-seat1-wins"),
    pytest.param((1050, 1099, 0, 0, 300), (-1, 1000, 1000, 0, 0), id="draw-same-hundred"),
    pytest.param((1420, 1390, 0, 0, 320), (0, 1400, 1300, 0, 600), id="plain-bonus-irrelevant"),
    # brisques saving the loser from the rubicon (raw total + brisques >= 1000)
    pytest.param((2000, 930, 0, 80, 300), (0, 2000, 900, 0, 1600), id="saved-930+80"),
    pytest.param((2000, 920, 0, 80, 300), (0, 2000, 900, 0, 1600), id="saved-exactly-1000"),
    pytest.param((2000, 930, 0, 60, 300), (0, 2000, 900, 1, 4200), id="rubicon-930+60"),
    pytest.param((2000, 999, 0, 0, 300), (0, 2000, 900, 1, 4200), id="rubicon-999"),
    pytest.param((2000, 999, 0, 1, 300), (0, 2000, 900, 0, 1600), id="saved-999+1"),
    pytest.param((2000, 930, 500, 60, 300), (0, 2000, 900, 1, 4200), id="winner-brisques-ignored"),
    # rubicon: loser's rounded total counted as 100 if under 100
    pytest.param((1200, 99, 0, 0, 300), (0, 1200, 0, 1, 2600), id="rubicon-loser-99"),
    pytest.param((1200, 0, 0, 0, 300), (0, 1200, 0, 1, 2600), id="rubicon-loser-0"),
    pytest.param((1200, 100, 0, 0, 300), (0, 1200, 100, 1, 2600), id="rubicon-loser-100"),
    pytest.param((1200, 199, 0, 0, 300), (0, 1200, 100, 1, 2600), id="rubicon-loser-199"),
    pytest.param((1200, 250, 0, 0, 300), (0, 1200, 200, 1, 2700), id="rubicon-loser-250"),
    pytest.param((40, 1390, 0, 0, 300), (1, 0, 1300, 1, 2700), id="rubicon-seat0-under-100"),
    # brisque bonus option: 300 / 320
    pytest.param((2000, 930, 0, 60, 320), (0, 2000, 900, 1, 4220), id="rubicon-bonus-320"),
    pytest.param((3000, 250, 0, 0, 320), (0, 3000, 200, 1, 4520), id="rubicon-250-bonus-320"),
    pytest.param((1200, 50, 0, 0, 320), (0, 1200, 0, 1, 2620), id="rubicon-under-100-bonus-320"),
    # both under 1000: the winner still rubicons the loser
    pytest.param((900, 500, 0, 0, 300), (0, 900, 500, 1, 2700), id="both-under-1000"),
    # ties after rounding decided by brisques, both directions
    pytest.param((1450, 1420, 100, 140, 300), (1, 1400, 1400, 0, 500), id="tie-brisques-seat1"),
    pytest.param((1450, 1420, 140, 100, 300), (0, 1400, 1400, 0, 500), id="tie-brisques-seat0"),
    pytest.param((950, 980, 40, 60, 300), (1, 900, 900, 1, 3100), id="tie-brisques-rubicon"),
    pytest.param((950, 980, 60, 40, 300), (0, 900, 900, 0, 500), id="tie-brisques-saved"),
    pytest.param((1350, 1300, 0, 300, 300), (1, 1300, 1300, 0, 500), id="tie-brisques-beat-raw"),
    # brisques never enter the score: 1390 + 100 brisques is still 1300, not 1400
    pytest.param((1390, 1400, 100, 0, 300), (1, 1300, 1400, 0, 600), id="brisques-not-points"),
    # complete ties: draw
    pytest.param((1450, 1420, 100, 100, 300), (-1, 1400, 1400, 0, 0), id="draw"),
    pytest.param((950, 920, 50, 50, 300), (-1, 900, 900, 0, 0), id="draw-both-under-1000"),
    pytest.param((0, 0, 0, 0, 300), (-1, 0, 0, 0, 0), id="draw-zero"),
]


def _swap(result):
    winner, r0, r1, rubicon, stake = result
    return (1 - winner if winner >= 0 else -1, r1, r0, rubicon, stake)


@pytest.mark.parametrize("args, expected", CASES)
def test_settle_exact(args, expected):
    assert tuple(settle(*args)) == expected


@pytest.mark.parametrize("args, expected", CASES)
def test_settle_symmetric(args, expected):
    p0, p1, b0, b1, bonus = args
    assert tuple(settle(p1, p0, b1, b0, bonus)) == _swap(expected)


@pytest.mark.parametrize(
    "points, rounded",
    [(1390, 1300), (999, 900), (100, 100), (99, 0), (0, 0), (1400, 1400), (1401, 1400),
     (12345, 12300)],
)
def test_rounding_down_to_hundreds(points, rounded):
    assert settle(points, 5000, 0, 0, 300)[1] == rounded
    assert settle(5000, points, 0, 0, 300)[2] == rounded


def test_results_are_ints():
    result = settle_rules(rubicon_params(), 2000, 930, 0, 60)
    assert len(result) == 5
    assert all(isinstance(x, int) for x in result)
    # numpy int64 inputs work too
    args = tuple(np.int64(x) for x in (2000, 930, 0, 60))
    assert tuple(int(v) for v in settle_rules(rubicon_params(), *args)) == (0, 2000, 900, 1, 4200)


def test_callable_from_njit():
    @njit
    def caller(params, p0, p1, b0, b1):
        winner, r0, r1, rubicon, stake = settle_rules(params, p0, p1, b0, b1)
        return winner * 1_000_000 + stake

    assert caller(rubicon_params(320), 2000, 930, 0, 60) == 4220
    assert caller(rubicon_params(), 1450, 1420, 100, 100) == -1_000_000


@pytest.mark.parametrize("bonus", [300, 320])
def test_settle_properties_random(bonus):
    rng = np.random.default_rng(6_8)
    points = rng.integers(0, 4000, size=(3000, 2))
    brisques = rng.integers(0, 33, size=(3000, 2)) * 10
    # plenty of equal rounded totals
    points[::3, 1] = points[::3, 0] // 100 * 100 + rng.integers(0, 100, size=len(points[::3]))
    for (p0, p1), (b0, b1) in zip(points.tolist(), brisques.tolist(), strict=True):
        result = settle(p0, p1, b0, b1, bonus)
        winner, r0, r1, rubicon, stake = result
        assert tuple(settle(p1, p0, b1, b0, bonus)) == _swap(result)
        assert r0 % 100 == 0 and r1 % 100 == 0
        assert 0 <= p0 - r0 < 100 and 0 <= p1 - r1 < 100
        if winner == -1:
            assert r0 == r1 and b0 == b1 and rubicon == 0 and stake == 0
            continue
        assert stake > 0
        r_win, r_lose = (r0, r1) if winner == 0 else (r1, r0)
        p_lose, b_lose = (p1, b1) if winner == 0 else (p0, b0)
        assert r_win >= r_lose
        assert rubicon == (p_lose + b_lose < 1000)
        if rubicon:
            assert stake == r_win + max(r_lose, 100) + bonus + 1000
        else:
            assert stake == 500 + r_win - r_lose


# --- close scores (R6.8, option rubicon_close) ----------------------------------------------
# (points0, points1, brisques0, brisques1) -> (brisques result, points result), bonus 300
CLOSE_CASES = [
    # rounded tie, fewer points and more brisques: brisques give it to seat 1, points to seat 0
    pytest.param((1450, 1420, 100, 140), (1, 1400, 1400, 0, 500), (0, 1400, 1400, 0, 500),
                 id="rounded-tie-fewer-points-more-brisques"),
    # the seed's example of the difference: 0 points over 50 on brisques alone
    pytest.param((50, 0, 0, 120), (1, 0, 0, 1, 1400), (0, 0, 0, 1, 1400),
                 id="rounded-tie-0-beats-50-on-brisques"),
    # the loser's brisques still count toward the 1000 that saves him, whoever wins
    pytest.param((950, 980, 60, 40), (0, 900, 900, 0, 500), (1, 900, 900, 0, 500),
                 id="rounded-tie-both-saved"),
    pytest.param((920, 990, 60, 0), (0, 900, 900, 1, 3100), (1, 900, 900, 1, 3100),
                 id="rounded-tie-rubicon-either-way"),
    # an exact tie of points: brisques decide in both forms, and a tie on both is a draw
    pytest.param((1450, 1450, 100, 140), (1, 1400, 1400, 0, 500), (1, 1400, 1400, 0, 500),
                 id="exact-tie-brisques-decide"),
    pytest.param((1450, 1450, 120, 120), (-1, 1400, 1400, 0, 0), (-1, 1400, 1400, 0, 0),
                 id="exact-tie-draw"),
    # no tie after rounding: the option changes nothing
    pytest.param((1520, 1480, 0, 200), (0, 1500, 1400, 0, 600), (0, 1500, 1400, 0, 600),
                 id="no-tie"),
    pytest.param((2000, 930, 0, 60), (0, 2000, 900, 1, 4200), (0, 2000, 900, 1, 4200),
                 id="no-tie-rubicon"),
    # a rounded tie with equal brisques: brisques draw, points decide
    pytest.param((1499, 1400, 70, 70), (-1, 1400, 1400, 0, 0), (0, 1400, 1400, 0, 500),
                 id="rounded-tie-equal-brisques"),
]


@pytest.mark.parametrize("args, by_brisques, by_points", CLOSE_CASES)
def test_settle_close_scores_both_forms(args, by_brisques, by_points):
    """R6.8: rubicon_close=brisques (default, also the 5-argument call) and =points."""
    assert tuple(settle(*args, 300)) == by_brisques
    assert tuple(settle(*args, 300, 0)) == by_brisques
    assert tuple(settle(*args, 300, 1)) == by_points
    p0, p1, b0, b1 = args
    assert tuple(settle(p1, p0, b1, b0, 300, 1)) == _swap(by_points)


def test_settle_close_by_points_properties_random():
    """rubicon_close=points differs from brisques exactly on rounded ties of unequal points,
    where the higher unrounded total wins; the stake rule is the same."""
    rng = np.random.default_rng(6_8_2)
    points = rng.integers(0, 3000, size=(3000, 2))
    points[::2, 1] = points[::2, 0] // 100 * 100 + rng.integers(0, 100, size=len(points[::2]))
    brisques = rng.integers(0, 33, size=(3000, 2)) * 10
    differ = 0
    for (p0, p1), (b0, b1) in zip(points.tolist(), brisques.tolist(), strict=True):
        by_b = settle(p0, p1, b0, b1, 300, 0)
        by_p = settle(p0, p1, b0, b1, 300, 1)
        tie = p0 // 100 == p1 // 100
        if not tie or p0 == p1:
            assert by_p == by_b
            continue
        assert by_p[0] == (0 if p0 > p1 else 1)
        p_lose, b_lose = (p1, b1) if by_p[0] == 0 else (p0, b0)
        assert by_p[3] == (p_lose + b_lose < 1000)
        rounded = p0 // 100 * 100                    # both seats' rounded total
        assert by_p[4] == (rounded + max(rounded, 100) + 300 + 1000 if by_p[3] else 500)
        differ += by_p[0] != by_b[0]
    assert differ > 100


# --- carte blanche (R6.4) ---------------------------------------------------------------------


def test_carte_blanche_four_packs_nine_cards():
    expected = math.comb(80, 9) / math.comb(128, 9)
    assert carte_blanche_probability() == pytest.approx(expected, rel=1e-15)
    assert carte_blanche_probability(4, 9) == pytest.approx(expected, rel=1e-15)
    assert carte_blanche_probability(4, 9) == pytest.approx(0.0121651325615, rel=1e-10)
    product = math.prod((80 - i) / (128 - i) for i in range(9))
    assert carte_blanche_probability(4, 9) == pytest.approx(product, rel=1e-12)


def test_carte_blanche_one_pack():
    assert carte_blanche_probability(1, 9) == pytest.approx(
        math.comb(20, 9) / math.comb(32, 9), rel=1e-15)
    assert carte_blanche_probability(1, 8) == pytest.approx(
        math.comb(20, 8) / math.comb(32, 8), rel=1e-15)


@pytest.mark.parametrize("packs, hand", [(1, 1), (1, 3), (2, 2), (2, 3)])
def test_carte_blanche_brute_force(packs, hand):
    ranks = ["A", "10", "K", "Q", "J", "9", "8", "7"]
    deck = [(copy, suit, rank) for copy in range(packs) for suit in range(4) for rank in ranks]
    assert len(deck) == 32 * packs
    hands = blank = 0
    for cards in itertools.combinations(deck, hand):
        hands += 1
        blank += all(rank not in ("K", "Q", "J") for _, _, rank in cards)
    assert carte_blanche_probability(packs, hand) == pytest.approx(blank / hands, rel=1e-14)


def test_carte_blanche_edges():
    assert carte_blanche_probability(4, 0) == 1.0
    assert carte_blanche_probability(1, 20) == pytest.approx(1 / math.comb(32, 20))
    assert carte_blanche_probability(1, 21) == 0.0
    with pytest.raises(ValueError):
        carte_blanche_probability(0, 9)
    with pytest.raises(ValueError):
        carte_blanche_probability(1, 33)
    with pytest.raises(ValueError):
        carte_blanche_probability(1, -1)
