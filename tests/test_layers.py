"""The layers of docs/architecture.md hold, room by room: every room (a folder of bezsim/ or a
module at its top) has one layer; a room imports only rooms of its layer or below (imports
inside functions count); the rooms form no circle but for the one deliberate link the page
names; no module circle exists; and the kernels layer is exactly the folders the compiled
cache watches, holding every module numba compiles and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from import_graph import PACKAGE, cycles, graph, modules

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
# the engine asks a seat's policy: the one room arrow that runs against the order
DELIBERATE_LINK = ("bezsim.engine.decisions", "bezsim.policies.builtin")


def layers() -> list[tuple[str, list[str]]]:
    """(layer, rooms) from the table in docs/architecture.md, top layer first."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("<!-- layers -->")[1]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0] and not set(cells[0]) <= set("-: "):
            rooms = re.findall(r"`(bezsim[\w.]*)`", cells[1])
            if rooms:
                rows.append((cells[0], rooms))
    return rows


def room_of(module: str) -> str:
    """The room a module lives in: its top folder of bezsim/, or itself at the top."""
    return ".".join(module.split(".")[:2])


def layer_of(room: str, table: list[tuple[str, list[str]]]) -> int:
    """Index of the layer that names the room (0 = top), -1 if none does."""
    for i, (_, rooms) in enumerate(table):
        if room in rooms:
            return i
    return -1


def room_arrows() -> dict[str, set[str]]:
    """Room → rooms it imports, without the deliberate link."""
    arrows: dict[str, set[str]] = {}
    for a, targets in graph().items():
        for b in targets:
            if (a, b) != DELIBERATE_LINK and room_of(a) != room_of(b):
                arrows.setdefault(room_of(a), set()).add(room_of(b))
    return arrows


def compiled_modules() -> set[str]:
    """Modules whose compiled code numba caches on disk: they use the kernels' decorator or
    ask for ``cache=True`` (a plug-in's wrapper compiled on demand, never cached, may live
    in a front door)."""
    pattern = re.compile(r"(^\s*from bezsim\.engine\.jit import|cache=True)", re.M)
    return {name for name, path in modules().items()
            if pattern.search(path.read_text(encoding="utf-8"))}


def test_the_table_names_rooms_only():
    table = layers()
    assert len(table) >= 6
    named = [room for _, rooms in table for room in rooms]
    assert len(named) == len(set(named))
    assert [r for r in named if r != room_of(r)] == []


def test_every_room_has_a_layer():
    table = layers()
    assert sorted({room_of(m) for m in modules() if layer_of(room_of(m), table) < 0}) == []


def test_no_room_imports_a_higher_layer():
    table = layers()
    wrong = [f"{a} ({table[layer_of(room_of(a), table)][0]}) imports {b} "
             f"({table[layer_of(room_of(b), table)][0]})"
             for a, targets in graph().items() for b in sorted(targets)
             if layer_of(room_of(b), table) < layer_of(room_of(a), table)]
    assert wrong == []


def test_rooms_form_no_circle_but_the_deliberate_link():
    assert cycles(room_arrows()) == []
    assert DELIBERATE_LINK[1] in graph()[DELIBERATE_LINK[0]]


def test_no_module_circle():
    assert cycles(graph()) == []


def test_the_kernels_layer_is_the_compiled_cache_boundary():
    from bezsim.compile_cache import KERNEL_FOLDERS, kernel_sources

    table = layers()
    kernel_rooms = {room for name, rooms in table if name.startswith("kernels")
                    for room in rooms}
    assert kernel_rooms == {f"bezsim.{folder}" for folder in KERNEL_FOLDERS}
    assert all((PACKAGE / folder).is_dir() for folder in KERNEL_FOLDERS)
    watched = {p.resolve() for p in kernel_sources()}
    in_folders = {p.resolve() for folder in KERNEL_FOLDERS
                  for p in (PACKAGE / folder).rglob("*.py")}
    assert watched == in_folders


def test_every_compiled_module_is_a_kernel_and_kernels_hold_nothing_else():
    from bezsim.compile_cache import KERNEL_FOLDERS

    kernels = {f"bezsim.{folder}" for folder in KERNEL_FOLDERS}
    compiled = compiled_modules()
    assert sorted(m for m in compiled if room_of(m) not in kernels) == []
    # a kernel room imports only kernel rooms and the base
    base = {"bezsim", "bezsim.errors", "bezsim.cards", "bezsim.compile_cache"}
    wrong = [f"{a} imports {b}" for a, targets in graph().items() if room_of(a) in kernels
             for b in sorted(targets) if room_of(b) not in kernels | base]
    assert wrong == []


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_the_circle_finder_finds_circles(edges, expected):
    assert cycles(edges) == expected


def test_the_layer_test_catches_an_upward_import():
    table = layers()
    assert layer_of("bezsim.engine_api", table) > layer_of("bezsim.running", table)
    assert layer_of("bezsim.engine", table) > layer_of("bezsim.rules", table)
    assert room_of("bezsim.policies.expert.policy") == "bezsim.policies"
    arrows = room_arrows()
    arrows.setdefault("bezsim.engine", set()).add("bezsim.policies")
    assert cycles(arrows) == [["bezsim.engine", "bezsim.policies"]]
