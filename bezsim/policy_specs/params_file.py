"""A parameters file: the JSON ``bezsim tune`` writes as ``best.json``, whose ``"spec"`` any
command taking ``--policies`` accepts as ``@FILE.json``. Reading it belongs to the policies,
not the tuner, so parsing a spec never loads the tuner."""

from __future__ import annotations

import json
from pathlib import Path

from bezsim.errors import PolicyError


def read_params_file(path: str | Path) -> str:
    """The policy spec a parameters file (``bezsim tune``'s best.json) holds."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PolicyError(f"parameters file {str(path)!r} does not exist") from None
    except (OSError, ValueError) as exc:
        raise PolicyError(f"parameters file {str(path)!r} is not readable JSON "
                          f"({exc.__class__.__name__})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("spec"), str):
        raise PolicyError(f"parameters file {str(path)!r} has no \"spec\" (write it with "
                          "bezsim tune)")
    return doc["spec"]
