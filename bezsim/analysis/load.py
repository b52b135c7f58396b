"""Load run directories into pandas: one ``Run`` per directory, tables read on first use.

    from bezsim.analysis import load_run, load_runs, stack
    run = load_run("data/samples/polish")
    run.hands, run.games, run.declarations        # DataFrames, rows in canonical order
    runs = load_runs(["data/runs/a", "data/runs/b"])
    stack(runs, "games")                          # one frame, a ``run`` column says whose

The manifest says what the run is (rules, policies, seed, games); the tables are read only
when asked for, since a big run's declarations table holds millions of rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from bezsim.errors import BezsimError
from bezsim.io.manifest import MANIFEST_NAME, read_manifest
from bezsim.io.reader import read_shards, read_table
from bezsim.io.schema import TABLE_NAMES
from bezsim.rules import VARIANT_DEFINITIONS, Variant, variant_of


class Run:
    """One run directory: its manifest and its three tables (read lazily, then kept)."""

    def __init__(self, path: str | os.PathLike, manifest: dict[str, Any],
                 label: str | None = None) -> None:
        self.path = path
        self.manifest = manifest
        self.label = label or Path(str(path)).name

    def __repr__(self) -> str:
        return (f"Run({self.label!r}: {self.variant}, {self.n_games:,} games, "
                f"policies {','.join(self.policies)}, seed {self.seed})")

    # --- what the run is -------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return str(self.manifest["rules"]["variant"])

    @property
    def definition(self) -> Variant:
        """What the run's variant is (bezsim.rules.Variant)."""
        return variant_of(self.variant)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.manifest["rules"]["options"])

    @property
    def policies(self) -> list[str]:
        return list(self.manifest["policies"])

    @property
    def seed(self) -> int:
        return int(self.manifest["seed"])

    @property
    def n_games(self) -> int:
        """Games in the run (``run.games`` is the games table)."""
        return int(self.manifest["games"])

    @property
    def players(self) -> int:
        return len(self.policies)

    @property
    def partners(self) -> bool:
        return self.definition.partners

    @property
    def sides(self) -> int:
        """Sides that score: the two teams of a partnership, else every seat."""
        return 2 if self.partners else self.players

    @property
    def one_hand_game(self) -> bool:
        """Rubicon: a game is one hand, settled by R6.8."""
        return self.definition.one_hand_game

    def rules(self):
        """The run's ``bezsim.rules.Rules`` (to simulate more games like it)."""
        from bezsim.rules import Rules

        return Rules.make(self.variant, self.options)

    # --- the tables ------------------------------------------------------------------------
    def table(self, name: str, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One table; with ``columns``, only those (cheaper for big runs, not cached)."""
        if name not in TABLE_NAMES:
            raise BezsimError(f"unknown table {name!r} (tables: {', '.join(TABLE_NAMES)})")
        if columns is None:
            return getattr(self, name)
        if name in self.__dict__:
            return self.__dict__[name][list(columns)]
        return read_shards(self.path, name, columns=columns)

    def _whole(self, name: str) -> pd.DataFrame:
        return _read(self.path, name, lambda: read_table(self.path, name))

    @cached_property
    def hands(self) -> pd.DataFrame:
        return self._whole("hands")

    @cached_property
    def games(self) -> pd.DataFrame:
        return self._whole("games")

    @cached_property
    def declarations(self) -> pd.DataFrame:
        return self._whole("declarations")

    def check_complete(self) -> None:
        """Refuse a run whose games table is short of its manifest (interrupted, or shards
        lost): its figures would describe a different sample than the manifest says."""
        found = len(self.table("games", ["game_id"]))
        if found != self.n_games:
            raise BezsimError(f"run {self.path} is incomplete ({found:,} of {self.n_games:,} "
                              f"games); finish it with: bezsim simulate --resume {self.path}")


def _read(where: Any, name: str, reader) -> pd.DataFrame:
    """A table read, with a damaged file said in one line rather than an Arrow traceback."""
    import pyarrow as pa

    try:
        return reader()
    except (pa.ArrowException, OSError) as exc:   # Arrow's messages run over many lines
        why = " ".join(str(exc).split()[:40]) or type(exc).__name__
        raise BezsimError(f"cannot read the {name} table of {where}: {why}") from None


def load_run(path: str | os.PathLike, label: str | None = None) -> Run:
    """A run directory (or fsspec URL) written by ``bezsim simulate`` or ``run_simulation``."""
    try:
        manifest = read_manifest(path)
    except FileNotFoundError:
        manifest = None
    if manifest is None:
        raise BezsimError(f"{path} is not a bezsim run directory (no {MANIFEST_NAME})")
    for key in ("rules", "policies", "seed", "games"):
        if key not in manifest:
            raise BezsimError(f"{path}: {MANIFEST_NAME} has no {key!r}; is it a bezsim run?")
    _check_manifest(path, manifest)
    return Run(path, manifest, label)


def _check_manifest(path: Any, manifest: dict[str, Any]) -> None:
    """The fields a Run reads, with the types it reads them as (a hand-edited manifest
    would otherwise fail later as a TypeError deep in an analysis)."""
    rules = manifest["rules"]
    whole = (isinstance(manifest[k], int) and not isinstance(manifest[k], bool)
             for k in ("seed", "games"))
    if not (isinstance(rules, dict) and isinstance(rules.get("variant"), str)
            and isinstance(rules.get("options"), dict)
            and isinstance(manifest["policies"], list)
            and all(isinstance(p, str) for p in manifest["policies"]) and all(whole)):
        raise BezsimError(f"{path}: {MANIFEST_NAME} is malformed (rules, policies, seed or "
                          "games of the wrong type); is it a bezsim run?")


def finished_run(path: str | os.PathLike, needs: str | None = None,
                 what: str = "these figures") -> Run:
    """A complete run, whose variant has the feature ``needs`` (a true field of
    bezsim.rules.Variant, such as ``"open_cards"``) when given: figures of an interrupted run,
    or of a variant the question does not apply to, would silently answer another one."""
    run = load_run(path)
    if needs is not None and not getattr(run.definition, needs):
        having = [v.name for v in VARIANT_DEFINITIONS.values() if getattr(v, needs)]
        raise BezsimError(f"{what} need a {' or '.join(having)} run; {path} is a run of "
                          f"variant {run.variant}")
    run.check_complete()
    return run


def n_hands(run: Run) -> int:
    """Hands played in the run: the unit of every per-hand figure, one count for all."""
    return int(run.table("games", ["hands"])["hands"].sum())


def load_runs(paths: Iterable[str | os.PathLike],
              labels: Sequence[str] | None = None) -> list[Run]:
    """Several runs, each labelled (default: its directory name; labels must differ)."""
    if isinstance(paths, (str, os.PathLike)):
        raise BezsimError(f"load_runs takes a list of run directories, got {paths!r}; use "
                          "load_run for one")
    paths = list(paths)
    if labels is not None and len(labels) != len(paths):
        raise BezsimError(f"{len(paths)} runs need {len(paths)} labels, got {len(labels)}")
    runs = [load_run(p, None if labels is None else labels[i]) for i, p in enumerate(paths)]
    seen = [r.label for r in runs]
    if len(set(seen)) < len(seen):
        raise BezsimError(f"runs need distinct labels, got {seen}; pass labels=")
    return runs


def stack(runs: Sequence[Run], table: str, columns: Sequence[str] | None = None
          ) -> pd.DataFrame:
    """One table of several runs in one frame, with a categorical ``run`` column first."""
    frames = [run.table(table, columns).assign(run=run.label) for run in runs]
    out = pd.concat(frames, ignore_index=True)
    out["run"] = pd.Categorical(out["run"], categories=[r.label for r in runs])
    return out[["run", *[c for c in out.columns if c != "run"]]]
