"""Decoded views of a text, each able to map a span back onto the original characters.

A secret can hide behind JSON escaping (``\\u0041KIA``), Unicode tricks (full-width letters,
zero-width and bidi controls, combining marks and fillers, Cyrillic or Greek look-alikes, a
right-to-left override in front of a reversed token) or percent encoding. The engine scans a
decoded view, then must replace the *original* characters, so every view records how its
characters came to be: runs copied unchanged (linear segments) and decoded units (an escape, a
stripped control, a normalised character) that map as a whole. A hit therefore never splits an
escape sequence and always swallows the zero-width characters inside it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from typing import Final

__all__ = ["View", "json_view", "percent_view", "unicode_view"]


class View:
    """``text`` derived from ``parent`` (``None``: the original) through ``segments``.

    Each segment is ``(dec_start, dec_end, orig_start, orig_end)``; a segment whose two lengths
    are equal is linear, any other maps as one unit. ``changes`` lists the spans of ``text``
    that differ from the parent: a hit that touches none of them was already visible there.
    """

    __slots__ = ("_starts", "changes", "parent", "segments", "text")

    def __init__(
        self,
        text: str,
        segments: list[tuple[int, int, int, int]],
        parent: View | None,
        changes: list[tuple[int, int]],
    ) -> None:
        self.text = text
        self.segments = segments
        self.parent = parent
        self.changes = changes
        self._starts = [s[0] for s in segments]

    def windows(self, reach: int) -> list[tuple[int, int]]:
        """Merged spans of ``text`` within ``reach`` of a change: all a rescan has to cover.

        Spans are widened to whole lines where a line break is near, so key-name and boundary
        checks see the same context as in a full scan.
        """
        out: list[tuple[int, int]] = []
        text = self.text
        n = len(text)
        for s, e in self.changes:
            a, b = max(0, s - reach), min(n, e + reach)
            if a > 0:
                nl = text.rfind("\n", max(0, a - reach), a)
                a = nl + 1 if nl >= 0 else max(0, a - 64)
            if b < n:
                nl = text.find("\n", b, b + reach)
                b = nl if nl >= 0 else min(n, b + 64)
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return out

    def _seg(self, pos: int) -> tuple[int, int, int, int]:
        i = bisect_right(self._starts, pos) - 1
        return self.segments[max(i, 0)]

    def to_orig(self, start: int, end: int) -> tuple[int, int]:
        ds, de, os_, oe = self._seg(start)
        a = os_ + (start - ds) if de - ds == oe - os_ else os_
        ds, de, os_, oe = self._seg(max(end - 1, start))
        b = os_ + (end - ds) if de - ds == oe - os_ else oe
        if self.parent is not None:
            return self.parent.to_orig(a, b)
        return a, b


def _build(source: str, pieces: list[tuple[int, int, str]], parent: View | None) -> View | None:
    """Assemble a view from sorted, disjoint replacements ``(orig_start, orig_end, text)``."""
    if not pieces:
        return None
    out: list[str] = []
    segs: list[tuple[int, int, int, int]] = []
    changes: list[tuple[int, int]] = []
    pos = dec = 0
    for s, e, rep in pieces:
        if s > pos:
            out.append(source[pos:s])
            segs.append((dec, dec + s - pos, pos, s))
            dec += s - pos
        out.append(rep)
        changes.append((dec, dec + len(rep)))
        if rep:
            segs.append((dec, dec + len(rep), s, e))
            dec += len(rep)
        pos = e
    if pos < len(source):
        out.append(source[pos:])
        segs.append((dec, dec + len(source) - pos, pos, len(source)))
    if not segs:
        segs.append((0, 0, 0, len(source)))
    return View("".join(out), segs, parent, changes)


_JSON_ESC_RX = re.compile(r'\\(?:u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})?|["\\/bfnrt])')
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def json_view(text: str, parent: View | None = None) -> View | None:
    """The text with JSON string escapes decoded, or ``None`` when it has none."""
    if "\\" not in text:
        return None
    pieces: list[tuple[int, int, str]] = []
    for m in _JSON_ESC_RX.finditer(text):
        esc = m.group()
        if esc[1] != "u":
            pieces.append((m.start(), m.end(), _SIMPLE[esc[1]]))
            continue
        hi = int(esc[2:6], 16)
        if len(esc) == 12:
            lo = int(esc[8:12], 16)
            if 0xD800 <= hi < 0xDC00 and 0xDC00 <= lo < 0xE000:
                cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                pieces.append((m.start(), m.end(), chr(cp)))
                continue
            pieces.append((m.start(), m.start() + 6, _char(hi)))
            pieces.append((m.start() + 6, m.end(), _char(lo)))
            continue
        pieces.append((m.start(), m.end(), _char(hi)))
    return _build(text, pieces, parent)


def _char(cp: int) -> str:
    return "\ufffd" if 0xD800 <= cp < 0xE000 else chr(cp)


#: A normalised character matters if it turns into visible ASCII. Spaces do not count: every
#: pattern treats Unicode blanks as blanks already, and an ellipsis never joins a token.
_RELEVANT_RX = re.compile(r"[!-~]")
_IGNORED: Final = frozenset("\u2026")
#: Default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point``) that are neither
#: format characters nor marks, both of which are dropped by category: Hangul fillers, which
#: render as nothing, and the reserved blocks a future version may give invisible meaning.
_IGNORABLE_RANGES: Final = (
    (0x115F, 0x1160),
    (0x2065, 0x2065),
    (0x3164, 0x3164),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),
)
_DROPPED_CATEGORIES: Final = frozenset({"Cf", "Mn", "Mc", "Me"})


def _pairs(text: str) -> dict[str, str]:
    return dict(zip(text[::2], text[1::2], strict=True))


#: Cyrillic, Greek and Armenian letters that render like an ASCII letter, after Unicode's
#: confusables data (UTS #39). A skeleton proper maps to a prototype (``I`` and Greek iota both
#: become ``l``); here each look-alike maps to the ASCII letter it imitates, case kept, because
#: the rules downstream are case-sensitive token patterns, not identifier comparisons.
CONFUSABLES: Final = _pairs(
    # Cyrillic
    "аaсcԁdеeһhіiӏiјjкkоoрpԛqгrѕsтtѵvԝwхxуyпnЬb"
    "АAВBСCЕEНHІIӀIЈJКKМMОOРPԚQЅSТTѴVԜWХXУYҮYЗ3б6"
    # Greek
    "αaιiκkνvοoρpτtυuχxγyϲcϳjπn"
    "ΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXϹCͿJϜF"
    # Armenian, and Latin letters outside ASCII that pass for ASCII ones
    "օoսuհhցgքfզqՕOՍUՏSıiɡgɑa"
)
#: Characters that start a right-to-left override, and what ends its scope: a pop, an isolate
#: terminator or a paragraph break (UAX #9).
_RLO: Final = "\u202e"
_RLO_END_RX = re.compile("[\u202c\u2069\n\r\u2029\x1c-\x1e\x85]")


_MISS: Final = object()
_norm_cache: dict[str, str | None] = {}


def _dropped(ch: str) -> bool:
    if unicodedata.category(ch) in _DROPPED_CATEGORIES:
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE_RANGES)


def _normalized(ch: str) -> str | None:
    """What a non-ASCII character becomes in the view (``""``: dropped), ``None``: itself."""
    hit = _norm_cache.get(ch, _MISS)
    if hit is not _MISS:
        return hit  # type: ignore[return-value]
    # invisible or attaching characters (zero-width and bidi controls, soft hyphen, BOM,
    # variation selectors, combining marks, Hangul fillers) can sit inside a token unseen
    out: str | None
    if _dropped(ch):
        out = ""
    elif ch in CONFUSABLES:
        out = CONFUSABLES[ch]
    else:
        norm = unicodedata.normalize("NFKC", ch)
        relevant = norm != ch and ch not in _IGNORED and _RELEVANT_RX.search(norm) is not None
        out = norm if relevant else None
    if len(_norm_cache) < 65536:
        _norm_cache[ch] = out
    return out


def _displayed(text: str) -> str:
    """``text`` normalised character by character, as the view shows it."""
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
            continue
        rep = _normalized(ch)
        out.append(ch if rep is None else rep)
    return "".join(out)


def unicode_view(text: str, parent: View | None = None, shadow: bytes | None = None) -> View | None:
    """The text as it displays: NFKC-normalised, invisible and attaching characters removed,
    look-alike letters mapped to ASCII, and a right-to-left override's span reversed; or
    ``None`` if nothing relevant changes (curly quotes, plain emoji and CJK text leave it
    ``None`` cheaply). ``shadow`` is ``text.encode("ascii", "replace")`` when the caller
    already has it."""
    if text.isascii():
        return None
    if shadow is None:
        shadow = text.encode("ascii", "replace")
    pieces: list[tuple[int, int, str]] = []
    find = shadow.find
    cached = _norm_cache.get
    i = find(b"?")
    while i >= 0:
        ch = text[i]
        if ch == _RLO:
            # the override displays its span backwards: a reversed token reads forwards, so
            # the span maps as one unit and a hit inside it replaces the whole span
            m = _RLO_END_RX.search(text, i + 1)
            end = m.start() if m is not None else len(text)
            if m is not None and text[end] in "\u202c\u2069":
                end += 1
            pieces.append((i, end, _displayed(text[i + 1 : end])[::-1]))
            i = find(b"?", end)
            continue
        if ch != "?":
            rep = cached(ch, _MISS)
            if rep is _MISS:
                rep = _normalized(ch)
            if rep is not None:
                pieces.append((i, i + 1, rep))  # type: ignore[arg-type]
        i = find(b"?", i + 1)
    if not pieces:
        return None
    return _build(text, pieces, parent)


_PCT_RX = re.compile(r"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*")


def percent_view(text: str, parent: View | None = None) -> View | None:
    """The text with percent-encoded runs decoded (UTF-8), or ``None`` when it has none."""
    # a match starts at a ``%``: walk them with ``str.find`` to the first one that starts a
    # match, and let ``finditer`` continue from there (nothing before it can match)
    i = text.find("%")
    while i >= 0:
        if _PCT_RX.match(text, i) is not None:
            break
        i = text.find("%", i + 1)
    else:
        return None
    pieces: list[tuple[int, int, str]] = []
    for m in _PCT_RX.finditer(text, i):
        run = m.group()
        raw = bytes.fromhex(run.replace("%", ""))
        if raw.isascii():
            base = m.start()
            for i, b in enumerate(raw):
                pieces.append((base + 3 * i, base + 3 * i + 3, chr(b)))
        else:
            pieces.append((m.start(), m.end(), raw.decode("utf-8", "replace")))
    return _build(text, pieces, parent)
