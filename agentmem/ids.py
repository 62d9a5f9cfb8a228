"""What a printable id is, in one place: the event envelope, settings and HTTP headers share it.

An id must print as what it is, so it may not hold control characters (Cc: C0 and C1), format
characters (Cf: bidi overrides, zero-width characters, the soft hyphen, tag characters),
surrogates, or line and paragraph separators. The Cf list is Unicode 15's; a test compares it
with ``unicodedata``. Astral characters are written literally so the pattern means the same to
Python's ``re`` and to ECMA-262 (``u`` flag) schema validators.
"""

from __future__ import annotations

__all__ = ["ID_PATTERN"]

_NOT_PRINTABLE = (
    r"\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    r"\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)

#: 1 or more printable characters. ``$(?!\n)``: Python's ``$`` also matches before a final
#: newline, which would let "id\n" in.
ID_PATTERN = f"^[^{_NOT_PRINTABLE}]+$(?!\\n)"
