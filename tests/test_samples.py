"""data/samples: one small committed run per variant, exactly what data/make_samples.py
gives (a run is a pure function of its settings)."""

import importlib.util
import json
from pathlib import Path

import pandas as pd

from bezsim.io import read_run

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"


def _maker():
    spec = importlib.util.spec_from_file_location("make_samples",
                                                  REPO / "data" / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_variant_has_a_small_sample_made_by_the_script():
    maker = _maker()
    assert sorted(p.name for p in SAMPLES.iterdir() if p.is_dir()) == sorted(maker.SPECS)
    total = sum(f.stat().st_size for f in SAMPLES.rglob("*") if f.is_file())
    assert total < 5e6
    for variant, (policies, games) in maker.SPECS.items():
        manifest = json.loads((SAMPLES / variant / "manifest.json").read_text())
        assert manifest["rules"]["variant"] == variant
        assert (manifest["seed"], manifest["games"]) == (maker.SEED, games)
        players = len(manifest["policies"])
        expected = policies.split(",") if "," in policies else [policies] * players
        assert manifest["policies"] == expected


def test_a_sample_made_again_equals_the_committed_one(tmp_path):
    fresh = read_run(_maker().make_sample("rubicon", tmp_path / "rubicon"))
    committed = read_run(SAMPLES / "rubicon")
    for name, table in committed.items():
        pd.testing.assert_frame_equal(fresh[name], table)
