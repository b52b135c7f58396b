"""``bezsim tune``: a policy's parameters tuned by CMA-ES on duplicate deals.

Why CMA-ES (the ``cma`` package): a dozen or so continuous weights, a noisy fitness that
costs seconds, no gradient. CMA-ES adapts the step of each weight and their correlations
from a population per generation, needs no surrogate model, and its whole state pickles, so
a run checkpoints after every generation and resumes where it stopped.

Fitness of a parameter set: its duplicate-deal result against fixed opponents on fixed
deals (game indices 0 .. deals - 1 of the seed, every seating): the win rate, draws counted
half, or in a one-hand game (Rubicon) the mean settlement per deal (R6.8). Every candidate
meets the same deals, so a difference between two candidates is theirs, not the cards'.

The search runs in scaled coordinates: weight i is ``start_i + x_i * step_i``, clipped to
its parameter's range, with ``step_i`` half the starting value (at least the parameter's
declared ``tune_step``, at most a quarter of a bounded range). A run writes into its
directory ``checkpoint.pkl`` (the optimiser, its random state and the history, replaced
atomically after each generation) and ``best.json``: a parameters file that ``simulate``,
``tournament`` and ``replay`` accept as ``--policies @best.json``.
"""

from __future__ import annotations

import json
import math
import pickle
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bezsim.errors import BezsimError
from bezsim.io.atomic import write_atomically
from bezsim.io.writable import KeptElsewhere, check_writable_dir, write_or_keep
from bezsim.policy_specs.registry import (
    PolicyError,
    canonical,
    parse_policies,
    parse_spec,
    tuned_defaults,
)
from bezsim.rules import Rules

CHECKPOINT = "checkpoint.pkl"
BEST = "best.json"


class TuneError(BezsimError, ValueError):
    """A tuning run that cannot start or resume as asked."""


@dataclass(frozen=True)
class TuneSetup:
    """Everything a tuning run's result depends on (a resume must match it)."""

    variant: str
    options: tuple[str, ...]          # rule options as NAME=VALUE, as the CLI takes them
    policy: str                       # the policy tuned, with the starting values as a spec
    against: tuple[str, ...]
    deals: int
    seed: int
    generations: int
    popsize: int
    sigma: float
    params: tuple[str, ...] = field(default=())   # the parameters tuned (default: all)


def _rules(setup: TuneSetup) -> Rules:
    return Rules.from_strings(setup.variant, list(setup.options))


def start_values(setup: TuneSetup) -> dict[str, float]:
    """The starting point: the spec's values, else the shipped tuned set, else the
    parameter defaults."""
    info, given = parse_spec(setup.policy)
    base = tuned_defaults(info.name, setup.variant) if info.by_variant else {}
    return {p.name: float(given.get(p.name, base.get(p.name, p.default))) for p in info.params}


def _steps(setup: TuneSetup, start: dict[str, float]) -> np.ndarray:
    info, _ = parse_spec(setup.policy)
    steps = []
    for name in setup.params:
        p = info.param(name)
        step = max(0.5 * abs(start[name]), p.tune_step)
        if math.isfinite(p.low) and math.isfinite(p.high):
            step = min(step, (p.high - p.low) / 4)
        steps.append(step)
    return np.array(steps)


def candidate(setup: TuneSetup, start: dict[str, float], x: np.ndarray) -> dict[str, float]:
    """The parameter values at scaled point ``x`` (clipped to each parameter's range, whole
    where the parameter is, four significant digits so specs stay readable)."""
    info, _ = parse_spec(setup.policy)
    values = dict(start)
    for name, xi, step in zip(setup.params, x, _steps(setup, start), strict=True):
        p = info.param(name)
        v = min(max(start[name] + float(xi) * step, p.low), p.high)
        v = float(f"{v:.4g}")
        values[name] = float(round(v)) if p.whole else v
    return values


def spec_of(setup: TuneSetup, values: dict[str, float]) -> str:
    info, _ = parse_spec(setup.policy)
    return canonical(info, values)


def fitness(rules: Rules, spec: str, against: tuple[str, ...], deals: int, seed: int,
            threads: int | None = None) -> float:
    """Mean over the opponents of the duplicate-deal result (see the module docstring)."""
    from bezsim.tournament import play_pair

    one_hand = rules.definition.one_hand_game
    results = []
    for b in against:
        t = play_pair(rules, spec, b, deals, seed, threads,
                      compile_with=(spec, *against))      # one engine for every opponent
        games = t.wins_a + t.wins_b + t.draws
        if one_hand:
            results.append(float(t.margin.sum()) / (t.seatings * deals))
        else:
            results.append((t.wins_a + 0.5 * t.draws) / games)
    return float(np.mean(results))


def check_setup(setup: TuneSetup) -> None:
    """Refuse what cannot run, in one line, before anything is played."""
    _rules(setup)                        # a RulesError for rules that cannot be played
    try:
        info, _ = parse_spec(setup.policy)
    except PolicyError as exc:
        raise TuneError(str(exc)) from None
    if not info.params:
        raise TuneError(f"policy {info.name!r} has no parameters to tune")
    for name in setup.params:
        info.param(name)
    if not setup.against:
        raise TuneError("give at least one opponent (--against)")
    parse_policies(list(setup.against), len(setup.against))
    for name, value, low in (("deals", setup.deals, 1), ("generations", setup.generations, 1),
                             ("popsize", setup.popsize, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise TuneError(f"{name} must be a whole number of at least {low}, got {value!r}")
    if not (isinstance(setup.sigma, (int, float)) and 0 < setup.sigma <= 10):
        raise TuneError(f"sigma must be a number above 0 and at most 10, got {setup.sigma!r}")


def _load(out: Path, setup: TuneSetup) -> dict[str, Any] | None:
    path = out / CHECKPOINT
    if not path.exists():
        return None
    try:
        state = pickle.loads(path.read_bytes())
    except Exception as exc:             # a damaged checkpoint: say so, do not guess
        raise TuneError(f"{path} cannot be read ({exc.__class__.__name__}); remove it to "
                        "start the tuning again") from None
    if _identity(state.get("setup", {})) != _identity(asdict(setup)):
        raise TuneError(f"{out} holds a tuning run with other settings; give another --out "
                        "or the same settings to resume it (more generations may be asked)")
    return state


def _write_bytes(path: Path, data: bytes) -> None:
    write_atomically(path, lambda handle: handle.write(data))


def _identity(setup: dict[str, Any]) -> dict[str, Any]:
    """What a resume must match: everything but the number of generations, which a rerun
    may raise to go on."""
    return {k: v for k, v in setup.items() if k != "generations"}


def _save(out: Path, state: dict[str, Any]) -> None:
    _write_bytes(out / CHECKPOINT, pickle.dumps(state))


def _persist(out: Path, setup: TuneSetup, state: dict[str, Any], command: str,
             best: bool = True) -> None:
    """The checkpoint, and best.json with ``best``. A disk that fails keeps them in a new
    folder (the error says which, and how to go on from it)."""
    def write(where: Path) -> None:
        _save(where, state)
        if best:
            _write_best(where, setup, state, command)

    try:
        write_or_keep(write, out, "the tuning so far")
    except KeptElsewhere as exc:
        raise KeptElsewhere(f"{exc} (go on from there with the same settings and --out "
                            f"{exc.kept})", exc.kept) from None


def _write_best(out: Path, setup: TuneSetup, state: dict[str, Any], command: str) -> None:
    best = state["best"]
    doc = {"policy": parse_spec(setup.policy)[0].name, "variant": setup.variant,
           "options": list(setup.options), "spec": best["spec"], "params": best["values"],
           "fitness": best["fitness"],
           "fitness_is": "settlement per deal" if best.get("one_hand") else "win rate",
           "against": list(setup.against), "deals": setup.deals, "seed": setup.seed,
           "generations_done": state["generation"], "command": command}
    _write_bytes(out / BEST, (json.dumps(doc, indent=2) + "\n").encode())


def tune(setup: TuneSetup, out: str | Path, threads: int | None = None,
         progress: bool = False, command: str = "",
         on_generation: Callable[[int, float], None] | None = None) -> dict[str, Any]:
    """Run (or resume) a tuning; returns the state with ``best`` = {spec, values, fitness}
    and ``history`` = one (generation, best fitness so far, mean fitness) per generation."""
    try:
        import cma
    except ImportError:
        raise TuneError("bezsim tune needs the cma package: pip install 'bezsim[tune]'") from None
    from tqdm import tqdm

    if not setup.params:
        # every parameter the variant's games read (a Rubicon weight is noise elsewhere)
        info, _ = parse_spec(setup.policy)
        setup = TuneSetup(**{**asdict(setup), "params": tuple(
            p.name for p in info.params if p.read_in(setup.variant))})
    check_setup(setup)
    rules = _rules(setup)
    one_hand = rules.definition.one_hand_game
    out = Path(out)
    check_writable_dir(out)              # before any game: the tuning is never lost
    out.mkdir(parents=True, exist_ok=True)
    start = start_values(setup)
    state = _load(out, setup)
    if state is None:
        es = cma.CMAEvolutionStrategy(
            np.zeros(len(setup.params)), setup.sigma,
            {"popsize": setup.popsize, "seed": setup.seed % (2**31 - 2) + 1, "verbose": -9})
        start_spec = spec_of(setup, start)
        f0 = fitness(rules, start_spec, setup.against, setup.deals, setup.seed, threads)
        state = {"setup": asdict(setup), "es": es, "generation": 0, "history": [],
                 "start": {"spec": start_spec, "values": start, "fitness": f0},
                 "best": {"spec": start_spec, "values": start, "fitness": f0,
                          "one_hand": one_hand},
                 "np_random": np.random.get_state()}
        _persist(out, setup, state, command, best=False)
    es = state["es"]
    np.random.set_state(state["np_random"])      # cma samples from numpy's global stream
    todo = setup.generations - state["generation"]
    bar = tqdm(total=max(todo, 0) * setup.popsize, unit="candidate", file=sys.stderr,
               dynamic_ncols=True, disable=not (progress and sys.stderr.isatty()))
    with bar:
        while state["generation"] < setup.generations:
            xs = es.ask()
            scores = []
            for x in xs:
                values = candidate(setup, start, x)
                f = fitness(rules, spec_of(setup, values), setup.against, setup.deals,
                            setup.seed, threads)
                scores.append(f)
                if f > state["best"]["fitness"]:
                    state["best"] = {"spec": spec_of(setup, values), "values": values,
                                     "fitness": f, "one_hand": one_hand}
                bar.update(1)
                bar.set_postfix(best=f"{state['best']['fitness']:.4g}")
            es.tell(xs, [-f for f in scores])
            state["generation"] += 1
            state["history"].append((state["generation"], state["best"]["fitness"],
                                     float(np.mean(scores))))
            state["np_random"] = np.random.get_state()
            _persist(out, setup, state, command)
            if on_generation is not None:
                on_generation(state["generation"], state["best"]["fitness"])
    _persist(out, setup, state, command)
    return state
