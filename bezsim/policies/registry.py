"""Policy names the user can give, and their engine ids."""

from __future__ import annotations

from bezsim.errors import BezsimError
from bezsim.policies.builtin import GREEDY, RANDOM

POLICY_IDS = {"random": RANDOM, "greedy": GREEDY}
POLICY_NAMES = tuple(POLICY_IDS)


class PolicyError(BezsimError, ValueError):
    """An unknown policy name or a wrong number of policies."""


def parse_policies(text: str | list[str] | tuple[str, ...], players: int) -> list[str]:
    """``"random,greedy"`` -> one name per seat; a single name is used for every seat."""
    names = [t.strip().lower() for t in (text.split(",") if isinstance(text, str) else text)]
    names = [t for t in names if t]
    if not names:
        raise PolicyError("no policy given (choose from: " + ", ".join(POLICY_NAMES) + ")")
    for name in names:
        if name not in POLICY_IDS:
            raise PolicyError(f"unknown policy {name!r} (choose from: {', '.join(POLICY_NAMES)})")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(f"{len(names)} policies given for {players} seats")
    return names


def policy_ids(names: list[str]):
    import numpy as np

    return np.array([POLICY_IDS[n] for n in names], dtype=np.int64)
