"""The redaction engine: one rule registry for export, memory formation and the secret scanner.

Three callers need the same definition of a secret. Trajectory export replaces every hit with
``[REDACTED:<rule>]`` and then verifies the finished document with the very same rules, failing
closed (ADR-0032). Memory formation only asks whether a message holds a secret at all. The
committed-secret scanner reports file, line and rule. Keeping one registry means a rule added
for one of them protects all three, and the registry's ``version`` hash tells an evidence
record exactly which compiled policy produced a result.

A scan looks at the original text and at decoded views of it (JSON escapes; the text as it
displays: NFKC, invisible and combining characters removed, look-alike letters mapped, a
right-to-left override undone; percent encoding; base64 runs, line-wrapped blocks joined,
decoded one level deep); hits in a view are mapped back onto the original characters, so
replacement always removes what was actually written. Findings carry offsets and rule names,
never the matched text.

Per view the work is a handful of C-speed passes over a one-byte-per-character *shadow* of the
text: a translation to token-run shape searched with ``bytes.find`` (token rules and base64),
``memchr`` gates for rare literals, and a case-folded shape that is searched reversed for
``<secret word><separator>`` (key names) and forward for ``123-4567`` (PII numbers). Python code
only runs where one of those passes found a candidate.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any, Final

import msgspec

from agentmem.errors import ConfigError, RedactionFailed
from agentmem.redaction.rules import (
    KEY_ENDINGS,
    KEY_QUALIFIERS,
    KEY_RULES,
    MARKER_RX,
    PII_RULES,
    SECRET_WORDS,
    TOKEN_RULES,
    TokenRule,
    classify_key,
    key_words,
    luhn_ok,
    value_is_secret,
)
from agentmem.redaction.views import View, json_view, percent_view, unicode_view

__all__ = [
    "ENGINE_VERSION",
    "MAX_JSON_DEPTH",
    "Finding",
    "PolicyProfile",
    "RuleRegistry",
    "ScanMemo",
    "default_profile",
    "default_registry",
    "marker",
]

#: Bumped whenever matching behaviour changes in a way the rule patterns do not show.
ENGINE_VERSION: Final = "redaction-engine/1"


class Finding(msgspec.Struct, frozen=True):
    """One hit: the rule, its family and the span it covers in the *original* text."""

    rule: str
    family: str
    start: int
    end: int


class PolicyProfile(msgspec.Struct, frozen=True):
    """Which policy-PII rules apply; secrets and key-name rules always apply.

    ``name`` and ``version`` identify the profile in audit records and in the registry's
    compiled-policy hash, so changing what a profile redacts means bumping its version.
    """

    name: str = "default"
    pii: frozenset[str] = frozenset(PII_RULES)
    version: str = "1"

    def __post_init__(self) -> None:
        unknown = sorted(self.pii - PII_RULES.keys())
        if unknown:
            raise ConfigError(
                f"policy profile {self.name!r} names unknown PII rules: {', '.join(unknown)}; "
                f"known: {', '.join(sorted(PII_RULES))}"
            )


def default_profile() -> PolicyProfile:
    """The default profile: every PII rule is redacted."""
    return PolicyProfile()


def marker(rule: str) -> str:
    """The replacement text written for a hit of ``rule``."""
    return f"[REDACTED:{rule}]"


# ---------------------------------------------------------------------------------------------
# Shapes confirmed in Python after an anchor hit

_BLANKS: Final = frozenset(
    " \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
_KEY_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_LOCAL_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+-"
)
_VALUE_RX = re.compile(
    r"""[=>]?[^\S\r\n]*(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>[^'"\n]*)'|`(?P<bq>[^`"\n]*)`"""
    r"""|(?P<bare>[^\s'"`,;&)}\]<>\\]+))"""
)
_COOKIE_RX = re.compile(
    r"""[^\S\r\n]*(?P<v>[^\s;,"'\\=]+=[^\s;"'\\]*(?:;[^\S\r\n]*[^\s;,"'\\=]+(?:=[^\s;"'\\]*)?)*)"""
)
_CRED_RX = re.compile(r"""[^\s"'\\]+""")
_SCHEME_RX = re.compile(r"(?i)(bearer|basic|token|digest|negotiate)[^\S\r\n]+(?=\S)")
_AWS_SECRET_RX = re.compile(r"[A-Za-z0-9/+]{40}")
_DSN_CONTEXT_RX = re.compile(
    r"(?i)(?:^|[\s;])(?:host|hostaddr|server|data source|dbname|database|user id|uid|user|"
    r"port|sslmode|initial catalog)\s*="
)
_DOMAIN_RX = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.(?P<tld>[A-Za-z]{2,24})"
    r"(?![A-Za-z0-9-])"
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_FILE_TLDS: Final = frozenset(
    _words(
        "png jpg jpeg gif svg webp ico bmp css js mjs ts tsx jsx py rb go rs md txt json yaml yml "
        "toml lock html htm xml pdf zip gz tar whl so dll exe log csv ini cfg"
    )
)
_NUM_END = r"(?![0-9A-Za-z_-])"
_CARD_RX = re.compile(r"(?:[0-9][ .-]?){12,18}[0-9]" + _NUM_END)
_CARD_SEPS: Final = " .-"
_SSN_RX = re.compile(r"(?!000|666|9[0-9]{2})[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}" + _NUM_END)
_NANP_RX = re.compile(
    r"(?:\+?1[ .-]?)?(?:\([0-9]{3}\)[ .-]?|[0-9]{3}[ .-])[0-9]{3}[ .-][0-9]{4}" + _NUM_END
)
_INTL_RX = re.compile(
    r"\+[1-9][0-9]{0,2}[ .-]?(?:\([0-9]{1,4}\)[ .-]?)?[0-9]{1,4}(?:[ .-][0-9]{2,4}){1,4}" + _NUM_END
)
#: Token characters (alphanumerics, ``_``, ``-``, ``+``) -> ``a``, anything else -> space. A
#: token-shaped secret always leaves a run of at least ``_RUN_MIN`` of them; ordinary prose does
#: not, so only those runs are searched for token anchors.
_RUN_TABLE: Final = bytes(
    ord("a") if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+_-") else ord(" ")
    for c in range(256)
)
_RUN_MIN: Final = 15
_RUN_NEEDLE: Final = b"a" * _RUN_MIN
#: How far before a run its prefix or context (``Bearer ``, ``123456789:``, ``SG.``) may start.
_RUN_BACK: Final = 16
_HEXISH_BYTES: Final = b"0123456789abcdef-"
_CRED_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/=-"
)
_SCHEME_BEFORE_RX = re.compile(r"(?i:(?P<bearer_token>bearer)|(?P<basic_auth>basic))[^\S\r\n]+\Z")
#: How far from a decoded change a secret can still reach (a 4096-bit RSA key is ~3.3 KB).
_VIEW_REACH: Final = 4096
_B64_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_B64_BLOB_RX = re.compile(r"[A-Za-z0-9+/_-]+")


def _fold_table() -> bytes:
    """Case-folded shape of a text: letters lower-cased, digits ``0``, joiners (``_ - .``),
    quotes and blanks -> ``_``, ``= : ,`` -> ``=`` (a comma separates the two halves of a
    ``["KEY", "value"]`` pair), ``( ) +`` kept, anything else ``#``."""
    out = bytearray(b"#" * 256)
    for c in range(128):
        ch = chr(c)
        if ch.isalpha():
            out[c] = ord(ch.lower())
        elif ch.isdigit():
            out[c] = ord("0")
        elif ch in "_-.\"'` \t":
            out[c] = ord("_")
        elif ch in "=:,":
            out[c] = ord("=")
        elif ch in "()+":
            out[c] = c
    return bytes(out)


_FOLD_TABLE: Final = _fold_table()
#: In the folded shape every grouped PII number contains this: ``123-4567`` ends every phone
#: number and grouped card, ``45-6789`` every SSN. Bare card numbers are digit-only token runs.
_NUM_NEEDLE: Final = b"00_0000"
_NUM_SPAN: Final = frozenset(b"0_()+")
_NUM_SPAN_RX = re.compile(rb"[0_()+]*")
#: Where a PII number can start inside a region: a digit, ``(`` or ``+`` not glued to a word.
_NUM_START_RX = re.compile(rb"[0(+](?<![0a-z][0(+])")
_WS_DEL: Final = str.maketrans("", "", "\n\r\t")

Hit = tuple[int, int, str]


def _card_ok(text: str) -> bool:
    digits = text.replace(" ", "").replace("-", "").replace(".", "")
    if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    seps = {c for c in text if c in _CARD_SEPS}
    if len(seps) > 1:
        return False
    if seps:
        groups = [len(g) for g in re.split(r"[ .-]", text)]
        if groups not in ([4, 6, 5], [4, 6, 4]) and not (
            all(g == 4 for g in groups[:-1]) and 1 <= groups[-1] <= 4
        ):
            return False
    if not _iin_ok(digits):
        return False
    return luhn_ok(digits)


def _iin_ok(d: str) -> bool:
    n = len(d)
    two, four = int(d[:2]), int(d[:4])
    if d[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if d.startswith(("6011", "65")) or 644 <= int(d[:3]) <= 649 or two == 62:
        return 16 <= n <= 19
    if 3528 <= four <= 3589:
        return 16 <= n <= 19
    if two in (36, 38, 39) or 300 <= int(d[:3]) <= 305:
        return 14 <= n <= 19
    return False


def _intl_ok(text: str) -> bool:
    digits = sum(c.isdigit() for c in text)
    return 8 <= digits <= 15


# ---------------------------------------------------------------------------------------------


class RuleRegistry:
    """Compiled rules for one policy profile; build it with :func:`default_registry`."""

    def __init__(self, profile: PolicyProfile | None = None) -> None:
        self.profile = profile or default_profile()
        self._pii = frozenset(self.profile.pii)
        self._token_full: dict[str, re.Pattern[str]] = {
            r.name: re.compile(r.full) for r in TOKEN_RULES
        }
        meta: dict[str, tuple[str, int]] = {r.name: (r.family, r.priority) for r in TOKEN_RULES}
        meta.update(KEY_RULES)
        meta.update({name: ("pii", prio) for name, prio in PII_RULES.items() if name in self._pii})
        self._meta = meta
        self.rules: list[tuple[str, str]] = [(name, fam) for name, (fam, _) in meta.items()]
        self._token_master, self._token_kinds = _token_master()
        gates: dict[tuple[str, str], list[TokenRule]] = {}
        for r in TOKEN_RULES:
            if r.gate is not None:
                gates.setdefault(r.gate[:2], []).append(r)
        self._gates = [_gate_plan(char, lit, rules) for (char, lit), rules in gates.items()]
        # every gate fires only where its gate character occurs (see _gate_plan): a text with
        # none of them skips the per-gate searches, one ``re`` pass instead of seven ``find``s
        self._gate_chars = re.compile("[" + "".join(re.escape(g[0]) for g in self._gates) + "]")
        self._scheme_rules = {r.name: r for r in TOKEN_RULES if r.scheme}
        self._num_rules = self._pii & {"payment_card", "us_ssn", "phone_number"}
        self.version = self._version()

    def _version(self) -> str:
        parts: list[Any] = [ENGINE_VERSION]
        parts += [[r.name, r.family, r.priority, r.full, list(r.anchors)] for r in TOKEN_RULES]
        parts += [[k, *v] for k, v in sorted(KEY_RULES.items())]
        parts += [list(KEY_ENDINGS), sorted(SECRET_WORDS), sorted(KEY_QUALIFIERS)]
        parts += [[k, v] for k, v in sorted(PII_RULES.items()) if k in self._pii]
        parts.append([self.profile.name, self.profile.version, sorted(self._pii)])
        blob = json.dumps(parts, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    # -- matching on one view -----------------------------------------------------------------

    def _hits_in(
        self, text: str, pii: bool, shadow: bytes
    ) -> tuple[list[Hit], list[tuple[int, int]]]:
        """Hits in one view, and the non-hex token runs found on the way (for base64).

        ``shadow`` is ``text.encode("ascii", "replace")``: same length, one byte per character,
        so byte-level maps and searches give character offsets directly.
        """
        hits: list[Hit] = []
        runs: list[tuple[int, int]] = []
        n = len(text)
        if n >= _RUN_MIN:
            mapped = shadow.translate(_RUN_TABLE)
            find = mapped.find
            i = find(_RUN_NEEDLE)
            if i >= 0:
                num_rules = self._num_rules
                while i >= 0:
                    j = find(b" ", i + _RUN_MIN)
                    if j < 0:
                        j = n
                    # run characters are ASCII token characters, so the shadow slice is the text
                    # itself: stripping the hex alphabet leaves nothing exactly when the run is
                    # all ``[0-9a-f-]`` (a uuid or digest), and ``isdigit`` means ``[0-9]+``
                    run = shadow[i:j]
                    if run.strip(_HEXISH_BYTES):
                        runs.append((i, j))
                        self._run_hits(text, i, j, hits)
                        if num_rules and b"+" in run:
                            # form encoding joins words with ``+``: a bare number inside
                            k = i
                            for part in run.split(b"+"):
                                if len(part) >= 13 and part.isdigit():
                                    hit = self._num_hit(text, k)
                                    if hit is not None:
                                        hits.append(hit)
                                k += len(part) + 1
                    elif num_rules and run.isdigit():
                        hit = self._num_hit(text, i)
                        if hit is not None:
                            hits.append(hit)
                    i = find(_RUN_NEEDLE, j)
        # Every occurrence of a gate literal holds its probe character (which occurs in the
        # literal once) at a fixed offset, so walking the probe (``memchr`` speed) and checking
        # the literal there visits exactly the literal's occurrences, in order, without the
        # slow whole-literal search (common letters defeat its skip table).
        for need, probe, off, literal, rules in (
            self._gates if self._gate_chars.search(text) else ()
        ):
            if probe is None:
                if need not in text:
                    continue
                g = text.find(literal)
                while g >= 0:
                    self._gate_hits(text, g, rules, hits)
                    g = text.find(literal, g + 1)
                continue
            q = text.find(probe)
            while q >= 0:
                g = q - off
                if g >= 0 and text.startswith(literal, g):
                    self._gate_hits(text, g, rules, hits)
                q = text.find(probe, q + 1)
        if n < 6:
            return hits, runs
        folded = shadow.translate(_FOLD_TABLE)
        # ``=`` in the folded shape is exactly ``=`` or ``:`` in the text. A key-name match
        # starts at a separator and reads at most ``_KV_BACK`` characters before it, so on a
        # long text only the span from ``_KV_BACK`` before the first separator to the last one
        # is reversed (in place: the faster loop); a short one is reversed whole.
        window: bytes | bytearray | None = None
        if n < _KV_SHORT:
            if "=" in text or ":" in text or "," in text:
                window, hi = folded[::-1], n - 1
        else:
            lo = folded.find(b"=")
            if lo >= 0:
                hi = folded.rfind(b"=")
                window = bytearray(memoryview(folded)[max(0, lo - _KV_BACK) : hi + 1])
                window.reverse()
        if window is not None:
            for m in _KV_REVERSED.finditer(window):
                hit = _kv_hit(text, hi - m.start())
                if hit is not None:
                    hits.append(hit)
        if pii:
            if "@" in text and "email" in self._pii:
                for at in _EMAIL_AT.finditer(text):
                    hit = _email_hit(text, at.start())
                    if hit is not None:
                        hits.append(hit)
            if self._num_rules:
                q = folded.find(_NUM_NEEDLE)
                if q >= 0:
                    self._num_hits(text, folded, hits, q)
        return hits, runs

    def _gate_hits(self, text: str, g: int, rules: list[TokenRule], hits: list[Hit]) -> None:
        for rule in rules:
            hit = self._token_hit(text, g, rule, rule.gate[2])  # type: ignore[index]
            if hit is not None:
                hits.append(hit)

    def _run_hits(self, text: str, i: int, j: int, hits: list[Hit]) -> None:
        """Token anchors around one run, and a scheme word (``Bearer``) right before it."""
        kinds = self._token_kinds
        for m in self._token_master.finditer(text, max(0, i - _RUN_BACK), j + _RUN_BACK):
            rule, backs = kinds[m.lastindex or 0]
            hit = self._token_hit(text, m.start(), rule, backs)
            if hit is not None:
                hits.append(hit)
        ts = i
        while ts > 0 and text[ts - 1] in _CRED_CHARS:
            ts -= 1
        sm = _SCHEME_BEFORE_RX.search(text, max(0, ts - 12), ts)
        if sm is not None:
            rule = self._scheme_rules[sm.lastgroup or ""]
            hit = self._token_hit(text, sm.start(), rule, (0,))
            if hit is not None:
                hits.append(hit)

    def _num_hits(self, text: str, folded: bytes, hits: list[Hit], q: int) -> None:
        """PII numbers in the regions around each occurrence of the number needle, the first
        of which is at ``q``.

        The needle can start inside whatever precedes a number (``A00 4111 ...`` folds to
        ``a00_0000 ...``), so it only says where to look: every start in the region is judged
        on its own, and digits glued to a word (a uuid or hex id group) are refused there, by
        ``_NUM_START_RX`` and ``_num_hit``, never by skipping the region around them.
        """
        done = 0
        span = _NUM_SPAN_RX.match
        find = folded.find
        while q >= 0:
            b = span(folded, q).end()  # type: ignore[union-attr]
            a = q
            while a > done and folded[a - 1] in _NUM_SPAN:
                a -= 1
            for m in _NUM_START_RX.finditer(folded, a, b):
                hit = self._num_hit(text, m.start())
                if hit is not None:
                    hits.append(hit)
            done = b
            q = find(_NUM_NEEDLE, b)

    def _token_hit(self, text: str, p: int, rule: TokenRule, backs: tuple[int, ...]) -> Hit | None:
        full = self._token_full[rule.name]
        for back in backs:
            start = p - back
            if start < 0:
                continue
            m = full.match(text, start)
            if m is None or m.end() <= p:
                continue
            if "v" in full.groupindex and m.group("v") is not None:
                s, e = m.span("v")
                value = m.group("v")
            else:
                s, e = m.span()
                value = m.group()
            if rule.check is not None and not rule.check(value):
                # ".../webhook/Basic <base64>/notify", "?q=deploy+with+Basic <base64>+now": a
                # value whose alphabet has "/" and "+" runs on into the path or query after it;
                # the value may end at any of them (a longer cut only redacts more)
                cut = max(value.rfind("/"), value.rfind("+"))
                while cut >= 8:
                    value = value[:cut]
                    if rule.check(value):
                        return s, s + len(value), rule.name
                    cut = max(value.rfind("/"), value.rfind("+"))
                return None
            return s, e, rule.name
        return None

    def _num_hit(self, text: str, p: int) -> Hit | None:
        if p > 0 and text[p - 1] in _NUM_BEFORE:
            return None
        pii = self._pii
        if "payment_card" in pii:
            m = _CARD_RX.match(text, p)
            if m:
                card = m.group()
                while not _card_ok(card):
                    # a longer run can hide a card: "4111 1111 1111 1111 2024" ends at a group
                    cut = max(card.rfind(c) for c in _CARD_SEPS)
                    if cut < 0:
                        break
                    card = card[:cut]
                else:
                    if not (card.isdigit() and _id_context(text, p)):
                        return p, p + len(card), "payment_card"
        if "us_ssn" in pii:
            m = _SSN_RX.match(text, p)
            if m:
                return m.start(), m.end(), "us_ssn"
        if "phone_number" in pii:
            m = _NANP_RX.match(text, p)
            if m:
                return m.start(), m.end(), "phone_number"
            m = _INTL_RX.match(text, p)
            if m and _intl_ok(m.group()):
                return m.start(), m.end(), "phone_number"
        return None

    # -- views and decoding -------------------------------------------------------------------

    def _scan_views(self, text: str, *, pii: bool, decode: bool, views: bool = True) -> list[Hit]:
        """Hits in ``text`` and in its decoded views, all in ``text`` coordinates.

        A view is only rescanned within ``_VIEW_REACH`` of the characters it changed, so one
        escape in a megabyte of tool output costs a window, not a second full pass.
        """
        shadow = text.encode("ascii", "replace")
        hits, runs = self._hits_in(text, pii, shadow)
        if not views:
            return hits
        if "\\" not in text and text.isascii():
            # the common case, the general path below without its views: no JSON escape and
            # no Unicode view, so only percent encoding and base64 runs of the text remain
            if not decode:
                return hits
            if "%" in text:
                self._percent_hits(text, None, pii, hits)
            if runs:
                self._base64_hits(text, runs, None, pii, hits)
            return hits
        b64: list[tuple[str, list[tuple[int, int]], View | None]] = [(text, runs, None)]
        last: View | None = None
        last_text = text
        if "\\" in text:
            view = json_view(text)
            if view is not None:
                b64.append((view.text, self._scan_windows(view, pii, hits), view))
                last, last_text = view, view.text
        if not last_text.isascii():
            view = unicode_view(last_text, last, None if last else shadow)
            if view is not None:
                b64.append((view.text, self._scan_windows(view, pii, hits), view))
                last, last_text = view, view.text
        if last is not None and last.parent is not None and _RLO in text:
            # a right-to-left override written as is reverses escapes too (``\n`` reads
            # ``n\``): undo the override first, then decode the escapes
            view = unicode_view(text, None, shadow)
            if view is not None:
                b64.append((view.text, self._scan_windows(view, pii, hits), view))
                inner = json_view(view.text, view)
                if inner is not None:
                    b64.append((inner.text, self._scan_windows(inner, pii, hits), inner))
        if not decode:
            return hits
        if "%" in last_text:
            self._percent_hits(last_text, last, pii, hits)
        for source, source_runs, view in b64:
            if source_runs:
                self._base64_hits(source, source_runs, view, pii, hits)
        return hits

    def _percent_hits(self, text: str, parent: View | None, pii: bool, hits: list[Hit]) -> None:
        """Hits in the percent-decoded view of ``text`` (itself ``parent``'s text, if any)."""
        pv = percent_view(text, parent)
        if pv is not None:
            for a, z in pv.windows(_VIEW_REACH):
                sub = self._scan_views(pv.text[a:z], pii=pii, decode=False)
                hits.extend((*pv.to_orig(s + a, e + a), rule) for s, e, rule in sub)

    def _base64_hits(
        self,
        source: str,
        runs: list[tuple[int, int]],
        view: View | None,
        pii: bool,
        hits: list[Hit],
    ) -> None:
        """One hit per base64 blob around ``runs`` whose decoded text holds a hit."""
        for start, end, decoded in _base64_runs(source, runs):
            inner = self._scan_views(decoded, pii=pii, decode=False)
            if inner:
                rule = max(inner, key=lambda h: self._meta[h[2]][1])[2]
                if view is not None:
                    start, end = view.to_orig(start, end)
                hits.append((start, end, rule))

    def _scan_windows(self, view: View, pii: bool, hits: list[Hit]) -> list[tuple[int, int]]:
        """Scan a view near its changes; add mapped hits, return its runs (view coordinates)."""
        runs: list[tuple[int, int]] = []
        for a, z in view.windows(_VIEW_REACH):
            sub = view.text[a:z]
            sub_hits, sub_runs = self._hits_in(sub, pii, sub.encode("ascii", "replace"))
            hits.extend((*view.to_orig(s + a, e + a), rule) for s, e, rule in sub_hits)
            runs.extend((i + a, j + a) for i, j in sub_runs)
        return runs

    def _findings(self, text: str, *, pii: bool = True, views: bool = True) -> list[Finding]:
        if not text:
            return []
        hits = self._scan_views(text, pii=pii, decode=True, views=views)
        if not hits:
            return []
        if "[REDACTED:" in text:
            spans = [m.span() for m in MARKER_RX.finditer(text)]
            hits = [h for h in hits if not any(h[0] < e and s < h[1] for s, e in spans)]
        hits.sort()
        meta = self._meta
        out: list[Finding] = []
        cur_s = cur_e = -1
        cur_rule = ""
        for s, e, rule in hits:
            if s >= e:
                continue
            if s < cur_e:
                cur_e = max(cur_e, e)
                if meta[rule][1] > meta[cur_rule][1]:
                    cur_rule = rule
                continue
            if cur_rule:
                out.append(Finding(cur_rule, meta[cur_rule][0], cur_s, cur_e))
            cur_s, cur_e, cur_rule = s, e, rule
        if cur_rule:
            out.append(Finding(cur_rule, meta[cur_rule][0], cur_s, cur_e))
        return out

    # -- public API ---------------------------------------------------------------------------

    def scan_text(self, text: str) -> list[Finding]:
        """Every hit in ``text``: sorted, non-overlapping, labelled with the most specific rule."""
        return self._findings(text)

    def first_secret(self, text: str) -> str | None:
        """The rule of the first secret or key-name hit (PII ignored), or ``None``."""
        found = self._findings(text, pii=False)
        return found[0].rule if found else None

    def redact_text(self, text: str) -> tuple[str, list[Finding]]:
        """``text`` with every hit replaced by ``[REDACTED:<rule>]``, and the findings."""
        found = self._findings(text)
        return _replaced(text, found), found

    def redact_json(self, obj: Any, *, memo: ScanMemo | None = None) -> tuple[Any, int]:
        """A deep copy of a JSON-like value with secrets replaced, and the replacement count.

        Strings are redacted as text; a dict key that names a secret redacts its scalar value
        whole; ``{"name": "API_KEY", "value": ...}`` pairs and ``[["API_KEY", ...], ...]`` lists
        of pairs redact the value; strings holding a JSON document (tool-call ``arguments``)
        are parsed and walked too; a number that is itself a hit (a card number stored as an
        integer) becomes the marker string, unless its key names an id (``order_id``). Below
        :data:`MAX_JSON_DEPTH` levels nothing is walked: verification refuses such a document.
        Pass the same ``memo`` to :meth:`verify_document` of the result (see :class:`ScanMemo`).
        """
        counter = [0]
        return self._redact_obj(obj, counter, 0, memo or ScanMemo(self)), counter[0]

    def _redact_obj(self, obj: Any, counter: list[int], depth: int, memo: ScanMemo) -> Any:
        if isinstance(obj, str):
            return self._redact_str(obj, counter, depth, memo)
        if depth >= MAX_JSON_DEPTH:
            return obj
        if isinstance(obj, dict):
            out: dict[Any, Any] = {}
            clean, key_rule = memo.clean, memo.key_rule
            for k, v in obj.items():
                if isinstance(k, str):
                    nk = k if k in clean else self._redact_str(k, counter, depth, memo)
                    # most keys name no secret: then no value of theirs is a keyed hit
                    rule = _keyed_rule(k, v, key_rule) if key_rule(k) else None
                else:
                    nk, rule = k, None
                if rule is not None:
                    out[nk] = marker(rule)
                    counter[0] += 1
                elif type(v) is str and (v in clean or not (v.isdigit() and _id_number(k, v))):
                    # the common leaf; a clean string is itself whatever its key
                    out[nk] = v if v in clean else self._redact_str(v, counter, depth + 1, memo)
                elif _maybe_id(v) and _id_number(k, v):
                    out[nk] = v
                else:
                    out[nk] = self._redact_obj(v, counter, depth + 1, memo)
            pair = _pair_value_key(obj)
            if pair is not None and not _is_marker_only(out[pair[0]]):
                out[pair[0]] = marker(pair[1])
                counter[0] += 1
            return out
        if isinstance(obj, (list, tuple)):
            items = [self._redact_obj(v, counter, depth + 1, memo) for v in obj]
            if _is_pair_list(obj):
                for i, (k, v) in enumerate(obj):
                    rule = _pair_rule(k, v)
                    if rule is not None and not _is_marker_only(items[i][1]):
                        items[i] = [items[i][0], marker(rule)]
                        counter[0] += 1
            return items
        if isinstance(obj, (int, float)) and not isinstance(obj, bool):
            found = memo.findings(str(obj))
            if found:
                counter[0] += 1
                return marker(found[0].rule)
        return obj

    def _redact_str(self, text: str, counter: list[int], depth: int, memo: ScanMemo) -> str:
        found = memo.findings(text)
        if found:
            new = _replaced(text, found)
            counter[0] += len(found)
        else:
            new = text
        parsed = _json_payload(new)
        if parsed is None and not found:
            memo.clean.add(text)
        elif parsed is not None and parsed is not _TOO_DEEP:
            inner = [0]
            cleaned = self._redact_obj(parsed, inner, depth + 1, memo)
            if inner[0]:
                counter[0] += inner[0]
                new = json.dumps(cleaned, ensure_ascii=False)
        return new

    def verify_document(self, obj: Any, *, memo: ScanMemo | None = None) -> None:
        """Run every rule over a finished document; raise :class:`RedactionFailed` on a hit.

        Each decoded string value is checked with its JSON path, then the serialised document
        as a whole. Nothing is replaced: a hit here means the replacement stage missed a shape,
        and the caller must fail closed rather than redact a second time. A document nested
        deeper than :data:`MAX_JSON_DEPTH` (counting JSON held in strings) cannot be checked
        and is refused the same way, as rule ``nesting_depth``. ``memo``: the one the
        redaction stage filled (see :class:`ScanMemo`).
        """
        self._verify_obj(obj, "$", 0, memo or ScanMemo(self))
        # the serialised text is scanned as written: every decoded view was already checked per
        # value, and decoding the whole text would pair a quote inside one string value with the
        # closing quote of the JSON string, gluing two values together as no reader would
        # (no cycle check: the walk above refused any document deeper than MAX_JSON_DEPTH)
        serialized = json.dumps(obj, ensure_ascii=False, default=str, check_circular=False)
        found = self._findings(serialized, views=False)
        if found:
            raise RedactionFailed(found[0].rule, "$")

    def _verify_obj(self, obj: Any, path: _Path, depth: int, memo: ScanMemo) -> None:
        """Raise on the first hit in ``obj``. ``path`` is rendered only then (most documents
        have none, and building a path string per value was a tenth of an export)."""
        if isinstance(obj, str):
            self._verify_str(obj, path, depth, memo)
            return
        if depth >= MAX_JSON_DEPTH and isinstance(obj, (dict, list, tuple)):
            raise RedactionFailed(_DEPTH_RULE, _short(_render(path, memo)))
        if isinstance(obj, dict):
            findings, key_rule = memo.findings, memo.key_rule
            for k, v in obj.items():
                if isinstance(k, str):
                    found = findings(k)
                    if found:
                        raise RedactionFailed(found[0].rule, _render((path, k, True), memo))
                    rule = _keyed_rule(k, v, key_rule) if key_rule(k) else None
                    if rule is not None:
                        raise RedactionFailed(rule, _render((path, k, True), memo))
                if type(v) is str:  # the common leaf, checked here unless it may hold JSON
                    if v.isdigit() and _id_number(k, v):
                        continue
                    found = findings(v)
                    if found:
                        raise RedactionFailed(found[0].rule, _render((path, k, True), memo))
                    first = v[:1]
                    if first == "{" or first == "[" or first.isspace():
                        self._verify_str(v, (path, k, True), depth + 1, memo)
                elif not (_maybe_id(v) and _id_number(k, v)):
                    self._verify_obj(v, (path, k, True), depth + 1, memo)
            pair = _pair_value_key(obj)
            if pair is not None:
                raise RedactionFailed(pair[1], _render((path, pair[0], True), memo))
            return
        if isinstance(obj, (list, tuple)):
            for i, v in enumerate(obj):
                self._verify_obj(v, (path, i, False), depth + 1, memo)
            if _is_pair_list(obj):
                for i, (k, v) in enumerate(obj):
                    rule = _pair_rule(k, v)
                    if rule is not None:
                        raise RedactionFailed(rule, _render(((path, i, False), 1, False), memo))
            return
        if isinstance(obj, (int, float)) and not isinstance(obj, bool):
            found = memo.findings(str(obj))
            if found:
                raise RedactionFailed(found[0].rule, _render(path, memo))

    def _verify_str(self, text: str, path: _Path, depth: int, memo: ScanMemo) -> None:
        found = memo.findings(text)
        if found:
            raise RedactionFailed(found[0].rule, _render(path, memo))
        parsed = _json_payload(text)
        if parsed is _TOO_DEEP:
            raise RedactionFailed(_DEPTH_RULE, _short(_render(path, memo)))
        if parsed is not None:
            self._verify_obj(parsed, path, depth + 1, memo)


class ScanMemo:
    """What the scans of one document found, shared by its redaction and its verification.

    A scan is a pure function of the text (and a key's rule of the key), and an exported run
    repeats most of its strings: every message has the keys ``role`` and ``content``, most
    roles are one of three words, and verification meets again every string the redaction
    stage left as it was. Scanning each distinct string once halved an export's time. A string
    the redaction stage changed is new text and is scanned anew; the serialised document is
    always scanned whole. One memo per document: it holds the document's strings, so it must
    not outlive the export.
    """

    __slots__ = ("_found", "_key_rules", "_registry", "clean")

    def __init__(self, registry: RuleRegistry) -> None:
        self._registry = registry
        self._found: dict[str, list[Finding]] = {}
        self._key_rules: dict[str, str | None] = {}
        #: Strings with no finding that hold no JSON document: redacted, they are themselves.
        #: Only the redaction stage reads it; verification asks :meth:`findings` every time.
        self.clean: set[str] = set()

    def findings(self, text: str) -> list[Finding]:
        """The registry's findings in ``text`` (every rule, every view)."""
        found = self._found.get(text)
        if found is None:
            found = self._found[text] = self._registry.scan_text(text)
        return found

    def key_rule(self, key: str) -> str | None:
        """The rule ``key`` names, as :func:`classify_key` says."""
        try:
            return self._key_rules[key]
        except KeyError:
            rule = self._key_rules[key] = classify_key(key)
            return rule


#: A JSON path as the walk builds it, unformatted: ``"$"``, or (parent, step, step is a key).
_Path = str | tuple[Any, Any, bool]
_NAME_RX: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _render(path: _Path, memo: ScanMemo) -> str:
    """``$.messages[3].content``; a key that is itself a hit is written ``[?]``."""
    steps: list[tuple[Any, bool]] = []
    while isinstance(path, tuple):
        path, step, is_key = path
        steps.append((step, is_key))
    out = [path]
    for step, is_key in reversed(steps):
        if not is_key:
            out.append(f"[{step}]")
            continue
        k = str(step)
        if memo.findings(k):
            out.append("[?]")
        elif _NAME_RX.fullmatch(k):
            out.append(f".{k}")
        else:
            out.append(f"[{json.dumps(k, ensure_ascii=False)}]")
    return "".join(out)


def _replaced(text: str, found: list[Finding]) -> str:
    """``text`` with each finding's span replaced by its marker."""
    if not found:
        return text
    out: list[str] = []
    pos = 0
    for f in found:
        out.append(text[pos : f.start])
        out.append(marker(f.rule))
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Helpers shared by scanning, redaction and verification


def _token_master() -> tuple[re.Pattern[str], list[Any]]:
    """One alternation of every token anchor, grouped by anchor character."""
    by_char: dict[str, list[tuple[str, Any]]] = {}
    for rule in TOKEN_RULES:
        for char, frag, backs in rule.anchors:
            by_char.setdefault(char, []).append((frag, (rule, backs)))
    kinds: list[Any] = [None]
    branches = []
    for char, items in by_char.items():
        alts = []
        for frag, kind in items:
            kinds.append(kind)
            alts.append(f"(?P<g{len(kinds) - 1}>{frag})")
        branches.append(re.escape(char) + "(?:" + "|".join(alts) + ")")
    return re.compile("|".join(branches)), kinds


#: Gate probe characters, rarest first: one that occurs once in a gate literal is walked with
#: ``str.find`` (``memchr`` speed) instead of searching for the whole literal.
_PROBES: Final = "~@KGQB"


def _gate_plan(
    char: str, literal: str, rules: list[TokenRule]
) -> tuple[str, str | None, int, str, list[TokenRule]]:
    """(gate character, probe, probe offset in the literal, literal, rules).

    The probe is the first character of ``_PROBES`` the literal holds exactly once, used only
    when the literal also holds the gate character (so any literal occurrence implies it);
    otherwise it is ``None`` and the literal is searched whole once the gate character shows.
    """
    probe = next((c for c in _PROBES if literal.count(c) == 1), None)
    if probe is None or char not in literal:
        return char, None, 0, literal, rules
    return char, probe, literal.index(probe), literal, rules


def _trie(words: list[str]) -> str:
    """A regex alternation factored by first character, so ``re`` rejects a branch on one
    character compare instead of trying every word."""
    by_first: dict[str, list[str]] = {}
    ends = False
    for w in words:
        if w:
            by_first.setdefault(w[0], []).append(w[1:])
        else:
            ends = True
    alts = [re.escape(c) + _trie(rest) for c, rest in sorted(by_first.items())]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 and not ends else "(?:" + "|".join(alts) + ")"
    return body + ("?" if ends and alts else "")


def _kv_reversed_pattern() -> bytes:
    """Key-name candidates in the reversed folded shape: a separator, up to two quotes or
    blanks, then a secret word read backwards (``"password": x`` -> ``_x_=_drowssap_``)."""
    words = sorted({w.replace("-", "_")[::-1] for w in KEY_ENDINGS})
    return ("=_{0,2}+" + _trie(words)).encode()


def _kv_hit(text: str, p: int) -> Hit | None:
    """Confirm a ``key<sep>value`` candidate whose separator is at ``p``."""
    if text[p] == ",":
        return _pair_at(text, p)
    j = p
    spaced = False
    while j > 0 and text[j - 1] in _BLANKS:
        j -= 1
        spaced = True
    if j > 0 and text[j - 1] in "\"'":
        j -= 1
    if text[p] == "=" and (text[p + 1 : p + 2] == "=" or text[p - 1 : p] in "=!<>"):
        return None
    ke = k = j
    lo = max(0, ke - 80)
    while k > lo and text[k - 1] in _KEY_CHARS:
        k -= 1
    if k == ke:
        return None
    rule = classify_key(text[k:ke])
    if rule is None:
        return None
    m = _VALUE_RX.match(text, p + 1)
    if m is None:
        return None
    group = m.lastgroup or "bare"
    quoted = group != "bare"
    vs, ve = m.span(group)
    if vs > p + 1 and text[p + 1] in _BLANKS:
        spaced = True
    line_start = text.rfind("\n", 0, k) + 1
    at_line_start = text[line_start:k].strip() in ("", "-", "export")
    if at_line_start and text[p] == ":":
        spaced = False
    elif not at_line_start:
        spaced = True
    if text[max(0, k - 2) : k] == "{{":
        return None
    if rule == "cookie" and not quoted:
        cm = _COOKIE_RX.match(text, p + 1)
        if cm is None:
            return None
        vs, ve = cm.span("v")
    sm = _SCHEME_RX.match(text, vs)
    if sm is not None and (not quoted or sm.end() < ve):
        scheme = sm.group(1).lower()
        tm = _CRED_RX.match(text, sm.end(), ve if quoted else len(text))
        if tm is None:
            return None
        vs, ve = tm.span()
        if scheme in ("bearer", "basic"):
            rule = "bearer_token" if scheme == "bearer" else "basic_auth"
            quoted = True
    if not quoted:
        while ve > vs and text[ve - 1] in ".,;:!?":
            ve -= 1
    value = text[vs:ve]
    if not value_is_secret(
        value, quoted=quoted, spaced=spaced, strict=rule == "session_id", key=text[k:ke]
    ):
        return None
    if rule == "aws_secret_access_key" and not _AWS_SECRET_RX.fullmatch(value):
        rule = "key_name"
    if rule == "key_name" and text[p] == "=" and text[k:ke].lower().endswith(("password", "pwd")):
        around = text[max(0, k - 200) : k] + " " + text[ve : ve + 200]
        if _DSN_CONTEXT_RX.search(around):
            rule = "dsn_password"
    return vs, ve, rule


def _email_hit(text: str, p: int) -> Hit | None:
    k = p
    lo = max(0, p - 64)
    while k > lo and text[k - 1] in _LOCAL_CHARS:
        k -= 1
    while k < p and text[k] == ".":
        k += 1
    if k == p or text[max(0, k - 2) : k] == "//":
        return None
    if k > 0 and text[k - 1] == ":":
        # userinfo after a URL scheme (``//user:pw@host``) is a connection string, not an e-mail
        j = k - 1
        lo = max(0, j - 256)
        while j > lo and not text[j - 1].isspace():
            j -= 1
        if "//" in text[j:k]:
            return None
    m = _DOMAIN_RX.match(text, p + 1)
    if m is None or m.group("tld").lower() in _FILE_TLDS or text[k:p] == "git":
        return None
    return k, m.end(), "email"


def _base64_runs(text: str, runs: list[tuple[int, int]]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, decoded)`` for each base64 blob around a token run that decodes to text."""
    n = len(text)
    seen = -1
    for i, _ in runs:
        if i < seen:
            continue
        start = i
        while start > 0 and text[start - 1] in _B64_CHARS:
            start -= 1
        m = _B64_BLOB_RX.match(text, i)
        end = m.end() if m else i
        seen = end
        decoded = None
        block = _wrapped_block(text, start, end)
        if block is not None:
            # a line-wrapped block (``base64`` wraps at 76 columns) decodes only as a whole
            decoded = _b64_decode(block[2])
            if decoded is not None:
                # ... but a blob that only looks wrapped ("<blob>\nQ0": a short word on the
                # next line) decodes alone too, and the joined text may bury its secret
                # ("...398C"): both readings are scanned, so neither hides one
                if (lone := _b64_decode(text[start:end])) is not None:
                    yield start, end, lone
                start, end, _ = block
                seen = end
        if decoded is None:
            decoded = _b64_decode(text[start:end])
        if decoded is not None:
            while end < n and end - seen < 2 and text[end] == "=":
                end += 1
            yield start, end, decoded


#: Narrower lines are not a wrapped block (a column of words, a markdown rule).
_B64_MIN_WIDTH: Final = 16


def _tail_blob(text: str, ls: int, le: int) -> tuple[int, int, bool]:
    """The base64 blob that ends the line ``text[ls:le]``: (start, end before padding,
    padded)."""
    e = le - 1 if le > ls and text[le - 1] == "\r" else le
    b = e
    while b > ls and e - b < 2 and text[b - 1] == "=":
        b -= 1
    s = b
    while s > ls and text[s - 1] in _B64_CHARS:
        s -= 1
    return s, b, b != e


def _wrapped_block(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """``(start, end, joined)`` when the blob ``text[start:end]`` is part of a base64 block
    wrapped at a fixed width, else ``None``.

    Every line but the last holds exactly ``width`` base64 characters, a multiple of 4 (so
    each line decodes alone and a secret across a break is split); the last may be shorter
    and padded. The first line may follow other text (``value: <base64>``) and the last may be
    followed by some; lines in between may only be indented.
    """
    n = len(text)
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    if le < 0:
        le = n
    at_start = not text[ls:start].strip(" \t")
    tail = text[end:le].rstrip("\r")
    at_end = tail in ("", "=", "==")
    if not (at_start or at_end):
        return None
    parts = [(start, end)]
    width = end - start if at_end and not tail else 0
    if at_start:
        p = ls
        while p > 0:
            pls = text.rfind("\n", 0, p - 1) + 1
            s, e, padded = _tail_blob(text, pls, p - 1)
            if padded or s == e:
                break
            if not width:
                width = e - s
                if width < parts[-1][1] - parts[-1][0]:
                    break
            if e - s != width:
                break
            parts.insert(0, (s, e))
            if text[pls:s].strip(" \t"):
                break  # text before it: the first line
            p = pls
    if at_end and not tail and width:
        q = le
        while q < n:
            m = _B64_BLOB_RX.match(text, q + 1 + _indent(text, q + 1))
            if m is None or len(m.group()) > width:
                break
            parts.append(m.span())
            nle = text.find("\n", m.end())
            if nle < 0:
                nle = n
            if len(m.group()) < width or text[m.end() : nle].rstrip("\r"):
                break
            q = nle
    if len(parts) < 2 or width % 4 or width < _B64_MIN_WIDTH:
        return None
    return parts[0][0], parts[-1][1], "".join(text[a:b] for a, b in parts)


def _indent(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j] in " \t":
        j += 1
    return j - i


def _b64_decode(run: str) -> str | None:
    if len(run) % 4 == 1 or ("_" in run and (run.islower() or run.isupper())):
        return None
    urlsafe = "-" in run or "_" in run
    if urlsafe and ("+" in run or "/" in run):
        return None
    padded = run + "=" * (-len(run) % 4)
    try:
        raw = base64.b64decode(padded, altchars=b"-_" if urlsafe else None, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if not decoded.translate(_WS_DEL).isprintable():
        return None
    return decoded


def _json_payload(text: str) -> Any:
    """The parsed value of a string that holds a JSON object or array, else ``None``;
    ``_TOO_DEEP`` when it is nested beyond what the parser can hold."""
    first = text[:1]
    if first != "{" and first != "[" and not first.isspace():
        return None  # most strings: decided without copying the text
    head = text.lstrip()[:1]
    if head not in ("{", "["):
        return None
    try:
        value = json.loads(text)
    except RecursionError:
        return _TOO_DEEP
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) else None


#: How deep a document may nest, counting JSON held in string values (tool-call arguments),
#: before verification refuses it: the walk is recursive, and an export must fail closed with
#: a rule and a path, never with a ``RecursionError``. Appending refuses JSON nested beyond
#: ``agentmem.events.MAX_JSON_DEPTH`` (lower), so only history written before that limit can
#: reach this one.
MAX_JSON_DEPTH: Final = 256
_DEPTH_RULE: Final = "nesting_depth"
_TOO_DEEP: Final = object()


def _short(path: str) -> str:
    """A JSON path cut to a readable length (a deep one repeats ``[0]`` hundreds of times)."""
    return path if len(path) <= 120 else path[:100] + "..."


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def _is_marker_only(value: Any) -> bool:
    return isinstance(value, str) and MARKER_RX.fullmatch(value.strip()) is not None


def _keyed_rule(
    key: Any, value: Any, classify: Callable[[str], str | None] = classify_key
) -> str | None:
    """The rule hit by a dict entry whose key names a secret and whose value is one."""
    if not isinstance(key, str):
        return None
    text = _scalar_text(value)
    if text is None:
        return None
    rule = classify(key)
    if rule is None or not value_is_secret(text, quoted=True, strict=rule == "session_id", key=key):
        return None
    return _refine_keyed(rule, text)


def _refine_keyed(rule: str, text: str) -> str:
    sm = _SCHEME_RX.match(text.strip())
    if sm is not None:
        scheme = sm.group(1).lower()
        if scheme == "bearer":
            return "bearer_token"
        if scheme == "basic":
            return "basic_auth"
    if rule == "aws_secret_access_key" and not _AWS_SECRET_RX.fullmatch(text.strip()):
        return "key_name"
    return rule


_PAIR_KEY_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
)
_PAIR_VALUE_RX = re.compile(
    r"""[^\S\r\n]*(?P<q>["'])(?P<v>(?:(?!(?P=q))[^\\\n]|\\.){1,512})(?P=q)"""
)


def _pair_at(text: str, p: int) -> Hit | None:
    """Confirm ``["KEY", "value"]`` around the comma at ``p``: a list item or a tuple in a
    list (``[("API_KEY", "...")]``). A call such as ``getenv("K", "x")`` is not a pair: an
    opening parenthesis must not follow a name."""
    j = p
    while j > 0 and text[j - 1] in _BLANKS:
        j -= 1
    if j < 3 or text[j - 1] not in "\"'":
        return None
    quote = text[j - 1]
    ke = k = j - 1
    lo = max(0, ke - 80)
    while k > lo and text[k - 1] in _PAIR_KEY_CHARS:
        k -= 1
    if k == ke or k < 2 or text[k - 1] != quote:
        return None
    b = k - 1
    while b > 0 and text[b - 1] in _BLANKS:
        b -= 1
    if b == 0 or text[b - 1] not in "[(":
        return None
    if text[b - 1] == "(" and b > 1 and text[b - 2] not in "[, \t\r\n":
        return None
    m = _PAIR_VALUE_RX.match(text, p + 1)
    if m is None:
        return None
    rule = _pair_rule(text[k:ke], m.group("v"))
    if rule is None:
        return None
    return m.start("v"), m.end("v"), rule


def _pair_rule(key: Any, value: Any) -> str | None:
    """The rule hit by a ``[key, value]`` pair. Stricter than a mapping: a bare word
    (``["auth", "login"]``) is a list of words, so the value must not be an identifier."""
    if not isinstance(key, str):
        return None
    text = _scalar_text(value)
    if text is None:
        return None
    rule = classify_key(key)
    if rule is None:
        return None
    if not value_is_secret(text, quoted=False, spaced=True, strict=rule == "session_id", key=key):
        return None
    return _refine_keyed(rule, text)


def _is_pair_list(obj: list[Any] | tuple[Any, ...]) -> bool:
    """Whether ``obj`` is a list of ``[str, scalar]`` pairs (``[["K", "v"], ["L", "w"]]``)."""
    return bool(obj) and all(
        isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str)
        for item in obj
    )


#: Last words of a label that make a bare 13-19 digit number an identifier, not a card:
#: ``order 4539...``, ``"order_id": 4539...``, ``ticket no. 4539...``.
_ID_WORDS: Final = frozenset(
    _words(
        "id ids order orders invoice ticket tracking shipment transaction txn trace request ref "
        "reference uuid sku item build job run serial"
    )
)
_ID_FILLER_RX = re.compile(r"(?i)(?:[\s\"'`:=#,(/\\_-]|\bno\.?|\bnr\.?|\bnum\b|\bnumber\b)*\Z")
_ID_LABEL_RX = re.compile(r"[A-Za-z0-9_-]+\Z")


def _id_context(text: str, p: int) -> bool:
    """Whether the digits at ``p`` follow a label that names an id (same line, nearby)."""
    lo = max(0, p - 40, text.rfind("\n", 0, p) + 1)
    before = text[lo:p]
    before = before[: _ID_FILLER_RX.search(before).start()]  # type: ignore[union-attr]
    m = _ID_LABEL_RX.search(before)
    if m is None:
        return False
    words = key_words(m.group())
    return bool(words) and words[-1] in _ID_WORDS


def _maybe_id(value: Any) -> bool:
    """Whether :func:`_id_number` can hold for ``value``: most values are text, which it never
    holds for unless all digits (a cheap test made before the call)."""
    return not isinstance(value, str) or (value.isascii() and value.isdigit())


def _id_number(key: Any, value: Any) -> bool:
    """A digit-only value under a key that names an id is an identifier, never a card."""
    if not isinstance(key, str):
        return False
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return False
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        return False
    words = key_words(key)
    return bool(words) and words[-1] in _ID_WORDS


_PAIR_NAMES: Final = ("name", "Name", "key", "Key", "header", "Header")
_PAIR_VALUES: Final = ("value", "Value")


def _pair_value_key(obj: dict[Any, Any]) -> tuple[str, str] | None:
    """For ``{"name": "API_KEY", "value": "..."}``: (the value's key, the rule), else ``None``."""
    for vk in _PAIR_VALUES:
        if vk in obj:
            break
    else:
        return None
    value = _scalar_text(obj[vk])
    if value is None:
        return None
    for nk in _PAIR_NAMES:
        name = obj.get(nk)
        if isinstance(name, str):
            rule = classify_key(name)
            if rule is not None and value_is_secret(
                value, quoted=True, strict=rule == "session_id", key=name
            ):
                return vk, _refine_keyed(rule, value)
    return None


_KV_REVERSED: Final = re.compile(_kv_reversed_pattern())
_RLO: Final = "\u202e"
#: How far before its separator a key-name match can reach: two blanks and the longest word.
_KV_BACK: Final = 2 + max(len(w) for w in KEY_ENDINGS) + 1
#: Below this length the whole folded text is reversed for the key-name scan.
_KV_SHORT: Final = 4096
_EMAIL_AT: Final = re.compile(r"@(?<=[A-Za-z0-9._%+-]@)(?=[A-Za-z0-9])")
#: What may not precede a PII number: it would be part of a longer word or number. A ``/``
#: (a URL path) and a ``+`` (form encoding) may: ids in paths are told apart by their label.
_NUM_BEFORE: Final = frozenset(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.\\-"
)


@functools.lru_cache(maxsize=16)
def _cached_registry(profile: PolicyProfile) -> RuleRegistry:
    return RuleRegistry(profile)


def default_registry(profile: PolicyProfile | None = None) -> RuleRegistry:
    """The compiled registry for ``profile`` (default: every PII rule), built once and cached."""
    return _cached_registry(profile or default_profile())
