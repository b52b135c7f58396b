"""The ``learned`` policy: expert's valuations of a card play and their parts, reweighted by
weights fitted to search's values of the same decisions (``bezsim learn``). Evaluated inside
the engine like every built-in policy: the model is its parameter row, so no learning library
runs at play time.

weights.py declares the weights (one per feature), features.py computes a card's features,
policy.py decides.
"""

from bezsim.policies.learned.policy import learned_policy
from bezsim.policies.learned.weights import FEATURE_NAMES, N_FEATURES, WEIGHTS

__all__ = ["FEATURE_NAMES", "N_FEATURES", "WEIGHTS", "learned_policy"]
