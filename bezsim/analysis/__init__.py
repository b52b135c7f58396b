"""Analyses that read run directories (Parquet) and answer questions with 95% intervals.

    from bezsim.analysis import load_run, score_summary, combination_table, compare_runs
    run = load_run("data/samples/ordinary")
    score_summary(run)["points_per_seat_hand"]      # Estimate(value, low, high)

Modules: ``stats`` (Wilson, means, differences), ``load`` (runs into pandas), ``declared``
(what counts as declared: scored, never ``lost``), ``wins`` (shares of the games decided),
``scores``, ``combinations``, ``compare`` (run against run, policy against policy),
``convergence``, ``seats`` / ``compounds`` / ``rubicon`` (the variant questions, also
``bezsim seats`` etc.), ``exact`` (probabilities by counting), ``plots`` (matplotlib figures,
imported on demand), ``samples`` (the committed sample runs). A figure that two commands or
report sections state is computed in one of these, once.
"""

from bezsim.analysis.combinations import combination_table
from bezsim.analysis.compare import (
    Comparison,
    compare_means,
    compare_rates,
    compare_runs,
    policy_comparison,
)
from bezsim.analysis.convergence import convergence
from bezsim.analysis.load import Run, load_run, load_runs, stack
from bezsim.analysis.samples import sample_path, sample_run
from bezsim.analysis.scores import hand_points, per_game, score_summary
from bezsim.analysis.stats import (
    Estimate,
    mean_ci,
    mean_difference,
    paired_difference,
    rate_difference,
    wilson,
)

__all__ = [
    "Comparison", "Estimate", "Run", "combination_table", "compare_means", "compare_rates",
    "compare_runs", "convergence", "hand_points", "load_run", "load_runs", "mean_ci",
    "mean_difference", "paired_difference", "per_game", "policy_comparison", "rate_difference",
    "sample_path", "sample_run", "score_summary", "stack", "wilson",
]
