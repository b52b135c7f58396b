"""Bézique for AI research: the environments and their shared action map.

``bezsim.rl.batched_env(...)`` steps N games together in one compiled call (numpy arrays in
and out, no extra needed), and ``gym_vector_env(...)`` wraps it as a Gymnasium vector
environment (extra ``rl``); ``bezsim.rl.env(...)`` / ``raw_env(...)`` give the PettingZoo AEC
environment (extra ``rl``); ``import bezsim.openspiel`` registers the OpenSpiel game (extra
``openspiel``). Each environment loads only when first asked for, so one extra never needs
the other's library.
"""

from __future__ import annotations

from typing import Any

from bezsim.env_kernels.actions import (
    CARD_ACTIONS,
    DECLARE_BASE,
    N_ACTIONS,
    STOP,
    action_of,
    offered,
)

_PETTINGZOO = ("BeziqueEnv", "env", "raw_env")
_BATCHED = ("BatchedEnv", "batched_env")
_GYM = ("BeziqueVectorEnv", "gym_vector_env")

__all__ = ["CARD_ACTIONS", "DECLARE_BASE", "N_ACTIONS", "STOP", "action_of", "offered",
           *_BATCHED, *_GYM, *_PETTINGZOO]


def __getattr__(name: str) -> Any:
    if name in _BATCHED:
        from bezsim.rl import batched

        return getattr(batched, name)
    if name in _GYM:
        from bezsim.rl import gym_vector

        return getattr(gym_vector, name)
    if name in _PETTINGZOO:
        from bezsim.rl import pettingzoo

        return getattr(pettingzoo, name)
    raise AttributeError(f"module 'bezsim.rl' has no attribute {name!r}")
