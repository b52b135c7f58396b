"""Policies resolved once for one variant: what the engine's front door takes.

A run, a tournament or a tuner plays many calls of ``engine.api.run_games`` with the same
policies; parsing their specs, filling tuned defaults and building the function slots once
keeps that work out of every call, and keeps policy text out of the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bezsim.errors import PolicyError
from bezsim.policy_specs.registry import parse_policies, policy_functions, policy_ids, policy_params


@dataclass(frozen=True, eq=False)
class PolicySet:
    """One policy per seat for one variant: canonical specs and the arrays the kernels read
    (policy ids, a parameter row per seat, the compiled policy set of engine/external.py)."""

    specs: tuple[str, ...]
    variant: str
    ids: np.ndarray
    params: np.ndarray
    functions: tuple

    def __len__(self) -> int:
        return len(self.specs)

    def __iter__(self):
        return iter(self.specs)

    def __getitem__(self, seat: int) -> str:
        return self.specs[seat]


def resolve_policies(policies: PolicySet | Sequence[str] | str, rules,
                     compile_with: Sequence[str] = ()) -> PolicySet:
    """``policies`` (a PolicySet, a comma list or one spec per seat) for ``rules``: refused
    with a PolicyError when they do not fit its variant or number of seats. The kernels
    compile in what ``compile_with`` plays as well (a tournament's pairs share one engine)."""
    players = rules.players
    if isinstance(policies, PolicySet):
        if policies.variant != rules.variant or len(policies) != players:
            raise PolicyError(f"these policies were resolved for {policies.variant} with "
                              f"{len(policies)} seats, not {rules.variant} with {players}")
        return policies
    specs = parse_policies(policies, players)      # it refuses what is not names
    return PolicySet(tuple(specs), rules.variant, policy_ids(specs),
                     policy_params(specs, rules.variant),
                     policy_functions(specs, rules.definition, compile_with))
