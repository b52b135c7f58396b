"""``assert_close``: pytest.approx over nested JSON-like values (dicts of lists of floats).

pytest.approx refuses nested dictionaries since pytest 9.2, and the report numbers nest them
(e.g. the share of compound declarations by size: {"2": [value, low, high], ...}).
"""

from __future__ import annotations

from typing import Any

import pytest


def assert_close(recorded: Any, expected: Any, where: str = "") -> None:
    if isinstance(expected, dict):
        assert isinstance(recorded, dict), f"{where}: {recorded!r} is not a mapping"
        assert sorted(recorded) == sorted(expected), f"{where}: keys differ"
        for key in expected:
            assert_close(recorded[key], expected[key], f"{where}[{key!r}]")
    else:
        assert recorded == pytest.approx(expected, nan_ok=True), where
