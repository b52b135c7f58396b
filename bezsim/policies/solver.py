"""Exact solver for the two-player stage 2 (R1.6): once the stock is empty a player who
remembers the cards knows both hands, so the last tricks are a perfect-information game and
minimax over them is exact.

The search memoises the value of every trick-boundary state (my cards left, their cards left,
who leads) in a direct table, and plays only the first copy of identical faces, so 8 against 8
visits a few thousand states at most. Hands are bit masks over positions in ``mine`` (side 0)
and ``theirs`` (side 1); a legal reply set is a few bit operations on precomputed masks.

The search is an explicit-stack loop, not a recursive function: numba's on-disk cache
segfaults on loading recursive functions (numba issue #6061), and ``cache=True`` is kept.
"""

import numpy as np

from bezsim.engine.constants import (
    ACE,
    DUTY_FOLLOW_AND_WIN,
    K_LAST_TRICK,
    LAST_BOTH,
    LAST_TRICK32,
    MAX_HAND,
    PR_BRISQUE_VALUE,
    PR_BRISQUES_ASIDE,
    PR_LAST_TRICK,
    PR_PACKS,
    PR_POINTS,
    PR_STAGE2_DUTY,
    SC_N_TRICK,
    SC_TRUMP,
    TEN,
    V_MINE,
    V_MINE_SHOWN,
    V_SHOWN,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import N_MAX, O_ACTS, O_N_ACTS, O_RULES, O_SC, O_SEEN, O_TRICK
from bezsim.engine.tricks import beats, rank, suit

UNKNOWN = -(2**31)       # memo sentinel; |value| <= 16 * brisque_points + last_points
_INF = 2**30
MAX_CARDS = 8            # per hand: 8 + 8 + 1 key bits

# per-side tables in T, side s at s * _SIDE (masks are over that side's or the other's positions)
_BEATEN = 0              # + i: the other side's cards that beat this side's card i when it leads
_SUIT = 8                # + s: this side's cards of suit s
_DUP = 12                # + i: this side's cards before i with the same face (play the first only)
_BRISQUE = 20            # + i: 1 if card i is an ace or a ten
_SUIT_OF = 28            # + i: suit of card i
_SIDE = 40
_T_SIZE = 2 * _SIDE

# explicit stack, one row per trick boundary being searched: columns
_F_H0 = 0                # my cards left
_F_H1 = 1                # their cards left
_F_LEAD = 2              # side to lead
_F_A = 3                 # leader's card being tried (-1: none yet)
_F_B = 4                 # follower's reply being tried
_F_REPLIES = 5           # follower's legal replies to card A
_F_BEST = 6              # best value over the leader's cards so far (leader's point of view)
_F_BEST_A = 7
_F_INNER = 8             # worst value over the replies to A so far
_F_PTS = 9               # points of the pending trick (A, B)
_F_WIN = 10              # 1 if the leader wins the pending trick
_F_SIZE = 11


@njit(cache=True, inline="always", _nrt=False)
def is_brisque(card):
    r = rank(card)
    return 1 if r == ACE or r == TEN else 0


@njit(cache=True, _nrt=False)
def _side_tables(T, base, cards, n, other, n_other, trump):
    """Masks of one side's cards: who beats them, their suits, duplicates, brisques."""
    for i in range(n):
        c = cards[i]
        T[base + _SUIT + suit(c)] |= 1 << i
        T[base + _BRISQUE + i] = is_brisque(c)
        T[base + _SUIT_OF + i] = suit(c)
        for k in range(i):
            if (cards[k] & 31) == (c & 31):
                T[base + _DUP + i] |= 1 << k
        for j in range(n_other):
            if beats(other[j], c, trump):
                T[base + _BEATEN + i] |= 1 << j


@njit(cache=True, inline="always", _nrt=False)
def _legal(hand, T, base, beaters, led_suit, trump, duty):
    """The follower's legal cards (R1.6, as bezsim.engine.tricks.legal_plays with two seats):
    follow suit, and with follow-and-win beat the led card if able; void: with follow-and-win
    trump if able; else anything. ``beaters``: the follower's cards that beat the led card."""
    follow = hand & T[base + _SUIT + led_suit]
    if follow != 0:
        if duty == DUTY_FOLLOW_AND_WIN:
            win = follow & beaters
            if win != 0:
                return win
        return follow
    if duty == DUTY_FOLLOW_AND_WIN and trump >= 0:
        ruff = hand & T[base + _SUIT + trump] & beaters
        if ruff != 0:
            return ruff
    return hand


@njit(cache=True, _nrt=False)
def _search(h0, h1, lead, T, nm, nt, trump, duty, bp, lp, memo, F):
    """Value of a trick-boundary state for the side to lead (its points minus the other's over
    the tricks left) and the index of its best first card (lowest index on ties).

    Depth-first over the tricks with an explicit stack ``F``; every finished state goes into
    ``memo``. A leader's card whose replies already hold it to no more than the best card so
    far is dropped without trying the other replies: that leaves each state's value exact."""
    sh1 = nm
    sh_lead = nm + nt
    d = 0
    F[0, _F_H0] = h0
    F[0, _F_H1] = h1
    F[0, _F_LEAD] = lead
    F[0, _F_A] = -1
    F[0, _F_B] = MAX_CARDS
    F[0, _F_BEST] = -_INF
    F[0, _F_BEST_A] = -1
    F[0, _F_INNER] = -_INF
    pending = False
    child = 0
    while True:
        s = F[d, _F_LEAD]
        if s == 0:
            hl = F[d, _F_H0]
            hf = F[d, _F_H1]
            nl = nm
            nf = nt
        else:
            hl = F[d, _F_H1]
            hf = F[d, _F_H0]
            nl = nt
            nf = nm
        bl = s * _SIDE
        bf = (1 - s) * _SIDE
        if pending:
            pending = False
            q = F[d, _F_PTS] + child
            if F[d, _F_WIN] == 0:
                q = -q
            if q < F[d, _F_INNER]:
                F[d, _F_INNER] = q
                if q <= F[d, _F_BEST]:       # this card cannot beat the best one: next card
                    F[d, _F_B] = MAX_CARDS
        # next reply to the leader's current card
        replies = F[d, _F_REPLIES]
        b = F[d, _F_B] + 1
        while b < nf:
            bit = 1 << b
            if (replies & bit) != 0 and (hf & T[bf + _DUP + b]) == 0:
                break
            b += 1
        if b < nf:
            a = F[d, _F_A]
            F[d, _F_B] = b
            hl2 = hl ^ (1 << a)
            hf2 = hf ^ (1 << b)
            pts = (T[bl + _BRISQUE + a] + T[bf + _BRISQUE + b]) * bp
            if hl2 == 0:
                pts += lp
            win = 1 if (T[bl + _BEATEN + a] & (1 << b)) == 0 else 0
            F[d, _F_PTS] = pts
            F[d, _F_WIN] = win
            if s == 0:
                c0 = hl2
                c1 = hf2
            else:
                c0 = hf2
                c1 = hl2
            c_lead = s if win == 1 else 1 - s
            if hl2 == 0:
                child = 0
                pending = True
                continue
            v = memo[c0 | (c1 << sh1) | (c_lead << sh_lead)]
            if v != UNKNOWN:
                child = v
                pending = True
                continue
            d += 1
            F[d, _F_H0] = c0
            F[d, _F_H1] = c1
            F[d, _F_LEAD] = c_lead
            F[d, _F_A] = -1
            F[d, _F_B] = MAX_CARDS
            F[d, _F_BEST] = -_INF
            F[d, _F_BEST_A] = -1
            F[d, _F_INNER] = -_INF
            continue
        # the leader's current card is done: keep it if better, then the next card
        if F[d, _F_INNER] > F[d, _F_BEST]:
            F[d, _F_BEST] = F[d, _F_INNER]
            F[d, _F_BEST_A] = F[d, _F_A]
        a = F[d, _F_A] + 1
        while a < nl:
            if (hl & (1 << a)) != 0 and (hl & T[bl + _DUP + a]) == 0:
                break
            a += 1
        if a < nl:
            F[d, _F_A] = a
            F[d, _F_B] = -1
            F[d, _F_INNER] = _INF
            F[d, _F_REPLIES] = _legal(hf, T, bf, T[bl + _BEATEN + a], T[bl + _SUIT_OF + a],
                                      trump, duty)
            continue
        # state done
        v = F[d, _F_BEST]
        memo[F[d, _F_H0] | (F[d, _F_H1] << sh1) | (s << sh_lead)] = v
        if d == 0:
            return F[0, _F_BEST_A], v
        d -= 1
        child = v
        pending = True


@njit(cache=True)
def solve_stage2(mine, n_mine, theirs, n_theirs, led, trump, duty, brisque_points, last_points):
    """Best card to play now in a two-player stage 2, both hands known.

    ``mine[:n_mine]``, ``theirs[:n_theirs]``: the hands (card ids, n <= 8). ``led``: -1 when I
    lead (n_mine == n_theirs), else the opponent's card already on the trick (no longer in
    ``theirs``; n_theirs == n_mine - 1). Each ace or ten is worth ``brisque_points`` to the
    winner of its trick and the last trick ``last_points`` more. ``duty``: DUTY_FOLLOW_AND_WIN
    or DUTY_FOLLOW_ONLY. Returns (index into ``mine`` of a legal card reaching the minimax
    value, the value = my points minus theirs over the tricks left, the current one included);
    ties go to the lowest index.
    """
    if n_mine <= 0:
        return -1, 0
    T = np.zeros(_T_SIZE, np.int32)
    _side_tables(T, 0, mine, n_mine, theirs, n_theirs, trump)
    _side_tables(T, _SIDE, theirs, n_theirs, mine, n_mine, trump)
    # a table sized to these hands: 2**17 entries only for 8 against 8
    memo = np.full(1 << (n_mine + n_theirs + 1), UNKNOWN, np.int32)
    F = np.empty((MAX_CARDS + 1, _F_SIZE), np.int64)
    mm = (1 << n_mine) - 1
    tm = (1 << n_theirs) - 1
    if led < 0:
        return _search(mm, tm, 0, T, n_mine, n_theirs, trump, duty, brisque_points,
                       last_points, memo, F)
    # following: the led card is not in theirs, so its masks are made here
    beaters = 0
    for i in range(n_mine):
        if beats(mine[i], led, trump):
            beaters |= 1 << i
    replies = _legal(mm, T, 0, beaters, suit(led), trump, duty)
    led_brisque = is_brisque(led)
    best = -_INF
    best_i = -1
    for i in range(n_mine):
        if (replies & (1 << i)) == 0 or (mm & T[_DUP + i]) != 0:
            continue
        mm2 = mm ^ (1 << i)
        pts = (T[_BRISQUE + i] + led_brisque) * brisque_points
        if mm2 == 0:
            pts += last_points
            rest = 0
        else:
            # the winner leads next; values are from the leader's point of view
            lead = 0 if (beaters & (1 << i)) != 0 else 1
            rest = memo[mm2 | (tm << n_mine) | (lead << (n_mine + n_theirs))]
            if rest == UNKNOWN:
                rest = _search(mm2, tm, lead, T, n_mine, n_theirs, trump, duty,
                               brisque_points, last_points, memo, F)[1]
            if lead == 1:
                rest = -rest
        w = rest + pts if (beaters & (1 << i)) != 0 else rest - pts
        if w > best:
            best = w
            best_i = i
    return best_i, best


@njit(cache=True, _nrt=False)
def known_hands(S, seat, mine, theirs):
    """The hands of a two-handed stage 2 as a seat that remembers the cards knows them: its
    own into ``mine``, the other's (every card it has not seen, and the other's cards shown
    on the table) into ``theirs``, and the card led to this trick (-1 if none). Returns
    (n_mine, n_theirs, led); n_mine is -1 if either hand would overflow its array."""
    n_cards = S[O_RULES + PR_PACKS] * 32
    other = 1 - seat
    row = O_SEEN + seat * N_MAX
    n_mine = 0
    n_theirs = 0
    for c in range(n_cards):
        v = S[row + c]
        if v == V_MINE or v == V_MINE_SHOWN:
            if n_mine == mine.shape[0]:
                return -1, 0, -1
            mine[n_mine] = c
            n_mine += 1
        elif v == V_UNSEEN or v == V_SHOWN + other:
            if n_theirs == theirs.shape[0]:
                return -1, 0, -1
            theirs[n_theirs] = c
            n_theirs += 1
    led = S[O_TRICK] if S[O_SC + SC_N_TRICK] == 1 else -1
    return n_mine, n_theirs, led


@njit(cache=True, inline="always", _nrt=False)
def stage2_points(S):
    """What stage 2 scores by the rules: (a brisque's points, or 1 where brisques are set
    aside and counted, the last trick's points)."""
    brisque = 1 if S[O_RULES + PR_BRISQUES_ASIDE] else S[O_RULES + PR_BRISQUE_VALUE]
    mode = S[O_RULES + PR_LAST_TRICK]
    last = (S[O_RULES + PR_POINTS + K_LAST_TRICK] if mode == LAST_TRICK32 or mode == LAST_BOTH
            else 0)
    return brisque, last


@njit(cache=True)
def solve_endgame(S, seat, max_cards):
    """Two-handed stage 2 without open cards, the seat holding at most ``max_cards``: the
    exact best card, as an index into the offer; -1 otherwise (or if the hands are not both
    known: they always are, for a seat that remembers). Reads the seat's knowledge row, the
    trick and the rules (the policy contract)."""
    mine = np.empty(MAX_HAND, np.int32)
    theirs = np.empty(MAX_HAND, np.int32)
    n_mine, n_theirs, led = known_hands(S, seat, mine, theirs)
    if n_mine <= 0 or n_mine > min(8, max_cards) or n_theirs != n_mine - (led >= 0):
        return -1
    brisque, last = stage2_points(S)
    best, _ = solve_stage2(mine, n_mine, theirs, n_theirs, led, S[O_SC + SC_TRUMP],
                           S[O_RULES + PR_STAGE2_DUTY], brisque, last)
    if best < 0:
        return -1
    face = mine[best] & 31
    for i in range(S[O_N_ACTS]):
        if S[O_ACTS + i] & 31 == face:
            return i
    return -1


@njit(cache=True)
def exact_stage2_values(S, seat, acts, values):
    """Two-handed stage 2 without open cards, both hands known to a seat that remembers:
    ``values[j]`` := the minimax card-point margin (brisques and the last trick, this trick
    included) after the seat plays ``acts[j]``. False if the hands do not add up."""
    mine = np.empty(MAX_HAND, np.int32)
    theirs = np.empty(MAX_HAND, np.int32)
    n_mine, n_theirs, led = known_hands(S, seat, mine, theirs)
    if n_mine <= 0 or n_mine > 8 or n_theirs != n_mine - (led >= 0):
        return False
    brisque, last = stage2_points(S)
    trump = S[O_SC + SC_TRUMP]
    duty = S[O_RULES + PR_STAGE2_DUTY]
    rest = np.empty(MAX_HAND, np.int32)
    for j in range(acts.shape[0]):
        card = acts[j]
        n_rest = 0
        for i in range(n_mine):
            if mine[i] != card:
                rest[n_rest] = mine[i]
                n_rest += 1
        if led < 0:
            # I lead: the value is minus the opponent's best reply's value to him
            _, theirs_value = solve_stage2(theirs, n_theirs, rest, n_rest, card, trump, duty,
                                           brisque, last)
            values[j] = -theirs_value
            continue
        pts = brisque * (is_brisque(card) + is_brisque(led))
        if n_rest == 0:
            pts += last
        i_win = beats(card, led, trump)
        after = 0
        if n_rest > 0:
            if i_win:
                _, after = solve_stage2(rest, n_rest, theirs, n_theirs, -1, trump, duty,
                                        brisque, last)
            else:
                _, v = solve_stage2(theirs, n_theirs, rest, n_rest, -1, trump, duty, brisque,
                                    last)
                after = -v
        values[j] = after + pts if i_win else after - pts
    return True
