"""``DIR/manifest.json``: what run a directory holds, so a rerun can resume it safely.

The identity (rules, policies, seed, games, shard size, bezsim version) decides the output;
a directory is resumed only by a command with the same identity, and refused otherwise. The
manifest also records a digest of the engine's and policies' sources: a fix to either changes
games without changing the identity, so a run with games left to play is finished only by the
code that began it (a finished run is read by any).
"""

from __future__ import annotations

import functools
import json
import os
import platform
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from bezsim import __version__
from bezsim.errors import BezsimError
from bezsim.io.storage import store_for
from bezsim.rules import Rules

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = 1
IDENTITY_KEYS = ("bezsim_version", "rules", "policies", "seed", "games", "shard_size")


def run_identity(rules: Rules, policies: list[str], seed: int, games: int,
                 shard_size: int) -> dict[str, Any]:
    """Everything the tables depend on (threads do not count: results ignore them)."""
    identity = {
        "bezsim_version": __version__,
        "rules": rules.to_dict(),
        "policies": list(policies),
        "seed": int(seed),
        "games": int(games),
        "shard_size": int(shard_size),
    }
    from bezsim.policy_specs.registry import resolved_values

    values = resolved_values(list(policies), rules.variant)
    if values:                         # expert: its defaults depend on the shipped tuning
        identity["policy_params"] = values
    # normalise through JSON so a fresh identity compares equal to one read from disk
    return json.loads(json.dumps(identity, sort_keys=True))


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def library_versions() -> dict[str, str]:
    """Versions that made the data (recorded with it; they do not change a run's identity)."""
    return dict(_library_versions())


@functools.cache
def _library_versions() -> tuple[tuple[str, str], ...]:
    # looked up once a process: every shard file records them, and each lookup reads
    # package metadata from disk (about 1 ms, three times a shard)
    return (("python", platform.python_version()),
            *((p, _version(p)) for p in ("numba", "numpy", "pyarrow", "pandas")))


def build_manifest(identity: dict[str, Any]) -> dict[str, Any]:
    from bezsim.compile_cache import kernel_digest

    return {
        "format": MANIFEST_FORMAT,
        **identity,
        "kernels": kernel_digest(),
        "tables": ["hands", "games", "declarations"],
        "versions": library_versions(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def read_manifest(out_dir: str | os.PathLike) -> dict[str, Any] | None:
    """The manifest of ``out_dir`` (a directory or URL), or None if there is none."""
    store = store_for(out_dir)
    path = store.path(MANIFEST_NAME)
    try:
        text = store.read_bytes(path).decode("utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BezsimError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError:
        raise BezsimError(f"{path} is not valid JSON; was it edited by hand?") from None
    if not isinstance(manifest, dict):
        raise BezsimError(f"{path} is not a bezsim manifest")
    return manifest


def write_manifest(out_dir: str | os.PathLike, manifest: dict[str, Any]) -> Path:
    """Write atomically: a half-written manifest would make the directory unresumable."""
    store = store_for(out_dir)
    path = store.path(MANIFEST_NAME)
    text = json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    store.write_atomic(path, lambda handle: handle.write(text.encode("utf-8")))
    return Path(path)


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def describe_difference(found: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """First way a stored run differs from the wanted one, said as 'stored, not wanted'."""
    # a hand-edited manifest may hold anything: what is not a mapping differs from all
    found_rules, wanted_rules = _mapping(found.get("rules")), wanted["rules"]
    if found_rules.get("variant") != wanted_rules["variant"]:
        return f"variant {found_rules.get('variant')}, not {wanted_rules['variant']}"
    found_opts, wanted_opts = _mapping(found_rules.get("options")), wanted_rules["options"]
    for name in sorted(set(found_opts) | set(wanted_opts)):
        if found_opts.get(name) != wanted_opts.get(name):
            return f"option {name}={found_opts.get(name)}, not {wanted_opts.get(name)}"
    labels = {"seed": "seed", "games": "games", "policies": "policies",
              "shard_size": "shard size", "bezsim_version": "made by bezsim"}
    for key in ("seed", "games", "policies", "shard_size", "bezsim_version"):
        if found.get(key) != wanted[key]:
            return f"{labels[key]} {_show(found.get(key))}, not {_show(wanted[key])}"
    if found.get("policy_params") != wanted.get("policy_params"):
        return ("other parameter values for " + ", ".join(sorted(wanted.get("policy_params")
                                                                 or found["policy_params"]))
                + " (its tuned defaults have changed since the run was made)")
    return None


def check_same_kernels(out_dir: str | os.PathLike) -> None:
    """Refuse to play more games into a run begun by other engine or policy code (or by code
    that did not record its digest): the run would hold games of two codes."""
    from bezsim.compile_cache import kernel_digest

    found = (read_manifest(out_dir) or {}).get("kernels")
    here = kernel_digest()
    if found != here:
        raise BezsimError(f"output directory {store_for(out_dir)} holds a run begun by other "
                          f"engine or policy code (kernel sources {found or 'unrecorded'}, "
                          f"not {here}): finish it with the bezsim that began it, or play it "
                          "again in another directory")


def check_out_dir(out_dir: str | os.PathLike,
                  identity: dict[str, Any]) -> Literal["new", "resume"]:
    """Decide what ``out_dir`` is for this run: ``new`` (absent or empty), ``resume`` (same
    run), or raise BezsimError (a different run, or foreign files)."""
    store = store_for(out_dir)
    path = store
    try:
        if not store.exists(store.root):
            return "new"
        if not store.isdir(store.root):
            raise BezsimError(f"output path {path} exists and is not a directory")
        manifest = read_manifest(store)
        if manifest is None:
            if store.has_entries(store.root):
                raise BezsimError(f"output directory {path} is not empty and holds no bezsim "
                                  f"run (no {MANIFEST_NAME}); choose another output directory")
            return "new"
    except OSError as exc:
        raise BezsimError(f"cannot read output directory {path}: {exc.strerror or exc}") from exc
    difference = describe_difference(manifest, identity)
    if difference:
        raise BezsimError(f"output directory {path} holds a different run ({difference}); "
                          "choose another output directory or delete this one")
    return "resume"
