"""Convergence: an estimate and its 95% interval against the number of units seen, to show
how big a run must be for the digits one cares about (the half-width shrinks as 1/sqrt(n)).

    conv = convergence(hand_points(run)["per_seat"], kind="mean")
    conv.tail(1)        # the full run's estimate: equals mean_ci of all values
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bezsim.analysis.stats import Z95, wilson


def checkpoints(n: int, points: int = 40, first: int = 10) -> np.ndarray:
    """About ``points`` sample sizes, evenly spaced on a log scale, ending at n."""
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    first = min(first, n)
    sizes = np.unique(np.geomspace(first, n, num=points).round().astype(np.int64))
    sizes[-1] = n
    return sizes


def convergence(values: np.ndarray | pd.Series, kind: str = "mean", points: int = 40
                ) -> pd.DataFrame:
    """Running estimate over the first n values (in the order given: game order), with
    its interval: columns ``n, value, low, high``. ``kind``: ``mean`` (normal interval) or
    ``rate`` (values are 0/1 or booleans; Wilson interval)."""
    x = np.asarray(values, dtype=np.float64)
    if kind not in ("mean", "rate"):
        raise ValueError(f"kind must be 'mean' or 'rate', got {kind!r}")
    x = x[~np.isnan(x)]
    sizes = checkpoints(x.size, points)
    s1 = np.cumsum(x)
    s2 = np.cumsum(x * x)
    rows = []
    for n in sizes:
        total = float(s1[n - 1])
        if kind == "rate":
            rows.append((int(n), *wilson(int(round(total)), int(n))))
            continue
        mean = total / n
        if n < 2:
            rows.append((int(n), mean, math.nan, math.nan))
            continue
        var = max(0.0, (float(s2[n - 1]) - n * mean * mean) / (n - 1))
        half = Z95 * math.sqrt(var / n)
        rows.append((int(n), mean, mean - half, mean + half))
    return pd.DataFrame(rows, columns=["n", "value", "low", "high"])
