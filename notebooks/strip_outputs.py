"""Strip outputs and execution counts from the notebooks, so git holds only their source.

    python notebooks/strip_outputs.py            # strip every notebook here, in place
    python notebooks/strip_outputs.py --check    # exit 1 if any notebook has outputs

Run it before committing a notebook you have executed; the tests check it was run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent


def has_outputs(book: nbformat.NotebookNode) -> bool:
    return any(cell.get("outputs") or cell.get("execution_count") is not None
               for cell in book.cells if cell.cell_type == "code")


def strip(book: nbformat.NotebookNode) -> nbformat.NotebookNode:
    for cell in book.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    return book


def main(argv: list[str]) -> int:
    check = "--check" in argv
    dirty = []
    for path in sorted(HERE.glob("*.ipynb")):
        book = nbformat.read(path, as_version=4)
        if not has_outputs(book):
            continue
        dirty.append(path.name)
        if not check:
            nbformat.write(strip(book), path)
    if check and dirty:
        print(f"notebooks with outputs: {', '.join(dirty)}; run "
              "python notebooks/strip_outputs.py")
        return 1
    print(f"{'would strip' if check else 'stripped'}: {', '.join(dirty) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
