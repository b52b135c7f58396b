"""Shared helpers for the position tests: what the engine offers, as comparable data."""

from __future__ import annotations

import numpy as np

from bezsim import cards
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.hand import play_card
from bezsim.engine.offers import legal_declarations as engine_legal_declarations
from bezsim.engine.pending import pending_announce, pending_index, pending_remove
from bezsim.engine.scoring import score_combination
from bezsim.engine_api.games import unpack_events
from bezsim.position import (
    build_state,
    history_names,
    legal_declarations,
    legal_plays,
    parse_position,
)


def decls(data: dict) -> list[tuple]:
    """Offered declarations as a sorted list of (kind, suit, points)."""
    return sorted((d["kind"], d["suit"] or "", d["points"])
                  for d in legal_declarations(parse_position(data)))


def decl_cards(data: dict) -> dict[tuple, list[str]]:
    """(kind, suit) -> sorted cards the engine would score for it."""
    return {(d["kind"], d["suit"] or ""): sorted(d["cards"])
            for d in legal_declarations(parse_position(data))}


def plays(data: dict) -> list[str]:
    """Legal plays of the seat to move as sorted card names ('K♥', 'Q♠#1')."""
    return sorted(cards.card_name(c, with_copy=True)
                  for c in legal_plays(parse_position(data)))


def suit_label(kind: int, code: int, trump: int) -> str:
    with_suit = (kind in (C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE) or kind == C.K_PLAIN_SEQUENCE
                 or (kind == C.K_SEQUENCE and trump == C.NO_TRUMP))
    return cards.suit_name(code & 3) if with_suit else ""


class Table:
    """A Rubicon or six-pack position's engine state, moved on by the engine's own steps
    (seat 0 declares): what it offers, what scoring takes, what playing a card breaks."""

    def __init__(self, data: dict) -> None:
        self.pos = parse_position(data)
        self.params = self.pos.rules.params()
        self.S = build_state(self.pos, event_cap=64)
        self.trick = self.pos.trick

    @property
    def trumps(self) -> int:
        return int(self.S[st.O_SC + C.SC_TRUMP])

    def offered(self, seat: int = 0) -> list[tuple]:
        n = engine_legal_declarations(self.params, self.S, seat, True, True, st.O_ACTS)
        codes = [int(c) for c in self.S[st.O_ACTS:st.O_ACTS + n]]
        points = [int(p) for p in self.S[st.O_APTS:st.O_APTS + n]]
        return sorted((C.KIND_NAMES[c >> 2], suit_label(c >> 2, c, self.trumps), p)
                      for c, p in zip(codes, points, strict=True))

    def code(self, kind: int, suit: str | None = None) -> int:
        return kind * 4 + (cards.parse_suit(suit) if suit else 0)

    def score(self, kind: int, suit: str | None = None, seat: int = 0,
              status: int = C.EV_SCORED) -> list[str]:
        """Score a combination as the engine does after a win; return the copies it used."""
        before = self.S[st.O_HIST:st.O_HIST + st.N_MAX].copy()
        score_combination(self.params, self.S, seat, self.code(kind, suit), 0, self.trick,
                          status)
        after = self.S[st.O_HIST:st.O_HIST + st.N_MAX]
        return sorted(cards.card_name(int(c), with_copy=True)
                      for c in np.nonzero(after != before)[0])

    def declare(self, kind: int, suit: str | None = None) -> None:
        """Seat 0 scores a combination on a win as bezsim.engine.hand's declaring does (one
        shown earlier is taken off the to-score list and scores 'shown earlier'), then shows
        the rest to score; the next call is a later win."""
        code = self.code(kind, suit)
        i = pending_index(self.S, 0, code)
        if i >= 0:
            pending_remove(self.S, 0, i)
        self.score(kind, suit, status=C.EV_SCORED_PENDING if i >= 0 else C.EV_SCORED)
        pending_announce(self.params, self.S, 0, st.O_ACTS, 0, self.trick)
        self.trick += 1

    def play(self, text: str, seat: int = 0) -> None:
        """Seat plays a card of its hand to a trick (the trick itself is not finished)."""
        self.trick += 1
        self.S[st.O_SC + C.SC_N_TRICK] = 0
        play_card(self.params, self.S, seat, self.card(text), 0, self.trick, 1)

    def history(self, text: str) -> list[str]:
        return history_names(self.pos.rules, int(self.S[st.O_HIST + self.card(text)]))

    def card(self, text: str) -> int:
        return cards.parse_card(text, self.pos.rules.packs)

    def events(self) -> list[tuple]:
        out = np.zeros(64, np.int64)
        n = st.copy_events(self.S, out)
        ev = unpack_events(out[:n])
        return [(int(ev["trick"][i]), int(ev["seat"][i]), C.KIND_NAMES[ev["kind"][i]],
                 C.STATUS_NAMES[ev["status"][i]], int(ev["points"][i])) for i in range(n)]
