"""The batched environment's kernels: every game of the batch stepped in one compiled call.

Each game is stepped by engine/stepping.py's ``step_game`` (the seats the agent drives are
scripted; built-in policies in the other seats play inside the same call), then encoded
(bezsim/env_kernels/observation.py). A game that ends is started again at once with its
next game index.
The kernels release the GIL, so the environment can step blocks of slots on threads.
"""

import numpy as np

from bezsim.engine.constants import GI_WINNER, PR_PARTNERS, PR_PLAYERS
from bezsim.engine.jit import njit
from bezsim.engine.state import O_ACTS
from bezsim.engine.stepping import GAME_OVER, step_game
from bezsim.env_kernels.observation import action_at, observe_into, offer_into
from bezsim.policies.builtin import choose


@njit(error_model="numpy", cache=True)
def _encode(S, seat, index_of, obs, mask):
    observe_into(S, seat, obs)
    offer_into(S, mask, index_of)


@njit(error_model="numpy", cache=True, nogil=True)
def reset_batch(params, pol_ids, pol_params, seed, games, hand_seat, hand_info, game_info,
                events, S, rng, seat, index_of, obs, mask):
    """Game ``games[i]`` started in slot i, up to its first decision of a driven seat.
    Returns -1, or the first slot whose game reached none (it could not be started)."""
    for i in range(S.shape[0]):
        to = step_game(params, pol_ids, pol_params, seed, games[i], hand_seat[i],
                       hand_info[i], game_info[i], events[i], S[i], rng[i], GAME_OVER, 0)
        if to < 0:
            return i
        seat[i] = to
        _encode(S[i], to, index_of[i], obs[i], mask[i])
    return -1


@njit(error_model="numpy", cache=True)
def first_illegal(index_of, actions):
    """The first slot whose action is not offered, or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= index_of.shape[1] or index_of[i, a] < 0:
            return i
    return -1


@njit(error_model="numpy", cache=True, nogil=True)
def step_batch(params, pol_ids, pol_params, seed, games, stride, hand_seat, hand_info,
               game_info, events, S, rng, seat, index_of, proposed, actions, obs, mask, reward,
               done, final_game, final_hand_seat, final_hand_info, final_game_info):
    """Every slot takes its action and plays on to its next decision of a driven seat; a
    game that ends gets its rewards (+1 to the winning side's seats, -1 to the others, 0 for
    a draw), its rows are kept in the ``final_*`` arrays and the next game (index +
    ``stride``) begins. An action is played by its face's first offered copy, or by the
    copy a built-in policy chose when it is the action ``proposed`` (policy_batch) for the
    slot: copies of a face may differ (one declared, one not). Every action must be offered
    (first_illegal: the caller checks before any slot moves). Returns -1, or the first slot
    that could not go on (the engine stopped without a decision)."""
    n = S.shape[0]
    players = params[PR_PLAYERS]
    partners = params[PR_PARTNERS] != 0
    for i in range(n):
        for p in range(players):
            reward[i, p] = 0.0
        done[i] = False
        k = index_of[i, actions[i]]
        if proposed[i, 0] == actions[i]:
            k = proposed[i, 1]
        proposed[i, 0] = -1
        value = np.int64(S[i, O_ACTS + k])
        to = step_game(params, pol_ids, pol_params, seed, games[i], hand_seat[i],
                       hand_info[i], game_info[i], events[i], S[i], rng[i], seat[i], value)
        if to == GAME_OVER:
            done[i] = True
            winner = game_info[i, GI_WINNER]
            if winner >= 0:
                for p in range(players):
                    side = p % 2 if partners else p
                    reward[i, p] = 1.0 if side == winner else -1.0
            final_game[i] = games[i]
            final_hand_seat[i] = hand_seat[i]
            final_hand_info[i] = hand_info[i]
            final_game_info[i] = game_info[i]
            games[i] += stride
            to = step_game(params, pol_ids, pol_params, seed, games[i], hand_seat[i],
                           hand_info[i], game_info[i], events[i], S[i], rng[i], GAME_OVER, 0)
        if to < 0:
            return i
        seat[i] = to
        _encode(S[i], to, index_of[i], obs[i], mask[i])
    return -1


@njit(error_model="numpy", cache=True)
def policy_batch(policy_id, pol_params, S, rng, seat, asked, scratch, proposed, out):
    """The action built-in policy ``policy_id`` takes at the decision of each slot
    ``asked``, drawing from the deciding seat's own stream (as when it sits there), -1 for
    the others; each is kept in ``proposed`` with the offer's index the policy chose (the
    very copy, for step_batch). ``scratch``: a state-sized buffer, so a policy that works
    in the state leaves the game's own untouched."""
    for i in range(S.shape[0]):
        if not asked[i]:
            out[i] = -1
            continue
        scratch[:] = S[i]
        index = choose(policy_id, scratch, seat[i], pol_params, rng[i])
        out[i] = action_at(S[i], index)         # the offer as it was: a policy may reuse it
        proposed[i, 0] = out[i]
        proposed[i, 1] = index
