"""The policy contract's hidden-information test (a policy sees only what its
seat may see, never another hand or the stock order; docs/user_policies.md).

Decision points are recorded from real games of every variant (hidden_info_helpers.capture:
the engine run as plain Python in a subprocess, its one policy call site wrapped). At each
one, the cards hidden from the deciding seat (other seats' concealed cards it has not been
shown, and the unread stock) are dealt again among their places, consistently with what the
seat knows, and every built-in policy must decide the same, with its random stream left in the
same state. A policy that peeks shows the test can fail.
"""

import numpy as np
import pytest
from hidden_info_helpers import (
    CASES,
    HIDDEN_REGIONS,
    can_change,
    capture,
    hand,
    hidden_slots,
    observation_errors,
    perturb,
    region_of,
    scramble_stale,
    seen_row,
    shown_by_carte_blanche,
)
from numba import njit

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.external import EXTERNAL
from bezsim.policies.builtin import FIRST_ACTION, LAST_ACTION, choose
from bezsim.policies.search import search_decision
from bezsim.policy_specs.registry import POLICY_IDS, parse_policies, policy_params

PERTURBATIONS = 2          # hidden re-deals per decision point
SCRIPTED = {"first_action": FIRST_ACTION, "last_action": LAST_ACTION}
BUILTINS = {**POLICY_IDS, **SCRIPTED}


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory):
    return capture(tmp_path_factory.mktemp("hidden_information"))


@pytest.fixture(scope="module")
def perturbed(snapshots):
    """Each snapshot with PERTURBATIONS re-deals of its hidden cards and one copy with noise
    outside the offer: [(snap, [(S', changed), ...], S_noise), ...]."""
    out = []
    for i, snap in enumerate(snapshots):
        gen = np.random.default_rng([2024, i])
        redeals = [perturb(snap, snap.seat, gen) for _ in range(PERTURBATIONS)]
        out.append((snap, redeals, scramble_stale(snap, gen)))
    return out


def default_rows(name: str, players: int) -> np.ndarray:
    """The parameter rows the engine gives this policy at its defaults (the scripted ids,
    which read none, take the rows of ``random``); a spec with parameters, its own rows."""
    spec = name if name in POLICY_IDS or "(" in name else "random"
    return policy_params(parse_policies([spec] * players, players))


def decide(policy, S, seat, pol_params, rng):
    """The policy's action index and its random streams afterwards (inputs left untouched)."""
    after = rng.copy()
    return int(policy(S.copy(), seat, pol_params, after)), after


def mismatches(policy, name, perturbed, redeal=True, noise=True):
    """Decision points where a re-deal of the hidden cards, or noise outside the offer,
    changed the decision (or how much of the seat's random stream it used)."""
    found = []
    for snap, redeals, S_noise in perturbed:
        pp = default_rows(name, snap.players)
        action, rng = decide(policy, snap.S, snap.seat, pp, snap.rng)
        assert 0 <= action < snap.n_actions, f"{name}: action {action} outside the offered"
        states = ([S2 for S2, _ in redeals] if redeal else []) + ([S_noise] if noise else [])
        for k, S2 in enumerate(states):
            action2, rng2 = decide(policy, S2, snap.seat, pp, snap.rng)
            if action2 != action or not np.array_equal(rng2, rng):
                what = "noise" if k == len(states) - 1 and noise else "re-deal"
                found.append(f"{what}: {snap.case} seat {snap.seat} stage {snap.stage} "
                             f"decision {snap.decision}: action {action} -> {action2}")
    return found


# --- the snapshots ----------------------------------------------------------------------------

def test_snapshots_cover_every_variant_stage_and_decision(snapshots):
    assert len(snapshots) >= 800
    for name, *_ in CASES:
        kinds = [(s.stage, s.decision) for s in snapshots if s.case == name]
        assert kinds.count((1, C.D_PLAY)) >= 40, name
        assert kinds.count((2, C.D_PLAY)) >= 30, name
        assert kinds.count((1, C.D_DECLARE)) >= 5, name
        players = next(s.players for s in snapshots if s.case == name)
        assert {s.seat for s in snapshots if s.case == name} == set(range(players)), name
    # the knowledge a carte blanche gives (R6.4) is among them
    assert any(snap.S[st.O_CB + p] for snap in snapshots for p in range(snap.players))


# --- the observation side: what O_SEEN says a seat knows -------------------------------------

def test_every_seat_sees_exactly_its_own_cards_and_the_public_ones(snapshots):
    """At every decision point and for every seat: V_UNSEEN exactly for the unread stock and
    other seats' concealed cards (a partner's too) not shown to all; its own cards V_MINE or
    V_MINE_SHOWN; table, trick, played, open cards and the turn-up by their place."""
    errors = []
    for snap in snapshots:
        for seat in range(snap.players):
            errors += [f"{snap.case} seat {seat}: {e}" for e in
                       observation_errors(snap, snap.S, seat)]
    assert not errors, f"{len(errors)} wrong knowledge codes, e.g. {errors[:5]}"


def test_the_observation_check_catches_a_leak(snapshots):
    """Negative control: a seat told where a hidden card is, or blind to a played one."""
    missed = []
    for snap in snapshots[::20]:
        seat = snap.seat
        slots, locs = hidden_slots(snap, snap.S, seat)
        at = st.O_SEEN + seat * st.N_MAX
        played = np.nonzero(seen_row(snap, snap.S, seat) == C.V_PLAYED)[0]
        edits = []
        if slots.size:                                           # a hidden card "played"
            edits.append((snap.S[slots[-1]], C.V_PLAYED))
        for slot, loc in zip(slots, locs, strict=True):          # "seen" in another hand
            card, holder = snap.S[slot], loc & 7
            if loc != C.LOC_STOCK and not shown_by_carte_blanche(snap.S, holder, card):
                edits.append((card, C.V_SHOWN + holder))
                break
        if played.size:
            edits.append((played[0], C.V_UNSEEN))                # a played card forgotten
        for card, code in edits:
            told = snap.S.copy()
            told[at + card] = code
            if not observation_errors(snap, told, seat):
                missed.append((snap.case, seat, int(card), code))
    assert not missed


def test_partners_do_not_see_each_others_concealed_cards(snapshots):
    hidden = 0
    for snap in snapshots:
        if not snap.params[C.PR_PARTNERS]:
            continue
        partner = (snap.seat + 2) % 4
        row = seen_row(snap, snap.S, snap.seat)
        for c in hand(snap.S, partner).tolist():
            if snap.S[st.O_LOC + c] == C.LOC_HAND + partner:
                assert row[c] in (C.V_UNSEEN, C.V_SHOWN + partner), (snap.case, c)
                hidden += row[c] == C.V_UNSEEN
    assert hidden > 100


# --- the re-deal only touches what the seat cannot see --------------------------------------

def test_redeal_changes_only_cards_hidden_from_the_seat(perturbed):
    allowed = set(HIDDEN_REGIONS)
    for snap, redeals, _ in perturbed:
        S, seat = snap.S, snap.seat
        slots, _ = hidden_slots(snap, S, seat)
        assert len(slots) == int(np.sum(seen_row(snap, S, seat) == C.V_UNSEEN)), snap.case
        own_row = slice(st.O_SEEN + seat * st.N_MAX, st.O_SEEN + (seat + 1) * st.N_MAX)
        for S2, _ in redeals:
            changed = np.nonzero(S2 != S)[0]
            assert {region_of(i) for i in changed} <= allowed, snap.case
            assert np.array_equal(S2[:st.O_SEEN], S[:st.O_SEEN])          # public regions
            assert np.array_equal(S2[own_row], S[own_row])                # its knowledge
            assert np.array_equal(hand(S2, seat), hand(S, seat))          # its hand
            for p in range(snap.players):
                assert S2[st.O_HAND_N + p] == S[st.O_HAND_N + p]
            for q in range(snap.players):                    # S' is a consistent state
                assert not observation_errors(snap, S2, q), (snap.case, q)


def test_redeal_really_moves_hidden_cards(perturbed):
    """Not vacuous: every re-deal that can change which faces a seat holds or the stock's face
    order does (it cannot only in two-handed stage 2, where the opponent holds every hidden
    card), and most do."""
    flags = []
    for snap, redeals, _ in perturbed:
        possible = can_change(snap, snap.seat)
        assert possible or snap.stage == 2, snap.case
        for _, changed in redeals:
            assert changed == possible, (snap.case, snap.seat, snap.stage)
            flags.append(changed)
    assert np.mean(flags) >= 0.7


# --- the contract: no built-in policy's decision depends on hidden cards --------------------

@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtin_policy_ignores_hidden_cards(name, perturbed):
    pid = BUILTINS[name]

    def policy(S, seat, pol_params, rng):
        if pid == EXTERNAL:        # search: called as the engine calls an external policy
            return search_decision(S, seat, pol_params[seat], rng[1 + seat])
        return choose(pid, S, seat, pol_params, rng)

    found = mismatches(policy, name, perturbed)
    assert not found, f"{name} decided differently {len(found)} times, e.g. {found[:5]}"


@pytest.mark.parametrize("spec", ["search(rollout=3,samples=3,prior=0,z=1,horizon=30)",
                                  "search(method=1,samples=2,horizon=30)",
                                  "search(settlement=1,samples=3,first=2,drop=1)",
                                  "search(rollout=4,samples=3,prior=0,z=1,horizon=30)",
                                  "expert(endgame=30,settle=60,partner=0.5)",
                                  "learned(trump=3,won=0.5,lost=-0.4,declare_win=0.3,"
                                  "s2_wins=4,s2_rank=0.5)"])
def test_policy_with_parameters_ignores_hidden_cards(spec, perturbed):
    """Code paths the defaults above leave off: search with its confidence gate and horizon
    (its sampled deals come from the seat's knowledge only), its ISMCTS (method=1: the tree
    is built from those deals), the race and the Rubicon settlement value, and expert's
    Rubicon settlement play and partnership logic (they read the hand points, the brisques
    each seat has taken and the partner's cards on the table, all public), search with
    learned's play-outs, and learned with weights on its other features. Re-dealing what
    the seat cannot see changes neither the decision nor the random stream."""
    def policy(S, seat, pol_params, rng):
        if spec.startswith("search"):
            return search_decision(S, seat, pol_params[seat], rng[1 + seat])
        return choose(POLICY_IDS[spec.partition("(")[0]], S, seat, pol_params, rng)

    found = mismatches(policy, spec, perturbed)
    assert not found, f"{spec} decided differently {len(found)} times, e.g. {found[:5]}"


# --- negative controls: policies that peek are caught ---------------------------------------

@njit
def peek_at_hands(S, seat, params, rng):
    """Cheats: chooses by the faces the other seats hold."""
    h = 0
    for p in range(C.MAX_PLAYERS):
        if p != seat:
            for i in range(S[st.O_HAND_N + p]):
                h += (S[st.O_HANDS + p * C.MAX_HAND + i] & 31) * (p + 1)
    return h % S[st.O_N_ACTS]


@njit
def peek_at_stock(S, seat, params, rng):
    """Cheats: chooses by the face of the next card in the stock."""
    return (S[st.O_STOCK + S[st.CTR_STOCK_POS]] & 31) % S[st.O_N_ACTS]


@njit
def peek_past_the_offer(S, seat, params, rng):
    """Reads O_ACTS past the offer, where the engine leaves earlier offers (other hands)."""
    return (S[st.O_ACTS + S[st.O_N_ACTS]] & 31) % S[st.O_N_ACTS]


@pytest.mark.parametrize("cheat, redeal", [(peek_at_hands, True), (peek_at_stock, True),
                                           (peek_past_the_offer, False)],
                         ids=["peek_at_hands", "peek_at_stock", "peek_past_the_offer"])
def test_a_policy_that_peeks_is_caught(cheat, redeal, perturbed):
    def policy(S, seat, pol_params, rng):
        return cheat(S, seat, pol_params[seat], rng)

    found = mismatches(policy, "random", perturbed, redeal=redeal, noise=not redeal)
    choices = sum(snap.n_actions > 1 for snap, _, _ in perturbed)
    assert len(found) >= 0.2 * choices, f"only {len(found)} of {choices} decision points"


# --- the engine's side: public regions past the offer ---------------------------------------

def test_the_offer_itself_holds_no_hidden_cards(snapshots):
    """The offer a seat gets (the first n entries of the actions region) names only its own
    cards (play) or declaration codes (declare). Past the offer lie earlier offers, which the
    contract forbids reading (builtin.py; the noise check above proves the built-ins do not):
    blanking them in the engine cost the two-player game ~18%."""
    for snap in snapshots:
        S, seat, n = snap.S, snap.seat, snap.n_actions
        row = seen_row(snap, S, seat)
        offer = S[st.O_ACTS:st.O_ACTS + n]
        if snap.decision == C.D_PLAY:
            assert all(row[c] in (C.V_MINE, C.V_MINE_SHOWN) for c in offer.tolist()), snap.case
        else:
            assert offer[-1] == C.A_STOP and (offer[:-1] >= 0).all(), snap.case


# --- search: its sampled deals and its play-outs ----------------------------------------------

def _pairs_ending(snap) -> bool:
    return bool(snap.stage == 2 and snap.params[C.PR_STAGE2_PAIRS] and snap.players == 4)


def test_sampled_deals_keep_everything_the_seat_knows(snapshots):
    """search.determinize deals the cards the seat has not seen again into the places it
    cannot see: the seat's own row and hand are untouched, each other hand keeps its size and
    its shown cards, the unseen cards are the same multiset, and every seat's knowledge row
    is consistent with where the cards now lie (the observation check of this module)."""
    from bezsim.engine.roles import recount_hands
    from bezsim.policies.deals import determinize, rules_of

    moved = 0
    for i, snap in enumerate(snapshots[::3]):
        S, seat = snap.S, snap.seat
        W = np.zeros_like(S)
        stream = np.array([i + 1, 7, 11, 13], np.uint64)
        ok = determinize(S, W, seat, rules_of(S), stream, np.zeros(st.N_MAX, np.int32),
                         np.zeros(C.MAX_HAND, np.int32))
        assert ok, snap.case
        assert np.array_equal(seen_row(snap, W, seat), seen_row(snap, S, seat))
        assert np.array_equal(hand(W, seat), hand(S, seat))
        unseen_before, unseen_after = [], []
        for p in range(snap.players):
            assert errors_free(observation_errors(snap, W, p)), (snap.case, p)
            if p == seat:
                continue
            assert len(hand(W, p)) == len(hand(S, p))
            row = seen_row(snap, S, seat)
            known = sorted(c for c in hand(S, p).tolist() if row[c] != C.V_UNSEEN)
            assert known == sorted(c for c in hand(W, p).tolist() if row[c] != C.V_UNSEEN)
            unseen_before += [c for c in hand(S, p).tolist() if row[c] == C.V_UNSEEN]
            unseen_after += [c for c in hand(W, p).tolist() if row[c] == C.V_UNSEEN]
        pos, n_cards = int(S[st.CTR_STOCK_POS]), snap.n_cards
        unseen_before += S[st.O_STOCK + pos:st.O_STOCK + n_cards].tolist()
        unseen_after += W[st.O_STOCK + pos:st.O_STOCK + n_cards].tolist()
        assert sorted(unseen_before) == sorted(unseen_after)
        moved += unseen_before != unseen_after
        counts = W.copy()
        recount_hands(snap.params, counts)
        used = int(S[st.O_N_COUNTS])       # the tail of each count row is never read
        for p in range(snap.players):
            at = st.O_HAND_CNT + p * st.CNT_WIDTH
            assert np.array_equal(counts[at:at + used], W[at:at + used]), (snap.case, p)
    assert moved > 0.5 * len(snapshots[::3])


def errors_free(errors: list[str]) -> bool:
    return not errors


def test_playouts_replay_the_real_hand(snapshots):
    """From any decision (a card, a declaration, a Polish seven, the partner's turn, a trick
    of the R4.2 pairs ending), resume.resume_after_decision with the real policies, random
    streams and the action the real policy took finishes the hand exactly as the real game
    did: the same points for every seat. Search's play-outs therefore play the real rules
    from wherever a seat decides."""
    from bezsim.engine.decisions import decide
    from bezsim.engine.resume import resume_after_decision
    from bezsim.engine_api.games import run_games
    from bezsim.rules import Rules

    cases = {name: (variant, options, policies, seed) for name, variant, options, policies,
             seed, _ in CASES}
    real = {}
    checked = {}
    for snap in snapshots:
        variant, options, policies, seed = cases[snap.case]
        if (snap.case, snap.game) not in real:
            real[snap.case, snap.game] = run_games(Rules.make(variant, options), list(policies),
                                                   seed, snap.game, 1, parallel=False)
        batch = real[snap.case, snap.game]
        specs = parse_policies(list(policies), snap.players)
        ids = np.array([POLICY_IDS[s] for s in specs], np.int64)
        pp = policy_params(specs)
        S, rng = snap.S.copy(), snap.rng.copy()
        idx = decide(S, rng, ids, pp, None, snap.decision, snap.seat, snap.n_actions)
        resume_after_decision(snap.params, S, rng, ids, pp, None, snap.seat,
                              np.int64(S[st.O_ACTS + idx]))   # the step engine's types
        h = int(S[st.O_SC + C.SC_HAND])
        points = batch.hand_seat[0, h, :, C.HS_POINTS]
        assert S[st.O_SC + C.SC_HAND_POINTS:st.O_SC + C.SC_HAND_POINTS
                 + snap.players].tolist() == points.tolist(), (snap.case, snap.game, h,
                                                               snap.decision, snap.stage)
        kind = ("pairs" if _pairs_ending(snap) else "declare" if snap.decision == C.D_DECLARE
                else "play")
        checked[kind] = checked.get(kind, 0) + 1
    assert checked["play"] > 300 and checked["declare"] > 150 and checked["pairs"] > 20, checked
