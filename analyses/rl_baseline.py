"""Can a small agent learn Bézique from the batched environment, and how strong does it get?

The agent (bezsim/rl/baseline.py) is a linear action-value over the observation vector of
bezsim.rl.batched_env, played epsilon-greedy (epsilon 0.1) from seat 0 of the ordinary game
and taught by Monte Carlo control toward each game's final margin. It trains first against
``random`` (learning rate 0.005, times 0.8 after each block of 2,000 games), then against
``greedy`` (0.002, times 0.85 after each block of 10,000). After each block its greedy play
(no exploration) is measured on fresh games: the learning curve. Measured play uses the average
of the weights over about the last 10,000 training games. The final agent then plays
``games`` more fresh games against each. Win rates are over games decided (Wilson 95%
intervals); training, curve and final games use different seeds derived from the study's.

    python analyses/rl_baseline.py [--quick | --games N] [--check]
"""

from __future__ import annotations

import sys
import time

from bezsim.analysis import plots
from bezsim.analysis.stats import Estimate, wilson
from bezsim.report.document import Bullets, Document, Figure, Table, pct
from bezsim.report.study import Context, Study
from bezsim.rl.baseline import Agent, evaluate, train

VARIANT = "ordinary"
EPSILON = 0.1
# (opponent, blocks, games a block, learning rate of the first block, its factor a block)
FULL = (("random", 10, 2000, 0.005, 0.8), ("greedy", 12, 10000, 0.002, 0.85))
QUICK = (("random", 2, 40, 0.005, 0.8), ("greedy", 2, 40, 0.002, 0.85))
CURVE_GAMES = 500           # fresh games per curve point (quick: 20)


def rate(results: tuple[int, int, int]) -> Estimate:
    wins, losses, _ = results
    return wilson(wins, wins + losses)


def build(ctx: Context, doc: Document) -> None:
    schedule = QUICK if ctx.quick else FULL
    curve_games = 20 if ctx.quick else CURVE_GAMES
    agent = Agent.new()
    trained = 0
    xs, vs_random, vs_greedy, rows = [], [], [], []
    start = time.perf_counter()
    block = 0
    for opponent, blocks, games, alpha, factor in schedule:
        for k in range(blocks):
            block += 1
            train(agent, opponent, games, ctx.seed * 1000 + block, VARIANT,
                  epsilon=EPSILON, alpha=alpha * factor ** k)
            trained += games
            r = rate(evaluate(agent, "random", curve_games, ctx.seed * 1000 + 500 + block))
            g = rate(evaluate(agent, "greedy", curve_games, ctx.seed * 1000 + 700 + block))
            xs.append(trained)
            vs_random.append(r)
            vs_greedy.append(g)
            rows.append([f"{trained:,}", opponent, f"{alpha * factor ** k:.5f}", pct(r, 1),
                         pct(g, 1)])
            ctx.log(f"{trained:,} games: {r.value:.3f} against random, {g.value:.3f} "
                    "against greedy")
    seconds = time.perf_counter() - start
    ctx.runs_dir.mkdir(parents=True, exist_ok=True)
    agent.save(ctx.runs_dir / "agent.npz")        # the trained agent, for a look afterwards
    final_random = rate(evaluate(agent, "random", ctx.games, ctx.seed * 1000 + 901))
    final_greedy = rate(evaluate(agent, "greedy", ctx.games, ctx.seed * 1000 + 902))
    doc.record("final.vs_random.win_rate", final_random)
    doc.record("final.vs_greedy.win_rate", final_greedy)
    doc.record("training_games", trained)
    doc.record("curve", [[x, list(r), list(g)] for x, r, g in zip(xs, vs_random, vs_greedy,
                                                                    strict=True)])
    doc.section("Answer").add(
        f"Ordinary game, the agent in seat 0, {ctx.games:,} fresh games against each "
        f"opponent after {trained:,} training games (seed {ctx.seed}; 95% intervals):",
        Bullets([f"**against random**: wins {pct(final_random, 1)} of games;",
                 f"**against greedy**: wins {pct(final_greedy, 1)} of games;",
                 f"training and the curve took {seconds:,.0f} s on one core when this report "
                 "was written (not among the numbers --check compares)."]))
    fig = plots.learning_curve({"against random": (xs, vs_random),
                                "against greedy": (xs, vs_greedy)},
                               "training games", "win rate (%)",
                               "The baseline agent learning the ordinary game", scale=100,
                               reference=0.5)
    doc.section("Learning curve").add(
        Figure("learning-curve", plots.png_bytes(fig),
               f"Win rate of the agent's greedy play after each training block, "
               f"{curve_games:,} fresh games against each opponent, 95% Wilson bands; dashed: "
               "50%."),
        Table(["training games", "trained against", "learning rate", "against random [95%]",
               "against greedy [95%]"], rows, text_columns=2))
    doc.section("How").add(
        "The agent is `bezsim.rl.baseline`: Q(s, a) = v · x(s) + b[a] + w[a] · x(s) over the "
        "274-value observation x(s) of `bezsim.rl.batched_env` (the shared part v absorbs "
        "how good the cards are), epsilon-greedy play (epsilon 0.1), and after each game "
        "every decision's Q moved toward the game's margin (the agent's final score minus "
        "its opponent's, in thousands), by the learning rate times the error over the "
        "squared size of the decision's inputs; measured play uses the weights averaged "
        "over about the last 10,000 training games. It is a baseline for research on the "
        "environment, "
        "not a player: `expert` and `learned` are far stronger.")


STUDY = Study("rl_baseline", "Can a small agent learn Bézique from the batched environment?",
              seed=111, games=4000, quick_games=40, build=build)

if __name__ == "__main__":
    sys.exit(STUDY.main())
