"""Confidence intervals used by the analyses (95% unless told otherwise)."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """Proportion with its Wilson score interval: (estimate, low, high)."""
    if trials <= 0:
        return (math.nan, math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation interval: (estimate, low, high)."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if x.size == 1:
        return (mean, math.nan, math.nan)
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return (mean, mean - half, mean + half)
