"""Python face of the engine: validated calls into the compiled kernels.

The kernels live in ``bezsim.engine.game_loop`` (numba); this module owns argument checking and
the ``GameBatch`` result type that the io layer turns into tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bezsim.engine import constants as C
from bezsim.errors import BezsimError

if TYPE_CHECKING:
    from bezsim.policy_specs.policy_set import PolicySet


@dataclass
class GameBatch:
    """Outcome arrays of games ``game_start .. game_start + n_games - 1``.

    hand_seat  int32 [n, hand_cap, players, HS_SIZE]  points by source per hand and seat
    hand_info  int32 [n, hand_cap, HI_SIZE]           dealer, trump, turn-up ... per hand
    game_info  int64 [n, GI_SIZE]                     hands played, winner, scores ...
    events     int64 [n, event_cap]                   packed scoring events (unpack_events)
    Only the first ``game_info[g, GI_HANDS]`` hands and ``game_info[g, GI_N_EVENTS]`` events
    of game g are meaningful.
    """

    game_start: int
    players: int
    hand_seat: np.ndarray
    hand_info: np.ndarray
    game_info: np.ndarray
    events: np.ndarray
    partners: bool = False      # R4.2: seats t and t + 2 form team t; winner is a team
    kinds: int = C.N_BASE_KINDS  # scoring kinds its tables show (six-pack: N_KINDS, R7)

    @property
    def n_games(self) -> int:
        return int(self.game_info.shape[0])

    def teams(self) -> np.ndarray:
        """Each seat's team: seat % 2 with partners, else the seat itself."""
        seats = np.arange(self.players)
        return seats % 2 if self.partners else seats


def table_kinds(rules) -> int:
    """How many scoring kinds a run's tables show: the fours in trumps only where they score
    (six-pack, R7), so the other presets' tables keep their columns."""
    return len(rules.definition.kinds)


def unpack_events(packed: np.ndarray) -> dict[str, np.ndarray]:
    """Split packed int64 events into named columns (layout: engine.events.pack_event)."""
    p = packed.astype(np.int64)
    return {
        "hand": (p & 0xFF).astype(np.int16),
        "trick": ((p >> 8) & 0xFF).astype(np.int16),
        "seat": ((p >> 16) & 0xF).astype(np.int8),
        "kind": ((p >> 20) & 0xFF).astype(np.int8),
        "status": ((p >> 28) & 0xF).astype(np.int8),
        "extra": ((p >> 32) & 0xFF).astype(np.int16),
        "points": ((p >> 40) & 0xFFFFFF).astype(np.int32),
    }


__all__ = ["GameBatch", "unpack_events", "C"]


# Work items per thread of a parallel call: games differ in length (hands until the target),
# so a thread that drew short blocks takes more of them
BLOCKS_PER_THREAD = 8
EVENTS_PER_HAND = 16   # starting room; games that need more are rerun alone with more
MAX_GAME_ID = 2**63 - 1   # game indices are int64 in the kernels and the tables
NO_TRACE = np.zeros((0, C.TR_SIZE), np.int32)   # run_serial's trace argument: no steps kept

# Most hands and events one game of a rules table has needed so far in this process. The
# rule bound on hands (Rules.hand_cap) is far above what games take (Polish: 26, never more
# than 7 seen in 100,000 games), and rows allocated but never written still cost the kernel
# first-touch page faults (10-25% of a Polish batch) and memory. So after the first batch,
# rows are sized from what games needed, with room to spare; a longer game is rerun alone
# with wider rows (the rerun is the same game, so no result depends on the sizing).
_SEEN: dict[bytes, tuple[int, int]] = {}


def _capacities(params: np.ndarray, hand_cap: int) -> tuple[int, int]:
    """(hand rows, event rows) to allocate per game."""
    seen = _SEEN.get(params.tobytes())
    if seen is None:
        return hand_cap, EVENTS_PER_HAND * hand_cap
    hands, events = seen
    return min(hand_cap, hands + 2 + hands // 4), events + 16 + events // 4


def _remember(params: np.ndarray, gi: np.ndarray) -> None:
    if gi.shape[0] == 0:
        return
    key = params.tobytes()
    hands, events = _SEEN.get(key, (0, 0))
    _SEEN[key] = (max(hands, int(gi[:, C.GI_HANDS].max())),
                  max(events, int(gi[:, C.GI_N_EVENTS].max())))


def _resolved(policies: PolicySet | Sequence[str] | str, rules,
              compile_with: Sequence[str] = ()) -> PolicySet:
    """The policies as the kernels read them, resolved here only when a caller passed text
    (a driver playing many calls resolves them once, bezsim.policy_specs.policy_set)."""
    from bezsim.policy_specs.policy_set import resolve_policies

    return resolve_policies(policies, rules, compile_with)


def _alloc(n: int, hand_cap: int, players: int, event_cap: int):
    try:
        return (np.zeros((n, hand_cap, players, C.HS_SIZE), np.int32),
                np.zeros((n, hand_cap, C.HI_SIZE), np.int32),
                np.zeros((n, C.GI_SIZE), np.int64),
                np.zeros((n, event_cap), np.int64))
    except (MemoryError, ValueError):       # ValueError: larger than numpy can address
        raise BezsimError(f"not enough memory for the outcome arrays of {n:,} games; play "
                          "fewer per call (run_simulation plays a run in shards)") from None


def _whole(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_threads(threads: int) -> int:
    import numba

    if not _whole(threads):
        raise BezsimError(f"threads must be a whole number, got {threads!r}")
    most = numba.config.NUMBA_NUM_THREADS
    if not 1 <= int(threads) <= most:
        raise BezsimError(f"threads must be between 1 and {most} (the cores numba may use "
                          f"here), got {threads}")
    return int(threads)


def _check_rules(rules) -> None:
    from bezsim.rules import Rules, RulesError

    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a bezsim.rules.Rules (Rules.make(variant, options)), "
                         f"got {rules!r}")


def _check_range(seed: int, game_start: int, n_games: int) -> None:
    """Whole numbers only: a float seed or game index would be truncated into another run."""
    if not _whole(seed) or not 0 <= int(seed) < 2**64:
        raise BezsimError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    if not _whole(game_start) or game_start < 0:
        raise BezsimError(f"game index must be a whole number >= 0, got {game_start!r}")
    if not _whole(n_games) or n_games < 0:
        raise BezsimError(f"number of games must be a whole number >= 0, got {n_games!r}")
    if int(game_start) + int(n_games) - 1 > MAX_GAME_ID:
        raise BezsimError(f"game indices must stay below 2**63, got games {game_start} to "
                          f"{int(game_start) + int(n_games) - 1}")


def load_kernels(rules, policies: PolicySet | Sequence[str] | str,
                 compile_with: Sequence[str] = ()) -> GameBatch:
    """Compile, or load from the on-disk cache, the kernel ``run_games`` calls for these
    policies, so a caller can time the compile apart from the games. Returns a batch for
    warming the writer's kernels the same way: two throwaway games (games 0 and 1 of seed
    0) when every seat plays a built-in, whose rows are cut like a real batch's and so have
    its array layouts (the arrays of an empty batch, or of one game, are contiguous, a real
    batch's are not, and the writer compiled a second time for them); the empty batch when
    a seat is a plug-in or search, whose games only the checked path may play. The
    throwaway games leave the row sizing of later calls as it was. ``compile_with``:
    resolve_policies."""
    from bezsim.engine_api.compile_aside import compile_run_beside_slots
    from bezsim.policy_specs.policy_set import PolicySet
    from bezsim.policy_specs.registry import spec_of

    _check_rules(rules)
    if not isinstance(policies, PolicySet):       # search's slots not compiled yet
        compile_run_beside_slots(rules, policies,
                                 lambda placeholder: run_games(rules, placeholder, 0, 0, 0),
                                 compile_with)
    policies = _resolved(policies, rules, compile_with)
    empty = run_games(rules, policies, 0, 0, 0)
    if any(spec_of(spec).info.function is not None for spec in policies.specs):
        return empty
    key = rules.params().tobytes()
    seen = _SEEN.get(key)
    try:
        return run_games(rules, policies, 0, 0, 2)
    finally:
        if seen is None:
            _SEEN.pop(key, None)
        else:
            _SEEN[key] = seen


def _run_threads(threads: int, args: tuple, game_start: int, hs: np.ndarray, hi: np.ndarray,
                 gi: np.ndarray, ev: np.ndarray) -> None:
    """Games on ``threads`` threads: consecutive blocks, each played by the serial kernel
    (which releases the GIL) into its own rows, so no result depends on the thread count.
    Python threads rather than numba's ``prange``: the parallel kernel took 12 s of a cold
    start to compile, and plays no faster."""
    from bezsim.engine.game_loop import run_serial

    n = gi.shape[0]
    if threads <= 1 or n <= 1:
        run_serial(*args, game_start, hs, hi, gi, ev, NO_TRACE)
        return
    blocks = min(n, threads * BLOCKS_PER_THREAD)
    bounds = [b * n // blocks for b in range(blocks + 1)]

    def block(b: int) -> None:
        lo, up = bounds[b], bounds[b + 1]
        run_serial(*args, game_start + lo, hs[lo:up], hi[lo:up], gi[lo:up], ev[lo:up],
                   NO_TRACE)

    with ThreadPoolExecutor(threads) as pool:
        for _ in pool.map(block, range(blocks)):   # re-raises a block's error here
            pass


def run_games(rules, policies: PolicySet | Sequence[str] | str, seed: int, game_start: int,
              n_games: int, threads: int | None = None, parallel: bool = True) -> GameBatch:
    """Play games ``game_start .. game_start + n_games - 1`` and return their outcome arrays.
    ``policies``: a PolicySet, or specs (one per seat, or one for all) resolved here."""
    import numba

    from bezsim.engine.game_loop import run_serial

    _check_rules(rules)
    _check_range(seed, game_start, n_games)
    game_start, n_games = int(game_start), int(n_games)
    params = rules.params()
    players = rules.players
    hand_cap = int(params[C.PR_HAND_CAP])
    policy_set = _resolved(policies, rules)
    specs, pol_ids, pol_params, fns = (list(policy_set.specs), policy_set.ids,
                                       policy_set.params, policy_set.functions)
    hands, events = _capacities(params, hand_cap)
    hs, hi, gi, ev = _alloc(n_games, hands, players, events)
    seed_u = np.uint64(seed)
    args = (params, pol_ids, pol_params, fns, seed_u)
    if parallel:
        n_threads = numba.get_num_threads() if threads is None else check_threads(threads)
        _run_threads(n_threads, args, game_start, hs, hi, gi, ev)
    else:
        run_serial(*args, game_start, hs, hi, gi, ev, NO_TRACE)
    _check_policy_errors(gi, specs, game_start)
    for _ in range(3):          # events are counted past the rows; hands stop at them
        wide = np.nonzero(gi[:, C.GI_OVERFLOW] == 1)[0]
        if not wide.size:
            break
        if int(gi[wide, C.GI_HANDS].max()) >= hs.shape[1] and hs.shape[1] < hand_cap:
            hs, hi = _wider(hs, 1, hand_cap), _wider(hi, 1, hand_cap)
        ev = _wider(ev, 1, max(int(gi[wide, C.GI_N_EVENTS].max()), ev.shape[1]))
        for i in wide:
            one = slice(int(i), int(i) + 1)
            run_serial(*args, game_start + int(i), hs[one], hi[one], gi[one], ev[one], NO_TRACE)
    if np.any(gi[:, C.GI_OVERFLOW] == 1):
        raise RuntimeError("a game overflowed its output rows even when rerun alone")
    _remember(params, gi)
    # rows cut to what these games used (views, no copy): the arrays' shapes then depend on
    # the games alone, not on how much room this call happened to allocate
    hands = max(1, int(gi[:, C.GI_HANDS].max())) if n_games else hs.shape[1]
    events = max(1, int(gi[:, C.GI_N_EVENTS].max())) if n_games else ev.shape[1]
    return GameBatch(game_start, players, hs[:, :hands], hi[:, :hands], gi, ev[:, :events],
                     rules.partners, table_kinds(rules))


def _wider(a: np.ndarray, axis: int, size: int) -> np.ndarray:
    """``a`` zero-padded along ``axis`` to ``size``."""
    if a.shape[axis] >= size:
        return a
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, size - a.shape[axis])
    return np.pad(a, pad)


class PolicyFault(BezsimError, RuntimeError):
    """A policy returned an index outside the offered actions."""


def _check_policy_errors(gi: np.ndarray, policies: list[str], game_start: int) -> None:
    bad = np.nonzero(gi[:, C.GI_OVERFLOW] == 2)[0]
    if bad.size:
        raise PolicyFault(f"a policy ({', '.join(policies)}) chose an action outside the ones "
                          f"offered in game {game_start + int(bad[0])}")


def trace_one(rules, policies: PolicySet | Sequence[str] | str, seed: int, game: int):
    """Play one game with its full trace: (GameBatch of that game, trace rows)."""
    from bezsim.engine.game_loop import run_serial

    _check_rules(rules)
    _check_range(seed, game, 1)
    game = int(game)
    params = rules.params()
    players = rules.players
    hand_cap = int(params[C.PR_HAND_CAP])
    policy_set = _resolved(policies, rules)
    specs, pol_ids, pol_params, fns = (list(policy_set.specs), policy_set.ids,
                                       policy_set.params, policy_set.functions)
    cap = 4096
    while True:
        hs, hi, gi, ev = _alloc(1, hand_cap, players, cap // 8)
        trace = np.zeros((cap, C.TR_SIZE), np.int32)
        used = run_serial(params, pol_ids, pol_params, fns, np.uint64(seed), game, hs, hi, gi,
                          ev, trace)
        if gi[0, C.GI_OVERFLOW] != 1:      # the trace and events fitted: the game is whole
            break
        if cap > 2**22:
            raise RuntimeError(f"game {game} does not fit in a trace of {cap} rows")
        cap *= 4
    _check_policy_errors(gi, specs, game)
    return (GameBatch(game, players, hs, hi, gi, ev, rules.partners, table_kinds(rules)),
            trace[:used])
