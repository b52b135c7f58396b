"""Fitting learned's weights to recorded decisions (generate.py).

The model scores card j of decision d as w . x_dj and plays the best score. Fitting maximises
the value the decisions would have under the softmax of the scores, sum_j p_dj q_dj, where
q_dj is search's value of card j less the decision's mean (the cards of a decision share
their sampled deals, so the differences carry less noise than the values), with an L2 pull
toward the starting weights. The features are scaled by their spread first, so one pull
suits them all; the scale of the start (``temperature``) sets how sharp the softmax is.
Solved by L-BFGS (scipy), which is deterministic for the same data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bezsim.learn.generate import Records


@dataclass(frozen=True)
class Fit:
    weights: np.ndarray        # float64 [N_FEATURES]
    value_before: float        # mean softmax value per decision at the start (points)
    value_after: float         # ... at the fitted weights
    regret_before: float       # mean of (best card's value - the top-scored card's), held out
    regret_after: float
    decisions: int


def _decision_index(records: Records) -> np.ndarray:
    return np.repeat(np.arange(len(records.n)), records.n)


def centred_values(records: Records) -> np.ndarray:
    dec = _decision_index(records)
    sums = np.bincount(dec, weights=records.value, minlength=len(records.n))
    return records.value - (sums / records.n)[dec]


def softmax_value(u: np.ndarray, xs: np.ndarray, q: np.ndarray, dec: np.ndarray,
                  n_dec: int) -> tuple[float, np.ndarray]:
    """Mean over decisions of sum_j softmax(xs u)_j q_j, and its gradient in u."""
    z = xs @ u
    zmax = np.full(n_dec, -np.inf)
    np.maximum.at(zmax, dec, z)
    e = np.exp(z - zmax[dec])
    p = e / np.bincount(dec, weights=e, minlength=n_dec)[dec]
    ev = np.bincount(dec, weights=p * q, minlength=n_dec)
    grad = ((p * (q - ev[dec]))[:, None] * xs).sum(axis=0)
    return float(ev.sum() / n_dec), grad / n_dec


def regret(records: Records, weights: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Mean over decisions of the best card's value less the value of the card the weights
    score highest (search's values; their noise makes the best look better than it is, the
    same for every set of weights compared on the same records)."""
    score = records.features @ weights
    start = records.start
    picks = []
    for d in range(len(records.n)) if mask is None else np.nonzero(mask)[0]:
        s = start[d]
        n = records.n[d]
        q = records.value[s:s + n]
        picks.append(q.max() - q[int(np.argmax(score[s:s + n]))])
    return float(np.mean(picks)) if picks else 0.0


def fit(records: Records, start: np.ndarray, pull: float = 0.01,
        temperature: float = 0.3, free: np.ndarray | None = None) -> Fit:
    """Weights fitted from ``start`` (learned's feature weights) on ``records``; the held-out
    regret is over the games whose index is a multiple of 5, fitted on the rest first only
    to report it, then refitted on every decision. ``free`` (bool per feature, default all)
    names the weights that move; the others keep their start, so weights of decisions the
    records do not hold (early card plays, when only late ones were recorded) stay put."""
    from scipy.optimize import minimize

    if len(records.n) == 0:
        raise ValueError("no recorded decisions to fit (play more games)")
    dec = _decision_index(records)
    q = centred_values(records)
    spread = records.features.std(axis=0)
    spread[spread < 1e-9] = 1.0
    xs = records.features / spread
    u0 = np.asarray(start, float) * spread * temperature
    free = np.ones(len(u0), bool) if free is None else np.asarray(free, bool)
    if not free.any():
        raise ValueError("no weight left free to fit")

    def solve(keep: np.ndarray) -> np.ndarray:
        cards = keep[dec]
        sub_dec = np.cumsum(keep) - 1
        d = sub_dec[dec[cards]]
        n_dec = int(keep.sum())

        def objective(v):
            u = u0.copy()
            u[free] = v
            value, grad = softmax_value(u, xs[cards], q[cards], d, n_dec)
            diff = v - u0[free]
            return -value + pull * float(diff @ diff), -grad[free] + 2 * pull * diff

        res = minimize(objective, u0[free], jac=True, method="L-BFGS-B")
        u = u0.copy()
        u[free] = res.x
        return u

    held = records.game % 5 == 0
    trained = solve(~held) / spread / temperature if held.any() and (~held).any() else None
    u = solve(np.ones(len(records.n), bool))
    n_dec = len(records.n)
    before, _ = softmax_value(u0, xs, q, dec, n_dec)
    after, _ = softmax_value(u, xs, q, dec, n_dec)
    weights = u / spread / temperature
    return Fit(weights=weights, value_before=before, value_after=after,
               regret_before=regret(records, np.asarray(start, float), held),
               regret_after=regret(records, trained if trained is not None else weights, held),
               decisions=n_dec)
