"""Who wins a trick (R1.3) and which cards may be played (R1.5 stage 1, R1.6 stage 2)."""

from bezsim.engine.constants import DUTY_FOLLOW_AND_WIN, MAX_HAND
from bezsim.engine.jit import njit
from bezsim.engine.state import O_ACTS, O_HAND_N, O_HANDS, O_SCRATCH, O_TRICK, unsigned


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def suit(card):
    return (card & 31) >> 3


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def rank(card):
    return card & 7


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def beats(card, best, trump):
    """Does ``card``, played after ``best``, take the trick from it? Identical cards: no."""
    s = suit(card)
    b = suit(best)
    # without branches: which card wins is random, so a branch on it is often mispredicted
    return ((s == b) & (rank(card) < rank(best))) | ((s != b) & (s == trump))


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def winning_index(S, n, trump):
    """Index (play order) of the card winning the first ``n`` cards of the current trick."""
    best = 0
    for i in range(1, n):
        if beats(S[O_TRICK + i], S[O_TRICK + best], trump):
            best = i
    return best


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def legal_plays(S, seat, n_trick, trump, stage, duty):
    """Write the legal cards of ``seat`` into the actions region, in hand order, and their
    places in the hand at S[O_SCRATCH:] (``take``'s hint); return how many.

    Stage 1 and the leader: any card. Stage 2 (R1.6): follow suit; with ``follow_and_win``
    also beat the card currently winning (higher of the suit, or a trump when void); void and
    unable to trump: any card. ``follow_only`` (Hoyle): follow suit if able, else any card.
    Written without branches on the cards, which are random: a mispredicted branch per card
    cost more than the test.
    """
    base = O_HANDS + seat * MAX_HAND
    hand_n = S[O_HAND_N + seat]
    if stage == 1 or n_trick == 0:
        for i in range(hand_n):
            S[O_ACTS + i] = S[unsigned(base + i)]
            S[O_SCRATCH + i] = i
        return hand_n
    led = suit(S[O_TRICK])
    best = S[O_TRICK + winning_index(S, n_trick, trump)]
    n_suit = 0
    n_beat_suit = 0
    n_trump_beat = 0
    for i in range(hand_n):
        c = S[unsigned(base + i)]
        on_suit = suit(c) == led
        wins = beats(c, best, trump)
        n_suit += on_suit
        n_beat_suit += on_suit & wins
        n_trump_beat += (not on_suit) & (suit(c) == trump) & wins
    win_duty = duty == DUTY_FOLLOW_AND_WIN
    follow = n_suit > 0
    need_beat = win_duty & (n_beat_suit > 0)
    must_trump = (not follow) & win_duty & (n_trump_beat > 0)
    any_card = (not follow) & (not must_trump)
    n = 0
    for i in range(hand_n):
        c = S[unsigned(base + i)]
        wins = beats(c, best, trump)
        ok = (any_card | (follow & (suit(c) == led) & ((not need_beat) | wins))
              | (must_trump & (suit(c) == trump) & wins))
        S[O_ACTS + n] = c
        S[O_SCRATCH + n] = i
        n += 1 if ok else 0
    return n
