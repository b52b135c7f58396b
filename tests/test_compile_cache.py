"""Where the compiled kernels live: a version's own folder in the first writable place, seeded
from a place this process cannot write that already holds the same version's kernels."""

from __future__ import annotations

from pathlib import Path

import pytest
from numba.core import config

from bezsim import compile_cache


@pytest.fixture
def places(tmp_path, monkeypatch):
    """An installed place this process cannot write and a user's place it can."""
    installed, user = tmp_path / "installed", tmp_path / "user"
    monkeypatch.setattr(compile_cache, "cache_bases", lambda: [installed, user])

    def writable(path: Path) -> bool:           # as the real probe: the place is made
        if str(path).startswith(str(installed)):
            return False
        path.mkdir(parents=True, exist_ok=True)
        return True

    monkeypatch.setattr(compile_cache, "_writable", writable)
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR, raising=False)
    return installed, user


def _kernels(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*")
            if p.is_file()}


def test_kernels_compiled_beside_a_read_only_install_are_reused(places, capsys):
    installed, user = places
    digest = compile_cache.kernel_digest()
    compiled = installed / digest / "work" / "bezsim" / "engine"
    compiled.mkdir(parents=True)
    (compiled / "hand.play_hand-156.py311.nbi").write_text("index")
    (compiled / "hand.play_hand-156.py311.1.nbc").write_text("code")
    compile_cache.use_versioned_cache_dir()
    assert config.CACHE_DIR == str(user / digest)
    assert _kernels(user / digest) == _kernels(installed / digest)
    assert "copying the kernels compiled for this version" in capsys.readouterr().err
    # a second start finds them in place: nothing is copied again
    (user / digest / "work" / "bezsim" / "engine" / "mine.nbi").write_text("later")
    compile_cache.use_versioned_cache_dir()
    assert (user / digest / "work" / "bezsim" / "engine" / "mine.nbi").read_text() == "later"
    assert capsys.readouterr().err == ""


def test_another_versions_kernels_are_not_taken(places, capsys):
    installed, user = places
    (installed / "0ther0version000" / "x").mkdir(parents=True)
    (installed / "0ther0version000" / "x" / "k.nbi").write_text("index")
    compile_cache.use_versioned_cache_dir()
    assert config.CACHE_DIR == str(user / compile_cache.kernel_digest())
    assert _kernels(user) == {} and capsys.readouterr().err == ""
