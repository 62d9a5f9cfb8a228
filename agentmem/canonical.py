"""What every hash in agentmem is taken of: one deterministic JSON encoding.

A leaf module, so the providers (a leaf layer) and the core event log share the function
without either importing the other.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["canonical_json"]

_encoder = msgspec.json.Encoder(order="deterministic")


def canonical_json(value: Any) -> bytes:
    """Compact JSON with dict keys and sets sorted: the same value always encodes the same.

    Struct fields keep their declared order. To hash a struct independently of that order,
    hash ``msgspec.to_builtins(value)``, whose dicts are then sorted like any other.
    """
    return _encoder.encode(value)
