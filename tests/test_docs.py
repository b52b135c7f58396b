"""The documentation: the site builds strictly, every command and option is documented, the
README stays a product page of at most 250 lines, and its test command is the one CI runs."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 250
# quiets mkdocs-material's end-of-life banner (its own documented switch), as the docs'
# commands in README.md and docs/contributing.md do
DOCS_ENV = {"NO_MKDOCS_2_WARNING": "1"}

# Never skipped: the test extra installs the docs packages, so a missing one fails the test
# with the command that installs it (no importorskip, no skip marker).


def _docs_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")))


def test_site_builds_strictly(tmp_path):
    """`mkdocs build --strict` fails on a broken link or anchor, a page missing from the nav, a
    bad API reference, or a column the schema leaves undescribed (docs/hooks.py)."""
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        try:
            __import__(module)
        except ImportError:
            pytest.fail(f"{module} is not installed: pip install -e '.[docs]'")
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site),
         "-f", "mkdocs.yml"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, **DOCS_ENV})
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr}\n{done.stdout}"
    assert "Material for MkDocs" not in done.stderr, done.stderr    # the theme's banner
    for page in ("index.html", "tables.html", "policies.html", "options.html",
                 "performance.html", "studies/search_budget.html", "api/analysis.html"):
        assert (site / page).is_file(), page
    tables = (site / "tables.html").read_text(encoding="utf-8")
    assert "compound_size" in tables and "pts_&lt;kind&gt;" in tables
    policies = (site / "policies.html").read_text(encoding="utf-8")
    assert "four_handed_partners" in policies and "stage2_win_margin" in policies
    _links_are_files(site)


def _links_are_files(site: Path) -> None:
    """Opened from disk (file://), a link to a folder shows its listing: every page's links
    within the site must name a file that exists."""
    checked, bad = 0, []
    for page in site.rglob("*.html"):
        if page.name == "404.html":         # a server's page, its links from the site's root
            continue
        text = page.read_text(encoding="utf-8")
        for href in re.findall(r'\shref="([^"#?]*)[^"]*"', text):
            if not href or re.match(r"^[a-z][a-z0-9+.-]*:|^//", href):
                continue                    # an anchor on the page, or another site
            checked += 1
            if not (page.parent / href).is_file():
                bad.append(f"{page.relative_to(site)}: {href}")
    assert checked > 1000 and not bad, bad[:10]


def _commands():
    from bezsim.cli import cli

    for name, command in sorted(cli.commands.items()):
        options = sorted({opt for param in command.params
                          if isinstance(param, click.Option)
                          for opt in (*param.opts, *param.secondary_opts)
                          if opt.startswith("--")})
        yield name, options


def test_every_command_and_option_is_documented():
    text = _docs_text()
    missing = []
    for name, options in _commands():
        if f"bezsim {name}" not in text:
            missing.append(f"bezsim {name}")
        # the option as a whole word: --policy must not be satisfied by --policy-param
        missing += [f"bezsim {name} {opt}" for opt in options
                    if not re.search(re.escape(opt) + r"(?![\w-])", text)]
    assert not missing, "not in docs/*.md: " + ", ".join(missing)


def test_readme_is_a_short_product_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    text = "\n".join(lines)
    from bezsim.cli import cli

    for name in cli.commands:
        assert f"bezsim {name}" in text, f"README's tour lacks bezsim {name}"


def _readme_test_command() -> str:
    commands = [line.split("&&", 1)[1].strip()
                for line in README.read_text(encoding="utf-8").splitlines()
                if line.startswith("pip install -e '.[test]' &&")]
    assert len(commands) == 1, commands
    return commands[0]


def test_readme_test_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    pytest_lines = [line.strip() for line in ci if line.strip().startswith("python -m pytest")]
    assert pytest_lines == [_readme_test_command()]
    install = [line.strip() for line in ci if "pip install" in line]
    assert [shlex.split(line)[-1] for line in install] == [".[test]"]
