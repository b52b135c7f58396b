"""The layer order of docs/architecture.md holds: a module imports only modules of its own
layer or the layers below (imports inside functions count), and no import circle exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from import_graph import cycles, graph, modules

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def layers() -> list[tuple[str, list[str]]]:
    """(layer, module prefixes) from the table in docs/architecture.md, top layer first."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("<!-- layers -->")[1]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0] and not set(cells[0]) <= set("-: "):
            prefixes = re.findall(r"`(bezsim[\w.]*)`", cells[1])
            if prefixes:
                rows.append((cells[0], prefixes))
    return rows


def layer_of(module: str, table: list[tuple[str, list[str]]]) -> int:
    """Index of the layer whose longest prefix names the module (0 = top); ``bezsim`` alone
    names only the package's face, so a new module must be given its layer."""
    best, depth = -1, -1
    for i, (_, prefixes) in enumerate(table):
        for prefix in prefixes:
            inside = prefix != "bezsim" and module.startswith(prefix + ".")
            if (module == prefix or inside) and len(prefix) > depth:
                best, depth = i, len(prefix)
    return best


def test_every_module_has_a_layer():
    table = layers()
    assert len(table) >= 6
    assert [m for m in modules() if layer_of(m, table) < 0] == []


def test_no_module_imports_a_higher_layer():
    table = layers()
    wrong = [f"{a} ({table[layer_of(a, table)][0]}) imports {b} ({table[layer_of(b, table)][0]})"
             for a, targets in graph().items() for b in sorted(targets)
             if layer_of(b, table) < layer_of(a, table)]
    assert wrong == []


def test_no_import_circle():
    assert cycles(graph()) == []


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_the_circle_finder_finds_circles(edges, expected):
    assert cycles(edges) == expected


def test_the_layer_test_catches_an_upward_import():
    table = layers()
    assert layer_of("bezsim.engine.api", table) > layer_of("bezsim.running.simulation", table)
    assert layer_of("bezsim.engine.hand", table) > layer_of("bezsim.rules", table)
