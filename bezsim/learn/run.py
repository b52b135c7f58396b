"""``bezsim learn``: rounds of expert iteration for learned. Each round plays learned
self-play in which every seat records search's values of its card plays (generate.py), fits
learned's weights to them (fit.py), writes the weights as a model file and measures the new
weights on duplicate deals against the round's start and against expert. The rounds stop
when one no longer beats its start (the low end of its win-rate interval at or below 0.5).

Everything a round writes is a pure function of (rules, the starting weights, seed, budget):
the shards of recorded games are written once (a run resumes by skipping them), the fit is
deterministic, and the tournaments are seeded.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from bezsim.errors import BezsimError
from bezsim.io.atomic import write_atomically
from bezsim.learn.fit import fit
from bezsim.learn.generate import Budget, Records, record_games
from bezsim.policies.learned.weights import (
    DECLARE,
    FEATURE_COLUMN,
    FEATURE_NAMES,
    FEATURES,
    INDEX,
    N_FEATURES,
)

PLAN = "plan.json"        # the settings a run was begun with (a resume must match them)
SHARD_GAMES = 25          # games per shard file
ROUND_STRIDE = 10**9      # round k plays game indices from k * ROUND_STRIDE


def learned_spec(weights: np.ndarray, declare: np.ndarray) -> str:
    """The policy spec of learned with these feature weights and declaration weights (6
    significant digits, inside each weight's range)."""
    parts = []
    for w, value in zip(FEATURES + DECLARE, [*weights, *declare], strict=True):
        v = float(np.clip(float(f"{value:.6g}"), w.low, w.high))
        parts.append(f"{w.name}={v:.6g}")
    return "learned(" + ",".join(parts) + ")"


def spec_weights(spec: str, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """The feature weights of ``spec`` (what bezsim learn fits) and its declaration weights
    (what it keeps)."""
    from bezsim.policy_specs.registry import policy_params

    row = policy_params([spec], variant)[0]
    return (row[FEATURE_COLUMN:FEATURE_COLUMN + N_FEATURES].copy(),
            row[[INDEX[w.name] for w in DECLARE]].copy())


@dataclass(frozen=True)
class Plan:
    variant: str
    seed: int
    games: int             # recorded games per round
    rounds: int
    budget: Budget
    eval_games: int        # duplicate deals per evaluation
    start: str = "learned"
    params: tuple[str, ...] = ()   # the feature weights fitted (empty: all of them)


def _plan_doc(plan: Plan) -> dict:
    """The plan as JSON, with the start's weights spelled out (``learned`` alone names the
    preset's shipped weights, which a newer bezsim may change)."""
    features, declare = spec_weights(plan.start, plan.variant)
    return json.loads(json.dumps({**asdict(plan), "budget": asdict(plan.budget),
                                  "params": list(plan.params),
                                  "start_weights": [*map(float, features),
                                                    *map(float, declare)]}))


def _identity(doc: dict) -> dict:
    """What a resume must match: everything the recorded games and fits depend on (more
    rounds, or other measurements, may be asked)."""
    return {k: v for k, v in doc.items() if k not in ("rounds", "eval_games")}


def check_plan(out_dir: str | Path, plan: Plan) -> None:
    """Refuse to go on with a run begun with other settings: its recorded shards would be
    mixed with games the new settings would not have played."""
    path = Path(out_dir) / PLAN
    if not path.exists():
        return
    try:
        begun = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise BezsimError(f"{path} cannot be read ({exc.__class__.__name__}); remove the "
                          "directory to learn again") from None
    old, new = _identity(begun), _identity(_plan_doc(plan))
    if old != new:
        differ = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
        raise BezsimError(f"{out_dir} holds a bezsim learn run with other settings "
                          f"({', '.join(differ)}); give another --out, or the same settings "
                          "to resume it (more rounds may be asked)")


def _write_json(path: Path, doc: dict) -> None:
    data = (json.dumps(doc, indent=1) + "\n").encode()
    write_atomically(path, lambda handle: handle.write(data))


def _shard_path(round_dir: Path, first: int) -> Path:
    return round_dir / f"records-{first:012d}.npz"


def round_records(rules, plan: Plan, spec: str, k: int, round_dir: Path, threads: int,
                  progress: bool) -> Records:
    """The round's recorded games, played shard by shard (shards on disk are reused)."""
    from tqdm import tqdm

    from bezsim.policy_specs.registry import policy_params

    row = policy_params([spec], plan.variant)[0]
    first = k * ROUND_STRIDE
    parts = []
    with tqdm(total=plan.games, disable=not progress, unit="game",
              desc=f"round {k}: recording") as bar:
        for lo in range(first, first + plan.games, SHARD_GAMES):
            hi = min(lo + SHARD_GAMES, first + plan.games)
            path = _shard_path(round_dir, lo)
            if path.exists():
                parts.append(Records.load(path))
                bar.update(hi - lo)
                continue
            records = record_games(rules, row, plan.seed, range(lo, hi), plan.budget,
                                   threads, on_game=lambda: bar.update(1))
            write_atomically(path, records.save)
            parts.append(records)
    return Records.concat(parts)


def win_rate(rules, a: str, b: str, games: int, seed: int, threads: int) -> dict:
    """a against b on duplicate deals: win rate with its 95% interval, points per hand."""
    from bezsim.tournament import run_tournament

    row = run_tournament(rules, [a, b], games, seed, threads).iloc[0]
    return {"win_rate": float(row["win_rate_a"]), "low": float(row["win_rate_low"]),
            "high": float(row["win_rate_high"]),
            "points_per_hand": float(row["points_per_hand_diff"]), "deals": games}


def learn(plan: Plan, out_dir: str | Path, threads: int = 2, progress: bool = True,
          say=print) -> dict:
    """Run the rounds of ``plan`` into ``out_dir``; returns the summary written as
    summary.json (the rounds, and the spec of the best weights, also written as model.json:
    a parameters file every command taking --policies accepts as @model.json)."""
    from bezsim.rules import Rules

    rules = Rules.make(plan.variant)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    check_plan(out, plan)
    _write_json(out / PLAN, _plan_doc(plan))
    spec = plan.start
    best = spec
    rounds = []
    for k in range(1, plan.rounds + 1):
        round_dir = out / f"round-{k}"
        round_dir.mkdir(exist_ok=True)
        records = round_records(rules, plan, spec, k, round_dir, threads, progress)
        features, declare = spec_weights(spec, plan.variant)
        free = (np.isin(FEATURE_NAMES, plan.params) if plan.params
                else np.ones(N_FEATURES, bool))
        result = fit(records, features, free=free)
        new = learned_spec(result.weights, declare)
        _write_json(round_dir / "model.json", {"spec": new, "variant": plan.variant,
                                               "round": k})
        eval_seed = plan.seed + k
        vs_start = win_rate(rules, new, spec, plan.eval_games, eval_seed, threads)
        vs_expert = win_rate(rules, new, "expert", plan.eval_games, eval_seed, threads)
        row = {"round": k, "spec": new, "decisions": result.decisions,
               "value_before": result.value_before, "value_after": result.value_after,
               "regret_before": result.regret_before, "regret_after": result.regret_after,
               "vs_start": vs_start, "vs_expert": vs_expert}
        rounds.append(row)
        say(f"round {k}: {result.decisions:,} decisions; held-out regret "
            f"{result.regret_before:.2f} -> {result.regret_after:.2f} points; against its "
            f"start {_rate(vs_start)}, against expert {_rate(vs_expert)}")
        if vs_start["low"] <= 0.5:
            say(f"round {k} does not beat its start: stopping, keeping round {k - 1}'s "
                "weights" if k > 1 else "round 1 does not beat its start: keeping the start")
            break
        spec = best = new
    summary = {"plan": _plan_doc(plan), "rounds": rounds,
               "spec": best}
    _write_json(out / "summary.json", summary)
    _write_json(out / "model.json", {"spec": best, "variant": plan.variant})
    return summary


def _rate(r: dict) -> str:
    if math.isnan(r["win_rate"]):
        return "no decided games"
    return f"{r['win_rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"
