"""Game state as one flat int32 array ``S`` with named regions, and the small moves every rule
uses.

Why one array: numba reference-counts every array passed to a compiled function, and that
bookkeeping, not the rules, dominated a hand when the state was twenty separate arrays. With
one array a call costs one reference, and a game's events and trace live in the same buffer.

A card is always in exactly one place (``O_LOC``); each seat's knowledge of every card is kept
incrementally in its ``O_SEEN`` row, so a policy reads its own row and the public regions
(``O_SC``, ``O_TRICK``, ``O_HIST``, and the first ``S[O_N_ACTS]`` entries of ``O_ACTS`` and
``O_APTS``: past them lie earlier offers) and nothing else.
"""

import numpy as np

from bezsim.engine.constants import (
    LOC_HAND,
    LOC_TABLE,
    MAX_HAND,
    MAX_PLAYERS,
    N_KINDS,
    PARAMS_SIZE,
    SC_HAND_POINTS,
    SC_SIZE,
    TR_EVENT,
    TR_SIZE,
    V_MINE,
    V_MINE_SHOWN,
    V_SHOWN,
)
from bezsim.engine.jit import njit

N_MAX = 192            # six packs
PENDING_MAX = 24       # "to score" combinations a seat can hold at once (R1.10)
PENDING_WIDTH = 10     # code, n cards, up to 8 card ids (a quadruple bezique)
ACTIONS_MAX = 64

# public regions (a policy may read these)
O_SC = 0
O_TRICK = O_SC + 24
O_N_ACTS = O_TRICK + MAX_PLAYERS
O_DECISION = O_N_ACTS + 1
O_ACTS = O_DECISION + 3
O_APTS = O_ACTS + ACTIONS_MAX
O_HIST = O_APTS + ACTIONS_MAX                 # declaration history bits of each copy
O_RULES = O_HIST + N_MAX                      # + PR_*: the rules table (public, for search)
O_SEEN = O_RULES + PARAMS_SIZE                # + seat * N_MAX: that seat's knowledge (V_*)
# private regions (engine only)
O_LOC = O_SEEN + MAX_PLAYERS * N_MAX
O_HANDS = O_LOC + N_MAX                       # + seat * MAX_HAND
O_HAND_N = O_HANDS + MAX_PLAYERS * MAX_HAND
O_STOCK = O_HAND_N + MAX_PLAYERS
O_PEND = O_STOCK + N_MAX                      # + (seat * PENDING_MAX + i) * PENDING_WIDTH:
                                              #   "to score" combinations (public: announced)
O_PEND_N = O_PEND + MAX_PLAYERS * PENDING_MAX * PENDING_WIDTH   # + seat (public)
O_HPTS = O_PEND_N + MAX_PLAYERS               # + seat * N_KINDS + kind: points this hand
O_WON = O_HPTS + MAX_PLAYERS * N_KINDS
O_BRISQ = O_WON + MAX_PLAYERS
O_CNT = O_BRISQ + MAX_PLAYERS                 # scratch (copies: candidate copies, _pick_many)
CNT_WIDTH = 56
O_BUF = O_CNT + CNT_WIDTH                     # scratch card list (copies)
ROLES_PER_FACE = 8
O_ROLE_SLOT = O_BUF + 8                       # + face * 8 + j: a count this face feeds (roles)
O_ROLE_MASK = O_ROLE_SLOT + 32 * ROLES_PER_FACE   # history bits that stop it feeding it
O_ROLE_N = O_ROLE_MASK + 32 * ROLES_PER_FACE  # + face: how many roles the face has
ROLES_FIXED = 3        # roles every face is counted in (unused ones feed scratch counts);
#                        only bezique faces have more: a fixed count keeps the loop free of
#                        mispredicted exits, and it is short
OPEN_MAX = 64
O_OPEN = O_ROLE_N + 32                        # + seat * OPEN_MAX: open cards (Polish, R5.1)
O_OPEN_N = O_OPEN + MAX_PLAYERS * OPEN_MAX
O_NEW = O_OPEN_N + MAX_PLAYERS                # cards that joined the open cards on this trick
O_NEW_N = O_NEW + 8
O_MARK = O_NEW_N + 1                          # + card: 1 while the card is in O_NEW
O_DSTATS = O_MARK + N_MAX                     # + seat * 3: combinations, declaring tricks,
                                              #   compounds this hand
O_OPEN_CNT = O_DSTATS + MAX_PLAYERS * 3       # + seat * CNT_WIDTH: roles counts over open
                                              #   cards, kept up to date as cards join and score
COMPOUND_MAX = 16
O_COMPOUND = O_OPEN_CNT + MAX_PLAYERS * CNT_WIDTH  # + i * 8: code, n cards, cards of the
                                              #   i-th combination of a compound (Polish)
O_N_COUNTS = O_COMPOUND + COMPOUND_MAX * 8    # counts count_cards clears (roles)
O_CB = O_N_COUNTS + 1                          # + seat: 1 while carte blanche may repeat (R6.4)
O_BRISQ_TAKEN = O_CB + MAX_PLAYERS            # + seat: brisque points taken this hand
INSTANCE_MAX = 48
INSTANCE_WIDTH = 10                           # kind, n cards, up to 8 cards
O_INST = O_BRISQ_TAKEN + MAX_PLAYERS          # + (seat * INSTANCE_MAX + i) * INSTANCE_WIDTH:
                                              #   intact declared combinations (Rubicon, R6.6)
O_INST_N = O_INST + MAX_PLAYERS * INSTANCE_MAX * INSTANCE_WIDTH
O_HAND_CNT = O_INST_N + MAX_PLAYERS           # + seat * CNT_WIDTH: roles counts over the
                                              #   seat's hand, kept up to date (roles)
O_TRACK_HAND = O_HAND_CNT + MAX_PLAYERS * CNT_WIDTH   # 1 while O_HAND_CNT is kept
O_SCRATCH = O_TRACK_HAND + 1                  # engine-only offers (codes, then points at
                                              #   + ACTIONS_MAX), e.g. the "to score" shows
ROLE_TABLE = O_OPEN - O_ROLE_SLOT             # role slots, masks and counts per face
ROLE_CACHE_WIDTH = ROLE_TABLE + 2             # the table, O_N_COUNTS, 1 once filled
O_ROLE_CACHE = O_SCRATCH + 2 * ACTIONS_MAX    # + (trump + 1) * ROLE_CACHE_WIDTH: set_roles'
                                              #   tables by trump (NO_TRUMP first), kept
                                              #   from game to game while the rules stay
O_CTR = O_ROLE_CACHE + 5 * ROLE_CACHE_WIDTH
O_EV_CAP = O_CTR + 8
O_TR_CAP = O_EV_CAP + 1
O_EVENTS = O_TR_CAP + 1                       # 2 words per event
S_BASE = O_EVENTS

CTR_EVENTS = O_CTR + 0
CTR_TRACE = O_CTR + 1
CTR_FAULT = O_CTR + 2      # 1: more rows needed than given; 2 (kept over 1): a policy broke
#                            the contract
CTR_STOCK_POS = O_CTR + 3
CTR_DECLARING = O_CTR + 4  # where the last declaring decision was asked (hand.pack_declaring,
#                            open_cards.sevens_from): search resumes play-outs there
CTR_PAIRS = O_CTR + 5      # R4.2 pairs ending: the winner of the last stock trick, + 1
CTR_STOCK_WINNER = O_CTR + 6   # the winner of the latest stock trick (a hand taken up half
#                                way, engine/stepping.py, still records who won the last one)
CTR_DECKS = O_CTR + 7      # given packs: where in S they lie (0: none, bezsim shuffles); there
#                            DECK_COUNT, DECK_DEALER, then each hand's pack in dealing order
DECK_COUNT = 0
DECK_DEALER = 1
DECK_CARDS = 2
FAULT_OVERFLOW = 1
FAULT_POLICY = 2


@njit(error_model="numpy", cache=True)
def new_state(event_cap, trace_cap):
    S = np.zeros(S_BASE + 2 * event_cap + TR_SIZE * trace_cap, np.int32)
    S[O_EV_CAP] = event_cap
    S[O_TR_CAP] = trace_cap
    return S


@njit(error_model="numpy", cache=True, _nrt=False)
def load_rules(S, params):
    """The rules table into the public region, so a policy can play the game forward.
    Other rules (a reused buffer) empty the role tables set_roles keeps by trump."""
    changed = False
    for i in range(params.shape[0]):
        changed |= S[O_RULES + i] != params[i]
        S[O_RULES + i] = params[i]
    if changed:
        for t in range(5):
            S[O_ROLE_CACHE + t * ROLE_CACHE_WIDTH + ROLE_TABLE + 1] = 0


@njit(error_model="numpy", cache=True, _nrt=False)
def reset_game(S):
    """Counters and public scalars back to zero, so one buffer can serve game after game
    (the given packs stay: they are the game's, CTR_DECKS)."""
    for i in range(7):
        S[O_CTR + i] = 0
    for i in range(24):
        S[O_SC + i] = 0


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def trace_on(S):
    return S[O_TR_CAP] > 0


@njit(error_model="numpy", cache=True, _nrt=False)
def trace_add(S, kind, a, b, c, d, e, f, g):
    n = S[CTR_TRACE]
    if n >= S[O_TR_CAP]:
        S[CTR_FAULT] = max(S[CTR_FAULT], FAULT_OVERFLOW)   # a policy's fault outranks it
        return
    at = O_EVENTS + 2 * S[O_EV_CAP] + TR_SIZE * n
    S[at] = kind
    S[at + 1] = a
    S[at + 2] = b
    S[at + 3] = c
    S[at + 4] = d
    S[at + 5] = e
    S[at + 6] = f
    S[at + 7] = g
    S[CTR_TRACE] = n + 1


@njit(error_model="numpy", cache=True, _nrt=False)
def copy_trace(S, out):
    base = O_EVENTS + 2 * S[O_EV_CAP]
    n = min(S[CTR_TRACE], out.shape[0])
    for i in range(n):
        for k in range(TR_SIZE):
            out[i, k] = S[base + TR_SIZE * i + k]
    return S[CTR_TRACE]


@njit(error_model="numpy", cache=True, _nrt=False)
def record_event(S, hand, trick, seat, kind, status, extra, points):
    """A scoring event: counted in the hand's points and kept for the events table."""
    S[O_HPTS + seat * N_KINDS + kind] += points
    S[O_SC + SC_HAND_POINTS + seat] += points
    if trace_on(S):
        trace_add(S, TR_EVENT, hand, trick, seat, kind, status, extra, points)
    n = S[CTR_EVENTS]
    if n < S[O_EV_CAP]:
        S[O_EVENTS + 2 * n] = hand | (trick << 8) | (seat << 16) | (kind << 20)
        S[O_EVENTS + 2 * n + 1] = status | (extra << 4) | (points << 12)
    else:
        S[CTR_FAULT] = max(S[CTR_FAULT], FAULT_OVERFLOW)   # a policy's fault outranks it
    S[CTR_EVENTS] = n + 1


@njit(error_model="numpy", cache=True, _nrt=False)
def copy_events(S, out):
    """Unpack the game's events into the int64 layout of api.unpack_events."""
    n = min(S[CTR_EVENTS], S[O_EV_CAP], out.shape[0])
    for i in range(n):
        w0 = np.int64(S[O_EVENTS + 2 * i])
        w1 = np.int64(S[O_EVENTS + 2 * i + 1])
        status = w1 & 0xF
        extra = (w1 >> 4) & 0xFF
        points = w1 >> 12
        out[i] = (w0 & 0xFFFFF) | ((w0 >> 20) << 20) | (status << 28) | (extra << 32) \
            | (points << 40)
    return S[CTR_EVENTS]


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def unsigned(i):
    """``i`` (never negative) as an unsigned index. numba wraps a signed index that could be
    negative round to the array's end: two more instructions and a longer dependency on
    every access whose index the compiler cannot prove positive (one computed from a card
    or a seat read from the state). Used on the hot paths, where it made hands 9-20% faster
    (benchmarks/compare_engines.py, profile_engine.py --hot)."""
    return np.uint64(i)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def set_seen(S, seat, card, code):
    S[unsigned(O_SEEN + seat * N_MAX + card)] = code


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def count_card_roles(S, out, card, sign):
    """Add (sign 1) or remove (-1) one card's roles (roles.set_roles) from the counts at
    S[out:], so finding declarations needs no pass over a whole hand or open row."""
    h = S[unsigned(O_HIST + card)]
    at = (card & 31) * ROLES_PER_FACE
    for j in range(ROLES_FIXED):
        S[unsigned(out + S[O_ROLE_SLOT + at + j])] += sign * ((h & S[O_ROLE_MASK + at + j]) == 0)
    for j in range(ROLES_FIXED, S[O_ROLE_N + (card & 31)]):   # bezique faces only
        S[unsigned(out + S[O_ROLE_SLOT + at + j])] += sign * ((h & S[O_ROLE_MASK + at + j]) == 0)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def rehist_card_roles(S, out, card, bits):
    """The card's history becomes ``bits``: the counts at S[out:] follow, in one pass (the
    roles the change starts or stops blocking), and the history is written."""
    old = S[unsigned(O_HIST + card)]
    at = (card & 31) * ROLES_PER_FACE
    for j in range(max(ROLES_FIXED, S[O_ROLE_N + (card & 31)])):
        mask = S[O_ROLE_MASK + at + j]
        S[unsigned(out + S[O_ROLE_SLOT + at + j])] += (int((bits & mask) == 0)
                                                       - int((old & mask) == 0))
    S[unsigned(O_HIST + card)] = bits


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def count_hand_card(S, seat, card, sign):
    """Keep the seat's hand counts (ordinary, Rubicon) as a card comes, goes or scores."""
    if S[O_TRACK_HAND]:
        count_card_roles(S, O_HAND_CNT + seat * CNT_WIDTH, card, sign)


@njit(error_model="numpy", cache=True, _nrt=False)
def set_hist(S, seat, card, bits):
    """A held card's history changes: its hand counts follow."""
    if S[O_TRACK_HAND]:
        rehist_card_roles(S, O_HAND_CNT + seat * CNT_WIDTH, card, bits)
    else:
        S[O_HIST + card] = bits


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def give(S, seat, card):
    """Card into a seat's concealed hand."""
    n = S[O_HAND_N + seat]
    S[unsigned(O_HANDS + seat * MAX_HAND + n)] = card
    S[O_HAND_N + seat] = n + 1
    S[unsigned(O_LOC + card)] = LOC_HAND + seat
    set_seen(S, seat, card, V_MINE)
    count_hand_card(S, seat, card, 1)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def take(S, seat, card, hint=-1):
    """Card out of a seat's hand (the caller says where it goes). ``hint``: where the caller
    believes it lies (a stock-trick offer lists the hand in order), checked before searching:
    the search's unpredictable exit measured ~5% of a two-player hand."""
    base = O_HANDS + seat * MAX_HAND
    n = S[O_HAND_N + seat]
    if 0 <= hint < n and S[unsigned(base + hint)] == card:
        S[unsigned(base + hint)] = S[unsigned(base + n - 1)]
        S[O_HAND_N + seat] = n - 1
        count_hand_card(S, seat, card, -1)
        return True
    for i in range(n):
        if S[base + i] == card:
            S[base + i] = S[base + n - 1]
            S[O_HAND_N + seat] = n - 1
            count_hand_card(S, seat, card, -1)
            return True
    return False


@njit(error_model="numpy", cache=True, _nrt=False)
def show(S, players, seat, card):
    """Card held by ``seat`` laid face up (declared): every seat now knows where it is."""
    S[O_LOC + card] = LOC_TABLE + seat
    for p in range(players):
        set_seen(S, p, card, V_MINE_SHOWN if p == seat else V_SHOWN + seat)


@njit(error_model="numpy", cache=True, _nrt=False)
def reveal_all(S, players, card, code):
    for p in range(players):
        set_seen(S, p, card, code)


assert SC_SIZE <= 24
