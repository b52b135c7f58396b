"""The compile line: said when kernels compile, never when they load from the cache; the
run's rate leaves the compile out. Tested on small kernels of the tests' own, so that the
suite compiles the engine no more often than it already does."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numba
import pytest
from click.testing import CliRunner

from bezsim import cli
from bezsim.compile_cache import COMPILE_ALL, compile_all
from bezsim.engine_api import compiling
from bezsim.engine_api import games as api
from bezsim.engine_api.compiling import (
    REFERENCE_CALIBRATION,
    WHAT,
    announce_compiles,
    compile_estimate,
    compile_message,
    kernel_set,
)
from bezsim.running import simulation as runner

HERE = {"calibration": REFERENCE_CALIBRATION, "measured": {}}   # the reference machine
R = compiling.REFERENCE_SECONDS


def test_the_line_is_said_once_when_a_kernel_compiles_and_the_time_is_counted():
    said = []

    @numba.njit
    def inner(x):
        return x + 1

    @numba.njit
    def outer(x):
        return inner(x) * 2

    with announce_compiles(said.append, lambda: "compiling…") as clock:
        assert outer(3) == 8            # two kernels, nested: one line, one interval
        assert outer(4) == 10           # already compiled: nothing more
    assert said == ["compiling…"]
    assert clock.compiled and 0 < clock.seconds < 60


def test_a_block_inside_a_commands_block_keeps_time_but_says_nothing():
    said = []

    @numba.njit
    def first(x):
        return x + 5

    @numba.njit
    def second(x):
        return x * 5

    with announce_compiles(said.append, lambda: "the command's line") as outer:
        with announce_compiles(said.append, lambda: "the runner's line") as inner:
            assert first(1) == 6
        assert second(2) == 10
    assert said == ["the command's line"]
    assert 0 < inner.seconds < outer.seconds
    with announce_compiles(said.append, lambda: "alone again") as alone:
        assert numba.njit(lambda x: x - 5)(6) == 1
    assert said[-1] == "alone again" and alone.compiled


def test_nothing_is_said_when_nothing_compiles():
    said = []

    @numba.njit
    def twice(x):
        return 2 * x

    twice(1)
    with announce_compiles(said.append, lambda: "compiling…") as clock:
        assert twice(5) == 10
    assert said == [] and clock.seconds == 0 and not clock.compiled


CACHED_KERNEL = textwrap.dedent("""
    import numba, sys
    from bezsim.engine_api.compiling import announce_compiles

    @numba.njit(cache=True)
    def kernel(x):
        return x * 3 + 1

    with announce_compiles(lambda line: print(line), lambda: "compiling the kernel") as clock:
        assert kernel(2) == 7
    print("compiled" if clock.compiled else "loaded")
""")


def test_a_kernel_loaded_from_the_on_disk_cache_says_nothing(tmp_path):
    script = tmp_path / "cached_kernel.py"
    script.write_text(CACHED_KERNEL)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           env={**_environ(), **env}, check=True).stdout.split()
            for _ in range(2)]
    assert " ".join(runs[0]) == "compiling the kernel compiled"
    assert runs[1] == ["loaded"]


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_the_run_says_it_compiles_and_its_rate_leaves_the_compile_out(tmp_path, fake_engine,
                                                                      rules, capsys,
                                                                      monkeypatch, pruned):
    @numba.njit
    def fresh(x):
        return x - 1

    def compiling_load(rules, policies, compile_with=()):   # the engine's load, compiling
        assert fresh(1) == 0
        return fake_engine.load_kernels(rules, policies)

    monkeypatch.setattr(api, "load_kernels", compiling_load)
    monkeypatch.setattr(compiling, "entry_cached", lambda *key: False)  # cold
    summary = runner.run_simulation(rules, ["random", "greedy"], 3, 20, tmp_path / "a",
                                    progress=True)
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert first.startswith("compiling the engine for this machine (once, about ")
    assert first.endswith(" s here)…")
    assert 0 < summary.compile_seconds < summary.elapsed
    assert summary.hands_per_second == pytest.approx(
        summary.hands / (summary.elapsed - summary.compile_seconds))

    quiet = runner.run_simulation(rules, ["random", "greedy"], 3, 20, tmp_path / "b",
                                  progress=True)
    assert "compiling" not in capsys.readouterr().err
    assert quiet.compile_seconds == 0


def test_a_cached_engine_says_nothing_on_the_command_line(tmp_path):
    # the suite's first step compiled the plain kernels (conftest): they load from the cache
    result = CliRunner().invoke(cli.cli, ["simulate", "--games", "3", "--seed", "2", "--out",
                                          str(tmp_path / "run")], prog_name="bezsim")
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.stderr
    assert "engine: compiled" not in result.stdout


@pytest.mark.parametrize("policies,kernels,about", [
    (["random", "greedy"], "plain", R["plain"]),
    (["heuristic", "expert"], "expert", R["expert"]),
    (["expert(settle=3)", "random"], "expert", R["expert"]),
    (["learned", "expert"], "learned", R["learned"]),
    (["search", "heuristic"], "external", R["external"]),
])
def test_the_estimate_follows_the_kernels_a_run_needs(policies, kernels, about, pruned):
    assert kernel_set(policies) == kernels
    cold = compile_message([("run", policies)], lambda *key: False, **HERE)
    assert cold == f"compiling {WHAT[kernels]} for this machine (once, about {about} s here)…"


@pytest.fixture
def pruned(monkeypatch):
    """Each command's own engines (the suite otherwise compiles one with everything in,
    conftest.py): the estimates by engine."""
    monkeypatch.delenv(COMPILE_ALL, raising=False)


def _cache_holding(*held: tuple[str, str]):
    return lambda entry, run_set, flags=None: (entry, run_set) in held


def test_what_the_cache_holds_counts_nothing(pruned):
    expert = [("run", ["expert", "expert"])]
    # the engine with expert compiled for another variant: a Rubicon run compiles only
    # small kernels (the writer's for its tables, a game rerun with wider rows)
    assert compile_message(expert, _cache_holding(("run", "expert")), **HERE) == (
        "compiling a small part of the engine for this machine (once, a few seconds)…")
    assert compile_estimate(expert, _cache_holding(("run", "plain")), **HERE) == R["expert"]
    # a tournament of three policies needs the plain and the expert kernels, each once
    pairs = [("run", ["random", "greedy"]), ("run", ["random", "expert"]),
             ("run", ["greedy", "expert"])]
    names = ["random", "greedy", "expert"]
    assert compile_estimate(pairs, _cache_holding(), **HERE, compile_with=names) == (
        R["plain"] + R["expert"])
    assert compile_estimate(pairs, _cache_holding(("run", "plain")), **HERE,
                            compile_with=names) == R["expert"]
    assert compile_message(pairs, _cache_holding(), **HERE, compile_with=names) == (
        f"compiling {WHAT['plain']}; {WHAT['expert']} for this machine (once, about "
        f"{R['plain'] + R['expert']} s here)…")


def test_the_step_and_position_kernels_are_estimated_apart_from_the_run():
    assert compile_estimate([("step", ()), ("position", ())], _cache_holding(),
                            **HERE) == R["step"] + R["position"]
    assert compile_estimate([("step", ())], _cache_holding(("step", "")), **HERE) == 0


def test_the_estimate_is_this_machines_measurement(pruned):
    """A machine that compiles the calibration kernel twice as slowly is told twice the
    wait; a compile measured here replaces the reference figure, scaled the same way."""
    cold = _cache_holding()
    plain = [("run", ["random"])]
    slow = 2 * REFERENCE_CALIBRATION
    assert compile_estimate(plain, cold, calibration=slow, measured={}) == 2 * R["plain"]
    measured = {"plain": {"seconds": 30.0, "calibration": REFERENCE_CALIBRATION}}
    assert compile_estimate(plain, cold, calibration=REFERENCE_CALIBRATION,
                            measured=measured) == 30
    assert compile_estimate(plain, cold, calibration=slow, measured=measured) == 60
    expert = [("run", ["expert"])]      # no measurement of it here: the reference's
    assert compile_estimate(expert, cold, calibration=slow, measured=measured) == 2 * R["expert"]


def test_a_compile_time_is_kept_beside_the_cache(tmp_path, monkeypatch):
    from numba.core import config

    (tmp_path / "cache" / "0123abcd").mkdir(parents=True)      # as the cache places it
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache" / "0123abcd"),
                        raising=False)
    assert compiling.measured_times() == {}
    compiling.record_time("expert", 61.234, 0.4)
    compiling.record_time("plain", 30.0, 0.5)
    assert compiling.measured_times() == {"expert": {"seconds": 61.23, "calibration": 0.4},
                                          "plain": {"seconds": 30.0, "calibration": 0.5}}
    assert (tmp_path / "cache" / compiling.TIMES_FILE).is_file()
    (tmp_path / "cache" / compiling.TIMES_FILE).write_text("not json")
    assert compiling.measured_times() == {}


def test_the_calibration_compiles_afresh_each_process():
    seconds = compiling.calibration_seconds()
    assert 0 < seconds < 30 and compiling.calibration_seconds() == seconds


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("tty", [False, True])
def test_a_long_compile_shows_it_is_alive(tty, monkeypatch):
    import time

    monkeypatch.setattr(compiling, "TICK_SECONDS", 0.02)
    monkeypatch.setattr(compiling, "LINE_SECONDS", 0.02)
    stream = _Stream(tty)
    ticker = compiling._Ticker(75, stream)
    ticker.start()
    time.sleep(0.2)
    ticker.stop()
    ticks = stream.text.count("still compiling: ")
    assert ticks >= 2 and "of about 75 s" in stream.text
    if tty:
        assert stream.text.count("\r") == ticks + 1
        assert stream.text.endswith("\r  compiled in 0 s\033[K\n")
    else:
        assert stream.text.count("\n") == ticks and "compiled in" not in stream.text


def test_the_cache_is_read_as_numba_reads_it(tmp_path):
    """The run kernel, once loaded (compiled if need be), is found in the on-disk cache for
    its policy set and no other; an empty cache holds nothing."""
    from bezsim.rules import Rules

    rules, specs = Rules.make("ordinary"), ["random", "random"]
    api.load_kernels(rules, specs)
    flags = compiling.run_flags(specs, rules)
    assert compiling.entry_cached("run", kernel_set(specs), flags)
    other = "plain" if compile_all() else "external"
    assert not compiling.entry_cached("run", other, flags)
    empty = subprocess.run(
        [sys.executable, "-c", "from bezsim.engine_api.compiling import entry_cached as c; "
         "print([c('run', s) for s in ('plain', 'expert', 'external', 'external_learned')]"
         " + [c('step', ''), c('position', '')])"],
        capture_output=True, text=True, check=True,
        env={**_environ(), "NUMBA_CACHE_DIR": str(tmp_path / "empty")})
    assert empty.stdout.strip() == str([False] * 6)


POSITION = ('{"variant": "ordinary", "trumps": "♥", "turnup": "9♥", "stock": 20, "trick": 12, '
            '"phase": "declare", "seats": [{"hand": ["K♥", "Q♥", "J♦", "Q♠"]}, {"hand": []}]}')


@pytest.fixture
def reference_machine(monkeypatch):
    """Estimates as on the reference machine, whatever this one measures."""
    monkeypatch.setattr(compiling, "calibration_seconds", lambda: REFERENCE_CALIBRATION)
    monkeypatch.setattr(compiling, "measured_times", lambda: {})
    monkeypatch.setattr(compiling, "record_time", lambda *args: None)


def _said(*keys: str) -> str:
    """The line said for a cold compile of these REFERENCE_SECONDS keys."""
    what = "; ".join(WHAT[k] for k in keys)
    seconds = sum(compiling.REFERENCE_SECONDS[k] for k in keys)
    return f"compiling {what} for this machine (once, about {seconds} s here)…"


@pytest.mark.parametrize("command, module, function, keys", [
    (["explain", "{position}"], "bezsim.position", "explain", ["position"]),
    (["replay", "--seed", "1"], "bezsim.replay", "transcript", ["plain"]),
    (["replay", "--seed", "1", "--policies", "expert"], "bezsim.replay", "transcript",
     ["expert"]),
    (["play", "--seed", "1", "--save", "{tmp}/g.json"], "bezsim.step.play", "play_terminal",
     ["step"]),
    (["play", "--seed", "1", "--hint", "search", "--save", "{tmp}/g.json"], "bezsim.step.play",
     "play_terminal", ["step", "external"]),
    (["tune", "--policy", "heuristic", "--against", "random,expert", "--deals", "2",
      "--generations", "1", "--popsize", "2", "--seed", "1", "--out", "{tmp}/tune"],
     "bezsim.tune", "tune", ["plain", "expert"]),
])
def test_every_command_that_may_compile_says_so_once(command, module, function, keys,
                                                     tmp_path, monkeypatch, reference_machine):
    """Cold (nothing in the cache), each command says one line on stderr when its first
    kernel compiles, with the estimate of what it calls: the position kernels, a traced
    game, the step API's replay (and the search a hint plays), a tuning's run kernels."""
    import importlib

    (tmp_path / "position.json").write_text(POSITION)
    target = importlib.import_module(module)
    real = getattr(target, function)
    compiled = []

    def with_compiles(*args, **kwargs):    # the command's work, with two kernels to compile
        @numba.njit
        def first(x):
            return x + 7

        @numba.njit
        def second(x):
            return first(x) * 7

        compiled.append(second(1))
        if function == "tune":              # the tuning itself is tested elsewhere
            return {"start": {"fitness": 0.5}, "best": {"fitness": 0.5, "spec": "heuristic",
                                                        "one_hand": False}, "generation": 1}
        return real(*args, **kwargs)

    monkeypatch.setattr(target, function, with_compiles)
    monkeypatch.setattr(compiling, "entry_cached", lambda *key: False)
    args = [a.format(position=tmp_path / "position.json", tmp=tmp_path) for a in command]
    result = CliRunner().invoke(cli.cli, args, input="q\n", prog_name="bezsim")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert compiled == [56]
    said = [line for line in result.stderr.splitlines() if "compiling" in line]
    if compile_all():                      # the suite's one run engine (conftest.py)
        keys = list(dict.fromkeys(key if key in ("step", "position") else "external_learned"
                                  for key in keys))
    assert said == [_said(*keys)]


def test_a_tournament_says_it_compiles_before_its_bar(fake_engine, rules, capsys, monkeypatch,
                                                     reference_machine, pruned):
    from bezsim.tournament import run_tournament

    @numba.njit
    def fresh(x):
        return x + 2

    lineups = []

    def compiling_load(rules, policies, compile_with=()):
        lineups.append(list(policies))
        assert fresh(1) == 3
        return fake_engine.load_kernels(rules, policies)

    monkeypatch.setattr(api, "load_kernels", compiling_load)
    monkeypatch.setattr(compiling, "entry_cached", lambda *key: False)  # cold
    frame = run_tournament(rules, ["random", "greedy"], games=4, seed=1, progress=True)
    assert len(frame) == 2
    assert lineups == [["random", "greedy"]]          # every pair's kernels, before playing
    assert capsys.readouterr().err.splitlines()[0] == _said("plain")


def test_the_warm_up_batch_has_a_real_batchs_layouts_and_leaves_row_sizing_alone():
    """The writer's kernels compile for the layouts of the warm-up batch: a real batch's
    rows are cut views (not contiguous), so the warm-up must be too, or the writer compiles
    again during the run and its rate counts it."""
    from bezsim.rules import Rules

    rules = Rules.make("ordinary")
    policies = ["random", "greedy"]
    api._SEEN.clear()
    warm = api.load_kernels(rules, policies)
    assert api._SEEN == {} and warm.n_games == 2
    real = api.run_games(rules, policies, 5, 0, 40)
    for name in ("hand_seat", "hand_info", "game_info", "events"):
        assert numba.typeof(getattr(warm, name)) == numba.typeof(getattr(real, name)), name
    assert numba.typeof(real.hand_seat).layout == "A"


class _Helper:
    """A helper process that is never started: its arguments and its wait are recorded."""

    started: list[list[str]] = []

    def __init__(self, argv, **kwargs) -> None:
        _Helper.started.append(list(argv))
        self.waited = False

    def wait(self) -> int:
        self.waited = True
        return 0

    def poll(self) -> int | None:
        return 0 if self.waited else None


@pytest.mark.parametrize("idle, spawned", [(2.0, True), (0.4, False)])
def test_a_cold_search_run_compiles_searchs_slot_beside_the_run_engine(idle, spawned,
                                                                       monkeypatch):
    """On an idle machine, search's slot compiles in a helper process while this one
    compiles the run engine for the slots' own type (placeholders in the slots); a busy
    machine compiles both here, one after the other."""
    from bezsim.engine_api import compile_aside
    from bezsim.rules import Rules

    monkeypatch.setattr(compile_aside, "_idle_cores", lambda: idle)
    monkeypatch.setattr(compile_aside, "slots_to_compile", lambda specs, shape: ["play"])
    monkeypatch.setattr(compiling, "entry_cached", lambda *key: False)
    monkeypatch.setattr(compile_aside.subprocess, "Popen", _Helper)
    _Helper.started = []
    compiled = []
    said = []
    with announce_compiles(said.append, lambda: "compiling…") as clock:
        done = compile_aside.compile_run_beside_slots(
            Rules.make("ordinary"), "search,expert", compiled.append)
    assert done is spawned
    if not spawned:
        assert compiled == [] and _Helper.started == [] and said == []
        return
    assert _Helper.started[0][-1] == "play"
    placeholder, = compiled
    assert list(placeholder.specs) == ["search", "expert"]
    flags = compiling.run_flags(placeholder.specs, Rules.make("ordinary"))
    assert numba.typeof(placeholder.functions) == compiling._set_type(
        kernel_set(placeholder.specs), flags)
    assert said == ["compiling…"] and clock.compiled       # the wait counts as compiling
