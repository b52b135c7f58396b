"""The policy contract: a built-in policy's decision depends only on what its seat may see
(DESIGN: "never another hand or the stock order. Test that.")."""

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.melds import legal_declarations
from bezsim.engine.tricks import legal_plays
from bezsim.policies.builtin import GREEDY, RANDOM, choose
from bezsim.policies.registry import PolicyError, parse_policies
from bezsim.position import build_state, parse_position

SEEN_BY_SEAT_0 = {
    "trumps": "♥", "turnup": "9♥", "stock": 21, "trick": 14, "to_move": 0,
    "current_trick": ["A♣"],
}


def _state(opponent_hand, stock_seed, phase="play"):
    pos = parse_position({**SEEN_BY_SEAT_0, "phase": phase,
                          "current_trick": [] if phase == "declare" else ["A♣"],
                          "seats": [{"hand": ["K♠", "Q♠", "J♦", "10♣", "7♥", "8♣", "A♥"]},
                                    {"hand": opponent_hand}]})
    S = build_state(pos)
    # the hidden stock order
    S[st.O_STOCK:st.O_STOCK + 64] = np.random.default_rng(stock_seed).permutation(64)
    return pos, S


def _decide(policy_id, S, decision, n):
    S[st.O_N_ACTS] = n
    S[st.O_DECISION] = decision
    rng = np.zeros((3, 4), np.uint64)
    rng[1] = [1, 2, 3, 4]
    return choose(policy_id, S, 0, np.zeros((2, 1)), rng)


HIDDEN_VARIANTS = [
    (["Q♥", "K♥", "9♠", "8♦", "7♣", "J♣"], 1),
    (["A♠", "10♠", "K♦", "Q♦", "J♠", "9♦"], 2),
    ([], 3),
]


@pytest.mark.parametrize("policy_id", [RANDOM, GREEDY])
def test_play_decision_ignores_hidden_cards(policy_id):
    decisions = set()
    for opponent, stock in HIDDEN_VARIANTS:
        pos, S = _state(opponent, stock)
        n = legal_plays(S, 0, 1, pos.trumps, pos.stage, 0)
        decisions.add(int(S[st.O_ACTS + _decide(policy_id, S, C.D_PLAY, n)]))
    assert len(decisions) == 1


@pytest.mark.parametrize("policy_id", [RANDOM, GREEDY])
def test_declare_decision_ignores_hidden_cards(policy_id):
    params = parse_position({**SEEN_BY_SEAT_0, "seats": [{"hand": []}, {"hand": []}]}).rules
    decisions = set()
    for opponent, stock in HIDDEN_VARIANTS:
        _, S = _state(opponent, stock, phase="declare")
        n = legal_declarations(params.params(), S, 0, True, True, st.O_ACTS)
        S[st.O_ACTS + n] = C.A_STOP
        S[st.O_APTS + n] = 0
        decisions.add(int(S[st.O_ACTS + _decide(policy_id, S, C.D_DECLARE, n + 1)]))
    assert len(decisions) == 1


def test_greedy_scores_the_most_valuable_declaration_and_wins_brisques():
    _, S = _state([], 3, phase="declare")
    params = parse_position({**SEEN_BY_SEAT_0, "seats": [{"hand": []}, {"hand": []}]})
    n = legal_declarations(params.rules.params(), S, 0, True, True, st.O_ACTS)
    S[st.O_ACTS + n] = C.A_STOP
    S[st.O_APTS + n] = 0
    chosen = int(S[st.O_ACTS + _decide(GREEDY, S, C.D_DECLARE, n + 1)])
    assert chosen == C.K_BEZIQUE * 4          # bezique 40 beats marriage 20 and the seven
    pos, S = _state([], 3)
    n = legal_plays(S, 0, 1, pos.trumps, pos.stage, 0)
    # A♣ led (a brisque): greedy takes it with its cheapest winner, the trump seven
    assert int(S[st.O_ACTS + _decide(GREEDY, S, C.D_PLAY, n)]) == 7 + 8   # 7♥


def test_parse_policies():
    assert parse_policies("random", 2) == ["random", "random"]
    assert parse_policies("greedy, random", 2) == ["greedy", "random"]
    with pytest.raises(PolicyError, match="unknown policy 'smart'"):
        parse_policies("smart", 2)
    with pytest.raises(PolicyError, match="3 policies given for 2 seats"):
        parse_policies("random,random,greedy", 2)
