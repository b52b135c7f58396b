"""Render a ``Document`` as one self-contained HTML file (figures embedded as base64 PNG,
styles inline) and as Markdown with its figures beside it, then write both plus the JSON
of its numbers.

Paragraph text may use three inline marks, rendered in both formats: `code`, **bold** and
*italic*.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

from bezsim.report.document import Bullets, Document, Figure, Table

CSS = """
body { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: #1d232a; background: #fafafa; margin: 0; line-height: 1.5; }
main { max-width: 1000px; margin: 0 auto; padding: 24px 32px 64px; background: #fff;
       box-shadow: 0 0 12px rgba(0,0,0,.06); }
h1 { font-size: 1.8em; margin: .4em 0 .1em; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 2px solid #3b6ea5;
     padding-bottom: .2em; }
.subtitle { color: #555; margin-top: 0; }
nav { background: #f1f4f8; padding: 8px 16px; border-radius: 6px; font-size: .92em; }
nav ol { margin: 4px 0; padding-left: 20px; columns: 2; }
table { border-collapse: collapse; margin: 12px 0 4px; font-size: .9em; }
th, td { border: 1px solid #d5dbe1; padding: 4px 9px; vertical-align: top; }
th { background: #eef2f6; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #f9fafb; }
caption { caption-side: bottom; text-align: left; color: #555; font-size: .88em;
          padding-top: 4px; }
figure { margin: 18px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e3e7eb; }
figcaption { color: #555; font-size: .88em; }
code { background: #f1f3f5; padding: 1px 4px; border-radius: 3px; font-size: .92em; }
footer { margin-top: 40px; color: #777; font-size: .85em; }
"""


def _inline_html(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])", r"<em>\1</em>", out)


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{_inline_html(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = "".join(
            f'<td{"" if i < table.text_columns else " class=num"}>{_inline_html(c)}</td>'
            for i, c in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    caption = f"<caption>{_inline_html(table.caption)}</caption>" if table.caption else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _figure_html(fig: Figure) -> str:
    data = base64.b64encode(fig.png).decode("ascii")
    alt = html.escape(fig.caption, quote=True)
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{alt}">'
            f"<figcaption>{_inline_html(fig.caption)}</figcaption></figure>")


def to_html(doc: Document) -> str:
    parts = [f"<h1>{_inline_html(doc.title)}</h1>"]
    if doc.subtitle:
        parts.append(f'<p class="subtitle">{_inline_html(doc.subtitle)}</p>')
    toc = "".join(f'<li><a href="#{s.anchor}">{_inline_html(s.title)}</a></li>'
                  for s in doc.sections)
    parts.append(f"<nav><strong>Contents</strong><ol>{toc}</ol></nav>")
    for section in doc.sections:
        parts.append(f'<section id="{section.anchor}"><h2>{_inline_html(section.title)}</h2>')
        for block in section.blocks:
            if isinstance(block, Table):
                parts.append(_table_html(block))
            elif isinstance(block, Figure):
                parts.append(_figure_html(block))
            elif isinstance(block, Bullets):
                items = "".join(f"<li>{_inline_html(i)}</li>" for i in block.items)
                parts.append(f"<ul>{items}</ul>")
            else:
                parts.append(f"<p>{_inline_html(block)}</p>")
        parts.append("</section>")
    parts.append("<footer>Made by bezsim. Intervals are 95%: Wilson for rates, normal "
                 "approximation for means, Newcombe or paired for differences.</footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(doc.title)}</title><style>{CSS}</style></head>"
            f"<body><main>\n" + "\n".join(parts) + "\n</main></body></html>\n")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table_md(table: Table) -> str:
    lines = ["| " + " | ".join(_md_cell(c) for c in table.columns) + " |",
             "|" + "|".join("---" if i < table.text_columns else "---:"
                            for i in range(len(table.columns))) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
    if table.caption:
        lines += ["", f"*{table.caption}*"]
    return "\n".join(lines)


def to_markdown(doc: Document, figure_dir: str = "figures", prefix: str = "") -> str:
    """Markdown; figures are referenced as ``figure_dir/<prefix><name>.png`` (written
    beside it)."""
    parts = [f"# {doc.title}"]
    if doc.subtitle:
        parts.append(doc.subtitle)
    parts.append("\n".join(f"{i}. [{s.title}](#{s.anchor})"
                           for i, s in enumerate(doc.sections, 1)))
    for section in doc.sections:
        parts.append(f"## {section.title}")
        for block in section.blocks:
            if isinstance(block, Table):
                parts.append(_table_md(block))
            elif isinstance(block, Figure):
                parts.append(f"![{block.caption}]({figure_dir}/{prefix}{block.name}.png)\n\n"
                             f"*{block.caption}*")
            elif isinstance(block, Bullets):
                parts.append("\n".join(f"- {item}" for item in block.items))
            else:
                parts.append(block)
    parts.append("*Intervals are 95%: Wilson for rates, normal approximation for means, "
                 "Newcombe or paired for differences.*")
    return "\n\n".join(parts) + "\n"


# Decimal places kept in a report's numbers: sums taken in another order (another numpy, another
# CPU's vector width) differ in the last bits, and a difference of equal means came out as
# 1.4e-17 on one run and 0.0 on another, so a regenerated report rewrote a tracked file
DECIMALS = 10


def settled(numbers):
    """The report's numbers with floats rounded to DECIMALS places (the JSON that is written
    and that ``--check`` compares)."""
    if isinstance(numbers, float):
        return round(numbers, DECIMALS) + 0.0          # + 0.0: no "-0.0"
    if isinstance(numbers, dict):
        return {key: settled(value) for key, value in numbers.items()}
    if isinstance(numbers, (list, tuple)):
        return [settled(value) for value in numbers]
    return numbers


def write_document(doc: Document, out_dir: str | Path, stem: str = "report",
                   figure_prefix: str = "") -> dict[str, Path]:
    """Write ``stem.html`` (self-contained), ``stem.md`` + ``figures/<prefix><name>.png``
    and ``stem.json`` (the numbers) into ``out_dir``; returns the paths. A prefix keeps the
    figures of several reports in one folder apart."""
    out = Path(out_dir)
    figures = out / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    names = [fig.name for fig in doc.figures()]
    if len(set(names)) < len(names):
        raise ValueError(f"figure names repeat in {stem}: {names}")
    for fig in doc.figures():
        (figures / f"{figure_prefix}{fig.name}.png").write_bytes(fig.png)
    paths = {"html": out / f"{stem}.html", "markdown": out / f"{stem}.md",
             "json": out / f"{stem}.json"}
    paths["html"].write_text(to_html(doc), encoding="utf-8")
    paths["markdown"].write_text(to_markdown(doc, "figures", figure_prefix), encoding="utf-8")
    paths["json"].write_text(json.dumps(settled(doc.numbers), indent=1, sort_keys=True,
                                        ensure_ascii=False) + "\n", encoding="utf-8")
    return paths
