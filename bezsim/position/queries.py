"""What the engine says of a position: the legal plays, the declarations with their
points and cards, Polish open-card outcomes, and the whole explanation."""

from __future__ import annotations

from typing import Any

import numpy as np

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.position.engine_state import build_state
from bezsim.position.model import (
    COMBINATION_NAMES,
    SEVEN_KINDS,
    Position,
    last_trick,
    partner_of,
    stage1_tricks,
    trumps_name,
)


def legal_plays(pos: Position) -> list[int]:
    from bezsim.engine import state as st
    from bezsim.engine.tricks import legal_plays as kernel

    params = pos.rules.params()
    S = build_state(pos)
    n = kernel(S, pos.to_move, len(pos.current_trick), pos.trumps, pos.stage,
               int(params[C.PR_STAGE2_DUTY]))
    return [int(c) for c in S[st.O_ACTS:st.O_ACTS + n]]


def legal_declarations(pos: Position) -> list[dict[str, Any]]:
    """What the seat to move may declare now, having just won a trick (R1.7, R1.10, R2.3)."""
    from bezsim.engine import state as st
    from bezsim.engine.copies import select_copies
    from bezsim.engine.offers import legal_declarations as kernel

    params = pos.rules.params()
    n_stage1 = stage1_tricks(pos.rules)
    if pos.phase != "declare" or pos.stage != 1 or pos.trick > n_stage1:
        return []
    if pos.trick == n_stage1 and not params[C.PR_DECL_AFTER_LAST]:
        return []
    seven_is_decl = bool(params[C.PR_SEVEN_IS_DECL])
    combos = sum(1 for k in pos.scored_this_trick if k not in SEVEN_KINDS)
    sevens = sum(1 for k in pos.scored_this_trick if k in SEVEN_KINDS)
    if seven_is_decl:
        allow_combo = allow_seven = combos + sevens == 0
    else:
        allow_combo, allow_seven = combos == 0, sevens == 0
    S = build_state(pos)
    seat = pos.to_move
    n = kernel(params, S, seat, allow_combo, allow_seven, st.O_ACTS)
    result = []
    for i in range(n):
        code = int(S[st.O_ACTS + i])
        points = int(S[st.O_APTS + i])
        kind = code >> 2
        if kind in SEVEN_KINDS:
            chosen = [min(c for c in pos.hands[seat] if cards.face(c) == pos.trumps * 8 + 7
                          and not pos.history.get(c, 0) & C.H_SEVEN)]
        else:
            k = select_copies(params, S, seat, code)
            chosen = [int(c) for c in S[st.O_BUF:st.O_BUF + k]]
        # the suit of a marriage, a plain sequence, or a sequence that would fix trumps (R6.2)
        with_suit = (kind <= C.K_ROYAL_MARRIAGE or kind == C.K_PLAIN_SEQUENCE
                     or (kind == C.K_SEQUENCE and pos.trumps == C.NO_TRUMP))
        result.append({
            "kind": C.KIND_NAMES[kind],
            "suit": cards.suit_name(code & 3) if with_suit else None,
            "points": points,
            "cards": [cards.card_name(c, with_copy=True) for c in chosen],
        })
    return result


def open_cards_outcomes(pos: Position) -> list[dict[str, Any]]:
    """Polish (R5.2, R5.3): what winning ``won_trick`` scores, through the engine's own step
    after a trick — once keeping any seven of trumps in it, once exchanging it if possible."""
    from bezsim.engine.open_cards import open_cards_trick
    from bezsim.policies.builtin import FIRST_ACTION, LAST_ACTION

    params = pos.rules.params()
    players = pos.rules.players
    seven = [c for c in pos.won_trick if cards.face(c) == pos.trumps * 8 + cards.SEVEN
             and not pos.history.get(c, 0) & C.H_SEVEN]
    can_exchange = (bool(seven) and pos.stage == 1 and not pos.seven_exchanged
                    and pos.turnup != C.NO_CARD and cards.rank_of(pos.turnup) != cards.SEVEN)
    outcomes = []
    for exchange in ([False, True] if can_exchange else [False]):
        S = build_state(pos, event_cap=64, trace_cap=512)
        policy = FIRST_ACTION if exchange else LAST_ACTION
        open_cards_trick(params, S, np.zeros((1 + players, 4), np.uint64),
                         np.full(players, policy, np.int64), np.zeros((players, 1)), None,
                         pos.to_move, 0, pos.trick)
        brisques = 10 * sum(1 for c in pos.won_trick if cards.rank_of(c) in (cards.ACE,
                                                                             cards.TEN))
        events = [{"kind": "brisques", "suit": None, "points": brisques, "cards": []}] \
            if brisques else []
        events += _traced_events(S)
        events += _last_trick_events(pos, params)
        outcomes.append({"exchange_seven": exchange, "events": events,
                         "total": sum(e["points"] for e in events)})
    return outcomes


def _last_trick_events(pos: Position, params: np.ndarray) -> list[dict[str, Any]]:
    """The last-trick points of winning trick ``pos.trick`` (R2.5, option last_trick), which
    the engine scores as the trick ends, before the open-card step."""
    mode = int(params[C.PR_LAST_TRICK])
    scores = ((pos.trick == last_trick(pos.rules) and mode in (C.LAST_TRICK32, C.LAST_BOTH))
              or (pos.trick == stage1_tricks(pos.rules)
                  and mode in (C.LAST_TRICK24, C.LAST_BOTH)))
    if not scores:
        return []
    return [{"kind": "last_trick", "suit": None,
             "points": int(params[C.PR_POINTS + C.K_LAST_TRICK]), "cards": []}]


def _traced_events(S: np.ndarray) -> list[dict[str, Any]]:
    """Scoring events of a traced engine step, each with the cards that made it."""
    from bezsim.engine import state as st

    trace = np.zeros((int(S[st.O_TR_CAP]), C.TR_SIZE), np.int32)
    n = st.copy_trace(S, trace)
    events, pending = [], []
    for row in trace[:n]:
        if row[0] == C.TR_DECLARED_CARD:
            pending.append(cards.card_name(int(row[4]), with_copy=True))
        elif row[0] == C.TR_EXCHANGE:
            pending = [cards.card_name(int(row[4]), with_copy=True),
                       cards.card_name(int(row[5]), with_copy=True)]
        elif row[0] == C.TR_EVENT:
            kind, extra = int(row[4]), int(row[6])
            events.append({"kind": C.KIND_NAMES[kind],
                           "suit": cards.suit_name(extra - 1) if extra else None,
                           "points": int(row[7]), "cards": pending})
            pending = []
    return events


def explain(pos: Position) -> dict[str, Any]:
    """Everything ``bezsim explain`` shows, as plain data."""
    plays = legal_plays(pos) if pos.phase == "play" else []
    if pos.open_cards and pos.phase == "declare":
        outcomes = open_cards_outcomes(pos)
        combos = [e for e in outcomes[0]["events"] if e["kind"] in COMBINATION_NAMES]
        return {
            "variant": pos.rules.variant, "seat": pos.to_move, "phase": pos.phase,
            "stage": pos.stage, "trick": pos.trick, "trumps": trumps_name(pos.trumps),
            "won_trick": [cards.card_name(c, with_copy=True) for c in pos.won_trick],
            "current_trick": [], "legal_plays": [],
            "legal_declarations": combos,
            "outcomes": outcomes,
        }
    result = {
        "variant": pos.rules.variant,
        "seat": pos.to_move,
        "phase": pos.phase,
        "stage": pos.stage,
        "trick": pos.trick,
        "trumps": trumps_name(pos.trumps),
        "current_trick": [cards.card_name(c, with_copy=True) for c in pos.current_trick],
        "legal_plays": [cards.card_name(c, with_copy=True) for c in plays],
        "legal_declarations": legal_declarations(pos),
    }
    if pos.rules.partners:      # R4.2: who the seat plays with, and whose win it declares on
        result["partner"] = partner_of(pos.rules, pos.to_move)
        if pos.phase == "declare":
            result["trick_winner"] = pos.trick_winner
    return result
