"""A report as data: sections of paragraphs, tables and figures, plus the numbers it states.

Reports are built once as a ``Document`` and rendered twice (HTML, Markdown), so both say
the same thing; ``numbers`` holds every headline figure (estimates as [value, low, high]) and
is written as JSON, which is what tests and ``--check`` compare.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from bezsim.analysis.stats import Estimate, wide_enough


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    # columns aligned left (text); the others are numbers, aligned right
    text_columns: int = 1


@dataclass
class Figure:
    name: str            # file stem, unique within the document
    png: bytes
    caption: str


@dataclass
class Bullets:
    items: list[str]


Block = str | Table | Figure | Bullets


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)
    anchor: str = ""

    def __post_init__(self) -> None:
        if not self.anchor:
            self.anchor = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")

    def add(self, *blocks: Block) -> Section:
        self.blocks.extend(blocks)
        return self


@dataclass
class Document:
    title: str
    subtitle: str = ""
    sections: list[Section] = field(default_factory=list)
    numbers: dict[str, Any] = field(default_factory=dict)

    def section(self, title: str) -> Section:
        section = Section(title)
        self.sections.append(section)
        return section

    def record(self, key: str, value: Any) -> Any:
        """Keep a stated figure under ``key`` (JSON-ready) and return it unchanged."""
        if key in self.numbers:
            raise ValueError(f"number {key!r} recorded twice")
        self.numbers[key] = jsonable(value)
        return value

    def figures(self) -> list[Figure]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Figure)]


def jsonable(value: Any) -> Any:
    """Estimates become [value, low, high]; NaN becomes None (JSON has no NaN); numpy
    scalars become Python numbers."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def est(e: Estimate | tuple[float, ...], fmt: str = ".3f", scale: float = 1.0,
        unit: str = "") -> str:
    """``12.3 [11.9, 12.7]`` (a unit such as ``%`` follows each number)."""
    v, lo, hi = (float(x) * scale for x in e[:3])
    if math.isnan(v):
        return "n/a"
    fmt = wide_enough(fmt, (v,) if math.isnan(lo) else (v, lo, hi))   # no nonzero 0.00
    if math.isnan(lo):
        return f"{v:{fmt}}{unit}"
    if lo == hi == v:            # every sample agreed: no interval to show
        return f"{v:{fmt}}{unit} (exact)"
    return f"{v:{fmt}}{unit} [{lo:{fmt}}{unit}, {hi:{fmt}}{unit}]"


def pct(e: Estimate | tuple[float, ...], digits: int = 2) -> str:
    """A rate as percentages with its interval: ``48.20% [47.10%, 49.30%]``."""
    return est(e, f".{digits}f", 100.0, "%")


def signed(e: Estimate | tuple[float, ...], fmt: str = "+.2f", scale: float = 1.0,
           unit: str = "") -> str:
    """A difference: ``est`` with the sign always shown, interval bounds too."""
    return est(e, fmt, scale, unit)


def pp(e: Estimate | tuple[float, ...], digits: int = 2) -> str:
    """A difference of two rates in percentage points, ``+1.20 pp [+0.40 pp, +2.00 pp]``:
    a ``%`` would read as a change relative to the rate."""
    return signed(e, f"+.{digits}f", 100.0, " pp")


def excludes_zero(e: Estimate | tuple[float, ...]) -> bool:
    return bool(e[1] > 0 or e[2] < 0)


def verdict(e: Estimate | tuple[float, ...], above: str, below: str,
            unclear: str = "no difference the run can resolve") -> str:
    """Words for a difference that depend on its interval, so a report never claims more
    than its data: ``above`` if the interval lies above 0, ``below`` if below."""
    if e[1] > 0:
        return above
    if e[2] < 0:
        return below
    return unclear
