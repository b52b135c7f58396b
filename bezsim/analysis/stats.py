"""Confidence intervals used by the analyses (95% unless told otherwise).

Every estimate is an ``Estimate`` (value, low, high): a plain tuple, so ``p, low, high =
wilson(k, n)`` works and JSON writes it as a list. Rates get Wilson intervals, means the
normal approximation, and differences between two rates Newcombe's hybrid score interval
(built from the two Wilson intervals), so a difference agrees with the rates it compares.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

Z95 = 1.959963984540054


class Estimate(NamedTuple):
    """A point estimate with its interval; NaN bounds when the data cannot give one."""

    value: float
    low: float
    high: float

    def format(self, fmt: str = ".4f", scale: float = 1.0) -> str:
        """``0.5123 [0.5001, 0.5245]``; ``scale=100`` shows a rate as a percentage."""
        return format_ci(tuple(x * scale for x in self), fmt)


def _decimals_for(values: tuple[float, ...], decimals: int) -> int:
    """``decimals``, or more where a nonzero value would print as zero: then two significant
    digits of the smallest such value (a share of 3e-5 is 0.000030, not 0.0000), at most 10."""
    hidden = [abs(v) for v in values
              if v and math.isfinite(v) and abs(v) < 0.5 * 10.0 ** -decimals]
    if not hidden:
        return decimals
    return min(10, max(decimals, 1 - math.floor(math.log10(min(hidden)))))


def wide_enough(fmt: str, values: tuple[float, ...]) -> str:
    """The format spec ``fmt`` (``.4f``, ``+.2f``, ``.1%``, or ``{:.4f}``) with enough
    decimals for ``values`` (``_decimals_for``)."""
    spec = fmt.strip("{}:")
    match = re.fullmatch(r"([+ ]?)\.(\d+)([f%])", spec)
    if not match:
        return spec
    sign, decimals, kind = match.groups()
    scaled = tuple(v * 100 for v in values) if kind == "%" else values
    return f"{sign}.{_decimals_for(scaled, int(decimals))}{kind}"


def format_ci(estimate: tuple[float, ...], fmt: str = ".4f") -> str:
    """``value [low, high]`` in ``fmt`` (a format spec such as ``.4f`` or ``+.2f``), with
    more decimals where a nonzero figure would print as zero; an interval that is a single
    point (every unit agreed: no sampling error to show) is said to be exact."""
    values = tuple(float(x) for x in estimate)
    spec = wide_enough(fmt, values)
    if len(values) < 3 or math.isnan(values[1]):
        return f"{values[0]:{spec}}"
    v, lo, hi = values
    if lo == hi == v:
        return f"{v:{spec}} (exact: every sample gave this value, so no interval)"
    return f"{v:{spec}} [{lo:{spec}}, {hi:{spec}}]"


NAN_ESTIMATE = Estimate(math.nan, math.nan, math.nan)


def wilson(successes: int, trials: int, z: float = Z95) -> Estimate:
    """Proportion with its Wilson score interval."""
    if trials <= 0:
        return NAN_ESTIMATE
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # at 0 or n successes the bound is exactly 0 or 1; rounding would leave 3e-18
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Estimate(p, low, high)


def mean_ci(values: np.ndarray, z: float = Z95) -> Estimate:
    """Mean with a normal-approximation interval."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return NAN_ESTIMATE
    mean = float(x.mean())
    if x.size == 1:
        return Estimate(mean, math.nan, math.nan)
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return Estimate(mean, mean - half, mean + half)


def rate_difference(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Estimate:
    """p1 - p2 for two independent samples, Newcombe's hybrid score interval (his method 10):
    it stays inside [-1, 1] and behaves near 0 and 1, where the plain Wald interval fails."""
    p1, l1, u1 = wilson(k1, n1, z)
    p2, l2, u2 = wilson(k2, n2, z)
    if math.isnan(p1) or math.isnan(p2):
        return NAN_ESTIMATE
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Estimate(d, low, high)


def mean_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Estimate:
    """mean(a) - mean(b) for two independent samples (Welch: each sample its own variance)."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.size == 0 or y.size == 0:
        return NAN_ESTIMATE
    d = float(x.mean() - y.mean())
    if x.size < 2 or y.size < 2:
        return Estimate(d, math.nan, math.nan)
    half = z * math.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size)
    return Estimate(d, d - half, d + half)


def paired_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Estimate:
    """mean(a - b) over matched units (the same game of two runs with one seed): the
    interval uses the spread of the differences, so what the units share cancels."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in size: {x.shape} and {y.shape}")
    return mean_ci(x - y, z)


def paired_relative_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Estimate:
    """mean(a) / mean(b) - 1 over matched units, a relative difference (delta method: the
    interval uses the spread of a - r b, so what the units share cancels)."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in size: {x.shape} and {y.shape}")
    if x.size < 2 or y.mean() == 0:
        return NAN_ESTIMATE
    ratio = float(x.mean() / y.mean())
    half = z * float((x - ratio * y).std(ddof=1)) / (math.sqrt(x.size) * abs(float(y.mean())))
    return Estimate(ratio - 1, ratio - 1 - half, ratio - 1 + half)


def estimate_difference(a: tuple[float, ...], b: tuple[float, ...]) -> Estimate:
    """a - b for two estimates with normal intervals, taken as independent: when they come
    from the same deals this is wider than their paired interval, so a difference it finds
    is real."""
    half = math.hypot((a[2] - a[1]) / 2, (b[2] - b[1]) / 2)
    return Estimate(a[0] - b[0], a[0] - b[0] - half, a[0] - b[0] + half)
