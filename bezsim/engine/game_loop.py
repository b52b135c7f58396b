"""Games and batches: hands until a seat reaches the target (R2.6), many games in parallel.

A game is a pure function of (params, policies, seed, game index); ``run_serial`` writes
each game into its own rows, so the thread count cannot change any result.
"""

import numpy as np

from bezsim.engine.constants import (
    DOUBLE_GAME_GAME,
    DOUBLE_GAME_OFF,
    DOUBLE_GAME_POINTS,
    GI_BRISQUES,
    GI_DOUBLE,
    GI_FIRST_DEALER,
    GI_HANDS,
    GI_N_EVENTS,
    GI_OVERFLOW,
    GI_ROUNDED,
    GI_RUBICON,
    GI_SCORE,
    GI_STAKE,
    GI_WINNER,
    HI_DEALER,
    HI_TRUMP,
    HI_TRUMP_TRICK,
    HI_TURNUP,
    HI_WINNER_LAST,
    HI_WINNER_TRICK24,
    HS_BRISQUES,
    HS_CARTE_BLANCHES,
    HS_COMBINATIONS,
    HS_COMPOUNDS,
    HS_DECLARING_TRICKS,
    HS_KIND,
    HS_POINTS,
    HS_SCORE_AFTER,
    HS_TRICKS_WON,
    K_CARTE_BLANCHE,
    N_KINDS,
    NO_CARD,
    PR_DOUBLE_GAME,
    PR_HAND_SIZE,
    PR_ONE_HAND_GAME,
    PR_PARTNERS,
    PR_PLAYERS,
    PR_POINTS,
    PR_TARGET,
    PR_TURNUP,
    SC_HAND_POINTS,
    SC_SCORE,
    SC_TRUMP,
    SC_TRUMP_TRICK,
    TR_GAME_END,
    TR_HAND_END,
    TR_HAND_POINTS,
)
from bezsim.engine.hand import next_seat, play_hand
from bezsim.engine.jit import njit
from bezsim.engine.rng import PURPOSE_DEAL, PURPOSE_GAME, PURPOSE_POLICY, below, seed_stream
from bezsim.engine.settlement import settle
from bezsim.engine.state import (
    CTR_DECKS,
    CTR_FAULT,
    DECK_DEALER,
    O_BRISQ_TAKEN,
    O_DSTATS,
    O_HPTS,
    O_SC,
    O_STOCK,
    O_WON,
    copy_events,
    copy_trace,
    load_rules,
    new_state,
    reset_game,
    trace_add,
    trace_on,
)


@njit(error_model="numpy", cache=True, _nrt=False)
def game_over(scores, sides, target):
    """A side (a seat, or a team whose score seats 0 and 1 carry) reached the target at the
    end of a hand with a single highest total; returns it, or -1."""
    best = 0
    for p in range(1, sides):
        if scores[p] > scores[best]:
            best = p
    if scores[best] < target:
        return -1
    for p in range(sides):
        if p != best and scores[p] == scores[best]:
            return -1      # tied at the top: deal again
    return best


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def n_sides(params):
    """Seats, or two teams when partners share a score (R4.2: team t = seats t and t + 2)."""
    return 2 if params[PR_PARTNERS] else params[PR_PLAYERS]


@njit(error_model="numpy", cache=True, _nrt=False)
def record_hand(params, S, h, dealer, w24, w_last, scores, hand_seat, hand_info):
    players = params[PR_PLAYERS]
    hand_info[h, HI_DEALER] = dealer
    hand_info[h, HI_TRUMP] = S[O_SC + SC_TRUMP]
    hand_info[h, HI_TRUMP_TRICK] = S[O_SC + SC_TRUMP_TRICK]
    hand_info[h, HI_TURNUP] = (S[O_STOCK + players * params[PR_HAND_SIZE]]
                               if params[PR_TURNUP] else NO_CARD)
    hand_info[h, HI_WINNER_TRICK24] = w24
    hand_info[h, HI_WINNER_LAST] = w_last
    partners = params[PR_PARTNERS] != 0
    team_pts0 = 0
    team_pts1 = 0
    if partners:
        team_pts0 = S[O_SC + SC_HAND_POINTS] + S[O_SC + SC_HAND_POINTS + 2]
        team_pts1 = S[O_SC + SC_HAND_POINTS + 1] + S[O_SC + SC_HAND_POINTS + 3]
    for p in range(players):
        pts = S[O_SC + SC_HAND_POINTS + p]
        if partners:
            scores[p] += team_pts0 if p % 2 == 0 else team_pts1    # one team score (R4.2)
        else:
            scores[p] += pts
        row = hand_seat[h, p]
        row[HS_POINTS] = pts
        row[HS_SCORE_AFTER] = scores[p]
        row[HS_TRICKS_WON] = S[O_WON + p]
        row[HS_COMBINATIONS] = S[O_DSTATS + p * 3]
        row[HS_DECLARING_TRICKS] = S[O_DSTATS + p * 3 + 1]
        row[HS_COMPOUNDS] = S[O_DSTATS + p * 3 + 2]
        row[HS_BRISQUES] = S[O_BRISQ_TAKEN + p]
        cb_points = S[O_HPTS + p * N_KINDS + K_CARTE_BLANCHE]
        # divided only when there is one (Rubicon): a division costs tens of cycles
        row[HS_CARTE_BLANCHES] = (cb_points // max(1, params[PR_POINTS + K_CARTE_BLANCHE])
                                  if cb_points else 0)
        for k in range(N_KINDS):
            row[HS_KIND + k] = S[O_HPTS + p * N_KINDS + k]


@njit(error_model="numpy", cache=True, _nrt=False)
def start_game(params, seed, game, S, rng, game_info):
    """The game's random streams, scores at zero; returns the first dealer (also kept in
    game_info, so a game taken up between decisions knows it): drawn, or a game record's
    (given packs, CTR_DECKS), drawn all the same so the streams run alike."""
    players = params[PR_PLAYERS]
    load_rules(S, params)
    seed_stream(rng[0], seed, game, PURPOSE_GAME, 0)
    first_dealer = below(rng[0], players)
    if S[CTR_DECKS] > 0:
        first_dealer = S[S[CTR_DECKS] + DECK_DEALER]
    for p in range(players):
        seed_stream(rng[1 + p], seed, game, PURPOSE_POLICY, p)
    for p in range(players):
        S[O_SC + SC_SCORE + p] = 0      # public: policies see scores
        game_info[GI_BRISQUES + p] = 0
    game_info[GI_FIRST_DEALER] = first_dealer
    return first_dealer


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def deal_and_play(params, S, rng, pol_ids, pol_params, fns, seed, game, h, dealer):
    """Hand ``h`` of the game dealt from its own stream and played; returns (winner of the
    last stock trick, winner of the last trick)."""
    seed_stream(rng[0], seed, game, PURPOSE_DEAL, h)
    return play_hand(params, S, rng, pol_ids, pol_params, fns, h, dealer)


@njit(error_model="numpy", cache=True, _nrt=False)
def end_hand(params, S, h, dealer, w24, w_last, hand_seat, hand_info, game_info):
    """Hand ``h`` is over: its rows written, the scores moved on. Returns (whether the game
    is over, the winning side or -1)."""
    players = params[PR_PLAYERS]
    scores = S[O_SC + SC_SCORE:O_SC + SC_SCORE + players]
    record_hand(params, S, h, dealer, w24, w_last, scores, hand_seat, hand_info)
    for p in range(players):
        game_info[GI_BRISQUES + p] += S[O_BRISQ_TAKEN + p]
    if trace_on(S):
        trace_seats(S, TR_HAND_POINTS, h, S[O_SC + SC_HAND_POINTS:], players, 0, 0)
        trace_seats(S, TR_HAND_END, h, scores, players, 0, 0)
    if params[PR_ONE_HAND_GAME]:
        return True, -1
    winner = game_over(scores, n_sides(params), params[PR_TARGET])
    if winner < 0 and h + 1 >= hand_seat.shape[0]:
        S[CTR_FAULT] = max(S[CTR_FAULT], 1)       # no room for another hand's rows
        return True, -1
    return winner >= 0, winner


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def play_game(params, pol_ids, pol_params, fns, seed, game, hand_seat, hand_info, game_info,
              events, S, rng):
    """Hands until a seat reaches the target (R2.6); outcome rows written for this game."""
    players = params[PR_PLAYERS]
    dealer = start_game(params, seed, game, S, rng, game_info)
    h = 0
    while True:
        w24, w_last = deal_and_play(params, S, rng, pol_ids, pol_params, fns, seed, game, h,
                                    dealer)
        over, winner = end_hand(params, S, h, dealer, w24, w_last, hand_seat, hand_info,
                                game_info)
        h += 1
        if over:
            break
        dealer = next_seat(dealer, 1, players)
    end_game(params, S, h, winner, game_info, events)


@njit(error_model="numpy", cache=True, _nrt=False)
def end_game(params, S, h, winner, game_info, events):
    """The game is over after ``h`` hands: its settlement, stake and events written."""
    players = params[PR_PLAYERS]
    target = params[PR_TARGET]
    scores = S[O_SC + SC_SCORE:O_SC + SC_SCORE + players]
    double = 0
    stake = 1
    for p in range(players):
        game_info[GI_ROUNDED + p] = scores[p]
    if params[PR_ONE_HAND_GAME]:
        winner, r0, r1, rubicon, stake = settle(params, scores[0], scores[1],
                                                game_info[GI_BRISQUES],
                                                game_info[GI_BRISQUES + 1])
        game_info[GI_ROUNDED] = r0
        game_info[GI_ROUNDED + 1] = r1
        game_info[GI_RUBICON] = rubicon
    elif winner >= 0:
        second = -1
        for p in range(n_sides(params)):
            if p != winner and (second < 0 or scores[p] > scores[second]):
                second = p
        mode = params[PR_DOUBLE_GAME]
        if mode != DOUBLE_GAME_OFF and 2 * scores[second] < target:
            double = 1
        if mode == DOUBLE_GAME_GAME:
            stake = 2 if double else 1
        elif mode == DOUBLE_GAME_POINTS:
            stake = (scores[winner] - scores[second]) * (2 if double else 1)
    game_info[GI_HANDS] = h
    game_info[GI_WINNER] = winner
    game_info[GI_DOUBLE] = double
    game_info[GI_STAKE] = stake
    game_info[GI_N_EVENTS] = copy_events(S, events)
    if game_info[GI_N_EVENTS] > events.shape[0]:
        S[CTR_FAULT] = max(S[CTR_FAULT], 1)
    for p in range(players):
        game_info[GI_SCORE + p] = scores[p]
    if trace_on(S):
        trace_seats(S, TR_GAME_END, winner, scores, players, double, stake)
    game_info[GI_OVERFLOW] = S[CTR_FAULT]      # after the last trace row: it may overflow too


@njit(error_model="numpy", cache=True, _nrt=False)
def trace_seats(S, kind, first, values, players, last, last2):
    """A trace row: ``first``, one value per seat (-1 for seats the variant lacks), two more."""
    v0 = values[0]
    v1 = values[1]
    v2 = values[2] if players > 2 else -1
    v3 = values[3] if players > 3 else -1
    trace_add(S, kind, first, v0, v1, v2, v3, last, last2)


@njit(error_model="numpy", cache=True, nogil=True)
def run_serial(params, pol_ids, pol_params, fns, seed, game_start, hand_seat, hand_info, game_info,
               events, trace):
    """Play games game_start .. game_start + n - 1, one output row each, in one reused state
    buffer (reset_game between games) rather than allocating and zeroing 24 KB a game. Each
    game depends only on its index, so how a run splits its games into calls (and calls
    onto threads, api.run_games) changes no result. ``trace``: room for the steps of a
    one-game call (replay), or no rows; returns the rows used. One kernel for both, so a
    traced game compiles nothing more than its run."""
    players = params[PR_PLAYERS]
    S = new_state(events.shape[1], trace.shape[0])
    rng = np.zeros((1 + players, 4), np.uint64)
    for i in range(game_info.shape[0]):
        reset_game(S)
        play_game(params, pol_ids, pol_params, fns, seed, game_start + i, hand_seat[i],
                  hand_info[i], game_info[i], events[i], S, rng)
    return copy_trace(S, trace)
