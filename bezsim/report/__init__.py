"""Strategy reports: ``bezsim report RUN_DIR`` and the scripts of ``analyses/``.

    from bezsim.report import write_report
    write_report("data/samples/polish")      # -> data/samples/polish/report/report.html ...

A report is built once as a ``Document`` (document.py) and rendered as self-contained HTML
and as Markdown with PNG figures (render.py); its numbers go to JSON beside them.
"""

from __future__ import annotations

import os
from pathlib import Path

from bezsim.report.document import Document
from bezsim.report.render import to_html, to_markdown, write_document


def write_report(run_dir: str | Path, out_dir: str | Path | None = None,
                 title: str | None = None) -> dict[str, Path]:
    """Build the report of a run and write ``report.html``, ``report.md`` (+ ``figures/``)
    and ``report.json`` into ``out_dir`` (default ``RUN_DIR/report``)."""
    from bezsim.analysis.load import Run, load_run
    from bezsim.errors import BezsimError
    from bezsim.io.writable import check_writable_dir, write_or_keep
    from bezsim.report.run_report import build_run_report

    if out_dir is not None and not str(out_dir):
        raise BezsimError("report output directory must not be empty")
    where = getattr(run_dir, "path", run_dir)        # a Run, or its directory
    if out_dir is None and not isinstance(where, (str, os.PathLike)):
        raise BezsimError(f"a run directory must be a path, got {run_dir!r}")
    out = Path(out_dir) if out_dir is not None else Path(where) / "report"
    if (out / "manifest.json").exists():
        # report files mixed into a run directory would pass for part of the run's data
        raise BezsimError(f"report output {out} holds a bezsim run; choose another output "
                          "directory (default: RUN_DIR/report)")
    run = run_dir if isinstance(run_dir, Run) else load_run(run_dir)
    run.check_complete()                            # refuses what is not a finished run
    check_writable_dir(out, "report output directory")     # before the report is built
    doc = build_run_report(run, title)
    return write_or_keep(lambda where: write_document(doc, where), out, "the report")


__all__ = ["Document", "to_html", "to_markdown", "write_document", "write_report"]
