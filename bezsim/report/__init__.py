"""Strategy reports: ``bezsim report RUN_DIR`` and the scripts of ``analyses/``.

    from bezsim.report import write_report
    write_report("data/samples/polish")      # -> data/samples/polish/report/report.html ...

A report is built once as a ``Document`` (document.py) and rendered as self-contained HTML
and as Markdown with PNG figures (render.py); its numbers go to JSON beside them.
"""

from __future__ import annotations

from pathlib import Path

from bezsim.report.document import Document
from bezsim.report.render import to_html, to_markdown, write_document


def write_report(run_dir: str | Path, out_dir: str | Path | None = None,
                 title: str | None = None) -> dict[str, Path]:
    """Build the report of a run and write ``report.html``, ``report.md`` (+ ``figures/``)
    and ``report.json`` into ``out_dir`` (default ``RUN_DIR/report``)."""
    from bezsim.report.run_report import build_run_report

    doc = build_run_report(run_dir, title)
    return write_document(doc, Path(out_dir) if out_dir else Path(run_dir) / "report")


__all__ = ["Document", "to_html", "to_markdown", "write_document", "write_report"]
