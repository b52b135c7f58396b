"""The stage-2 solver (bezsim.policies.solver) against a plain full-tree minimax written here
from the rules, on hand-worked positions, and for speed at 8 cards against 8."""

import time

import numpy as np
import pytest

from bezsim.engine.constants import (
    ACE,
    CLUBS,
    DIAMONDS,
    DUTY_FOLLOW_AND_WIN,
    DUTY_FOLLOW_ONLY,
    EIGHT,
    HEARTS,
    KING,
    NINE,
    SEVEN,
    SPADES,
    TEN,
)
from bezsim.policies.solver import solve_stage2


def card(r, s, pack=0):
    return 32 * pack + (s << 3) + r


# --- reference: the rules as stated, full tree, no memo, no duplicate pruning -------------------

def _suit(c):
    return (c % 32) // 8


def _rank(c):
    return c % 8


def _takes(card_, led, trump):
    """Does the follower's ``card_`` take the trick from ``led``? (A 10 K Q J 9 8 7.)"""
    if _suit(card_) == _suit(led):
        return _rank(card_) < _rank(led)
    return _suit(card_) == trump


def _legal_replies(hand, led, trump, duty):
    """Indices into ``hand`` the follower may play on ``led`` (R1.6, two players)."""
    follow = [i for i, c in enumerate(hand) if _suit(c) == _suit(led)]
    if follow:
        if duty == DUTY_FOLLOW_AND_WIN:
            win = [i for i in follow if _takes(hand[i], led, trump)]
            if win:
                return win
        return follow
    if duty == DUTY_FOLLOW_AND_WIN:
        ruff = [i for i, c in enumerate(hand) if _suit(c) == trump]
        if ruff:
            return ruff
    return list(range(len(hand)))


def _trick_points(a, b, bp, lp, last):
    brisques = sum(1 for c in (a, b) if _rank(c) in (ACE, TEN))
    return brisques * bp + (lp if last else 0)


def _after_trick(mine, theirs, my_card, their_card, i_led, trump, duty, bp, lp):
    """Value for me of a finished trick plus everything after it."""
    led, follow = (my_card, their_card) if i_led else (their_card, my_card)
    follower_wins = _takes(follow, led, trump)
    i_win = follower_wins != i_led
    pts = _trick_points(my_card, their_card, bp, lp, not mine)
    rest = _ref_value(mine, theirs, i_win, trump, duty, bp, lp)
    return rest + pts if i_win else rest - pts


def _ref_value(mine, theirs, i_lead, trump, duty, bp, lp):
    """Minimax value for me (my points minus theirs) at a trick boundary."""
    if not mine:
        return 0
    if i_lead:
        return max(_ref_reply(mine[:i] + mine[i + 1:], theirs, mine[i], trump, duty, bp, lp)
                   for i in range(len(mine)))
    return min(max(_ref_my_replies(mine, theirs[:j] + theirs[j + 1:], theirs[j], trump, duty,
                                   bp, lp).values())
               for j in range(len(theirs)))


def _ref_reply(mine, theirs, my_card, trump, duty, bp, lp):
    """I led ``my_card``: they answer to minimise my value."""
    return min(_after_trick(mine, theirs[:j] + theirs[j + 1:], my_card, theirs[j], True,
                            trump, duty, bp, lp)
               for j in _legal_replies(theirs, my_card, trump, duty))


def _ref_my_replies(mine, theirs, led, trump, duty, bp, lp):
    """They led ``led``: my value for each of my legal replies, by index into ``mine``."""
    return {i: _after_trick(mine[:i] + mine[i + 1:], theirs, mine[i], led, False, trump, duty,
                            bp, lp)
            for i in _legal_replies(mine, led, trump, duty)}


def ref_moves(mine, theirs, led, trump, duty, bp, lp):
    """{index into mine: my value after playing it} over my legal cards."""
    if led < 0:
        return {i: _ref_reply(mine[:i] + mine[i + 1:], theirs, mine[i], trump, duty, bp, lp)
                for i in range(len(mine))}
    return _ref_my_replies(mine, theirs, led, trump, duty, bp, lp)


def solve(mine, theirs, led=-1, trump=HEARTS, duty=DUTY_FOLLOW_AND_WIN, bp=10, lp=10):
    m = np.full(8, -1, np.int32)
    t = np.full(8, -1, np.int32)
    m[:len(mine)] = mine
    t[:len(theirs)] = theirs
    i, v = solve_stage2(m, len(mine), t, len(theirs), led, trump, duty, bp, lp)
    return int(i), int(v)


# --- against the reference ----------------------------------------------------------------------

def test_matches_full_minimax_on_random_positions():
    rng = np.random.default_rng(20240611)
    n_follow = 0
    for _ in range(600):
        n = int(rng.integers(1, 6))
        i_lead = bool(rng.integers(2))
        deck = [int(c) for c in rng.permutation(64)]
        if rng.random() < 0.3:       # crowd the hands with pairs of identical faces
            pairs = [int(f) + 32 * k for f in rng.choice(32, 6, replace=False) for k in (0, 1)]
            rng.shuffle(pairs)
            deck = pairs + [c for c in deck if c not in pairs]
        mine = deck[:n]
        if i_lead:
            theirs, led = deck[n:2 * n], -1
        else:
            theirs, led = deck[n:2 * n - 1], deck[2 * n - 1]
            n_follow += 1
        trump = int(rng.integers(4))
        duty = int(rng.choice([DUTY_FOLLOW_AND_WIN, DUTY_FOLLOW_ONLY]))
        bp = int(rng.choice([10, 0, 1]))
        lp = int(rng.choice([10, 0]))
        moves = ref_moves(mine, theirs, led, trump, duty, bp, lp)
        best = max(moves.values())
        i, v = solve(mine, theirs, led, trump, duty, bp, lp)
        where = (mine, theirs, led, trump, duty, bp, lp)
        assert v == best, where
        assert i in moves, where                     # legal
        assert moves[i] == best, where               # reaches the value
        assert i == min(k for k, w in moves.items() if w == best), where  # lowest index
    assert 100 < n_follow < 300


# --- hand-worked positions (trumps hearts, brisques and last trick 10) ---------------------------

def test_lead_low_to_keep_the_ace_for_the_last_trick():
    # I hold A♠ 7♣, they hold 10♠ K♣, I lead.
    # Lead A♠: they must follow with 10♠ and I take 20; then my 7♣ loses to K♣, and they
    #   take the last trick: 20 - 10 = 10.
    # Lead 7♣: K♣ takes it (no brisques, 0) and they must lead 10♠; my A♠ takes it and the
    #   last trick: 20 + 10 = 30. Best: 7♣ (index 1), value 30.
    mine = [card(ACE, SPADES), card(SEVEN, CLUBS)]
    theirs = [card(TEN, SPADES), card(KING, CLUBS)]
    for duty in (DUTY_FOLLOW_AND_WIN, DUTY_FOLLOW_ONLY):
        assert solve(mine, theirs, duty=duty) == (1, 30)
    # Same cards, but they have led 10♠: A♠ (index 0) is forced and takes 20, then my 7♣
    # leads into K♣, which takes the last trick: 20 - 10 = 10.
    assert solve(mine, [card(KING, CLUBS)], led=card(TEN, SPADES)) == (0, 10)


def test_void_follower_must_trump():
    # They led K♠; I hold A♦ 7♣ 7♥ (void in spades), they keep 10♦ 8♣.
    # Follow-and-win: I must trump with 7♥ (index 2). I take K♠ (0) and lead from A♦ 7♣
    #   against 10♦ 8♣: A♦ first takes 20 but 7♣ then loses the last trick to 8♣ (10);
    #   7♣ first loses (0) and they must lead 10♦ into my A♦: 20 + 10. Value 30.
    # Follow-only: throwing 7♣ (index 1) also makes 30 (they win K♠ 7♣ for 0, and whatever
    #   they lead, A♦ and 7♥ take both tricks: 20 + 10), and index 1 comes before index 2.
    mine = [card(ACE, DIAMONDS), card(SEVEN, CLUBS), card(SEVEN, HEARTS)]
    theirs = [card(TEN, DIAMONDS), card(EIGHT, CLUBS)]
    led = card(KING, SPADES)
    assert solve(mine, theirs, led=led, duty=DUTY_FOLLOW_AND_WIN) == (2, 30)
    assert solve(mine, theirs, led=led, duty=DUTY_FOLLOW_ONLY) == (1, 30)


def test_follow_and_win_forces_the_higher_card():
    # They led 10♣; I hold K♣ A♣ 7♠, they keep A♠ 9♦.
    # Follow-and-win: A♣ (index 1) is the only club that beats 10♣: I take 20. Then from
    #   K♣ 7♠ against A♠ 9♦: leading K♣ they throw 9♦ (0) and A♠ takes 7♠ and the last
    #   trick (-20); leading 7♠, A♠ takes it (-10) and 9♦ the last trick over K♣ (-10).
    #   Value 20 - 20 = 0.
    # Follow-only: K♣ would be legal; the full tree says what it is worth.
    mine = [card(KING, CLUBS), card(ACE, CLUBS), card(SEVEN, SPADES)]
    theirs = [card(ACE, SPADES), card(NINE, DIAMONDS)]
    led = card(TEN, CLUBS)
    assert solve(mine, theirs, led=led, duty=DUTY_FOLLOW_AND_WIN) == (1, 0)
    moves = ref_moves(mine, theirs, led, HEARTS, DUTY_FOLLOW_ONLY, 10, 10)
    assert sorted(moves) == [0, 1]
    best = max(moves.values())
    assert solve(mine, theirs, led=led, duty=DUTY_FOLLOW_ONLY) == (
        min(k for k, w in moves.items() if w == best), best)


def test_identical_copies_play_the_first():
    # two packs: A♠ at index 0 and 2 are the same face; any tie goes to the lower index
    mine = [card(ACE, SPADES), card(SEVEN, CLUBS), card(ACE, SPADES, pack=1)]
    theirs = [card(TEN, SPADES), card(TEN, SPADES, pack=1), card(KING, CLUBS)]
    i, v = solve(mine, theirs)
    moves = ref_moves(mine, theirs, -1, HEARTS, DUTY_FOLLOW_AND_WIN, 10, 10)
    assert v == max(moves.values())
    assert i == min(k for k, w in moves.items() if w == v)
    assert i != 2


# --- speed ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("follow", [False, True])
def test_speed_eight_against_eight(follow):
    rng = np.random.default_rng(7)
    positions = []
    for _ in range(200):
        deck = rng.permutation(64).astype(np.int32)
        led = int(deck[16]) if follow else -1
        positions.append((deck[:8].copy(), deck[8:16].copy(), led, int(rng.integers(4)),
                          int(rng.integers(2))))
    m, t, led, trump, duty = positions[0]
    solve_stage2(m, 8, t, 7 if follow else 8, led, trump, duty, 10, 10)   # compile
    times = []
    for m, t, led, trump, duty in positions:
        t0 = time.perf_counter()
        solve_stage2(m, 8, t, 7 if follow else 8, led, trump, duty, 10, 10)
        times.append(time.perf_counter() - t0)
    mean_ms = 1000 * float(np.mean(times))
    print(f"solve_stage2 8v{7 if follow else 8}: mean {mean_ms:.3f} ms, "
          f"max {1000 * max(times):.3f} ms over {len(times)} positions")
    assert mean_ms < 20.0
