"""The ``heuristic`` policy: an expert's rules of thumb with their weights as data.

From the seed text's "Hints for Play" and common practice: keep cards toward combinations in
proportion to their value and to the chance that the missing cards are still to come (a
combination whose missing face is all played, or held by another seat that showed it, is
given up); keep trumps and brisques for the last tricks; throw sevens, eights and nines on
tricks not worth winning; win a trick when it holds brisques or when winning lets us score a
declaration; in stage 2 lead the cards that take tricks. Declarations: the most valuable one
now, and the seven of trumps is always exchanged or declared.

Every weight is a parameter (declared in WEIGHTS below), read from the seat's parameter row,
so a sweep needs no recompile. The policy reads only its seat's knowledge row and the public
regions (policy contract, bezsim/policies/builtin.py).
"""

from bezsim.engine.constants import (
    ACE,
    BEZ_PAIR_TRUMP_QUEEN,
    D_PLAY,
    DIAMONDS,
    H_CLASS_B,
    H_FOUR,
    H_MARRIAGE,
    JACK,
    KING,
    NO_TRUMP,
    PR_BEZ_PAIR,
    PR_BRISQUES_ASIDE,
    PR_PLAIN_SEQUENCE,
    QUEEN,
    SC_N_TRICK,
    SC_PACKS,
    SC_STAGE,
    SC_TRUMP,
    SEVEN,
    SPADES,
    TEN,
    V_PLAYED,
    V_SHOWN,
    V_TRICK,
)
from bezsim.engine.jit import njit
from bezsim.engine.state import (
    N_MAX,
    O_ACTS,
    O_DECISION,
    O_HIST,
    O_N_ACTS,
    O_RULES,
    O_SC,
    O_SEEN,
    O_TRICK,
)
from bezsim.engine.tricks import beats, winning_index
from bezsim.policies.common import best_declaration, trick_brisques
from bezsim.policies.weight import Weight, defaults, index

# every weight declared once: the registry's parameters and the defaults search's play-outs
# use are built from this; the kernels read the W_* columns
WEIGHTS = (
    Weight("brisque", 10.0, "keep value of an ace or ten"),
    Weight("trump", 4.0, "keep value of a trump"),
    Weight("marriage", 4.0, "a K or Q whose partner is held (twice in trumps)"),
    Weight("bezique", 5.0, "Q♠ or J♦ while the bezique can still be made"),
    Weight("four", 3.0, "per other card of its rank held (A, K, Q, J)"),
    Weight("sequence", 3.0, "per other trump sequence card held"),
    Weight("declare_win", 8.0, "extra value paid to win a stage-1 trick when it can then "
           "declare"),
    Weight("win_margin", 3.0, "win a plain trick when the winner costs at most this much more "
           "than the cheapest loser"),
    Weight("stage2_lead", 10.0, "stage 2: lead a sure winner worth at least this"),
)
INDEX = index(WEIGHTS)
DEFAULT_WEIGHTS = defaults(WEIGHTS)
W_BRISQUE = INDEX["brisque"]
W_TRUMP = INDEX["trump"]
W_MARRIAGE = INDEX["marriage"]
W_BEZIQUE = INDEX["bezique"]
W_FOUR = INDEX["four"]
W_SEQUENCE = INDEX["sequence"]
W_DECLARE_WIN = INDEX["declare_win"]
W_WIN_MARGIN = INDEX["win_margin"]
W_STAGE2_LEAD = INDEX["stage2_lead"]


@njit(cache=True, inline="always", _nrt=False)
def _face(card):
    return card & 31


@njit(cache=True, _nrt=False)
def _gone_elsewhere(S, seat, face, packs):
    """Copies of ``face`` that we can never use: played, on the trick, or shown by another
    seat (the "Hints for Play": give up the double once the other Q♠ is shown)."""
    n = 0
    for k in range(packs):
        v = S[O_SEEN + seat * N_MAX + face + 32 * k]
        if v == V_PLAYED or v == V_TRICK or (v >= V_SHOWN and v < V_SHOWN + 4):
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _held(S, n, face):
    """How many of the offered cards (our whole hand in stage 1) have this face."""
    c = 0
    for i in range(n):
        c += _face(S[O_ACTS + i]) == face
    return c


@njit(cache=True, _nrt=False)
def _held_rank(S, n, rank):
    c = 0
    for i in range(n):
        c += (S[O_ACTS + i] & 7) == rank
    return c


@njit(cache=True, _nrt=False)
def keep_value(S, seat, w, card, n, trump, packs):
    """What a card is worth keeping in stage 1: brisques, trumps, and its share of the
    combinations it may still complete."""
    r = card & 7
    f = _face(card)
    s = f >> 3
    aside = S[O_RULES + PR_BRISQUES_ASIDE] != 0
    v = (7 - r) * 0.5
    if (r == ACE or r == TEN) and not aside:       # Rubicon: brisques are not points (R6.7)
        v += w[W_BRISQUE]
    if s == trump:
        v += w[W_TRUMP]
        if r == SEVEN:
            v += 2.0
    if r == KING or r == QUEEN:
        other = s * 8 + (QUEEN if r == KING else KING)
        if _held(S, n, other) > 0:
            v += w[W_MARRIAGE] * (2.0 if s == trump else 1.0)
        elif _gone_elsewhere(S, seat, other, packs) < packs:
            v += w[W_MARRIAGE] * 0.25
    bq, bj = _bezique_faces(S, trump)
    if f == bq or f == bj:
        other = bj if f == bq else bq
        if _gone_elsewhere(S, seat, other, packs) < packs:
            v += w[W_BEZIQUE] * (1.0 + _held(S, n, other))
    if r == ACE or r == KING or r == QUEEN or r == JACK:
        # fours are common with many packs: the weight is per card at two packs
        v += w[W_FOUR] * (_held_rank(S, n, r) - 1) * 2.0 / packs
    plain = S[O_RULES + PR_PLAIN_SEQUENCE] != 0
    if r <= JACK and (s == trump or plain):        # Rubicon: plain sequences score (R6.3)
        seq = 0
        for rr in range(5):
            seq += _held(S, n, s * 8 + rr) > 0
        v += w[W_SEQUENCE] * (seq - 1) * (1.0 if s == trump else 0.6)
    return v


@njit(cache=True, _nrt=False)
def _bezique_faces(S, trump):
    """Q♠ J♦, or in six-pack the queen of trumps with its jack of the other colour (R7)
    (-1, -1 while trumps are undecided)."""
    if S[O_RULES + PR_BEZ_PAIR] == BEZ_PAIR_TRUMP_QUEEN:
        if trump < 0:
            return -1, -1
        return trump * 8 + QUEEN, (trump ^ 2) * 8 + JACK
    return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK


@njit(cache=True, _nrt=False)
def _free(S, n, face, bit):
    """Offered cards (our hand in stage 1) of ``face`` that have not scored in ``bit``'s kind
    (declaration history is public)."""
    c = 0
    for i in range(n):
        card = S[O_ACTS + i]
        c += _face(card) == face and (S[O_HIST + card] & bit) == 0
    return c


@njit(cache=True, _nrt=False)
def _declare_value(S, n, trump):
    """Points of the best combination we could score if we won now (marriage, bezique, four
    of a kind in hand, not yet scored in that kind); 0 if none."""
    best = 0
    for s in range(4):
        if _free(S, n, s * 8 + KING, H_MARRIAGE) > 0 and _free(S, n, s * 8 + QUEEN,
                                                               H_MARRIAGE) > 0:
            best = max(best, 40 if (s == trump or trump < 0) else 20)
    bq, bj = _bezique_faces(S, trump)
    if bq >= 0 and _free(S, n, bq, H_CLASS_B) > 0 and _free(S, n, bj, H_CLASS_B) > 0:
        best = max(best, 40)
    for r, pts in ((ACE, 100), (KING, 80), (QUEEN, 60), (JACK, 40)):
        c = 0
        for s in range(4):
            c += _free(S, n, s * 8 + r, H_FOUR)
        if c >= 4:
            best = max(best, pts)
    return best


@njit(cache=True, _nrt=False)
def heuristic_policy(S, seat, w, rng):
    n = S[O_N_ACTS]
    if S[O_DECISION] != D_PLAY:
        return best_declaration(S)     # the most valuable declaration now (seven included)
    trump = S[O_SC + SC_TRUMP]
    packs = S[O_SC + SC_PACKS]
    n_trick = S[O_SC + SC_N_TRICK]
    stage2 = S[O_SC + SC_STAGE] == 2
    t = trump if trump != NO_TRUMP else -1
    # values of the offered cards
    cheapest = 0
    best_v = 1e30
    for i in range(n):
        v = _value(S, seat, w, S[O_ACTS + i], n, t, packs, stage2)
        if v < best_v:
            best_v = v
            cheapest = i
    if n_trick == 0:
        if stage2:
            return _stage2_lead(S, seat, w, n, t, packs, cheapest)
        return cheapest
    best_card = S[O_TRICK + winning_index(S, n_trick, t)]
    brisques = trick_brisques(S, n_trick)
    win = -1
    win_v = 1e30
    lose = -1
    lose_v = 1e30
    for i in range(n):
        c = S[O_ACTS + i]
        v = _value(S, seat, w, c, n, t, packs, stage2)
        if beats(c, best_card, t):
            if v < win_v:
                win = i
                win_v = v
        elif v < lose_v:
            lose = i
            lose_v = v
    if win < 0:
        return cheapest
    if lose < 0:
        return win
    margin = w[W_WIN_MARGIN]
    if not stage2:
        margin += w[W_DECLARE_WIN] * _declare_value(S, n, t) / 40.0
    if stage2:
        margin += w[W_BRISQUE]         # stage 2: tricks are all that is left to take
    if brisques > 0 and S[O_RULES + PR_BRISQUES_ASIDE] == 0:
        margin += w[W_BRISQUE] * brisques
    if win_v <= lose_v + margin:
        return win
    return lose


@njit(cache=True, _nrt=False)
def _value(S, seat, w, card, n, trump, packs, stage2):
    if stage2:                         # only tricks count now: rank and trumps
        r = card & 7
        v = (7 - r) * 1.0
        if (card & 31) >> 3 == trump:
            v += w[W_TRUMP]
        if r == ACE or r == TEN:
            v += w[W_BRISQUE] * 0.5
        return v
    return keep_value(S, seat, w, card, n, trump, packs)


@njit(cache=True, _nrt=False)
def _stage2_lead(S, seat, w, n, trump, packs, cheapest):
    """Lead a card no unseen or unplayed card can beat in its suit (an ace, or a ten whose
    aces are all gone) when it is worth it; else the cheapest."""
    best = -1
    best_v = -1.0
    for i in range(n):
        c = S[O_ACTS + i]
        r = c & 7
        s = _face(c) >> 3
        sure = True
        for rr in range(r):                       # every higher rank of the suit
            if _gone_elsewhere(S, seat, s * 8 + rr, packs) + _held(S, n, s * 8 + rr) < packs:
                sure = False
        v = (10.0 if (r == ACE or r == TEN) else 0.0) + (5.0 if s == trump else 0.0)
        if sure and s != trump and v >= w[W_STAGE2_LEAD] and v > best_v:
            best = i
            best_v = v
    return best if best >= 0 else cheapest
