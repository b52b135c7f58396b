"""A fake engine for the io, runner and CLI tests (the numba engine is built separately).

The fake keeps the real contract: each game is a pure function of (seed, game index,
policies), output arrays have the documented shapes and dtypes, and rows past a game's
hand/event counts hold junk, so a test catches any reader that ignores the counts.
"""

from __future__ import annotations

import hashlib
import os
import re
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
# the step engine (bezsim play, the step API) and what plays on from a decision (search's
# slots, learned's recorder, the batched environment), which links the step engine's code.
# Before the workers start, the controller compiles the run engine in one process while
# another compiles the step engine; that second process goes on with search's slots while
# the workers run the tests. A worker about to compile a kernel of that family which is not
# cached yet waits for it instead of compiling it a second time (_wait_for_later_kernels),
# the tests that need it come last, and those that compile it in a subprocess wait for it.
# Any other kernel both workers need at once is compiled by one while the other waits.

EXTERNAL_MODULES = ("test_search.py", "test_user_policies.py")
WARM_RUN_ENGINE = """
from bezsim.engine_api.games import run_games, trace_one
from bezsim.rules import Rules
rules = Rules.make("ordinary")
run_games(rules, ["random"], 1, 0, 2)
trace_one(rules, ["random"], 1, 0)
"""
WARM_STEP_ENGINE = """
import sys
from pathlib import Path
ready = Path(sys.argv[1])
outcome = "failed"
try:
    from bezsim.rules import Rules
    from bezsim.step.step_game import StepGame
    game = StepGame(Rules.make("ordinary"), 1, policies=[None, "random"])
    game.step(0)
    game.history()
    import numpy as np
    from bezsim.rl import batched_env
    env = batched_env(num_envs=2, seed=1, threads=1)
    state = env.reset()
    env.step(np.array([np.flatnonzero(m)[0] for m in state["action_mask"]], np.int64))
    from bezsim.policies.search import search_function
    for kind in ("play", "evaluate", "record", "tree"):
        search_function(kind, "all")
    outcome = "ok"
finally:
    ready.write_text(outcome)
"""
# the modules whose kernels the second warm-up process compiles after the step engine
LATER_KERNELS = ("bezsim.engine.stepping", "bezsim.engine.resume", "bezsim.policies.search",
                 "bezsim.policies.learned.record", "bezsim.env_kernels.batch_step")
# test modules that need them (in the worker or in a bezsim subprocess): run last, and wait
LATER_MODULES = ("test_step.py", "test_play.py", "test_rl.py", "test_openspiel.py",
                 "test_batched.py", "test_evaluate.py", "test_review_cli.py",
                 "test_review_values.py", "test_record.py", "test_replay.py",
                 "test_hidden_information.py", "test_learned.py", "test_search.py",
                 "test_review_page.py", "test_record_fuzz.py", "test_compiling.py")
LATER_NAMES = ("rl_baseline", "05_review")   # tests elsewhere that need them (by name)
READY = "BEZSIM_SUITE_KERNELS_READY"   # the file the second warm-up writes when it is done
WAIT_LOG = "BEZSIM_SUITE_WAIT_LOG"     # optional: where workers note what they waited for
COMPILE_LOG = "BEZSIM_SUITE_COMPILE_LOG"   # optional: where workers note what they compiled


def _xdist_controller(config) -> bool:
    return (not hasattr(config, "workerinput")
            and (getattr(config.option, "numprocesses", None) or 0) > 0)


def _later_kernels_ready(timeout: float = 1800.0) -> None:
    """Wait until the second warm-up process is done (or gave up): its kernels then load."""
    import time

    ready = os.environ.get(READY)
    if not ready:
        return
    began = time.perf_counter()
    while not os.path.exists(ready) and time.perf_counter() - began < timeout:
        time.sleep(0.2)
    log = os.environ.get(WAIT_LOG)
    if log and time.perf_counter() - began > 0.5:
        with open(log, "a") as out:
            out.write(f"{time.perf_counter() - began:7.1f} s "
                      f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}\n")


def _wait_for_later_kernels() -> None:
    """In a worker: a kernel of LATER_KERNELS that is neither compiled here nor cached waits
    for the warm-up process that compiles it, then loads it (numba's Dispatcher.compile
    looks in the cache first). Anything else compiles as usual, once: a worker about to
    compile a kernel (function and argument types) that the other worker is compiling waits
    for it and loads it from the cache (_compile_lock)."""
    from numba.core import dispatcher, sigutils

    compile_now = dispatcher.Dispatcher.compile
    held: set[str] = set()
    locks = os.path.join(os.path.dirname(os.environ[READY]), "compiling")
    os.makedirs(locks, exist_ok=True)

    def cached(self, sig) -> bool:
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads:
            return True
        try:
            key = self._cache._index_key(sig, self.targetctx.codegen())
            return key in self._cache._cache_file._load_index()
        except Exception:       # numba's inside moved on: compile as usual
            return True

    def compile_or_wait(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads:
            return compile_now(self, sig)
        if (not os.path.exists(os.environ[READY])
                and getattr(self.py_func, "__module__", "") in LATER_KERNELS
                and not cached(self, sig)):
            _later_kernels_ready()
        name = re.sub(r" at 0x[0-9a-f]+", "", f"{self.py_func.__module__}."
                      f"{self.py_func.__qualname__}{args}")
        key = hashlib.sha1(name.encode()).hexdigest()
        if key in held:
            return compile_now(self, sig)
        with open(os.path.join(locks, key), "w") as lock:
            if not _compile_lock(lock):
                return compile_now(self, sig)
            held.add(key)
            try:
                return compile_now(self, sig)
            finally:
                held.discard(key)

    dispatcher.Dispatcher.compile = compile_or_wait


def _compile_lock(lock, timeout: float = 120.0) -> bool:
    """Hold ``lock`` (a file) once no other worker does; False after ``timeout`` seconds (a
    worker that holds it while waiting for the warm-up never blocks the other for long)."""
    import fcntl
    import time

    began = time.perf_counter()
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.perf_counter() - began > timeout:
                return False
            time.sleep(0.05)


def pytest_configure(config) -> None:
    if _xdist_controller(config):
        import subprocess
        import tempfile

        # work goes to the workers in the order of _when (xdist would put the largest groups
        # first, and they wait for the second warm-up)
        config.option.loadscopereorder = False

        ready = os.path.join(tempfile.mkdtemp(prefix="bezsim-warm-"), "ready")
        os.environ[READY] = ready          # the workers, started after this, inherit it
        config._bezsim_step_warmup = subprocess.Popen(
            [sys.executable, "-c", WARM_STEP_ENGINE, ready])
        subprocess.run([sys.executable, "-c", WARM_RUN_ENGINE], check=False)
    elif hasattr(config, "workerinput") and os.environ.get(READY):
        _wait_for_later_kernels()
    if os.environ.get(COMPILE_LOG):
        _log_compiles(os.environ[COMPILE_LOG])


def _log_compiles(path: str) -> None:
    """Note each outermost compile, its seconds and the test that asked for it (a tool for
    finding what a cold suite compiles where: BEZSIM_SUITE_COMPILE_LOG=FILE)."""
    import time

    from numba.core import event

    class Logger(event.Listener):
        depth, began = 0, 0.0

        def on_start(self, ev) -> None:
            self.depth += 1
            if self.depth == 1:
                self.began = time.perf_counter()
                self.name = getattr(ev.data["dispatcher"], "__qualname__", "?")

        def on_end(self, ev) -> None:
            self.depth -= 1
            if self.depth == 0:
                with open(path, "a") as out:
                    out.write(f"{time.perf_counter() - self.began:7.1f} s {self.name} "
                              f"{os.environ.get('PYTEST_CURRENT_TEST', 'warm-up')}\n")

    event.register("numba:compile", Logger())


def pytest_unconfigure(config) -> None:
    warming = getattr(config, "_bezsim_step_warmup", None)
    if warming is not None:
        warming.wait()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Search and user plug-ins share one worker; the tests that need the second warm-up's
    kernels come last (see above). First: xdist names each test by its group in a hook of
    its own, which must see these marks."""
    for item in items:
        if item.path.name in EXTERNAL_MODULES or "search" in item.name:
            item.add_marker(pytest.mark.xdist_group("external"))
    items.sort(key=_when)


LATER_GROUPS = ("external", "batched", "learned")   # groups with tests that need LATER_KERNELS


def _when(item) -> int:
    """Where a test goes in the order the workers take them: first what the run engine
    serves, then the groups that need the second warm-up's kernels (the largest first, so
    that the other worker has the single tests to run beside it), then those single tests."""
    marks = [m.args[0] for m in item.iter_markers("xdist_group") if m.args]
    for rank, group in enumerate(LATER_GROUPS):
        if group in marks:
            return 1 + rank
    later = item.path.name in LATER_MODULES or any(n in item.name for n in LATER_NAMES)
    return 1 + len(LATER_GROUPS) if later else 0


@pytest.fixture(autouse=True)
def _later_kernels(request) -> None:
    if _when(request.node) > 0:
        _later_kernels_ready()


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
