"""The small committed sample runs in ``data/samples/<variant>/`` (one per variant), so
notebooks, tests and ``bezsim report`` work without simulating first.

``BEZSIM_SAMPLES`` overrides where they are looked for (default: ``data/samples`` of the
checkout this package was installed from).
"""

from __future__ import annotations

import os
from pathlib import Path

from bezsim.analysis.load import Run, load_run
from bezsim.errors import BezsimError

REPO = Path(__file__).resolve().parents[2]


def samples_dir() -> Path:
    return Path(os.environ.get("BEZSIM_SAMPLES", REPO / "data" / "samples"))


def sample_path(variant: str) -> Path:
    """Directory of the committed sample run of ``variant``."""
    path = samples_dir() / variant
    if not (path / "manifest.json").is_file():
        have = sorted(p.name for p in samples_dir().glob("*") if (p / "manifest.json").is_file())
        raise BezsimError(f"no sample run for {variant!r} in {samples_dir()} "
                          f"(samples: {', '.join(have) or 'none'})")
    return path


def sample_run(variant: str) -> Run:
    """The committed sample run of ``variant``, loaded."""
    return load_run(sample_path(variant), label=f"sample {variant}")
