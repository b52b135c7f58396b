"""Deals of the cards a seat has not seen, and what a played-out hand is worth to it: the
sampling that search (policies/search.py), its evaluations and the learning recorder
(policies/learned/record.py) share. Every sampled deal is built from the seat's knowledge
only, so nothing that samples here can use a card the seat could not know.
"""

import numpy as np

from bezsim.engine.constants import (
    LOC_HAND,
    LOC_STOCK,
    MAX_HAND,
    PARAMS_SIZE,
    PR_ONE_HAND_GAME,
    PR_PACKS,
    PR_PARTNERS,
    PR_PLAYERS,
    SC_HAND_POINTS,
    SC_SCORE,
    V_UNSEEN,
)
from bezsim.engine.jit import njit
from bezsim.engine.rng import below
from bezsim.engine.settlement import settle
from bezsim.engine.state import (
    CNT_WIDTH,
    CTR_STOCK_POS,
    N_MAX,
    O_BRISQ_TAKEN,
    O_EV_CAP,
    O_HAND_CNT,
    O_HAND_N,
    O_HANDS,
    O_LOC,
    O_RULES,
    O_SC,
    O_SEEN,
    O_STOCK,
    O_TR_CAP,
    S_BASE,
    give,
    take,
)


@njit(cache=True)
def rules_of(S):
    """The rules table the engine put in the public region (state.load_rules)."""
    rules = np.zeros(PARAMS_SIZE, np.int64)
    for i in range(PARAMS_SIZE):
        rules[i] = S[O_RULES + i]
    return rules


@njit(cache=True, _nrt=False)
def determinize(S, W, seat, rules, stream, pool, known):
    """W := S with the cards ``seat`` has not seen dealt again at random into the places it
    cannot see (other seats' concealed cards, the stock), in the same numbers. Built from the
    seat's knowledge only: other seats' known cards, sorted, then sampled ones, so the result
    does not depend on where the hidden cards really are. False if the counts disagree."""
    players = rules[PR_PLAYERS]
    n_cards = rules[PR_PACKS] * 32
    for i in range(S_BASE):
        W[i] = S[i]
    W[O_EV_CAP] = 0           # play-outs keep no events and no trace
    W[O_TR_CAP] = 0
    mine = O_SEEN + seat * N_MAX
    n_pool = 0
    for c in range(n_cards):
        if S[mine + c] == V_UNSEEN:
            pool[n_pool] = c
            n_pool += 1
    for i in range(n_pool - 1, 0, -1):
        j = below(stream, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    stock_pos = S[CTR_STOCK_POS]
    need = n_cards - stock_pos
    for p in range(players):
        if p != seat:
            base = O_HANDS + p * MAX_HAND
            for i in range(S[O_HAND_N + p]):
                need += S[mine + S[base + i]] == V_UNSEEN
    if need != n_pool:
        return False
    for p in range(players):
        if p != seat:
            for i in range(n_pool):
                W[O_SEEN + p * N_MAX + pool[i]] = V_UNSEEN
    used = 0
    for p in range(players):
        if p == seat:
            continue
        base = O_HANDS + p * MAX_HAND
        n_hand = S[O_HAND_N + p]
        n_known = 0
        for i in range(n_hand):
            c = S[base + i]
            if S[mine + c] != V_UNSEEN:
                j = n_known                       # insertion sort by card id
                while j > 0 and known[j - 1] > c:
                    known[j] = known[j - 1]
                    j -= 1
                known[j] = c
                n_known += 1
        W[O_HAND_N + p] = 0
        for k in range(CNT_WIDTH):
            W[O_HAND_CNT + p * CNT_WIDTH + k] = 0
        for i in range(n_known):
            c = known[i]
            give(W, p, c)
            W[O_LOC + c] = S[O_LOC + c]           # shown on the table, or a drawn turn-up
            W[O_SEEN + p * N_MAX + c] = S[O_SEEN + p * N_MAX + c]
        for _ in range(n_hand - n_known):
            give(W, p, pool[used])
            used += 1
    for pos in range(stock_pos, n_cards):
        c = pool[used]
        used += 1
        W[O_STOCK + pos] = c
        W[O_LOC + c] = LOC_STOCK
    return True


@njit(cache=True, _nrt=False)
def hide_cards(W, seat, cards, n_listed, rules, stream, hidden):
    """W (a deal sampled for ``seat`` by determinize) as it would be had the seat not known
    the first ``n_listed`` of ``cards``, concealed cards of its hand: each is exchanged, in
    turn, for a card drawn at random from those the seat has not seen (the stock, other
    seats' concealed cards) and the listed ones still to go, so the seat's hand becomes a
    uniform draw from what it could have held. Everything else in the deal stays put: the
    two deals are as alike as the question allows."""
    n_deck = rules[PR_PACKS] * 32
    mine = O_SEEN + seat * N_MAX
    n_hidden = 0
    for c in range(n_deck):
        if W[mine + c] == V_UNSEEN:
            hidden[n_hidden] = c
            n_hidden += 1
    for i in range(n_listed):
        r = below(stream, n_listed - i + n_hidden)
        if r < n_listed - i:
            continue                  # a listed card stays: which one does not matter
        j = r - (n_listed - i)
        mine_card = cards[i]
        other = hidden[j]
        where = W[O_LOC + other]
        take(W, seat, mine_card)
        give(W, seat, other)
        W[mine + mine_card] = V_UNSEEN
        if where == LOC_STOCK:
            for pos in range(W[CTR_STOCK_POS], n_deck):
                if W[O_STOCK + pos] == other:
                    W[O_STOCK + pos] = mine_card
                    break
            W[O_LOC + mine_card] = LOC_STOCK
        else:
            holder = where - LOC_HAND
            take(W, holder, other)
            give(W, holder, mine_card)
            W[O_SEEN + holder * N_MAX + other] = V_UNSEEN
        hidden[j] = mine_card


@njit(cache=True, inline="always", _nrt=False)
def side_margin(W, seat, rules):
    """The seat's side's points this hand minus the best other side's."""
    players = rules[PR_PLAYERS]
    pts = O_SC + SC_HAND_POINTS
    if rules[PR_PARTNERS]:
        us = W[pts + seat] + W[pts + ((seat + 2) & 3)]
        return us - (W[pts + ((seat + 1) & 3)] + W[pts + ((seat + 3) & 3)])
    best = -(1 << 30)
    for p in range(players):
        if p != seat and W[pts + p] > best:
            best = W[pts + p]
    return W[pts + seat] - best


@njit(cache=True, _nrt=False)
def hand_value(W, seat, rules, settlement):
    """What a play-out's end is worth to the seat: its side's hand margin, or with
    ``settlement`` in Rubicon (one hand is the game) the signed stake of R6.8."""
    if settlement and rules[PR_ONE_HAND_GAME] and rules[PR_PLAYERS] == 2:
        pts = O_SC + SC_HAND_POINTS
        score = O_SC + SC_SCORE
        winner, _, _, _, stake = settle(rules, W[score] + W[pts], W[score + 1] + W[pts + 1],
                                        W[O_BRISQ_TAKEN], W[O_BRISQ_TAKEN + 1])
        if winner < 0:
            return 0
        return stake if winner == seat else -stake
    return side_margin(W, seat, rules)


