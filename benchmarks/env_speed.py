"""Steps a second of the research environments, random legal actions, whole games, one thread.

    python benchmarks/env_speed.py [--envs pettingzoo,batched] [--variants ordinary,rubicon]
                                   [--seconds 5] [--num-envs 256] [--threads 1]

``pettingzoo``: the AEC environment (bezsim.rl.env) with its standard wrappers, the loop of
PettingZoo's documentation: ``last()`` (the observation and mask), a random action from the
mask, ``step``; a new game (``reset``) when one ends. ``batched``: bezsim.rl.batched_env with
``--num-envs`` games, every seat open, a random legal action for each game chosen from the
masks by numpy (the largest of random bytes over the legal actions); observations and
masks are made at every step; ``--threads`` steps blocks of games on threads. Each figure is
steps (one decision of one game) a second, after a warm-up; pin the process to one core
(``taskset -c 0``) to measure one core.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def pettingzoo_rate(variant: str, seconds: float) -> dict:
    from bezsim.rl import env

    e = env(variant=variant)
    rng = np.random.default_rng(0)
    steps, games, seed = 0, 0, 0
    start = None
    while True:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                steps += 1
            e.step(action)
        games += 1
        if start is None:                  # the first game compiles and warms up
            start, steps, games = time.perf_counter(), 0, 0
        elif time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    return {"env": "pettingzoo", "variant": variant, "games": games, "steps": steps,
            "steps_per_second": round(steps / elapsed)}


def batched_rate(variant: str, seconds: float, num_envs: int, threads: int) -> dict:
    from bezsim.rl import batched_env

    env = batched_env(variant=variant, num_envs=num_envs, seed=0, threads=threads)
    rng = np.random.default_rng(0)
    state = env.reset()

    def random_legal(mask: np.ndarray) -> np.ndarray:
        """A random byte (1..255) for each legal action, 0 for the others: the largest."""
        scores = np.frombuffer(rng.bytes(mask.size), np.uint8).reshape(mask.shape) | 1
        scores *= mask
        return scores.argmax(axis=1)

    for _ in range(50):                                   # compiled, warm
        state = env.step(random_legal(state["action_mask"]))
    steps, games, calls = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = env.step(random_legal(state["action_mask"]))
        steps += num_envs
        games += int(state["done"].sum())
        calls += 1
    elapsed = time.perf_counter() - start
    env.close()
    return {"env": "batched", "variant": variant, "num_envs": num_envs, "threads": threads,
            "calls": calls,
            "games": games, "steps": steps, "steps_per_second": round(steps / elapsed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", default="pettingzoo,batched")
    ap.add_argument("--variants", default="ordinary,rubicon")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1, help="the batched environment's")
    args = ap.parse_args()
    for name in args.envs.split(","):
        for variant in args.variants.split(","):
            if name == "pettingzoo":
                row = pettingzoo_rate(variant, args.seconds)
            else:
                row = batched_rate(variant, args.seconds, args.num_envs, args.threads)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
