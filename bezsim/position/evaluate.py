"""``bezsim explain --evaluate``: what each legal card of a position is worth, and what each
built-in policy would play there.

A card's value is the seat's expected points margin over the rest of the hand (its side's
points minus the best other side's, the position's ``points`` counted), or in Rubicon the
settlement of the game (R6.8), over deals of the cards the seat has not seen, every card
played out in the same deals by the default search's play-out policy, through search's own
compiled code. The best card is the one search would play given those play-outs: its base
policy's card unless another is better by its confidence gate. A two-handed stage 2 without
open cards needs no deals: the seat knows both hands, and the values are the exact minimax
card-point margins (policies/solver.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.position.engine_state import build_state
from bezsim.position.model import Position, PositionError, stage2_pairs

Z95 = 1.959964
EVALUATE_SEARCH = "search"        # the default search: its play-outs and its settings
CHOOSERS = ("random", "greedy", "heuristic", "expert", "learned", "search")


def evaluate(pos: Position, deals: int = 400, seed: int = 0,
             search: str = EVALUATE_SEARCH) -> dict[str, Any]:
    """Every legal card's value with a 95% interval, the card search would play given those
    values (``best``), and each built-in policy's choice."""
    from bezsim.policies.search_params import P_Z
    from bezsim.policies.solver import exact_stage2_values

    check_evaluable(pos, deals)
    rules, seat = pos.rules, pos.to_move
    S, acts = decision_state(pos)
    settlement = rules.definition.one_hand_game and rules.players == 2
    row = evaluation_row(search, rules.variant, settlement)
    choices = _choices(pos, S, seed)
    exact = (pos.stage == 2 and rules.players == 2 and not pos.open_cards and not settlement)
    if exact:
        values = np.zeros(len(acts), np.int64)
        if not exact_stage2_values(S.copy(), seat, acts, values):
            raise PositionError("the hands do not add up for stage 2: the seat to move must "
                                "see every card the other holds")
        rows = [{"card": cards.card_name(int(c)), "value": float(v), "low": float(v),
                 "high": float(v)} for c, v in zip(acts, values, strict=True)]
        best = int(np.argmax(values))
        method = "exact: both hands are known in stage 2 (minimax over the tricks left)"
        played = 0
    else:
        playout = _playout_name(row)
        base = [cards.card_name(int(c)) for c in acts].index(choices[playout])
        table, best = _playout_table(S, seat, row, acts, base, deals, seed)
        played = table.shape[0]
        if played == 0:
            raise PositionError("the position's card counts do not add up: no deal of the "
                                "unseen cards fits them")
        rows = _value_rows(acts, table)
        method = (f"{played} sampled deals of the unseen cards, played out by {playout}; "
                  f"best: {playout}'s card unless another beats it by {row[P_Z]:g} standard "
                  "errors, as search decides; value: "
                  + ("the Rubicon settlement (R6.8)" if settlement else "the hand margin"))
    return {"values": rows, "best": rows[best]["card"], "method": method,
            "value": "settlement" if settlement else "margin", "deals": played,
            "choices": choices}


def decision_state(pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """The position as the engine's state at the seat's card play, and the cards worth
    valuing: the first copy of each face in the offer, as search tries them."""
    from bezsim.engine import state as st
    from bezsim.engine.tricks import legal_plays

    S = build_state(pos)
    n = legal_plays(S, pos.to_move, len(pos.current_trick), pos.trumps, pos.stage,
                    int(pos.rules.params()[C.PR_STAGE2_DUTY]))
    S[st.O_N_ACTS] = n
    S[st.O_DECISION] = C.D_PLAY
    acts: list[int] = []
    for c in S[st.O_ACTS:st.O_ACTS + n]:
        if all(int(c) & 31 != a & 31 for a in acts):
            acts.append(int(c))
    return S, np.array(acts, np.int32)


def evaluation_row(search: str, variant: str, settlement: bool) -> np.ndarray:
    """search's parameter row for the evaluation: its play-outs, its gate; valued by the
    settlement in Rubicon."""
    from bezsim.policies.search_params import P_SETTLEMENT
    from bezsim.policy_specs.registry import policy_params

    row = policy_params([search], variant)[0]
    row[P_SETTLEMENT] = float(settlement)
    return row


def check_evaluable(pos: Position, deals: int = 1) -> None:
    """A one-line PositionError, before any work, for a position --evaluate cannot value."""
    if pos.phase != "play":
        raise PositionError("--evaluate values card plays: give a position with phase 'play'")
    if pos.stage == 2 and stage2_pairs(pos.rules):
        raise PositionError("--evaluate does not value the partnership pairs ending (R4.2 "
                            "partnership_stage2=pairs) yet")
    if deals < 1:
        raise PositionError(f"--deals must be at least 1, got {deals}")
    _check_every_card_placed(pos)


def _check_every_card_placed(pos: Position) -> None:
    """The deals are of the cards the seat has not seen, into the places it cannot see: so
    every card must be somewhere the position says (a hand, the trick, played, the turn-up,
    an open card) or in the stock."""
    placed = (sum(len(h) for h in pos.hands) + len(pos.current_trick) + len(pos.played)
              + len(pos.won_trick) + sum(len(o) for o in pos.open)
              + (pos.turnup != C.NO_CARD) + pos.stock)
    n_cards = pos.rules.packs * 32
    if placed != n_cards:
        raise PositionError(f"--evaluate needs every card placed: the hands, the trick, "
                            f"'played', the turn-up and the stock ({pos.stock}) hold {placed} "
                            f"of the {n_cards} cards; list the cards played so far in "
                            "'played'")


def _playout_table(S: np.ndarray, seat: int, row: np.ndarray, acts: np.ndarray, base: int,
                   deals: int, seed: int) -> tuple[np.ndarray, int]:
    """[deals, actions]: each action's play-out value in each sampled deal, and the index of
    the action search plays given them (``base``: its base policy's), from search's own
    compiled code (a row longer than usual asks it for values, search_params.EVAL_AT)."""
    from bezsim.policies.search import search_decision
    from bezsim.policies.search_params import (
        EVAL_ACTS,
        EVAL_BASE,
        EVAL_BEST,
        EVAL_DEALS,
        EVAL_N,
        EVAL_VALUES,
        EVALUATE,
        LONG_MODE,
    )

    long_row = np.zeros(EVAL_VALUES + deals * len(acts))
    long_row[:len(row)] = row
    long_row[LONG_MODE] = EVALUATE
    long_row[EVAL_DEALS] = deals
    long_row[EVAL_N] = len(acts)
    long_row[EVAL_BASE] = base
    long_row[EVAL_ACTS:EVAL_ACTS + len(acts)] = acts
    played = search_decision(S.copy(), seat, long_row, deal_stream(seed, 0, seat))
    table = long_row[EVAL_VALUES:EVAL_VALUES + played * len(acts)].reshape(played, len(acts))
    return table, int(long_row[EVAL_BEST])


def deal_stream(seed: int, purpose: int, seat: int) -> np.ndarray:
    """A random stream of its own for each use (purpose 0: the sampled deals; 1: the
    policies' choices)."""
    from bezsim.engine.rng import PURPOSE_POLICY, seed_stream

    state = np.zeros(4, np.uint64)
    seed_stream(state, seed, purpose, PURPOSE_POLICY, seat)
    return state


def _value_rows(acts: np.ndarray, table: np.ndarray) -> list[dict[str, Any]]:
    """Each card's mean value with its 95% interval, and its paired difference from the
    top-valued card over the same deals (the interval that says whether the top is clearly
    better)."""
    k = table.shape[0]
    means = table.mean(axis=0)
    best = int(np.argmax(means))
    rows = []
    for j, card in enumerate(acts):
        se = table[:, j].std(ddof=1) / np.sqrt(k) if k > 1 else 0.0
        diff = table[:, j] - table[:, best]
        dse = diff.std(ddof=1) / np.sqrt(k) if k > 1 else 0.0
        rows.append({"card": cards.card_name(int(card)), "value": float(means[j]),
                     "low": float(means[j] - Z95 * se), "high": float(means[j] + Z95 * se),
                     "vs_top": float(diff.mean()), "vs_top_low": float(diff.mean() - Z95 * dse),
                     "vs_top_high": float(diff.mean() + Z95 * dse)})
    return rows


def _playout_name(row: np.ndarray) -> str:
    from bezsim.policies.search_params import P_ROLLOUT

    return {1: "greedy", 2: "heuristic", 3: "expert", 4: "learned"}[int(row[P_ROLLOUT])]


def _choices(pos: Position, S: np.ndarray, seed: int) -> dict[str, str]:
    """The card each built-in policy plays here (search at its defaults)."""
    from bezsim.engine import state as st
    from bezsim.policies.builtin import choose
    from bezsim.policies.search import search_decision
    from bezsim.policy_specs.registry import POLICY_IDS, policy_params

    players = pos.rules.players
    seat = pos.to_move
    out = {}
    for name in CHOOSERS:
        row = policy_params([name] * players, pos.rules.variant)
        stream = deal_stream(seed, 1, seat)
        T = S.copy()
        if name == "search":
            index = search_decision(T, seat, row[seat], stream)
        else:
            rng = np.zeros((1 + players, 4), np.uint64)
            rng[1 + seat] = stream
            index = choose(POLICY_IDS[name], T, seat, row, rng)
        out[name] = cards.card_name(int(S[st.O_ACTS + index]))
    return out
