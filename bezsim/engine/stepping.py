"""One way to step a game: from a decision of a scripted seat to the next one.

A seat whose decisions come from outside the engine (a person, a learning agent, search
driven from Python) is scripted: when it must decide, the engine raises and stops right
there (engine/script.py). ``step_game`` takes the game up at that decision with the action
chosen: the hand runs on (engine/resume.py), ends as ``play_game`` ends it (game.end_hand),
the next hand is dealt from its own stream, and so on, until a scripted seat must decide
again or the game is over. A step costs the play between two decisions, whatever the
game's length, and a game stepped from its start to its end is the game ``play_game``
plays: the same calls, in the same order, on the same streams.

``replay_game`` plays a game from its start with a script of the decisions already taken
(a saved game, a transcript's trace) and stops where the script runs out.
"""

import numpy as np

from bezsim.engine.constants import PR_PLAYERS, SC_DEALER, SC_HAND
from bezsim.engine.game_loop import deal_and_play, end_game, end_hand, start_game
from bezsim.engine.hand import next_seat
from bezsim.engine.jit import njit
from bezsim.engine.resume import resume_after_decision
from bezsim.engine.script import clear_stop, stopped_seat
from bezsim.engine.state import CTR_STOCK_WINNER, O_SC, reset_game

GAME_OVER = -1
BROKEN = -2         # the engine raised for another reason than a scripted decision


@njit(error_model="numpy", cache=True)
def step_game(params, pol_ids, pol_params, seed, game, hand_seat, hand_info, game_info,
              events, S, rng, seat, action):
    """The game in ``S`` and ``rng`` played on from the decision of ``seat`` with ``action``
    (a card, a declaration code or A_STOP), or from its start when ``seat`` < 0, to the next
    decision of a scripted seat (``pol_ids``: SCRIPT). Returns the seat to decide there, or
    GAME_OVER once the game's rows are written."""
    clear_stop(S)
    try:
        return play_on(params, pol_ids, pol_params, seed, game, hand_seat, hand_info,
                       game_info, events, S, rng, seat, action)
    except Exception:  # noqa: BLE001 - numba catches only Exception; the seat tells which
        pass
    stopped = stopped_seat(S)
    return stopped if stopped >= 0 else BROKEN


@njit(error_model="numpy", cache=True, _nrt=False)
def play_on(params, pol_ids, pol_params, seed, game, hand_seat, hand_info, game_info,
            events, S, rng, seat, action):
    """step_game's play, which a scripted seat's decision interrupts (it raises). From the
    start (``seat`` < 0) it is play_game's game: the same calls in the same order. One call
    site of the hand (deal_and_play is inlined, the whole hand with it)."""
    players = params[PR_PLAYERS]
    w24 = w_last = 0
    if seat < 0:
        reset_game(S)
        h = 0
        dealer = start_game(params, seed, game, S, rng, game_info)
        deal = True
    else:
        w_last = resume_after_decision(params, S, rng, pol_ids, pol_params, None, seat,
                                       action)
        h = S[O_SC + SC_HAND]
        dealer = S[O_SC + SC_DEALER]
        w24 = S[CTR_STOCK_WINNER]
        deal = False
    while True:
        if deal:
            w24, w_last = deal_and_play(params, S, rng, pol_ids, pol_params, None, seed, game,
                                        h, dealer)
        over, winner = end_hand(params, S, h, dealer, w24, w_last, hand_seat, hand_info,
                                game_info)
        if over:
            end_game(params, S, h + 1, winner, game_info, events)
            return GAME_OVER
        h += 1
        dealer = next_seat(dealer, 1, players)
        deal = True


@njit(error_model="numpy", cache=True)
def replay_game(params, pol_ids, pol_params, seed, game, hand_seat, hand_info, game_info,
                events, S):
    """One game from its start in a state array that carries a script (engine/script.py),
    every built-in policy compiled in; it stops where the script runs out, or ends. Returns
    the random streams there. It plays as step_game does from the start (play_on), so the
    step engine compiles the hand once."""
    players = params[PR_PLAYERS]
    rng = np.zeros((1 + players, 4), np.uint64)
    try:
        play_on(params, pol_ids, pol_params, seed, game, hand_seat, hand_info, game_info,
                events, S, rng, -1, 0)
    except Exception:  # noqa: BLE001 - a scripted seat stopped it (script.stopped_seat)
        pass
    return rng
