"""How deeply a JSON text nests, measured without parsing it (parsers recurse).

Appending refuses events whose JSON, or whose JSON-holding text (tool-call arguments, tool
results), nests deeper than :data:`MAX_JSON_DEPTH`: export, redaction and verification walk
those documents recursively, and a document a thousand levels deep would otherwise fail there
with a ``RecursionError`` long after it was accepted.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import sub
from typing import Final

__all__ = ["MAX_JSON_DEPTH", "json_depth", "too_deep"]

#: Deepest nesting of arrays and objects accepted in any JSON an event carries.
MAX_JSON_DEPTH: Final = 100

_STRING_RX = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
#: Opening brackets count 2 and closing ones 0, so after ``i + 1`` brackets the running sum
#: minus ``i + 1`` is the depth at that point: ``accumulate`` and ``map`` do the loop in C.
_STEPS: Final = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_NOT_BRACKETS: Final = bytes(sorted(set(range(256)) - set(b"[]{}")))


def json_depth(data: bytes | str) -> int:
    """The deepest nesting of ``[`` and ``{`` in a JSON text, brackets in strings ignored."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if b"[" not in data and b"{" not in data:
        return 0
    if b'"' in data:
        data = _STRING_RX.sub(b"", data)
    steps = data.translate(_STEPS, _NOT_BRACKETS)
    if not steps:
        return 0
    return max(0, max(map(sub, accumulate(steps), range(1, len(steps) + 1))))


def too_deep(data: bytes | str) -> int | None:
    """The depth of ``data`` when it exceeds :data:`MAX_JSON_DEPTH`, else ``None``.

    Text with no more opening brackets than the limit cannot exceed it; most text is answered
    by that count alone.
    """
    if isinstance(data, str):
        opening = data.count("[") + data.count("{")
    else:
        opening = data.count(b"[") + data.count(b"{")
    if opening <= MAX_JSON_DEPTH:
        return None
    depth = json_depth(data)
    return depth if depth > MAX_JSON_DEPTH else None
