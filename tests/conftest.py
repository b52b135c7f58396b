"""A fake engine for the io, runner and CLI tests (the numba engine is built separately).

The fake keeps the real contract: each game is a pure function of (seed, game index,
policies), output arrays have the documented shapes and dtypes, and rows past a game's
hand/event counts hold junk, so a test catches any reader that ignores the counts.
"""

from __future__ import annotations

import os
import sys
import types

# one engine for every variant and policy: the suite plays them all, so it compiles the run
# engine once (tests/test_compile_shapes.py checks the pruned engines play the same games)
os.environ.setdefault("BEZSIM_COMPILE_ALL", "1")

import numpy as np  # noqa: E402
import pytest
from read_only_helpers import read_only_copy, read_only_dir  # noqa: F401  (fixtures)

from bezsim.engine import constants as C
from bezsim.engine_api import games as api
from bezsim.errors import BezsimError

PLAYERS = 2
HAND_CAP = 5
EVENT_CAP = 24
JUNK = 7777


def pack_event(hand: int, trick: int, seat: int, kind: int, status: int, extra: int,
               points: int) -> int:
    """Inverse of api.unpack_events."""
    return (hand | trick << 8 | seat << 16 | kind << 20 | status << 28 | extra << 32
            | points << 40)


def _fake_game(seed: int, game: int, policies: list[str], target: int):
    rng = np.random.default_rng([seed, game, sum(map(len, policies))])
    hand_seat = np.full((HAND_CAP, PLAYERS, C.HS_SIZE), JUNK, dtype=np.int32)
    hand_info = np.full((HAND_CAP, C.HI_SIZE), JUNK, dtype=np.int32)
    info = np.zeros(C.GI_SIZE, dtype=np.int64)
    events: list[int] = []
    first_dealer = int(rng.integers(PLAYERS))
    n_hands = int(rng.integers(1, 4))
    scores = np.zeros(PLAYERS, dtype=np.int64)
    for h in range(n_hands):
        pts = np.zeros((PLAYERS, C.N_KINDS), dtype=np.int64)
        trump = int(rng.integers(4))
        for _ in range(int(rng.integers(0, 4))):
            seat = int(rng.integers(PLAYERS))
            kind = int(rng.choice([C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE, C.K_BEZIQUE,
                                   C.K_FOUR_KINGS]))
            extra = {C.K_COMMON_MARRIAGE: int(rng.integers(1, 5)),
                     C.K_ROYAL_MARRIAGE: trump + 1}.get(kind, 0)
            status = int(rng.choice([C.EV_SCORED, C.EV_SCORED, C.EV_SCORED_PENDING, C.EV_LOST]))
            points = 0 if status == C.EV_LOST else C.ORDINARY_POINTS[kind]
            events.append(pack_event(h, int(rng.integers(1, 17)), seat, kind, status, extra,
                                     points))
            pts[seat, kind] += points
        last = int(rng.integers(PLAYERS))
        events.append(pack_event(h, 16, last, C.K_LAST_TRICK, C.EV_SCORED, 0, 10))
        pts[last, C.K_LAST_TRICK] += 10
        brisques0 = 10 * int(rng.integers(0, 17))
        for seat, value in enumerate((brisques0, 160 - brisques0)):
            events.append(pack_event(h, 17, seat, C.K_BRISQUES, C.EV_SCORED, 0, value))
            pts[seat, C.K_BRISQUES] += value
        tricks0 = int(rng.integers(0, 17))
        for seat in range(PLAYERS):
            scores[seat] += pts[seat].sum()
            row = hand_seat[h, seat]
            row[C.HS_POINTS] = pts[seat].sum()
            row[C.HS_SCORE_AFTER] = scores[seat]
            row[C.HS_TRICKS_WON] = tricks0 if seat == 0 else 16 - tricks0
            row[C.HS_KIND:] = pts[seat]
        hand_info[h] = [(first_dealer + h) % PLAYERS, trump, int(rng.integers(-1, 64)), 0, last,
                        C.TRICK_DEAL]
    packed = np.full(EVENT_CAP, JUNK, dtype=np.int64)
    packed[:len(events)] = events
    winner = int(np.argmax(scores))
    double = int(scores.min() < target // 2)
    info[[C.GI_HANDS, C.GI_FIRST_DEALER, C.GI_WINNER, C.GI_DOUBLE, C.GI_STAKE,
          C.GI_N_EVENTS]] = [n_hands, first_dealer, winner, double, 1 + double, len(events)]
    info[C.GI_SCORE:C.GI_SCORE + PLAYERS] = scores
    return hand_seat, hand_info, info, packed


class FakeEngine:
    """Stands in for ``api.run_games``; records calls and can fail on request."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.interrupt_on_call: int | None = None   # 0-based call number raising Ctrl-C
        self.overflow_games: set[int] = set()
        self.on_call = None                         # hook(call dict) run before computing

    def batch(self, rules, policies, seed, game_start, n_games) -> api.GameBatch:
        target = rules.options["target"] if rules is not None else 1000
        games = [_fake_game(seed, g, list(policies), target)
                 for g in range(game_start, game_start + n_games)]
        hand_seat, hand_info, info, events = (np.stack(parts) if games else None
                                              for parts in zip(*games, strict=True))
        for g in self.overflow_games:
            if game_start <= g < game_start + n_games:
                info[g - game_start, C.GI_OVERFLOW] = 1
        return api.GameBatch(game_start, PLAYERS, hand_seat, hand_info, info, events)

    def load_kernels(self, rules, policies, compile_with=()) -> api.GameBatch:
        """Nothing to compile: an empty batch, as the engine's, not recorded as a call."""
        players = len(policies)
        return api.GameBatch(0, players, np.zeros((0, 1, players, C.HS_SIZE), np.int32),
                             np.zeros((0, 1, C.HI_SIZE), np.int32),
                             np.zeros((0, C.GI_SIZE), np.int64), np.zeros((0, 1), np.int64))

    def __call__(self, rules, policies, seed, game_start, n_games, threads=None):
        call = {"seed": seed, "game_start": game_start, "n_games": n_games,
                "threads": threads, "policies": list(policies), "rules": rules}
        self.calls.append(call)
        if self.on_call is not None:
            self.on_call(call)
        if self.interrupt_on_call == len(self.calls) - 1:
            raise KeyboardInterrupt
        return self.batch(rules, policies, seed, game_start, n_games)


def _fake_registry() -> types.ModuleType:
    module = types.ModuleType("bezsim.policy_specs.registry")
    module.POLICY_NAMES = ("random", "greedy")

    def parse_policies(text: str, players: int, overrides=()) -> list[str]:
        items = text.split(",") if isinstance(text, str) else list(text)
        names = [name.strip() for name in items]
        for name in names:
            if name not in module.POLICY_NAMES:
                raise BezsimError(f"unknown policy {name!r} (policies: random, greedy)")
        if len(names) == 1:
            names *= players
        if len(names) != players:
            raise BezsimError(f"{players} seats need {players} policies, got {len(names)}")
        return names

    class PolicySpec(str):
        """A name the fake registry knows."""

    def spec_of(text: str) -> PolicySpec:
        parse_policies(text, 1)
        return PolicySpec(text.strip())

    module.PolicySpec = PolicySpec
    module.spec_of = spec_of
    module.split_specs = lambda text, keep_empty=False: [
        part.strip() for part in text.split(",") if keep_empty or part.strip()]
    module.parse_policies = parse_policies
    module.parse_spec = lambda spec: (types.SimpleNamespace(name=spec, function=None), {})
    module.policy_functions = lambda specs, variant=None, compile_with=(): None  # none
    module.set_flags = lambda specs, variant=None, compile_with=(): {}   # everything in
    module.variant_shape = lambda variant: "all"
    module.resolved_values = lambda specs, variant: {}   # no by-variant policy in the fake
    return module


def _fake_policy_set(registry: types.ModuleType) -> types.ModuleType:
    """Policies "resolved" by the fake registry: the fake engine takes the names as they are."""
    module = types.ModuleType("bezsim.policy_specs.policy_set")
    module.PolicySet = tuple
    module.resolve_policies = lambda policies, rules, compile_with=(): registry.parse_policies(
        policies if isinstance(policies, str) else list(policies), rules.players)
    return module


# --- running the suite on several workers (README: pytest -n 2 --dist loadgroup) ----------
# Most of a cold run is compiling: the run engine (one for every policy and variant, above),
# the step engine (bezsim play, the step API) and search's slots. The controller compiles the
# run engine and search's play-out slot in one process and the step engine in another (about
# as long), into numba's on-disk cache, before the workers start; the search/plug-in tests
# form one xdist group, so one worker compiles search's other slots while the other runs
# everything else.

EXTERNAL_MODULES = ("test_search.py", "test_user_policies.py")
WARM_RUN_ENGINE = """
from bezsim.engine_api.games import run_games, trace_one
from bezsim.rules import Rules
rules = Rules.make("ordinary")
run_games(rules, ["random"], 1, 0, 2)
trace_one(rules, ["random"], 1, 0)
from bezsim.policies.search import search_function
search_function("play", "all")
"""
WARM_STEP_ENGINE = """
from bezsim.rules import Rules
from bezsim.step.step_game import StepGame
game = StepGame(Rules.make("ordinary"), 1, policies=[None, "random"])
game.step(0)
game.history()
"""


def _xdist_controller(config) -> bool:
    return (not hasattr(config, "workerinput")
            and (getattr(config.option, "numprocesses", None) or 0) > 0)


def pytest_configure(config) -> None:
    if _xdist_controller(config):
        import subprocess

        warming = [subprocess.Popen([sys.executable, "-c", script])
                   for script in (WARM_RUN_ENGINE, WARM_STEP_ENGINE)]
        for process in warming:
            process.wait()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Search and user plug-ins share one worker (see above). First: xdist names each test
    by its group in a hook of its own, which must see these marks."""
    for item in items:
        if item.path.name in EXTERNAL_MODULES or "search" in item.name:
            item.add_marker(pytest.mark.xdist_group("external"))


@pytest.fixture
def fake_engine(monkeypatch) -> FakeEngine:
    engine = FakeEngine()
    monkeypatch.setattr(api, "run_games", engine, raising=False)
    monkeypatch.setattr(api, "load_kernels", engine.load_kernels, raising=False)
    registry = _fake_registry()
    monkeypatch.setitem(sys.modules, "bezsim.policy_specs.registry", registry)
    monkeypatch.setitem(sys.modules, "bezsim.policy_specs.policy_set", _fake_policy_set(registry))
    return engine


@pytest.fixture
def rules():
    from bezsim.rules import Rules

    return Rules.make("ordinary")
