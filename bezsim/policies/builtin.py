"""Built-in policies, compiled into the engine and chosen by id.

The policy contract. A built-in policy is an njit function

    policy(S, seat, params, rng) -> int

called whenever ``seat`` must decide. ``S`` is the engine's state array; a policy reads only
what its seat may see (bezsim.engine.state names the regions):

* the decision: ``S[O_DECISION]`` is D_PLAY (the offered actions ``S[O_ACTS:O_ACTS+n]``,
  n = ``S[O_N_ACTS]``, are the legal card ids) or D_DECLARE (the actions are declaration
  codes ``kind * 4 + suit`` worth ``S[O_APTS + i]`` points; the last one is A_STOP, which
  ends declaring on this trick);
* its own knowledge of every card: ``S[O_SEEN + seat * N_MAX + card]`` (V_* codes: its hand,
  cards shown on the table and by whom, cards played, the turn-up; other hands and the stock
  are V_UNSEEN);
* public facts: ``S[O_SC + SC_*]`` (trumps, trick number, stage, stock left, scores, points
  this hand), the current trick ``S[O_TRICK:O_TRICK + S[O_SC + SC_N_TRICK]]``, every
  copy's declaration history ``S[O_HIST + card]`` (every declaration is shown, so public),
  the rules table ``S[O_RULES + PR_*]``, and every seat's pending "to score" combinations
  (R1.10: announced aloud, so public): ``S[O_PEND_N + p]`` of them, the i-th at
  ``S[O_PEND + (p * PENDING_MAX + i) * PENDING_WIDTH:]`` as (code, n cards, card ids), and
  the brisque points each seat has taken in tricks this hand, ``S[O_BRISQ_TAKEN + p]``
  (every trick is seen by all; Rubicon counts them aside, R6.7).

It must not read other regions (hidden hands, stock order), nor the actions and points
regions past the offer (they hold earlier offers, such as another seat's legal cards).
``params`` is the policy's float64 parameter row for this seat (``params[seat]``, laid out
as bezsim.policy_specs.registry declares the policy's parameters), ``rng[1 + seat]`` its own
random stream.
It returns an index into the offered actions; the engine treats anything else as a fault.

External policies (``search``, and a user's ``package.module:function``) get the same state
and the seat, but only their own row ``params`` and their own stream ``rng`` (1-D): see
bezsim/engine/external.py and docs/user_policies.md.
"""

from numba import types
from numba.core.extending import overload

from bezsim.engine.constants import (
    ACE,
    D_PLAY,
    DIAMONDS,
    JACK,
    KING,
    QUEEN,
    SC_N_TRICK,
    SC_STAGE,
    SC_TRUMP,
    SPADES,
    TEN,
)
from bezsim.engine.external import (
    SET_EXPERT,
    SET_GREEDY,
    SET_HEURISTIC,
    SET_LEARNED,
    SET_TREE,
    in_set,
)
from bezsim.engine.jit import njit
from bezsim.engine.rng import below
from bezsim.engine.script import script_policy
from bezsim.engine.state import O_ACTS, O_DECISION, O_N_ACTS, O_SC, O_TRICK
from bezsim.engine.tricks import beats, winning_index
from bezsim.policies.common import best_declaration, trick_brisques
from bezsim.policies.expert import expert_policy
from bezsim.policies.heuristic import heuristic_policy
from bezsim.policies.learned import learned_policy
from bezsim.policies.tree import tree_policy
from bezsim.policies.weight import Weight, defaults, index

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
EXPERT = 3
LEARNED = 6
TREE = 4             # search's ISMCTS play-outs only (policies/tree.py): never a seat's policy
SCRIPT = 5           # the step API's replays only (engine/script.py): never a seat's policy
FIRST_ACTION = 100   # scripted, for positions: always the first offered action
LAST_ACTION = 101    # scripted, for positions: always the last one (declining)
# greedy's weights, each declared once (the registry's parameters are built from them)
GREEDY_WEIGHTS = (
    Weight("stage1_win_margin", 3.0, "stage 1: win with a card worth at most this much more "
           "(keep value) than the cheapest loser"),
    Weight("stage2_win_margin", 5.0, "stage 2: the same margin in the last tricks"),
)
GREEDY_INDEX = index(GREEDY_WEIGHTS)
GREEDY_DEFAULTS = defaults(GREEDY_WEIGHTS)
G_STAGE1_WIN_MARGIN = GREEDY_INDEX["stage1_win_margin"]
G_STAGE2_WIN_MARGIN = GREEDY_INDEX["stage2_win_margin"]


@njit(cache=True, inline="always", _nrt=False)
def random_policy(S, seat, params, rng):
    """Uniform over the legal actions (declining to declare included)."""
    return below(rng[1 + seat], S[O_N_ACTS])


@njit(cache=True, inline="always", _nrt=False)
def keep_value(card, trump):
    """How much a card is worth keeping: brisques, trumps, combination cards, then rank."""
    r = card & 7
    f = card & 31
    v = 7 - r
    if r == ACE or r == TEN:
        v += 20
    if (f >> 3) == trump:
        v += 10
    if r == KING or r == QUEEN or r == JACK:
        v += 5
    if f == SPADES * 8 + QUEEN or f == DIAMONDS * 8 + JACK:
        v += 5
    return v


@njit(cache=True, _nrt=False)
def greedy_policy(S, seat, params, rng):
    """Scores the most valuable declaration now; wins a trick when it holds a brisque or the
    win is cheap, else throws its cheapest card, so brisques are not given away."""
    n = S[O_N_ACTS]
    if S[O_DECISION] != D_PLAY:
        return best_declaration(S)     # the most valuable declaration now (seven included)
    trump = S[O_SC + SC_TRUMP]
    n_trick = S[O_SC + SC_N_TRICK]
    cheapest = 0
    for i in range(1, n):
        if keep_value(S[O_ACTS + i], trump) < keep_value(S[O_ACTS + cheapest], trump):
            cheapest = i
    if n_trick == 0:
        return cheapest
    best_card = S[O_TRICK + winning_index(S, n_trick, trump)]
    brisques = trick_brisques(S, n_trick)
    win = -1
    lose = -1
    for i in range(n):
        c = S[O_ACTS + i]
        v = keep_value(c, trump)
        if beats(c, best_card, trump):
            if win < 0 or v < keep_value(S[O_ACTS + win], trump):
                win = i
        elif lose < 0 or v < keep_value(S[O_ACTS + lose], trump):
            lose = i
    if win < 0:
        return cheapest
    if lose < 0:
        return win
    margin = params[G_STAGE2_WIN_MARGIN] if S[O_SC + SC_STAGE] == 2 else params[
        G_STAGE1_WIN_MARGIN]
    if brisques > 0 or keep_value(S[O_ACTS + win], trump) <= keep_value(S[O_ACTS + lose],
                                                                        trump) + margin:
        return win
    return lose


def expert_in_set(fns, policy_id, S, seat, params, rng):
    """expert's or learned's decision (``policy_id``), or -1 (a contract fault, never
    reached) when the run's policy set ``fns`` leaves that policy out (engine/external.py):
    such a run never compiles its code."""
    if fns is not None and (fns[SET_EXPERT] is None
                            or (policy_id == LEARNED and fns[SET_LEARNED] is None)):
        return -1
    if policy_id == LEARNED:
        return learned_policy(S, seat, params, rng)
    return expert_policy(S, seat, params, rng)


@overload(expert_in_set, jit_options={"cache": True})
def _expert_in_set_impl(fns, policy_id, S, seat, params, rng):
    if not in_set(fns, SET_EXPERT):
        def left_out(fns, policy_id, S, seat, params, rng):
            return -1
        return left_out
    if not in_set(fns, SET_LEARNED):
        def expert_only(fns, policy_id, S, seat, params, rng):
            if policy_id == LEARNED:
                return -1
            return expert_policy(S, seat, params, rng)
        return expert_only

    def expert_or_learned(fns, policy_id, S, seat, params, rng):
        if policy_id == LEARNED:
            return learned_policy(S, seat, params, rng)
        return expert_policy(S, seat, params, rng)
    return expert_or_learned


def greedy_in_set(fns, S, seat, params, rng):
    """greedy's decision, or -1 (never reached) when the run's policy set leaves it out."""
    if fns is not None and fns[SET_GREEDY] is None:
        return -1
    return greedy_policy(S, seat, params, rng)


@overload(greedy_in_set, jit_options={"cache": True})
def _greedy_in_set_impl(fns, S, seat, params, rng):
    if not in_set(fns, SET_GREEDY):
        def left_out(fns, S, seat, params, rng):
            return -1
        return left_out

    def greedy(fns, S, seat, params, rng):
        return greedy_policy(S, seat, params, rng)
    return greedy


def heuristic_in_set(fns, S, seat, params, rng):
    """heuristic's decision, or -1 (never reached) when the run's policy set leaves it out."""
    if fns is not None and fns[SET_HEURISTIC] is None:
        return -1
    return heuristic_policy(S, seat, params, rng)


@overload(heuristic_in_set, jit_options={"cache": True})
def _heuristic_in_set_impl(fns, S, seat, params, rng):
    if not in_set(fns, SET_HEURISTIC):
        def left_out(fns, S, seat, params, rng):
            return -1
        return left_out

    def heuristic(fns, S, seat, params, rng):
        return heuristic_policy(S, seat, params, rng)
    return heuristic


def tree_in_set(fns, S, seat, params, rng):
    """The ISMCTS tree policy in search's play-outs (``fns`` None: every built-in); -1 (a
    contract fault, never reached) in a policy set that leaves it out (a run's own, search's
    play-outs by play-outs), which never compiles it."""
    if fns is not None and fns[SET_TREE] is None:
        return -1
    return tree_policy(S, seat, params, rng)


@overload(tree_in_set, jit_options={"cache": True})
def _tree_in_set_impl(fns, S, seat, params, rng):
    if not in_set(fns, SET_TREE):
        def left_out(fns, S, seat, params, rng):
            return -1
        return left_out

    def tree(fns, S, seat, params, rng):
        return tree_policy(S, seat, params, rng)
    return tree


def script_in_set(fns, S, seat, rng):
    """The step API's scripted seat (``fns`` None: its replays); -1 in a run's own set."""
    if fns is not None:
        return -1
    return script_policy(S, seat, rng)


@overload(script_in_set, jit_options={"cache": True})
def _script_in_set_impl(fns, S, seat, rng):
    if not isinstance(fns, types.NoneType):
        def left_out(fns, S, seat, rng):
            return -1
        return left_out

    def scripted(fns, S, seat, rng):
        return script_policy(S, seat, rng)
    return scripted


@njit(cache=True, _nrt=False)
def choose_among(fns, policy_id, S, seat, params, rng):
    """Dispatch to a built-in policy by id, compiled for the run's policy set ``fns``."""
    if policy_id == GREEDY:
        return greedy_in_set(fns, S, seat, params[seat], rng)
    if policy_id == RANDOM:
        return random_policy(S, seat, params[seat], rng)
    if policy_id == HEURISTIC:
        return heuristic_in_set(fns, S, seat, params[seat], rng)
    if policy_id == EXPERT or policy_id == LEARNED:
        return expert_in_set(fns, policy_id, S, seat, params[seat], rng)
    if policy_id == TREE:
        return tree_in_set(fns, S, seat, params[seat], rng)
    if policy_id == SCRIPT:
        return script_in_set(fns, S, seat, rng)
    return 0 if policy_id == FIRST_ACTION else S[O_N_ACTS] - 1


@njit(cache=True, _nrt=False)
def choose(policy_id, S, seat, params, rng):
    """``choose_among`` with every built-in compiled in (positions and tests ask any one)."""
    return choose_among(None, policy_id, S, seat, params, rng)
