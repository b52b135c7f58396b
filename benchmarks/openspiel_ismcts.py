"""OpenSpiel's own ISMCTS bot against bezsim's expert, on duplicate deals.

    python benchmarks/openspiel_ismcts.py [--variant ordinary] [--deals 30] [--first 0]
        [--simulations 100] [--seed 1]

What a researcher gets out of the box: ``pyspiel.load_game("python_bezique")``
(bezsim/rl/openspiel.py) and open_spiel.python.algorithms.ismcts.ISMCTSBot with random
roll-outs, against expert wrapped as an OpenSpiel bot. Deal i of the seed is played twice,
ISMCTS in each seat; one hand is one game (+1 to its winner). Prints one JSON line: wins,
games decided, the Wilson 95% interval, and seconds per ISMCTS decision.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bezsim.openspiel  # noqa: F401  (registers python_bezique)
from bezsim.analysis.stats import wilson
from bezsim.policies.builtin import EXPERT, choose
from bezsim.policy_specs.registry import policy_params


class ExpertBot(pyspiel.Bot):
    """bezsim's expert as an OpenSpiel bot (its decision at the state's engine array)."""

    def __init__(self, variant: str) -> None:
        pyspiel.Bot.__init__(self)
        self.rows = policy_params(["expert", "expert"], variant)

    def step(self, state):
        S = state._S.copy()
        index = choose(EXPERT, S, state.current_player(), self.rows,
                       np.zeros((3, 4), np.uint64))
        for action, i in state._offer().items():
            if i == index:
                return action
        raise RuntimeError("expert chose outside the offer")

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--first", type=int, default=0, help="first deal index")
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game("python_bezique", {"variant": args.variant, "seed": args.seed})
    expert = ExpertBot(args.variant)
    wins = decided = decisions = 0
    seconds = 0.0
    for deal in range(args.first, args.first + args.deals):
        for ismcts_seat in (0, 1):
            rng = np.random.RandomState(deal * 2 + ismcts_seat)
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0,
                                   args.simulations, random_state=rng,
                                   allow_inconsistent_action_sets=True)
            state = game.new_initial_state()
            state.apply_action(deal)
            while not state.is_terminal():
                if state.current_player() == ismcts_seat:
                    t = time.perf_counter()
                    action = bot.step(state)
                    seconds += time.perf_counter() - t
                    decisions += 1
                else:
                    action = expert.step(state)
                state.apply_action(action)
            r = state.returns()[ismcts_seat]
            if r != 0:
                decided += 1
                wins += r > 0
    low, high = wilson(wins, decided)[1:]
    print(json.dumps({"variant": args.variant, "deals": args.deals, "first": args.first,
                      "simulations": args.simulations, "seed": args.seed, "wins": wins,
                      "decided": decided, "win_rate": wins / max(1, decided),
                      "low": low, "high": high,
                      "s_per_decision": round(seconds / max(1, decisions), 3)}), flush=True)


if __name__ == "__main__":
    main()
