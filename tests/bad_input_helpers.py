"""Shared by the bad-input catalogues."""

from __future__ import annotations

import pytest

from bezsim.errors import BezsimError


def raises_one_line(call, fragment: str, kind: type = BezsimError) -> str:
    with pytest.raises(BezsimError) as info:
        call()
    message = str(info.value)
    assert isinstance(info.value, kind), f"{type(info.value).__name__}: {message}"
    assert "\n" not in message and message.strip(), message
    assert fragment in message, message
    return message
