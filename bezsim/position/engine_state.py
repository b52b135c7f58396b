"""A ``Position`` as the engine's state array, filled with what legality depends on and
what each seat may know."""

from __future__ import annotations

import numpy as np

from bezsim.engine import constants as C
from bezsim.position.model import Position


def build_state(pos: Position, event_cap: int = 0, trace_cap: int = 0) -> np.ndarray:
    """The engine state array for a position: what legality depends on, what each seat
    knows, and what a card play needs for the hand to be played on from it."""
    from bezsim.engine import state as st
    from bezsim.engine.open_cards import recount_open
    from bezsim.engine.roles import recount_hands, set_roles

    S = st.new_state(event_cap, trace_cap)
    for card, bits in pos.history.items():
        S[st.O_HIST + card] = bits
    for seat, hand in enumerate(pos.hands):
        for i, card in enumerate(hand):
            S[st.O_HANDS + seat * C.MAX_HAND + i] = card
            S[st.O_LOC + card] = (C.LOC_TABLE if card in pos.shown[seat] else C.LOC_HAND) + seat
        S[st.O_HAND_N + seat] = len(hand)
    for i, card in enumerate(pos.current_trick):
        S[st.O_TRICK + i] = card
        S[st.O_LOC + card] = C.LOC_TRICK
    for card in pos.played:
        S[st.O_LOC + card] = C.LOC_PLAYED
    for seat, open_list in enumerate(pos.open):
        for i, card in enumerate(open_list):
            S[st.O_OPEN + seat * st.OPEN_MAX + i] = card
            S[st.O_LOC + card] = C.LOC_OPEN + seat
        S[st.O_OPEN_N + seat] = len(open_list)
    for i, card in enumerate(pos.won_trick):
        S[st.O_TRICK + i] = card
        S[st.O_LOC + card] = C.LOC_PLAYED
    sc = st.O_SC
    S[sc + C.SC_TRUMP] = pos.trumps
    # a position does not say when trumps were fixed: at the deal, as far as it tells
    S[sc + C.SC_TRUMP_TRICK] = -1 if pos.trumps == C.NO_TRUMP else C.TRICK_DEAL
    S[sc + C.SC_PACKS] = pos.rules.packs
    S[sc + C.SC_PLAYERS] = pos.rules.players
    S[sc + C.SC_VARIANT] = int(pos.rules.params()[C.PR_VARIANT])
    S[sc + C.SC_TURNUP] = pos.turnup
    S[sc + C.SC_EXCHANGED] = int(pos.seven_exchanged)
    S[sc + C.SC_TRICK] = pos.trick
    S[sc + C.SC_STAGE] = pos.stage
    S[sc + C.SC_STOCK_LEFT] = pos.stock
    S[sc + C.SC_N_TRICK] = len(pos.current_trick)
    # what a hand played on from here needs: who led this trick, where the stock starts,
    # the points (and Rubicon brisques) each seat has this hand
    S[sc + C.SC_LEADER] = (pos.to_move - len(pos.current_trick)) % pos.rules.players
    S[st.CTR_STOCK_POS] = pos.rules.packs * 32 - pos.stock
    for seat in range(pos.rules.players):
        S[sc + C.SC_HAND_POINTS + seat] = pos.points[seat]
        S[st.O_BRISQ_TAKEN + seat] = pos.brisques[seat]
    set_roles(pos.rules.params(), S)
    recount_hands(pos.rules.params(), S)
    for seat in range(len(pos.open)):
        recount_open(S, seat)
    st.load_rules(S, pos.rules.params())
    _fill_knowledge(pos, S)
    return S


def _fill_knowledge(pos: Position, S: np.ndarray) -> None:
    """Each seat's knowledge row (what a policy reads): its own cards, what lies face up
    (declared cards, open cards, the turn-up, the trick) and what has been played; every
    other card is unseen."""
    from bezsim.engine import state as st

    players = pos.rules.players
    for seat in range(players):
        row = st.O_SEEN + seat * st.N_MAX
        for other in range(players):
            for card in pos.hands[other]:
                if other == seat:
                    S[row + card] = C.V_MINE_SHOWN if card in pos.shown[other] else C.V_MINE
                elif card in pos.shown[other]:
                    S[row + card] = C.V_SHOWN + other
            for card in pos.open[other]:
                S[row + card] = C.V_OPEN + other
        for card in list(pos.played) + list(pos.won_trick):
            S[row + card] = C.V_PLAYED
        for card in pos.current_trick:
            S[row + card] = C.V_TRICK
        if pos.turnup != C.NO_CARD:
            S[row + pos.turnup] = C.V_TURNUP
