"""Who wins a trick (R1.3) and which cards may be played (R1.5 stage 1, R1.6 stage 2)."""

from numba import njit

from bezsim.engine.constants import DUTY_FOLLOW_AND_WIN, MAX_HAND
from bezsim.engine.state import O_ACTS, O_HAND_N, O_HANDS, O_TRICK


@njit(cache=True, inline="always", _nrt=False)
def suit(card):
    return (card & 31) >> 3


@njit(cache=True, inline="always", _nrt=False)
def rank(card):
    return card & 7


@njit(cache=True, inline="always", _nrt=False)
def beats(card, best, trump):
    """Does ``card``, played after ``best``, take the trick from it? Identical cards: no."""
    s = suit(card)
    b = suit(best)
    if s == b:
        return rank(card) < rank(best)
    return s == trump


@njit(cache=True, inline="always", _nrt=False)
def winning_index(S, n, trump):
    """Index (play order) of the card winning the first ``n`` cards of the current trick."""
    best = 0
    for i in range(1, n):
        if beats(S[O_TRICK + i], S[O_TRICK + best], trump):
            best = i
    return best


@njit(cache=True, inline="always", _nrt=False)
def legal_plays(S, seat, n_trick, trump, stage, duty):
    """Write the legal cards of ``seat`` into the actions region; return how many.

    Stage 1 and the leader: any card. Stage 2 (R1.6): follow suit; with ``follow_and_win``
    also beat the card currently winning (higher of the suit, or a trump when void); void and
    unable to trump: any card. ``follow_only`` (Hoyle): follow suit if able, else any card.
    """
    base = O_HANDS + seat * MAX_HAND
    hand_n = S[O_HAND_N + seat]
    if stage == 1 or n_trick == 0:
        for i in range(hand_n):
            S[O_ACTS + i] = S[base + i]
        return hand_n
    led = suit(S[O_TRICK])
    best = S[O_TRICK + winning_index(S, n_trick, trump)]
    n_suit = 0
    n_beat_suit = 0
    n_trump_beat = 0
    for i in range(hand_n):
        c = S[base + i]
        if suit(c) == led:
            n_suit += 1
            if beats(c, best, trump):
                n_beat_suit += 1
        elif suit(c) == trump and beats(c, best, trump):
            n_trump_beat += 1
    n = 0
    if n_suit > 0:
        need_beat = duty == DUTY_FOLLOW_AND_WIN and n_beat_suit > 0
        for i in range(hand_n):
            c = S[base + i]
            if suit(c) == led and (not need_beat or beats(c, best, trump)):
                S[O_ACTS + n] = c
                n += 1
        return n
    if duty == DUTY_FOLLOW_AND_WIN and n_trump_beat > 0:
        for i in range(hand_n):
            c = S[base + i]
            if suit(c) == trump and beats(c, best, trump):
                S[O_ACTS + n] = c
                n += 1
        return n
    for i in range(hand_n):
        S[O_ACTS + i] = S[base + i]
    return hand_n
