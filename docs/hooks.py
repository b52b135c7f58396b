"""MkDocs hook: the pages generated from the package, so they cannot drift from it.

- ``tables.md``: the columns of the three Parquet tables, from ``bezsim.io.schema`` (types
  and nullability from the Arrow schemas, meanings from ``COLUMN_DESCRIPTIONS``);
- ``policies.md``: every built-in policy's parameters and expert's tuned defaults per preset,
  from ``bezsim.policy_specs.registry.describe_data`` (what ``bezsim policies --json`` prints);
- ``options.md``: every variant's rule options, from ``bezsim.rules`` (what ``bezsim options``
  prints);
- ``studies/``: the committed strategy reports of ``analyses/`` (``analyses/README.md`` and
  ``analyses/reports/*.md`` with their figures), copied into the site as pages.

A page asks for a generated block with a marker line ``<!-- generated: NAME -->``.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
ANALYSES = ROOT / "analyses"
MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _arrow_type(field) -> str:
    import pyarrow as pa

    kind = "dict" if pa.types.is_dictionary(field.type) else str(field.type)
    return kind + (", nullable" if field.nullable else "")


def _generic(table: str, name: str) -> str:
    """The documented name of a column: ``score_1`` -> ``score_i``, ``pts_sequence`` ->
    ``pts_<kind>``."""
    if table == "hands" and name.startswith("pts_"):
        return "pts_<kind>"
    if table == "games":
        return re.sub(r"_\d+$", "_i", name)
    return name


def tables_block() -> str:
    from bezsim.engine.constants import KIND_NAMES
    from bezsim.io import schema

    described = schema.COLUMN_DESCRIPTIONS
    out = []
    for table, fields in (("hands", schema.hands_schema()), ("games", schema.games_schema(4)),
                          ("declarations", schema.declarations_schema())):
        rows, seen = [], set()
        for field in fields:
            name = _generic(table, field.name)
            if name in seen:
                continue
            seen.add(name)
            if name not in described[table]:
                raise ValueError(f"bezsim.io.schema: no description of {table}.{name}")
            rows.append([f"`{name}`", _arrow_type(field), described[table][name]])
        stale = set(described[table]) - seen
        if stale:
            raise ValueError(f"bezsim.io.schema describes columns {table} lacks: {stale}")
        key = ", ".join(f"`{k}`" for k in schema.TABLE_KEYS[table])
        out.append(f"### {table}\n\nSorted by {key}.\n\n"
                   + _table(["column", "type", "meaning"], rows))
    kinds = ", ".join(f"`{kind}`" for kind in KIND_NAMES)
    out.append(f"The `pts_<kind>` columns and the `kind` values are: {kinds}.\n")
    return "\n".join(out)


def _number(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def policies_block() -> str:
    from bezsim.policy_specs.registry import describe_data

    out = []
    for policy in describe_data():
        out.append(f"### `{policy['name']}`\n\n{policy['summary']}.\n")
        params = policy["parameters"]
        if not params:
            out.append("No parameters.\n")
            continue
        by_variant = [p for p in params if p.get("default_by_variant")]
        if by_variant:
            variants = list(by_variant[0]["default_by_variant"])
            rows = [[f"`{p['name']}`"]
                    + [_number(p.get("default_by_variant", {}).get(v)) for v in variants]
                    + [p["meaning"], p["domain"]] for p in params]
            out.append("Defaults tuned per preset (`-`: the preset's games never read "
                       "the parameter):\n\n"
                       + _table(["parameter", *variants, "meaning", "domain"], rows))
        else:
            rows = [[f"`{p['name']}`", _number(p["default"]), p["meaning"], p["domain"]]
                    for p in params]
            out.append(_table(["parameter", "default", "meaning", "domain"], rows))
    return "\n".join(out)


def options_block() -> str:
    from bezsim.rules import OPTION_MEANINGS, VARIANTS, Rules, option_choices, option_names

    variants = list(VARIANTS)
    defaults = {v: Rules.make(v).options for v in variants}
    names = sorted({n for v in variants for n in option_names(v)})
    rows = []
    for name in names:
        meaning, section = OPTION_MEANINGS[name]
        values = option_choices(name)
        values = values if isinstance(values, str) else ", ".join(f"`{x}`" for x in values)
        rows.append([f"`{name}`", f"{meaning} ({section})", values]
                    + [f"`{defaults[v][name]}`" if name in option_names(v) else "-"
                       for v in variants])
    return ("Defaults per variant (`-`: the variant's rules fix it; setting it is an "
            "error):\n\n" + _table(["option", "what it decides", "values", *variants], rows))


GENERATORS = {"tables": tables_block, "policy-parameters": policies_block,
              "options": options_block}


def on_page_markdown(markdown: str, page, config, files) -> str:
    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"{page.file.src_uri}: unknown generated block {name!r}")
        return GENERATORS[name]()

    return MARKER.sub(fill, markdown)


def on_files(files, config):
    """Put the committed study reports into the site under ``studies/``."""
    reports = ANALYSES / "reports"
    sources = {"studies/index.md": ANALYSES / "README.md"}
    sources.update({f"studies/{p.name}": p for p in sorted(reports.glob("*.md"))})
    sources.update({f"studies/figures/{p.name}": p
                    for p in sorted((reports / "figures").glob("*.png"))})
    for uri, path in sources.items():
        if uri.endswith(".md"):
            files.append(File.generated(config, uri, content=_study_page(uri, path)))
        else:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def _study_page(uri: str, path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    # the report's own contents list: the site draws one beside the page
    text = re.sub(r"^\d+\. \[[^\]]*\]\(#[^)]*\)\n", "", text, flags=re.MULTILINE)
    if uri == "studies/index.md":
        # analyses/README.md names the scripts; link each to its report page
        text = re.sub(r"^# analyses/$", "# Studies: the questions answered", text, count=1,
                      flags=re.MULTILINE)
        text = re.sub(r"\| `(\w+)\.py` \|", lambda m: f"| [`{m.group(1)}.py`]({m.group(1)}.md) |",
                      text)
    return text
