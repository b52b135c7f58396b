"""notebooks/: each runs top to bottom on the small default sample size, and git holds them
without outputs."""

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def test_there_is_one_notebook_per_question_family():
    names = [p.stem for p in NOTEBOOKS]
    assert names == ["00_getting_started", "01_polish_compounds", "02_rubicon", "03_policies",
                     "04_rule_options", "05_review"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    sys.path.insert(0, str(REPO / "notebooks"))
    try:
        from strip_outputs import has_outputs
    finally:
        sys.path.pop(0)
    assert not has_outputs(nbformat.read(path, as_version=4))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path, monkeypatch):
    monkeypatch.delenv("BEZSIM_SAMPLE_GAMES", raising=False)     # the small default
    monkeypatch.setenv("BEZSIM_RUNS", str(tmp_path))              # runs go to scratch
    book = nbformat.read(path, as_version=4)
    # history in memory: kernels running at once elsewhere must not share a sqlite file
    NotebookClient(book, timeout=600, kernel_name="python3",
                   extra_arguments=["--HistoryManager.hist_file=:memory:"],
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in book.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, "every notebook ends in a plot"
