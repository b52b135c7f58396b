"""Decision points of real games, and the hidden-card perturbations of them, for
test_hidden_information.py (a policy's decision depends only on what its seat sees).

Snapshots are captured by running the engine as plain Python (``NUMBA_DISABLE_JIT=1``, in a
subprocess so the compiled engine of the test process is never touched): the one call site
``bezsim.engine.decisions.decide`` looks ``choose_among`` (and, for random seats,
``random_policy``) up in its module globals, so recording wrappers there see every decision
with the state array ``S``, the random streams and the seat.

    python tests/hidden_info_helpers.py OUT.npz      (with NUMBA_DISABLE_JIT=1)
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine import state as st

# name, variant, options, seat policies, seed, game indices. Seats mix random and greedy play
# so the positions are varied; every built-in policy is then asked at every one of them.
CASES = (
    ("ordinary", "ordinary", {}, ("greedy", "random"), 11, (0, 1)),
    ("ordinary_seven_is_declaration", "ordinary",
     {"seven_exchange_is_declaration": "true", "last_trick": "both"}, ("random", "greedy"),
     12, (0,)),
    ("polish", "polish", {}, ("random", "greedy"), 13, (0, 1)),
    ("rubicon", "rubicon", {}, ("greedy", "random"), 14, tuple(range(12))),
    # games in which a seat shows carte blanche, again after draws (R6.4)
    ("rubicon_carte_blanche", "rubicon", {}, ("greedy", "random"), 14, (297, 533)),
    ("six_pack", "six_pack", {}, ("greedy", "random"), 19, (0, 1)),
    ("three_handed", "three_handed", {}, ("greedy", "random", "random"), 15, (0,)),
    ("four_handed", "four_handed", {}, ("random", "greedy", "random", "greedy"), 16, (0,)),
    ("four_handed_partners", "four_handed_partners", {}, ("greedy", "random", "random",
                                                         "greedy"), 17, (0,)),
    ("partners_all_four", "four_handed_partners", {"partnership_stage2": "all_four"},
     ("random", "greedy", "greedy", "random"), 18, (0,)),
)
# snapshots kept per case and kind of decision (stage, D_PLAY / D_DECLARE), evenly spread
PER_KIND = {(1, C.D_PLAY): 45, (2, C.D_PLAY): 45, (1, C.D_DECLARE): 35, (2, C.D_DECLARE): 10}

HIDDEN_REGIONS = ("O_SEEN", "O_LOC", "O_HANDS", "O_STOCK", "O_HAND_CNT")


@dataclass
class Snapshot:
    case: str
    params: np.ndarray      # the rules' params array
    S: np.ndarray           # state when the seat's policy was asked
    rng: np.ndarray         # random streams at that moment
    seat: int
    game: int = -1          # the game's index under the case's seed

    @property
    def players(self) -> int:
        return int(self.params[C.PR_PLAYERS])

    @property
    def n_cards(self) -> int:
        return int(self.params[C.PR_PACKS]) * 32

    @property
    def stage(self) -> int:
        return int(self.S[st.O_SC + C.SC_STAGE])

    @property
    def decision(self) -> int:
        return int(self.S[st.O_DECISION])

    @property
    def n_actions(self) -> int:
        return int(self.S[st.O_N_ACTS])


# --- capture (runs in the subprocess) --------------------------------------------------------

def _record_all(variant: str, options: dict, policies: tuple, seed: int, games: tuple):
    import bezsim.engine.decisions as decisions
    from bezsim.engine_api import games as api
    from bezsim.engine_api.games import run_games
    from bezsim.rules import Rules

    rules = Rules.make(variant, options)
    real = decisions.choose_among
    real_random = decisions.random_policy      # decide calls the random policy directly
    seen: list[tuple] = []
    current = [-1]

    def recording_choose(fns, policy_id, S, seat, params, rng):
        seen.append((S.copy(), rng.copy(), int(seat), current[0]))
        return real(fns, policy_id, S, seat, params, rng)

    def recording_random(S, seat, params, rng):
        seen.append((S.copy(), rng.copy(), int(seat), current[0]))
        return real_random(S, seat, params, rng)

    decisions.choose_among = recording_choose
    decisions.random_policy = recording_random
    try:
        for game in games:
            current[0] = game
            api._SEEN.clear()     # the rule bound's rows, so every snapshot has one size
            run_games(rules, list(policies), seed, game, 1, parallel=False)
    finally:
        decisions.choose_among = real
        decisions.random_policy = real_random
    return rules.params(), seen


def _spread(indices: list[int], k: int) -> list[int]:
    if len(indices) <= k:
        return indices
    return [indices[round(i * (len(indices) - 1) / (k - 1))] for i in range(k)]


def capture_main(out: str) -> None:
    import warnings

    warnings.simplefilter("ignore")    # numpy warns on the uint64 wrap-around the RNG relies on
    arrays = {}
    for name, variant, options, policies, seed, games in CASES:
        params, seen = _record_all(variant, options, policies, seed, games)
        by_kind: dict[tuple, list[int]] = {}
        for i, (S, *_) in enumerate(seen):
            by_kind.setdefault((int(S[st.O_SC + C.SC_STAGE]), int(S[st.O_DECISION])),
                               []).append(i)
        keep = sorted(i for kind, idx in by_kind.items() for i in _spread(idx, PER_KIND[kind]))
        arrays[f"{name}/params"] = params
        arrays[f"{name}/S"] = np.stack([seen[i][0] for i in keep])
        arrays[f"{name}/rng"] = np.stack([seen[i][1] for i in keep])
        arrays[f"{name}/seat"] = np.array([seen[i][2] for i in keep])
        arrays[f"{name}/game"] = np.array([seen[i][3] for i in keep])
    np.savez_compressed(out, **arrays)


def capture(directory) -> list[Snapshot]:
    """Play CASES as plain Python in a subprocess; return the recorded decision points."""
    out = os.path.join(str(directory), "snapshots.npz")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, __file__, out], env=env, check=True)
    snaps = []
    with np.load(out) as data:
        for name, *_ in CASES:
            params = data[f"{name}/params"]
            for S, rng, seat, game in zip(data[f"{name}/S"], data[f"{name}/rng"],
                                          data[f"{name}/seat"], data[f"{name}/game"],
                                          strict=True):
                snaps.append(Snapshot(name, params, S, rng, int(seat), int(game)))
    return snaps


# --- what a seat may see ---------------------------------------------------------------------

def seen_row(snap: Snapshot, S: np.ndarray, seat: int) -> np.ndarray:
    at = st.O_SEEN + seat * st.N_MAX
    return S[at:at + snap.n_cards]


def hand(S: np.ndarray, seat: int) -> np.ndarray:
    at = st.O_HANDS + seat * C.MAX_HAND
    return S[at:at + S[st.O_HAND_N + seat]]


def unread_stock(snap: Snapshot, S: np.ndarray) -> np.ndarray:
    return S[st.O_STOCK + S[st.CTR_STOCK_POS]:st.O_STOCK + snap.n_cards]


def _ever_turnup(snap: Snapshot, S: np.ndarray, card: int) -> bool:
    """The hand's turn-up, or a seven of trumps exchanged for it: every seat saw it face up."""
    if not snap.params[C.PR_TURNUP]:
        return False
    first = S[st.O_STOCK + snap.players * int(snap.params[C.PR_HAND_SIZE])]
    seven = S[st.O_SC + C.SC_TRUMP] * 8 + C.SEVEN
    return card == first or ((card & 31) == seven and S[st.O_HIST + card] & C.H_SEVEN)


def shown_by_carte_blanche(S: np.ndarray, seat: int, card: int) -> bool:
    """The seat scored carte blanche this hand and the card is no court card (R6.4)."""
    return bool(S[st.O_HPTS + seat * C.N_KINDS + C.K_CARTE_BLANCHE] > 0
                and (card & 7) not in (C.KING, C.QUEEN, C.JACK))


def observation_errors(snap: Snapshot, S: np.ndarray, seat: int) -> list[str]:
    """How the seat's O_SEEN row departs from where the cards really are (O_LOC, O_HANDS,
    O_STOCK): V_UNSEEN exactly for other seats' concealed cards nobody was shown and for the
    unread stock; its own cards V_MINE / V_MINE_SHOWN; everything else by its place."""
    errors = []
    row = seen_row(snap, S, seat)
    stock = set(unread_stock(snap, S).tolist())
    where = {}
    for p in range(snap.players):
        for c in hand(S, p).tolist():
            where[c] = p
    for c in range(snap.n_cards):
        loc = int(S[st.O_LOC + c])
        v = int(row[c])
        kind, p = (loc & ~7, loc & 7) if loc >= C.LOC_HAND else (loc, -1)
        if loc == C.LOC_STOCK:
            ok = v == C.V_UNSEEN and c in stock
        elif loc in (C.LOC_TURNUP, C.LOC_PLAYED, C.LOC_TRICK):
            ok = v == {C.LOC_TURNUP: C.V_TURNUP, C.LOC_PLAYED: C.V_PLAYED,
                       C.LOC_TRICK: C.V_TRICK}[loc] and c not in stock and c not in where
        elif kind == C.LOC_OPEN:
            ok = v == C.V_OPEN + p and c not in where
        elif kind in (C.LOC_HAND, C.LOC_TABLE) and where.get(c) != p:
            ok = False                 # O_LOC and O_HANDS disagree
        elif p == seat:
            ok = v == (C.V_MINE if kind == C.LOC_HAND else C.V_MINE_SHOWN)
        elif kind == C.LOC_TABLE:
            ok = v == C.V_SHOWN + p
        else:                          # another seat's concealed card (a partner's too)
            # R6.4: a carte blanche shows the hand, again after each draw of a non-court card
            # while S[O_CB + p] holds; the court card ending it, and later draws, stay hidden
            cb = shown_by_carte_blanche(S, p, c)
            ok = (v == C.V_UNSEEN and not S[st.O_CB + p]) or (
                v == C.V_SHOWN + p and (cb or _ever_turnup(snap, S, c)))
        if ok and v == C.V_UNSEEN and S[st.O_HIST + c] != 0:
            ok = False                 # a hidden copy with a public declaration history
        if not ok:
            errors.append(f"card {c}: loc {loc}, seen by seat {seat} as {v}"
                          f"{' (in the unread stock)' if c in stock else ''}")
    return errors


# --- changing only what the seat cannot see ---------------------------------------------------

def hidden_slots(snap: Snapshot, S: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices into S of the places holding a card hidden from ``seat`` (other seats' cards it
    sees as V_UNSEEN, the unread stock), and the location code each place gives its card."""
    row = seen_row(snap, S, seat)
    slots, locs = [], []
    for p in range(snap.players):
        if p == seat:
            continue
        at = st.O_HANDS + p * C.MAX_HAND
        for i in range(S[st.O_HAND_N + p]):
            if row[S[at + i]] == C.V_UNSEEN:
                slots.append(at + i)
                locs.append(C.LOC_HAND + p)
    first = st.O_STOCK + int(S[st.CTR_STOCK_POS])
    slots.extend(range(first, st.O_STOCK + snap.n_cards))
    locs.extend([C.LOC_STOCK] * (st.O_STOCK + snap.n_cards - first))
    return np.array(slots, dtype=np.int64), np.array(locs, dtype=np.int32)


def placement(S: np.ndarray, slots: np.ndarray, locs: np.ndarray) -> tuple:
    """The hidden deal at face level: each seat's hidden faces (a multiset) and the stock's
    face order."""
    faces = S[slots] & 31
    return tuple(tuple(sorted(faces[locs == loc].tolist())) if loc != C.LOC_STOCK
                 else tuple(faces[locs == loc].tolist()) for loc in sorted(set(locs.tolist())))


def can_change(snap: Snapshot, seat: int) -> bool:
    """Whether any re-deal could change the hidden deal at face level: two faces in the stock,
    or two places and two faces (two-handed stage 2: the opponent's hand is all there is)."""
    slots, locs = hidden_slots(snap, snap.S, seat)
    faces = snap.S[slots] & 31
    return (len(set(faces[locs == C.LOC_STOCK].tolist())) >= 2
            or (len(set(locs.tolist())) >= 2 and len(set(faces.tolist())) >= 2))


def perturb(snap: Snapshot, seat: int, gen: np.random.Generator, tries: int = 20):
    """A copy of the snapshot's state with the cards hidden from ``seat`` dealt again among
    their places (each hand keeps its size, the stock its length), kept consistent: locations,
    the other seats' knowledge (it stays with the place: the holder sees its own cards) and
    their hand counts follow. Returns (S', whether the hidden deal changed at face level)."""
    from bezsim.engine.roles import recount_hands

    S = snap.S
    slots, locs = hidden_slots(snap, S, seat)
    cards = S[slots]
    before = placement(S, slots, locs)
    for _ in range(tries):
        new = cards[gen.permutation(len(cards))]
        S2 = S.copy()
        S2[slots] = new
        if placement(S2, slots, locs) != before:
            break
    S2[st.O_LOC + new] = locs
    for q in range(snap.players):
        if q != seat:
            row = st.O_SEEN + q * st.N_MAX
            S2[row + new] = S[row + cards]
    recount_hands(snap.params, S2)
    own = slice(st.O_HAND_CNT + seat * st.CNT_WIDTH, st.O_HAND_CNT + (seat + 1) * st.CNT_WIDTH)
    counted = int(S[st.O_N_COUNTS])
    assert np.array_equal(S2[own][:counted], S[own][:counted]), "hand counts out of step"
    S2[own] = S[own]        # the unread tail of the counts stays as the engine left it
    return S2, placement(S2, slots, locs) != before


def scramble_stale(snap: Snapshot, gen: np.random.Generator) -> np.ndarray:
    """A copy whose O_ACTS past the offer and O_APTS outside it (all of it at a play) hold
    noise: the engine leaves earlier decisions' offers there, other seats' cards among them,
    so a policy must read only the offer itself."""
    S2 = snap.S.copy()
    n = snap.n_actions
    S2[st.O_ACTS + n:st.O_ACTS + st.ACTIONS_MAX] = gen.integers(-1, snap.n_cards,
                                                                st.ACTIONS_MAX - n)
    first = n if snap.decision == C.D_DECLARE else 0
    S2[st.O_APTS + first:st.O_APTS + st.ACTIONS_MAX] = gen.integers(0, 500,
                                                                    st.ACTIONS_MAX - first)
    return S2


def region_of(index: int) -> str:
    """Name of the O_* region holding S[index]."""
    starts = sorted((v, k) for k, v in vars(st).items()
                    if k.startswith("O_") and isinstance(v, int))
    name = starts[0][1]
    for start, k in starts:
        if start <= index:
            name = k
    return name


if __name__ == "__main__":
    capture_main(sys.argv[1])
