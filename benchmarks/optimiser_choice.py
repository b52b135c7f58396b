"""Which optimiser should ``bezsim tune`` use? CMA-ES (``cma``), TPE (``optuna``) and NGOpt
(``nevergrad``: NGOpt, its general choice, and TBPSA, its choice for noisy problems), with
uniform random search as the floor, on the same problem and budget.

    pip install cma optuna nevergrad
    python benchmarks/optimiser_choice.py [--variant ordinary] [--budget 160] [--deals 300]
        [--repeats 3] [--holdout 3000] [--start untuned|bad] [--json FILE]

The problem is the one ``bezsim tune`` solves: ``expert``'s weights in tune's scaled
coordinates (weight i = start_i + x_i * step_i, bezsim.tune.candidate), fitness the
duplicate-deal result against ``heuristic`` on ``--deals`` fixed deals of the training seed.
In the ordinary game the weights it never reads (Rubicon, Polish, partners) are left out.
Each optimiser gets ``--budget`` fitness evaluations from the same start (``untuned``:
expert's untuned base weights; ``bad``: every weight at a tenth of them), repeated with
``--repeats`` optimiser seeds. What decides is the best set's result on ``--holdout`` other
deals (another seed): a set that only fits the training deals is worth nothing. Prints one
line per run and a summary per optimiser (mean held-out result, its spread over repeats,
wall time).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from bezsim.policies.expert import BASE_WEIGHTS
from bezsim.policy_specs.registry import BUILTINS
from bezsim.rules import Rules
from bezsim.tune import TuneSetup, candidate, fitness, spec_of, start_values

TRAIN_SEED = 4101
HOLDOUT_SEED = 4202
BOX = 2.0          # optimisers that need bounds search x in [-BOX, BOX] per weight


def start_spec(kind: str) -> str:
    names = [p.name for p in BUILTINS["expert"].params]
    scale = 1.0 if kind == "untuned" else 0.1
    values = ",".join(f"{n}={scale * v:.4g}" for n, v in zip(names, BASE_WEIGHTS, strict=True))
    return f"expert({values})"


def run_cma(f: Callable[[np.ndarray], float], dim: int, budget: int, seed: int) -> None:
    import cma

    es = cma.CMAEvolutionStrategy(np.zeros(dim), 0.5,
                                  {"popsize": 8, "seed": seed, "verbose": -9})
    used = 0
    while used < budget:
        xs = es.ask()[:budget - used]
        scores = [f(np.asarray(x)) for x in xs]
        used += len(xs)
        if len(xs) == es.popsize:
            es.tell(xs, [-s for s in scores])


def run_optuna(f: Callable[[np.ndarray], float], dim: int, budget: int, seed: int) -> None:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=seed))
    for _ in range(budget):
        trial = study.ask()
        x = np.array([trial.suggest_float(f"x{i}", -BOX, BOX) for i in range(dim)])
        study.tell(trial, f(x))


def run_nevergrad(f: Callable[[np.ndarray], float], dim: int, budget: int, seed: int) -> None:
    import nevergrad as ng

    param = ng.p.Array(shape=(dim,), lower=-BOX, upper=BOX)
    param.random_state = np.random.RandomState(seed)
    opt = ng.optimizers.NGOpt(parametrization=param, budget=budget, num_workers=1)
    for _ in range(budget):
        cand = opt.ask()
        opt.tell(cand, -f(np.asarray(cand.value)))


def run_nevergrad_noisy(f: Callable[[np.ndarray], float], dim: int, budget: int,
                        seed: int) -> None:
    """nevergrad's TBPSA, its choice for noisy problems."""
    import nevergrad as ng

    param = ng.p.Array(shape=(dim,), lower=-BOX, upper=BOX)
    param.random_state = np.random.RandomState(seed)
    opt = ng.optimizers.TBPSA(parametrization=param, budget=budget, num_workers=1)
    for _ in range(budget):
        cand = opt.ask()
        opt.tell(cand, -f(np.asarray(cand.value)))


def run_random(f: Callable[[np.ndarray], float], dim: int, budget: int, seed: int) -> None:
    gen = np.random.default_rng(seed)
    for _ in range(budget):
        f(gen.uniform(-BOX, BOX, dim))


OPTIMISERS = {"cma": run_cma, "optuna": run_optuna, "nevergrad": run_nevergrad,
              "nevergrad_tbpsa": run_nevergrad_noisy, "random": run_random}
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--budget", type=int, default=160)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--holdout", type=int, default=3000)
    ap.add_argument("--start", choices=("untuned", "bad"), default="untuned")
    ap.add_argument("--optimisers", default=",".join(OPTIMISERS))
    ap.add_argument("--json")
    args = ap.parse_args()
    rules = Rules.make(args.variant)
    # weights the variant's games never read: tuning them is noise
    names = tuple(p.name for p in BUILTINS["expert"].params if p.read_in(args.variant))
    setup = TuneSetup(args.variant, (), start_spec(args.start), ("heuristic",), args.deals,
                      TRAIN_SEED, 1, 8, 0.5, names)
    start = start_values(setup)
    dim = len(setup.params)
    base = fitness(rules, setup.policy, setup.against, args.holdout, HOLDOUT_SEED)
    print(f"start ({args.start}): held-out fitness {base:.4f}", flush=True)
    rows = []
    for name in args.optimisers.split(","):
        for r in range(args.repeats):
            best = {"fitness": -np.inf, "spec": setup.policy}

            def f(x: np.ndarray, best: dict = best) -> float:
                spec = spec_of(setup, candidate(setup, start, x))
                value = fitness(rules, spec, setup.against, args.deals, TRAIN_SEED)
                if value > best["fitness"]:
                    best.update(fitness=value, spec=spec)
                return value

            t0 = time.perf_counter()
            OPTIMISERS[name](f, dim, args.budget, 1000 + r)
            wall = time.perf_counter() - t0
            held = fitness(rules, best["spec"], setup.against, args.holdout, HOLDOUT_SEED)
            row = {"optimiser": name, "repeat": r, "train": best["fitness"], "holdout": held,
                   "wall_s": wall, "spec": best["spec"]}
            rows.append(row)
            print(f"{name:10s} repeat {r}: train {best['fitness']:.4f}  held-out {held:.4f}  "
                  f"{wall:.0f} s", flush=True)
    print("\noptimiser   held-out mean [min, max] over repeats   train mean   wall s")
    for name in args.optimisers.split(","):
        h = [row["holdout"] for row in rows if row["optimiser"] == name]
        t = [row["train"] for row in rows if row["optimiser"] == name]
        w = [row["wall_s"] for row in rows if row["optimiser"] == name]
        print(f"{name:10s}  {np.mean(h):.4f} [{min(h):.4f}, {max(h):.4f}]"
              f"{'':17s}{np.mean(t):.4f}   {np.mean(w):.0f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"args": vars(args), "start_holdout": base, "rows": rows}, handle,
                      indent=2)


if __name__ == "__main__":
    main()
