"""Taking up a hand right after a decision, with a given action: search's play-outs.

Search copies the state at a decision, deals the cards its seat cannot see again, and needs
the hand played on from there with each candidate action, by the engine's own rules and
players. A card decision is taken up from the state itself (the trick, its leader and the
stage are public scalars); a declaring decision from the step's place, which the engine
keeps in S[CTR_DECLARING] while a seat decides (hand.pack_declaring, open_cards.sevens_from),
and the R4.2 pairs ending from the winner of the last stock trick (S[CTR_PAIRS]).
"""

import numpy as np
from numba.core.extending import overload

from bezsim.engine.constants import (
    D_PLAY,
    PR_HAND_SIZE,
    PR_OPEN_CARDS,
    PR_PLAYERS,
    PR_STAGE2_DUTY,
    SC_HAND,
    SC_LEADER,
    SC_N_TRICK,
    SC_STAGE,
    SC_TRICK,
    SC_TRUMP,
)
from bezsim.engine.decisions import decide
from bezsim.engine.external import SET_OPEN_CARDS, SET_PAIRS, in_set
from bezsim.engine.hand import (
    brisques_at_end,
    called_after_stock_trick,
    declare_from,
    draw,
    finish_trick,
    hand_shape,
    next_seat,
    open_cards_in_set,
    pairs_in_set,
    play_card,
    play_rest,
)
from bezsim.engine.jit import ENGINE_OPTIONS, njit
from bezsim.engine.open_cards import open_cards_rest
from bezsim.engine.pending import pending_flush
from bezsim.engine.state import (
    CTR_DECLARING,
    CTR_FAULT,
    CTR_PAIRS,
    FAULT_POLICY,
    O_ACTS,
    O_DECISION,
    O_SC,
    O_SCRATCH,
)
from bezsim.engine.tricks import legal_plays, winning_index


@njit(error_model="numpy", cache=True, _nrt=False)
def resume_after_play(params, S, rng, pol_ids, pol_params, fns, card):
    """From a play decision: the deciding seat plays ``card`` and the hand runs to its end.
    Returns the winner of the last trick."""
    players = params[PR_PLAYERS]
    stage1_tricks, n_tricks, pairs = hand_shape(params)
    stage = S[O_SC + SC_STAGE]
    if pairs and stage == 2:
        return resume_pairs_in_set(params, S, rng, pol_ids, pol_params, fns, card)
    # read as int64, the engine's own type for them: the hand functions called below then
    # compile once for both (a cold start compiled play_rest twice, open_cards_trick thrice)
    t = np.int64(S[O_SC + SC_TRICK])
    leader = np.int64(S[O_SC + SC_LEADER])
    hand_no = np.int64(S[O_SC + SC_HAND])
    trump = S[O_SC + SC_TRUMP]
    duty = params[PR_STAGE2_DUTY]
    k0 = S[O_SC + SC_N_TRICK]
    play_card(params, S, next_seat(leader, k0, players), card, hand_no, t, 1)
    for k in range(k0 + 1, players):
        seat = next_seat(leader, k, players)
        n = legal_plays(S, seat, k, trump, stage, duty)
        i = decide(S, rng, pol_ids, pol_params, fns, D_PLAY, seat, n)
        play_card(params, S, seat, S[O_ACTS + i], hand_no, t, n, S[O_SCRATCH + i])
    winner = next_seat(leader, winning_index(S, players, trump), players)
    if stage == 1:
        called_after_stock_trick(params, S, rng, pol_ids, pol_params, fns, winner, hand_no,
                                 t, stage1_tricks, n_tricks)
    else:
        finish_trick(params, S, winner, players, hand_no, t, n_tricks, stage1_tricks)
        if params[PR_OPEN_CARDS]:
            open_cards_in_set(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t)
    w1, w = play_rest(params, S, rng, pol_ids, pol_params, fns, hand_no, t + 1, winner,
                      winner if t == stage1_tricks else -1)
    return w


def resume_pairs_in_set(params, S, rng, pol_ids, pol_params, fns, card):
    """_resume_pairs, or a fault (never reached) when the policy set ``fns`` leaves the
    pairs ending out; compiled as _resume_pairs itself (hand.py, open_cards_in_set)."""
    if fns is not None and fns[SET_PAIRS] is None:
        S[CTR_FAULT] = FAULT_POLICY
        return 0
    return _resume_pairs(params, S, rng, pol_ids, pol_params, fns, card)


@overload(resume_pairs_in_set, jit_options=ENGINE_OPTIONS)
def _resume_pairs_in_set_impl(params, S, rng, pol_ids, pol_params, fns, card):
    if not in_set(fns, SET_PAIRS):
        def left_out(params, S, rng, pol_ids, pol_params, fns, card):
            S[CTR_FAULT] = FAULT_POLICY
            return 0
        return left_out
    return _resume_pairs.py_func


@njit(error_model="numpy", cache=True, _nrt=False)
def _resume_pairs(params, S, rng, pol_ids, pol_params, fns, card):
    """resume_after_play in the R4.2 pairs ending: a trick of two of the four seats."""
    stage1_tricks, n_tricks, _ = hand_shape(params)
    hand_size = params[PR_HAND_SIZE]
    t = np.int64(S[O_SC + SC_TRICK])              # int64 as in resume_after_play
    leader = np.int64(S[O_SC + SC_LEADER])
    hand_no = np.int64(S[O_SC + SC_HAND])
    trump = S[O_SC + SC_TRUMP]
    winner_stage1 = np.int64(S[CTR_PAIRS])
    a = (winner_stage1 + 2 * ((t - stage1_tricks - 1) // hand_size)) % params[PR_PLAYERS]
    other = (a + 1) % params[PR_PLAYERS] if leader == a else a
    if S[O_SC + SC_N_TRICK] == 0:
        play_card(params, S, leader, card, hand_no, t, 1)
        n = legal_plays(S, other, 1, trump, 2, params[PR_STAGE2_DUTY])
        i = decide(S, rng, pol_ids, pol_params, fns, D_PLAY, other, n)
        play_card(params, S, other, S[O_ACTS + i], hand_no, t, n, S[O_SCRATCH + i])
    else:
        play_card(params, S, other, card, hand_no, t, 1)
    winner = leader if winning_index(S, 2, trump) == 0 else other
    finish_trick(params, S, winner, 2, hand_no, t, n_tricks, stage1_tricks)
    winner = pairs_in_set(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t,
                          winner)
    brisques_at_end(params, S, hand_no, n_tricks)
    return winner


def open_cards_rest_in_set(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no,
                           k0, code):
    """open_cards_rest, or a fault (never reached) when the policy set ``fns`` leaves the
    open cards out; compiled as open_cards_rest itself (hand.py, open_cards_in_set)."""
    if fns is not None and fns[SET_OPEN_CARDS] is None:
        S[CTR_FAULT] = FAULT_POLICY
        return
    open_cards_rest(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, k0,
                    code)


@overload(open_cards_rest_in_set, jit_options=ENGINE_OPTIONS)
def _open_cards_rest_in_set_impl(params, S, rng, pol_ids, pol_params, fns, seat, hand_no,
                                 trick_no, k0, code):
    if not in_set(fns, SET_OPEN_CARDS):
        def left_out(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no, k0,
                     code):
            S[CTR_FAULT] = FAULT_POLICY
        return left_out
    return open_cards_rest.py_func


@njit(error_model="numpy", cache=True, _nrt=False)
def resume_after_declare(params, S, rng, pol_ids, pol_params, fns, seat, code):
    """From a declaring decision of ``seat`` (the step after a trick): ``code`` is taken
    there, the step ends as the engine ends it, every seat draws (stage 1) and the hand runs
    to its end."""
    players = params[PR_PLAYERS]
    stage1_tricks, n_tricks, _ = hand_shape(params)
    t = np.int64(S[O_SC + SC_TRICK])              # int64 as in resume_after_play
    hand_no = np.int64(S[O_SC + SC_HAND])
    place = np.int64(S[CTR_DECLARING])
    if params[PR_OPEN_CARDS]:
        winner = seat                    # Polish: only the trick's winner decides here
        open_cards_rest_in_set(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t,
                               place, code)
    else:
        winner = place & 3
        declare_from(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t,
                     (place >> 5) & 1, (place >> 2) & 1, (place >> 3) & 1, (place >> 4) & 1,
                     code)
        if t == stage1_tricks:
            for p in range(players):
                pending_flush(S, p, hand_no, t)
    if S[O_SC + SC_STAGE] == 1:
        for k in range(players):
            draw(params, S, next_seat(winner, k, players), hand_no, t)
    w1, w = play_rest(params, S, rng, pol_ids, pol_params, fns, hand_no, t + 1, winner,
                      winner if t == stage1_tricks else -1)
    return w


@njit(error_model="numpy", cache=True, _nrt=False)
def resume_after_decision(params, S, rng, pol_ids, pol_params, fns, seat, action):
    """The hand from the current decision on, ``seat`` (the one deciding) taking ``action``
    (a card, or a declaration code or A_STOP). Returns the winner of the last trick."""
    if S[O_DECISION] == D_PLAY:
        return resume_after_play(params, S, rng, pol_ids, pol_params, fns, action)
    return resume_after_declare(params, S, rng, pol_ids, pol_params, fns, seat, action)
