"""The tree policy of search's information-set MCTS (``search(method=1)``; Cowling, Powley
and Whitehouse 2012, single-observer ISMCTS).

Search plays each iteration in a fresh deal of the cards its seat has not seen, from the
decision it is taking. Every seat of that play-out is this policy: while the play-out is in
the tree it picks, among the actions offered in this deal, the child with the best upper
confidence bound (UCB1 with availability counts: a child counts the iterations in which it
was offered, not its parent's visits), adds the first untried action as a new node and
leaves the tree; out of the tree it is expert. The tree lives past the engine's state in the
play-out's own array (``S[S_BASE:]``: a play-out keeps no events, so nothing else is
written there) and survives from one iteration to the next, since only ``S[:S_BASE]`` is
copied from the deal. Nodes are keyed by (seat, kind of decision, action): after the same
history a decision may or may not arise in another deal (a trick's winner with no
declaration is not asked), so children of different kinds share a parent.
"""

import numpy as np

from bezsim.engine.constants import D_PLAY
from bezsim.engine.jit import njit
from bezsim.engine.state import O_ACTS, O_DECISION, O_N_ACTS, S_BASE
from bezsim.policies.expert import expert_policy

# header, at S_BASE
T_CUR = 0          # node whose children the next decision chooses among; -1: out of the tree
T_USED = 1         # nodes in use
T_CAP = 2          # nodes the region holds
T_PATH_N = 3       # nodes of this iteration's path
T_EXPLORE = 4      # UCB exploration constant, in points
T_PATH = 8         # + i: the path's nodes
PATH_MAX = 256
T_NODES = T_PATH + PATH_MAX
# a node
N_CHILD = 0        # first child, -1: none
N_NEXT = 1         # next sibling, -1: none
N_KEY = 2          # (seat << 12) | (decision << 10) | action key
N_ACTOR = 3        # the seat whose action the node is
N_VISITS = 4
N_AVAIL = 5        # iterations in which the action was offered
N_VALUE = 6        # sum of play-out values, from the actor's side
NODE_WIDTH = 8


@njit(cache=True, inline="always", _nrt=False)
def node_at(i):
    return S_BASE + T_NODES + i * NODE_WIDTH


@njit(cache=True, inline="always", _nrt=False)
def tree_words(nodes):
    """Words of the tree region for ``nodes`` nodes."""
    return T_NODES + nodes * NODE_WIDTH


@njit(cache=True, inline="always", _nrt=False)
def action_key(S, seat, i):
    """The key of offered action i: a card by its face (copies play alike), else its code."""
    a = S[O_ACTS + i]
    play = S[O_DECISION] == D_PLAY
    return (seat << 12) | (S[O_DECISION] << 10) | ((a & 31) if play else (a + 2) & 1023)


@njit(cache=True, _nrt=False)
def new_node(S, parent, key, actor):
    """A child of ``parent`` (or a root when parent < 0); -1 when the region is full."""
    i = S[S_BASE + T_USED]
    if i >= S[S_BASE + T_CAP]:
        return -1
    S[S_BASE + T_USED] = i + 1
    at = node_at(i)
    S[at + N_CHILD] = -1
    S[at + N_NEXT] = -1
    S[at + N_KEY] = key
    S[at + N_ACTOR] = actor
    S[at + N_VISITS] = 0
    S[at + N_AVAIL] = 0
    S[at + N_VALUE] = 0
    if parent >= 0:
        p = node_at(parent)
        S[at + N_NEXT] = S[p + N_CHILD]
        S[p + N_CHILD] = i
    return i


@njit(cache=True, _nrt=False)
def find_child(S, parent, key):
    c = S[node_at(parent) + N_CHILD]
    while c >= 0:
        if S[node_at(c) + N_KEY] == key:
            return c
        c = S[node_at(c) + N_NEXT]
    return -1


@njit(cache=True, inline="always", _nrt=False)
def push_path(S, node):
    n = S[S_BASE + T_PATH_N]
    if n < PATH_MAX:
        S[S_BASE + T_PATH + n] = node
        S[S_BASE + T_PATH_N] = n + 1


@njit(cache=True, _nrt=False)
def ucb_choice(S, parent, seat, expert_choice):
    """Among the offered actions: an untried one (expert's first), added as a node, the
    tree left; else the child of the best UCB1 with availability, the tree entered.
    Returns the offer index (duplicate faces share one node)."""
    n = S[O_N_ACTS]
    play = S[O_DECISION] == D_PLAY
    explore = float(S[S_BASE + T_EXPLORE])
    best = -1
    best_node = -1
    best_score = -1e300
    untried = -1
    for i in range(n):
        if play:
            dup = False
            for j in range(i):
                if S[O_ACTS + j] & 31 == S[O_ACTS + i] & 31:
                    dup = True
            if dup:
                continue
        key = action_key(S, seat, i)
        c = find_child(S, parent, key)
        if c < 0:
            if untried < 0 or i == expert_choice:
                untried = i
            continue
        at = node_at(c)
        S[at + N_AVAIL] += 1
        v = S[at + N_VISITS]
        score = 1e200
        if v > 0:
            score = S[at + N_VALUE] / v + explore * np.sqrt(np.log(S[at + N_AVAIL]) / v)
        if score > best_score:
            best_score = score
            best = i
            best_node = c
    if untried >= 0:
        c = new_node(S, parent, action_key(S, seat, untried), seat)
        if c >= 0:
            S[node_at(c) + N_AVAIL] = 1
            push_path(S, c)
        S[S_BASE + T_CUR] = -1
        return untried
    push_path(S, best_node)
    S[S_BASE + T_CUR] = best_node
    return best


@njit(cache=True, _nrt=False)
def tree_policy(S, seat, params, rng):
    """In the tree: UCB over the offered actions (module docstring); out of it: expert.
    ``params`` is expert's row (search fills it for rollout=3)."""
    cur = S[S_BASE + T_CUR]
    if cur < 0 or S[O_N_ACTS] == 1:
        return expert_policy(S, seat, params, rng)
    return ucb_choice(S, cur, seat, expert_policy(S, seat, params, rng))
