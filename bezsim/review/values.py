"""What each option of one decision is worth to the deciding seat, judged from what it could
see.

Every distinct offered action (a card, or which copy of a card when one is concealed and one
declared on the table; a declaration; stop) is played out in the same sampled deals of the
cards the seat has not seen, by search's own compiled evaluation (policies/search.py,
evaluate_into): its value is the seat's expected hand margin (Rubicon: the settlement) with
a 95% interval, and the option search would play given those values is the reference. A
two-handed stage 2 without open cards needs no deals: the seat knows both hands, and the
values are the exact minimax margins (policies/solver.py).

The loss of an option is its value's shortfall from the reference's, counted only when the
paired interval of the difference (the same deals for both) lies wholly above zero: within
the noise, no loss.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st

Z95 = 1.959964
DEFAULT_DEALS = 96        # sampled deals per decision: the review's default budget


@dataclass(frozen=True)
class Option:
    """One option of a decision and its value to the deciding seat."""

    name: str              # as the game record names it
    index: int             # the offered action taken for it
    value: float
    low: float
    high: float
    loss: float            # against the reference option (0 within the noise)
    loss_low: float        # the paired difference's 95% interval
    loss_high: float


@dataclass(frozen=True)
class DecisionValues:
    """Every option of a decision, and the reference: the one search plays given them."""

    options: tuple[Option, ...]
    best: int              # position in ``options``
    method: str            # "exact" or "sampled"
    deals: int             # sampled deals played (0 when exact)

    def option_of(self, offered_index: int, game) -> Option:
        """The option an offered action belongs to."""
        from bezsim.review.record import option_label, recorded_action

        name = option_label(recorded_action(game, offered_index))
        return next(o for o in self.options if o.name == name)


def distinct_options(game) -> list[tuple[str, int]]:
    """(name, first offered index) of each distinct option of the current decision."""
    from bezsim.review.record import option_label, recorded_action

    seen: dict[str, int] = {}
    for a in game.actions():
        seen.setdefault(option_label(recorded_action(game, a.index)), a.index)
    return list(seen.items())


def decision_values(game, deals: int = DEFAULT_DEALS, seed: int = 0) -> DecisionValues:
    """The options of ``game``'s current decision valued for the seat to decide (module
    docstring)."""
    from bezsim.review.record import option_label, recorded_action

    names = [option_label(recorded_action(game, a.index)) for a in game.actions()]
    return state_values(game.rules, game.state_array(), game.seat, names, deals, seed)


def state_values(rules, S: np.ndarray, seat: int, names: list[str], deals: int = DEFAULT_DEALS,
                 seed: int = 0) -> DecisionValues:
    """``decision_values`` of the engine state ``S`` at a decision of ``seat``, ``names[i]``
    the option offered action i belongs to. ``seed`` fixes the sampled deals, and the deals
    are drawn from what the seat knows, so the values are a function of the position the
    seat sees, the budget and the seed."""
    from bezsim.policies.solver import exact_stage2_values

    options = list({name: i for i, name in reversed(list(enumerate(names)))}.items())
    options.sort(key=lambda option: option[1])
    acts = np.array([int(S[st.O_ACTS + i]) for _, i in options], np.int32)
    settlement = rules.definition.one_hand_game and rules.players == 2
    play = S[st.O_DECISION] == C.D_PLAY
    if (play and S[st.O_SC + C.SC_STAGE] == 2 and rules.players == 2
            and not rules.definition.open_cards and not settlement):
        values = np.zeros(len(acts), np.int64)
        if exact_stage2_values(S.copy(), seat, acts, values):
            best = int(np.argmax(values))
            return DecisionValues(tuple(
                Option(name, i, float(v), float(v), float(v), float(values[best] - v),
                       float(values[best] - v), float(values[best] - v))
                for (name, i), v in zip(options, values, strict=True)), best, "exact", 0)
    table, best = _sampled(rules, S, seat, acts, options, names, deals, seed, settlement)
    return DecisionValues(_rows(options, table, best), best, "sampled", table.shape[0])


def _sampled(rules, S, seat, acts, options, names, deals: int, seed: int, settlement: bool):
    """Every option played out in the same sampled deals: the [deals, options] table, and
    the option search plays given it (its base is the play-out policy's own choice)."""
    from bezsim.policies.builtin import choose
    from bezsim.policy_specs.registry import POLICY_IDS, policy_params
    from bezsim.position.evaluate import (
        EVALUATE_SEARCH,
        _playout_name,
        _playout_table,
        evaluation_row,
    )

    row = evaluation_row(EVALUATE_SEARCH, rules.variant, settlement)
    playout = _playout_name(row)
    rows = policy_params([playout] * rules.players, rules.variant)
    rng = np.zeros((1 + rules.players, 4), np.uint64)
    base_index = int(choose(POLICY_IDS[playout], S.copy(), seat, rows, rng))
    base = [name for name, _ in options].index(names[base_index])
    table, best = _playout_table(S, seat, row, acts, base, deals, seed)
    if table.shape[0] == 0:
        raise RuntimeError("no deal of the unseen cards fits the seat's knowledge")
    return table, best


def _rows(options, table: np.ndarray, best: int) -> tuple[Option, ...]:
    k = table.shape[0]
    out = []
    for j, (name, index) in enumerate(options):
        column = table[:, j]
        se = column.std(ddof=1) / np.sqrt(k) if k > 1 else 0.0
        gap = table[:, best] - column
        gse = gap.std(ddof=1) / np.sqrt(k) if k > 1 else 0.0
        low, high = gap.mean() - Z95 * gse, gap.mean() + Z95 * gse
        loss = float(gap.mean()) if j != best and low > 0 else 0.0
        out.append(Option(name, index, float(column.mean()), float(column.mean() - Z95 * se),
                          float(column.mean() + Z95 * se), loss, float(low), float(high)))
    return tuple(out)
