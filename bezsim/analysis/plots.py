"""Figures for reports and notebooks (matplotlib, no pyplot state: each call returns its own
``Figure``, so reports can be built in threads and tests). Every axis is labelled with its
unit; intervals are 95%.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from bezsim.analysis.stats import Estimate

WIDTH, HEIGHT = 7.0, 3.6
COLOR = "#3b6ea5"
ACCENT = "#c0504d"


def new_figure(width: float = WIDTH, height: float = HEIGHT) -> tuple[Figure, object]:
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    return fig, fig.add_subplot()


def png_bytes(fig: Figure, dpi: int = 110) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def bin_edges(values: np.ndarray, bins: int = 40) -> np.ndarray:
    """About ``bins`` equal bins; for scores, which are multiples of 10 (or 100 for a
    settlement), each bin holds the same number of possible values, else the histogram
    shows a comb of empty and doubled bins."""
    x = np.asarray(values, dtype=np.float64)
    lo, hi = float(x.min()), float(x.max())
    if not np.all(x == np.round(x)) or lo == hi:
        return np.histogram_bin_edges(x, bins=bins)
    step = int(np.gcd.reduce(np.abs(x.astype(np.int64) - int(lo)))) or 1
    width = step * max(1, int(np.ceil((hi - lo) / (step * bins))))
    return np.arange(lo - step / 2, hi + width, width)


def histogram(values: np.ndarray | dict[str, np.ndarray], xlabel: str, title: str,
              ylabel: str = "share of games (%)", bins: int | Sequence[float] = 40,
              mark: float | None = None, mark_label: str | None = None) -> Figure:
    """Distribution as percentages of the sample; a dict overlays several samples, each
    summing to 100% (the legend gives each one's size)."""
    fig, ax = new_figure()
    samples = values if isinstance(values, dict) else {"": values}
    arrays = {k: np.asarray(v, dtype=np.float64) for k, v in samples.items()}
    arrays = {k: v[~np.isnan(v)] for k, v in arrays.items()}
    pooled = np.concatenate(list(arrays.values())) if arrays else np.zeros(0)
    if isinstance(bins, int) and pooled.size:
        bins = bin_edges(pooled, bins)
    for i, (label, x) in enumerate(arrays.items()):
        weights = np.full(x.size, 100.0 / max(x.size, 1))
        ax.hist(x, bins=bins, weights=weights, alpha=0.6 if len(arrays) > 1 else 0.9,
                label=f"{label} ({x.size:,})" if label else None,
                color=None if len(arrays) > 1 else COLOR,
                histtype="stepfilled" if i == 0 or len(arrays) == 1 else "step",
                linewidth=1.5)
    if mark is not None:
        ax.axvline(mark, color=ACCENT, linestyle="--", linewidth=1.2, label=mark_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(arrays) > 1 or mark_label:
        ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


def bar_ci(labels: Sequence[str], estimates: Sequence[Estimate], xlabel: str, title: str,
           scale: float = 1.0, reference: float | None = None,
           reference_label: str | None = None, log: bool = False) -> Figure:
    """Horizontal bars with 95% interval whiskers, one per label (top to bottom)."""
    n = len(labels)
    fig, ax = new_figure(height=max(2.0, 0.9 + 0.34 * n))
    values = np.array([e[0] for e in estimates], dtype=np.float64) * scale
    low = np.array([e[1] for e in estimates], dtype=np.float64) * scale
    high = np.array([e[2] for e in estimates], dtype=np.float64) * scale
    err = np.vstack([np.nan_to_num(values - low), np.nan_to_num(high - values)])
    y = np.arange(n)[::-1]
    ax.barh(y, values, xerr=err, color=COLOR, alpha=0.85, capsize=3,
            error_kw={"elinewidth": 1.2, "ecolor": "#222"})
    ax.set_yticks(y, labels)
    if reference is not None:
        ax.axvline(reference * scale, color=ACCENT, linestyle="--", linewidth=1.2,
                   label=reference_label)
        if reference_label:
            ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def grouped_bar_ci(categories: Sequence[str], groups: dict[str, Sequence[Estimate]],
                   ylabel: str, title: str, scale: float = 1.0, xlabel: str = "") -> Figure:
    """Vertical bars per category, one per group side by side, with 95% whiskers."""
    fig, ax = new_figure(width=max(WIDTH, 1.2 + 0.55 * len(categories) * len(groups)))
    x = np.arange(len(categories))
    width = 0.8 / max(len(groups), 1)
    for i, (name, estimates) in enumerate(groups.items()):
        values = np.array([e[0] for e in estimates], dtype=np.float64) * scale
        err = np.vstack([np.nan_to_num(values - np.array([e[1] for e in estimates]) * scale),
                         np.nan_to_num(np.array([e[2] for e in estimates]) * scale - values)])
        ax.bar(x + (i - (len(groups) - 1) / 2) * width, values, width * 0.95, yerr=err,
               label=name, capsize=2, error_kw={"elinewidth": 1, "ecolor": "#222"})
    ax.set_xticks(x, categories)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


def difference_plot(labels: Sequence[str], diffs: Sequence[Estimate], xlabel: str,
                    title: str) -> Figure:
    """Forest plot: each difference as a dot with its 95% interval, against zero."""
    n = len(labels)
    fig, ax = new_figure(height=max(2.0, 0.9 + 0.32 * n))
    y = np.arange(n)[::-1]
    values = np.array([d[0] for d in diffs], dtype=np.float64)
    low = np.array([d[1] for d in diffs], dtype=np.float64)
    high = np.array([d[2] for d in diffs], dtype=np.float64)
    excludes_zero = (low > 0) | (high < 0)
    colors = np.where(excludes_zero, ACCENT, COLOR)
    ax.hlines(y, low, high, colors=colors, linewidth=2)
    ax.scatter(values, y, color=colors, zorder=3, s=22)
    ax.axvline(0, color="#444", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def convergence_plot(frame: pd.DataFrame, ylabel: str, title: str,
                     xlabel: str = "hands simulated (log scale)",
                     scale: float = 1.0) -> Figure:
    """Running estimate with its 95% band against the sample size (``convergence``)."""
    fig, ax = new_figure()
    n = frame["n"].to_numpy()
    ax.fill_between(n, frame["low"] * scale, frame["high"] * scale, color=COLOR, alpha=0.25,
                    label="95% interval", linewidth=0)
    ax.plot(n, frame["value"] * scale, color=COLOR, linewidth=1.6, label="estimate")
    if len(frame):
        ax.axhline(frame["value"].iloc[-1] * scale, color="#444", linewidth=0.8,
                   linestyle=":", label="final estimate")
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(frameon=False, loc="upper right")
    ax.grid(alpha=0.3)
    return fig


def learning_curve(series: dict[str, tuple[Sequence[int], Sequence[Estimate]]], xlabel: str,
                   ylabel: str, title: str, scale: float = 1.0,
                   reference: float | None = None) -> Figure:
    """One line with its 95% band per series, against training done so far."""
    fig, ax = new_figure()
    colors = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1"]
    for (label, (x, estimates)), color in zip(series.items(), colors, strict=False):
        x = np.asarray(x)
        value = np.array([e.value for e in estimates]) * scale
        low = np.array([e.low for e in estimates]) * scale
        high = np.array([e.high for e in estimates]) * scale
        ax.fill_between(x, low, high, color=color, alpha=0.2, linewidth=0)
        ax.plot(x, value, color=color, linewidth=1.6, marker="o", markersize=3, label=label)
    if reference is not None:
        ax.axhline(reference * scale, color="#444", linewidth=0.8, linestyle="--")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(frameon=False, loc="best")
    ax.grid(alpha=0.3)
    return fig
