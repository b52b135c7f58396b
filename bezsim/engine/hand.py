"""One hand of the ordinary game (R2): deal, 24 stock tricks with declarations and draws,
8 tricks under stage-2 duties, brisques and last trick. Reads the params array only."""

from numba.core.extending import overload

from bezsim.engine.constants import (
    A_STOP,
    ACE,
    BRISQUES_WHEN_WON,
    D_DECLARE,
    D_PLAY,
    EV_SCORED,
    EV_SCORED_PENDING,
    H_EVER_SHIFT,
    H_SEVEN,
    JACK,
    K_BRISQUES,
    K_CARTE_BLANCHE,
    K_LAST_TRICK,
    K_SEVEN_DECLARE,
    K_SEVEN_EXCHANGE,
    K_SEVEN_PLAYED,
    K_SEVEN_TURNUP,
    KING,
    LAST_BOTH,
    LAST_TRICK24,
    LAST_TRICK32,
    LOC_PLAYED,
    LOC_STOCK,
    LOC_TRICK,
    LOC_TURNUP,
    MAX_HAND,
    N_KINDS,
    NO_CARD,
    NO_TRUMP,
    PR_BRISQUE_VALUE,
    PR_BRISQUES_ASIDE,
    PR_BRISQUES_WHEN,
    PR_CARTE_BLANCHE,
    PR_CB_REPEATS,
    PR_DEAL_B1,
    PR_DEAL_B2,
    PR_DEAL_B3,
    PR_DEAL_B4,
    PR_DECL_AFTER_LAST,
    PR_HAND_SIZE,
    PR_LAST_TRICK,
    PR_OPEN_CARDS,
    PR_PACKS,
    PR_PARTNERS,
    PR_PLAYERS,
    PR_POINTS,
    PR_SEVEN_IS_DECL,
    PR_SEVEN_WHEN,
    PR_STAGE2_DUTY,
    PR_STAGE2_PAIRS,
    PR_TURNUP,
    PR_VARIANT,
    QUEEN,
    SC_DEALER,
    SC_EXCHANGED,
    SC_HAND,
    SC_HAND_POINTS,
    SC_LEADER,
    SC_N_TRICK,
    SC_PACKS,
    SC_PLAYERS,
    SC_STAGE,
    SC_STOCK_LEFT,
    SC_TRICK,
    SC_TRUMP,
    SC_TRUMP_TRICK,
    SC_TURNUP,
    SC_VARIANT,
    SEVEN,
    SEVEN_WHEN_PLAYED,
    TEN,
    TR_DEAL,
    TR_DRAW,
    TR_HAND_START,
    TR_PLAY,
    TR_TRICK_WON,
    TRICK_DEAL,
    V_PLAYED,
    V_SHOWN,
    V_TRICK,
    V_TURNUP,
    V_UNSEEN,
)
from bezsim.engine.decisions import decide
from bezsim.engine.external import SET_OPEN_CARDS, SET_PAIRS, in_set
from bezsim.engine.jit import ENGINE_OPTIONS, njit
from bezsim.engine.offers import legal_declarations
from bezsim.engine.open_cards import open_cards_trick
from bezsim.engine.pending import (
    pending_announce,
    pending_flush,
    pending_index,
    pending_on_play,
    pending_remove,
)
from bezsim.engine.rng import shuffle_range
from bezsim.engine.roles import code_kind, recount_hands, set_roles
from bezsim.engine.scoring import release_instances, score_combination, score_seven
from bezsim.engine.state import (
    CNT_WIDTH,
    CTR_DECKS,
    CTR_DECLARING,
    CTR_FAULT,
    CTR_PAIRS,
    CTR_STOCK_POS,
    CTR_STOCK_WINNER,
    DECK_CARDS,
    DECK_COUNT,
    FAULT_POLICY,
    N_MAX,
    O_ACTS,
    O_APTS,
    O_BRISQ,
    O_BRISQ_TAKEN,
    O_CB,
    O_DSTATS,
    O_HAND_N,
    O_HANDS,
    O_HIST,
    O_HPTS,
    O_INST_N,
    O_LOC,
    O_MARK,
    O_OPEN_CNT,
    O_OPEN_N,
    O_PEND_N,
    O_SC,
    O_SCRATCH,
    O_SEEN,
    O_STOCK,
    O_TRACK_HAND,
    O_TRICK,
    O_WON,
    give,
    record_event,
    reveal_all,
    set_seen,
    take,
    trace_add,
    trace_on,
    unsigned,
)
from bezsim.engine.tricks import legal_plays, winning_index

LOCK_BITS = (1 << H_EVER_SHIFT) - 1   # Rubicon: low history bits = intact combinations


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def next_seat(a, b, players):
    """(a + b) % players for 0 <= a < players and 0 <= b <= players, without a division:
    the hot loop takes the next seat five times a trick, and an integer division costs tens
    of cycles (measured 4-5% of a hand in every variant)."""
    s = a + b
    # & 3 (there are at most four seats) lets the compiler see a seat is never negative, so
    # the S[... + seat] accesses downstream need no wrap-around (state.unsigned)
    return (s - players if s >= players else s) & 3

@njit(error_model="numpy", cache=True, _nrt=False)
def reset_hand(params, S):
    players = params[PR_PLAYERS]
    n_cards = params[PR_PACKS] * 32
    # one contiguous fill per region (the compiler turns each into wide stores)
    S[O_LOC:O_LOC + n_cards] = LOC_STOCK
    S[O_HIST:O_HIST + n_cards] = 0
    for p in range(players):
        S[O_SEEN + p * N_MAX:O_SEEN + p * N_MAX + n_cards] = V_UNSEEN
    S[O_MARK:O_MARK + n_cards] = 0
    for p in range(players):
        S[O_HAND_N + p] = 0
        S[O_OPEN_N + p] = 0
        for k in range(3):
            S[O_DSTATS + p * 3 + k] = 0
        for k in range(CNT_WIDTH):
            S[O_OPEN_CNT + p * CNT_WIDTH + k] = 0
        S[O_CB + p] = 0
        S[O_BRISQ_TAKEN + p] = 0
        S[O_INST_N + p] = 0
        S[O_PEND_N + p] = 0
        S[O_WON + p] = 0
        S[O_BRISQ + p] = 0
        S[O_SC + SC_HAND_POINTS + p] = 0
        for k in range(N_KINDS):
            S[O_HPTS + p * N_KINDS + k] = 0
    S[O_SC + SC_EXCHANGED] = 0
    S[O_TRACK_HAND] = 0    # no hand counts while dealing: recount_hands counts once trumps
    #                        are known; counting each card dealt was work thrown away


@njit(error_model="numpy", cache=True, _nrt=False)
def deal(params, S, rng, hand_no, dealer):
    """Shuffle, deal in batches starting left of the dealer, turn up trumps (R2.1). A game
    given its packs (S[CTR_DECKS], a game record's deal) deals the hand's pack instead, after
    the same shuffle, so the random streams run as in any game."""
    reset_hand(params, S)
    players = params[PR_PLAYERS]
    n_cards = params[PR_PACKS] * 32
    for i in range(n_cards):
        S[O_STOCK + i] = i
    shuffle_range(rng[0], S, O_STOCK, n_cards)
    decks = S[CTR_DECKS]
    if decks > 0 and hand_no < S[decks + DECK_COUNT]:
        at = decks + DECK_CARDS + hand_no * n_cards
        for i in range(n_cards):
            S[O_STOCK + i] = S[at + i]
    pos = 0
    for b in (params[PR_DEAL_B1], params[PR_DEAL_B2], params[PR_DEAL_B3], params[PR_DEAL_B4]):
        for k in range(1, players + 1):
            seat = next_seat(dealer, k, players)
            for _ in range(b):
                card = S[O_STOCK + pos]
                give(S, seat, card)
                if trace_on(S):
                    trace_add(S, TR_DEAL, hand_no, seat, card, 0, 0, 0, 0)
                pos += 1
    if params[PR_TURNUP]:
        turnup = S[O_STOCK + pos]
        pos += 1
        S[O_LOC + turnup] = LOC_TURNUP
        reveal_all(S, players, turnup, V_TURNUP)
        S[O_SC + SC_TURNUP] = turnup
        S[O_SC + SC_TRUMP] = (turnup & 31) >> 3
        S[O_SC + SC_TRUMP_TRICK] = TRICK_DEAL
    else:
        turnup = NO_CARD
        S[O_SC + SC_TURNUP] = NO_CARD
        S[O_SC + SC_TRUMP] = NO_TRUMP          # fixed by the first marriage (R6.2)
        S[O_SC + SC_TRUMP_TRICK] = -1
    set_roles(params, S)
    recount_hands(params, S)
    S[O_SC + SC_DEALER] = dealer
    S[O_SC + SC_PACKS] = params[PR_PACKS]
    S[O_SC + SC_PLAYERS] = players
    S[O_SC + SC_VARIANT] = params[PR_VARIANT]
    S[O_SC + SC_HAND] = hand_no
    S[CTR_STOCK_POS] = pos
    S[O_SC + SC_STOCK_LEFT] = n_cards - pos
    if trace_on(S):
        trace_add(S, TR_HAND_START, hand_no, dealer, S[O_SC + SC_TRUMP], turnup,
                  (dealer + 1) % players, 0, 0)
    if turnup != NO_CARD and (turnup & 7) == SEVEN:
        S[O_HIST + turnup] |= H_SEVEN     # this seven has scored (R2.1); never again (R5.3)
        record_event(S, hand_no, TRICK_DEAL, dealer, K_SEVEN_TURNUP, EV_SCORED, 0,
                     params[PR_POINTS + K_SEVEN_TURNUP])
    if params[PR_CARTE_BLANCHE]:
        for k in range(1, players + 1):
            seat = next_seat(dealer, k, players)
            if carte_blanche(params, S, seat, hand_no, TRICK_DEAL):
                S[O_CB + seat] = params[PR_CB_REPEATS]


@njit(error_model="numpy", cache=True, _nrt=False)
def _is_court(card):
    r = card & 7
    return r == KING or r == QUEEN or r == JACK


@njit(error_model="numpy", cache=True, _nrt=False)
def carte_blanche(params, S, seat, hand_no, trick_no):
    """R6.4: a hand without K, Q or J is shown (every seat now knows it) and scores 50."""
    base = O_HANDS + seat * MAX_HAND
    for i in range(S[O_HAND_N + seat]):
        if _is_court(S[base + i]):
            return False
    for i in range(S[O_HAND_N + seat]):
        c = S[base + i]
        for p in range(params[PR_PLAYERS]):
            if p != seat:
                set_seen(S, p, c, V_SHOWN + seat)
    record_event(S, hand_no, trick_no, seat, K_CARTE_BLANCHE, EV_SCORED, 0,
                 params[PR_POINTS + K_CARTE_BLANCHE])
    return True


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def play_card(params, S, seat, card, hand_no, trick_no, n_legal, hint=-1):
    take(S, seat, card, hint)
    k = S[O_SC + SC_N_TRICK]
    S[unsigned(O_TRICK + k)] = card
    S[O_SC + SC_N_TRICK] = k + 1
    S[unsigned(O_LOC + card)] = LOC_TRICK
    reveal_all(S, params[PR_PLAYERS], card, V_TRICK)
    if trace_on(S):
        trace_add(S, TR_PLAY, hand_no, trick_no, seat, card, n_legal, 0, 0)
    if S[O_PEND_N + seat] > 0:
        pending_on_play(S, seat, card, hand_no, trick_no)
    if S[O_INST_N + seat] > 0 and S[unsigned(O_HIST + card)] & LOCK_BITS:   # R6.6, R3
        release_instances(params, S, seat, card)
    if params[PR_PARTNERS]:         # the partner's double or triple may hold it too (R4.2)
        partner = (seat + 2) & 3
        if S[O_PEND_N + partner] > 0:
            pending_on_play(S, partner, card, hand_no, trick_no)
        if S[O_INST_N + partner] > 0 and S[O_HIST + card] & LOCK_BITS:
            release_instances(params, S, partner, card)
    if (params[PR_SEVEN_WHEN] == SEVEN_WHEN_PLAYED and S[O_SC + SC_STAGE] == 1
            and (card & 31) == S[O_SC + SC_TRUMP] * 8 + SEVEN):
        record_event(S, hand_no, trick_no, seat, K_SEVEN_PLAYED, EV_SCORED, 0,
                     params[PR_POINTS + K_SEVEN_PLAYED])


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def draw(params, S, seat, hand_no, trick_no):
    """Top card of the stock; once it is empty, the turn-up (or the seven exchanged for it)."""
    n_cards = params[PR_PACKS] * 32
    pos = S[CTR_STOCK_POS]
    if pos < n_cards:
        card = S[unsigned(O_STOCK + pos)]
        S[CTR_STOCK_POS] = pos + 1
        S[O_SC + SC_STOCK_LEFT] = n_cards - pos - 1
        give(S, seat, card)
    else:
        card = S[O_SC + SC_TURNUP]
        S[O_SC + SC_TURNUP] = NO_CARD
        give(S, seat, card)
        for p in range(params[PR_PLAYERS]):
            if p != seat:
                set_seen(S, p, card, V_SHOWN + seat)
    if trace_on(S):
        trace_add(S, TR_DRAW, hand_no, trick_no, seat, card, 0, 0, 0)
    if S[O_CB + seat]:
        if _is_court(card):
            S[O_CB + seat] = 0                 # the first court card ends it (R6.4)
        else:
            carte_blanche(params, S, seat, hand_no, trick_no)


ASK = -2    # declare_from's ``code`` when the policy is still to be asked (A_STOP is -1)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def pack_declaring(winner, turn, combos_left, sevens_left, announce):
    """The declaring step's place, kept in S[CTR_DECLARING] while a seat decides, so a
    search play-out can take up the step after that decision (resume_after_declare)."""
    return winner | (turn << 2) | (combos_left << 3) | (sevens_left << 4) | (announce << 5)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def team_declare(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, trick_no, announce):
    """The declarations after a trick win (R1.7, R1.10, R2.3): one combination and one seven
    action for the side (with option seven_exchange_is_declaration the seven is the one
    declaration). The winner declares first; with partners (R4.2) his partner may then use
    what the winner left, from his own cards, each deciding on what he can see."""
    declare_from(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, trick_no, announce,
                 0, 1, 0 if params[PR_SEVEN_IS_DECL] != 0 else 1, ASK)


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def declare_from(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, trick_no, announce,
                 turn, combos_left, sevens_left, code):
    """team_declare from declarer ``turn`` (0: the winner, 1: his partner) with what the side
    may still declare; ``code`` is the decision already taken there (search play-outs) or ASK.

    One function with one policy call site: split into a per-seat function called twice,
    the two-player game measured ~8% slower."""
    seven_is_decl = params[PR_SEVEN_IS_DECL] != 0
    seat = winner if turn == 0 else (winner + 2) & 3
    declarers = 2 if params[PR_PARTNERS] else 1
    while turn < declarers:
        if code == ASK:
            allow_seven = combos_left > 0 if seven_is_decl else sevens_left > 0
            n = legal_declarations(params, S, seat, combos_left > 0, allow_seven, O_ACTS)
            code = A_STOP
            if n > 0:
                S[O_ACTS + n] = A_STOP
                S[O_APTS + n] = 0
                S[CTR_DECLARING] = pack_declaring(winner, turn, combos_left, sevens_left,
                                                  announce)
                code = S[O_ACTS + decide(S, rng, pol_ids, pol_params, fns, D_DECLARE, seat,
                                         n + 1)]
        if code == A_STOP:
            if combos_left == 0 and sevens_left == 0:
                return
            turn += 1                          # the partner's turn, if any
            seat = (winner + 2) & 3
            code = ASK
            continue
        the_code = code
        code = ASK
        kind = code_kind(the_code)
        if kind == K_SEVEN_EXCHANGE or kind == K_SEVEN_DECLARE:
            score_seven(params, S, seat, the_code, hand_no, trick_no)
            if seven_is_decl:
                combos_left -= 1
            else:
                sevens_left -= 1
            continue
        i = pending_index(S, seat, the_code)
        status = EV_SCORED
        if i >= 0:
            pending_remove(S, seat, i)
            status = EV_SCORED_PENDING
        score_combination(params, S, seat, the_code, hand_no, trick_no, status)
        S[O_DSTATS + seat * 3] += 1
        S[O_DSTATS + seat * 3 + 1] += 1
        combos_left -= 1
        if announce:
            pending_announce(params, S, seat, O_SCRATCH, hand_no, trick_no)


# Called, not inlined: play_rest calls it at two sites, and
# inlined copies made play_rest alone 28 s of a 69 s cold start; called, the two-player
# hand measured 2% slower (greedy, 4 rounds alternating), within the 5% the trade allows.
@njit(error_model="numpy", cache=True, _nrt=False)
def play_trick(params, S, rng, pol_ids, pol_params, fns, leader, other, n_in, hand_no, t, stage):
    """One card from each of ``n_in`` seats: every seat from the leader round to the left,
    or (``n_in`` 2 of 4, R4.2 pairs) the leader and ``other``. Returns the trick's winner."""
    players = params[PR_PLAYERS]
    S[O_SC + SC_TRICK] = t
    S[O_SC + SC_LEADER] = leader
    S[O_SC + SC_STAGE] = stage
    S[O_SC + SC_N_TRICK] = 0
    trump = S[O_SC + SC_TRUMP]
    duty = params[PR_STAGE2_DUTY]
    for k in range(n_in):
        if n_in == players:
            seat = next_seat(leader, k, players)
        else:
            seat = leader if k == 0 else other
        n = legal_plays(S, seat, k, trump, stage, duty)
        i = decide(S, rng, pol_ids, pol_params, fns, D_PLAY, seat, n)
        play_card(params, S, seat, S[O_ACTS + i], hand_no, t, n, S[O_SCRATCH + i])   # the
        # card's place in the hand (legal_plays), so take need not search
    wi = winning_index(S, n_in, trump)
    if n_in == players:
        return next_seat(leader, wi, players)
    return leader if wi == 0 else other


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def finish_trick(params, S, winner, n_in, hand_no, trick_no, n_tricks, stage1_tricks):
    """Brisques and last-trick points of a complete trick of ``n_in`` cards won by
    ``winner``."""
    players = params[PR_PLAYERS]
    S[O_WON + winner] += 1
    brisques = 0
    for k in range(n_in):
        c = S[O_TRICK + k]
        r = c & 7
        brisques += params[PR_BRISQUE_VALUE] * ((r == ACE) | (r == TEN))   # no branch
        S[unsigned(O_LOC + c)] = LOC_PLAYED
        reveal_all(S, players, c, V_PLAYED)
    if trace_on(S):
        trace_add(S, TR_TRICK_WON, hand_no, trick_no, winner, S[O_TRICK],
                  S[O_TRICK + 1] if n_in > 1 else -1, S[O_TRICK + 2] if n_in > 2 else -1,
                  S[O_TRICK + 3] if n_in > 3 else -1)
    S[O_BRISQ_TAKEN + winner] += brisques
    if params[PR_BRISQUES_ASIDE]:
        pass                                   # counted aside, never scored (R6.7)
    elif params[PR_BRISQUES_WHEN] == BRISQUES_WHEN_WON:
        if brisques > 0:
            record_event(S, hand_no, trick_no, winner, K_BRISQUES, EV_SCORED, 0, brisques)
    else:
        S[O_BRISQ + winner] += brisques
    mode = params[PR_LAST_TRICK]
    if ((trick_no == n_tricks and (mode == LAST_TRICK32 or mode == LAST_BOTH))
            or (trick_no == stage1_tricks and (mode == LAST_TRICK24 or mode == LAST_BOTH))):
        record_event(S, hand_no, trick_no, winner, K_LAST_TRICK, EV_SCORED, 0,
                     params[PR_POINTS + K_LAST_TRICK])
    S[O_SC + SC_N_TRICK] = 0


# The two below are compiled as the very function they stand for when the policy set has
# it (an overload whose implementation is that function's own code): a wrapper calling it
# would be one more compiled level, and numba optimises every level's callees again.


def open_cards_in_set(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no):
    """open_cards_trick (Polish open cards after a trick, R5), or a fault (never reached)
    when the run's policy set ``fns`` leaves the variant's open cards out
    (engine/external.py): the kernels of a run of another variant never compile them."""
    if fns is not None and fns[SET_OPEN_CARDS] is None:
        S[CTR_FAULT] = FAULT_POLICY
        return
    open_cards_trick(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no)


@overload(open_cards_in_set, jit_options=ENGINE_OPTIONS)
def _open_cards_in_set_impl(params, S, rng, pol_ids, pol_params, fns, seat, hand_no,
                            trick_no):
    if not in_set(fns, SET_OPEN_CARDS):
        def left_out(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no):
            S[CTR_FAULT] = FAULT_POLICY
        return left_out

    def open_cards(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no):
        open_cards_trick(params, S, rng, pol_ids, pol_params, fns, seat, hand_no, trick_no)
    return open_cards


def pairs_in_set(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t, leader):
    """pairs_from (the R4.2 pairs ending), or a fault (never reached, returning ``leader``)
    when the run's policy set ``fns`` leaves the pairs ending out."""
    if fns is not None and fns[SET_PAIRS] is None:
        S[CTR_FAULT] = FAULT_POLICY
        return leader
    return pairs_from(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t,
                      leader)


@overload(pairs_in_set, jit_options=ENGINE_OPTIONS)
def _pairs_in_set_impl(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t,
                       leader):
    if not in_set(fns, SET_PAIRS):
        def left_out(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t,
                     leader):
            S[CTR_FAULT] = FAULT_POLICY
            return leader
        return left_out
    return pairs_from.py_func


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def after_stock_trick(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t,
                      stage1_tricks, n_tricks):
    """A stock trick is complete: its points, the winner's declarations (or Polish open
    cards), then every seat draws from the winner round."""
    players = params[PR_PLAYERS]
    S[CTR_STOCK_WINNER] = winner
    finish_trick(params, S, winner, players, hand_no, t, n_tricks, stage1_tricks)
    if params[PR_OPEN_CARDS]:
        open_cards_in_set(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t)
    else:
        if t < stage1_tricks or params[PR_DECL_AFTER_LAST]:
            team_declare(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t,
                         t < stage1_tricks)
        if t == stage1_tricks:
            for p in range(players):
                pending_flush(S, p, hand_no, t)
    for k in range(players):
        draw(params, S, next_seat(winner, k, players), hand_no, t)


# The same step called, not inlined, where it runs once a call (resume.py: search takes up a
# hand there once per play-out): numba's inlining of it costs a cold compile 7 s a site.
# (getattr: with NUMBA_DISABLE_JIT the decorated function is the plain one.)
called_after_stock_trick = njit(error_model="numpy", cache=True, _nrt=False)(
    getattr(after_stock_trick, "py_func", after_stock_trick))


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def hand_shape(params):
    """(stock tricks, tricks in all, stage 2 played as R4.2 pairs)."""
    players = params[PR_PLAYERS]
    hand_size = params[PR_HAND_SIZE]
    stage1_tricks = (params[PR_PACKS] * 32 - players * hand_size) // players
    pairs = params[PR_STAGE2_PAIRS] != 0 and players == 4
    return stage1_tricks, stage1_tricks + (2 * hand_size if pairs else hand_size), pairs


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def play_hand(params, S, rng, pol_ids, pol_params, fns, hand_no, dealer):
    """Play one hand; points land in O_HPTS (by kind) and SC_HAND_POINTS + seat.
    Returns (winner of the last stock trick, winner of the last trick)."""
    deal(params, S, rng, hand_no, dealer)
    # the player left of the dealer leads (R3)
    return play_rest(params, S, rng, pol_ids, pol_params, fns, hand_no, 1,
                     next_seat(dealer, 1, params[PR_PLAYERS]), -1)


@njit(error_model="numpy", cache=True, _nrt=False)
def play_rest(params, S, rng, pol_ids, pol_params, fns, hand_no, t0, leader, winner_stage1):
    """The hand from trick ``t0`` (no card of it played yet), ``leader`` to lead. From a
    stage-2 trick, ``winner_stage1`` is the winner of the last stock trick (R4.2 pairs)."""
    players = params[PR_PLAYERS]
    stage1_tricks, n_tricks, pairs = hand_shape(params)
    open_cards = params[PR_OPEN_CARDS] != 0
    winner = leader
    for t in range(t0, stage1_tricks + 1):
        # every seat plays in turn; written out here rather than through play_trick, which
        # measured ~10% slower on the two-player hot path
        S[O_SC + SC_TRICK] = t
        S[O_SC + SC_LEADER] = leader
        S[O_SC + SC_STAGE] = 1
        S[O_SC + SC_N_TRICK] = 0
        for k in range(players):
            seat = next_seat(leader, k, players)
            n = legal_plays(S, seat, k, S[O_SC + SC_TRUMP], 1, 0)
            i = decide(S, rng, pol_ids, pol_params, fns, D_PLAY, seat, n)
            play_card(params, S, seat, S[O_ACTS + i], hand_no, t, n, i)   # offer = hand order
        winner = next_seat(leader, winning_index(S, players, S[O_SC + SC_TRUMP]), players)
        after_stock_trick(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t,
                          stage1_tricks, n_tricks)
        leader = winner
        winner_stage1 = winner
    if pairs:
        S[CTR_PAIRS] = winner_stage1
        winner = pairs_in_set(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1,
                              stage1_tricks, leader)
    else:
        for t in range(max(t0, stage1_tricks + 1), n_tricks + 1):
            winner = play_trick(params, S, rng, pol_ids, pol_params, fns, leader, -1, players,
                                hand_no, t, 2)
            finish_trick(params, S, winner, players, hand_no, t, n_tricks, stage1_tricks)
            if open_cards:
                open_cards_in_set(params, S, rng, pol_ids, pol_params, fns, winner, hand_no, t)
            leader = winner
    brisques_at_end(params, S, hand_no, n_tricks)
    return winner_stage1, winner


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def brisques_at_end(params, S, hand_no, n_tricks):
    """Each seat's brisques event once the hand is over (R2.5; none when scored as won)."""
    for p in range(params[PR_PLAYERS]):
        if S[O_BRISQ + p] > 0:
            record_event(S, hand_no, n_tricks + 1, p, K_BRISQUES, EV_SCORED, 0, S[O_BRISQ + p])


@njit(error_model="numpy", cache=True, _nrt=False)
def pairs_from(params, S, rng, pol_ids, pol_params, fns, hand_no, winner_stage1, t, leader):
    """The R4.2 pairs ending after trick ``t`` (``leader`` to lead trick t + 1): the winner
    of the last stock trick and the opponent on his left play their eight tricks, then the
    other two (the winner's partner leading). Returns the winner of the last trick."""
    players = params[PR_PLAYERS]
    hand_size = params[PR_HAND_SIZE]
    stage1_tricks, n_tricks, _ = hand_shape(params)
    winner = leader
    while t < n_tricks:
        done = t - stage1_tricks                 # tricks of the ending already played
        a = (winner_stage1 + 2 * (done // hand_size)) % players
        b = (a + 1) % players
        if done % hand_size == 0:
            leader = a
        t += 1
        other = b if leader == a else a
        winner = play_trick(params, S, rng, pol_ids, pol_params, fns, leader, other, 2,
                            hand_no, t, 2)
        finish_trick(params, S, winner, 2, hand_no, t, n_tricks, stage1_tricks)
        leader = winner
    return winner
