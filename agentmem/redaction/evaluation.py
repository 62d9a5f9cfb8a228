"""``agentmem eval redaction``: recall per family and false positives on the case corpus.

The corpus under ``corpus/redaction/`` holds case *specs*, never secrets: each positive case
names a rule, an encoding, a position in a trajectory document, a seed and a surrounding-text
template, and :func:`evaluate` generates the fake secret at run time with
:mod:`agentmem.redaction.fakes`. Benign cases are literal look-alike texts (uuids, digests,
English uses of "password") plus seeded look-alike generators. A positive is *missed* when the
redacted document still shows the secret's core in any decoded view, or fails verification; a
benign case is a *false positive* when redaction changes its document at all. The report
carries counts and case ids only, never secret text.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import msgspec

from agentmem.errors import InvalidInput, RedactionFailed
from agentmem.redaction import fakes
from agentmem.redaction.engine import RuleRegistry, default_registry, marker
from agentmem.redaction.rules import FAMILIES, MARKER_RX
from agentmem.redaction.views import json_view, percent_view, unicode_view

__all__ = ["POSITIONS", "EncodingRow", "FamilyRow", "RedactionReport", "evaluate", "materialize"]

#: Where a case's text is placed in the trajectory document.
POSITIONS: Final = ("user", "assistant", "tool_arguments", "tool_result", "tool_result_json")

_CASES_FORMAT: Final = "agentmem.redaction-cases/1"
_TEMPLATES_FORMAT: Final = "agentmem.redaction-templates/1"
_BENIGN_FORMAT: Final = "agentmem.redaction-benign/1"


class FamilyRow(msgspec.Struct, frozen=True):
    """One family: planted cases, how many leaked, how many carry another rule's marker, and
    how many benign cases a rule of this family wrongly changed."""

    family: str
    planted: int
    missed: int
    mislabeled: int
    false_positives: int

    @property
    def recall(self) -> float:
        return 1.0 if not self.planted else (self.planted - self.missed) / self.planted


class EncodingRow(msgspec.Struct, frozen=True):
    """One encoding (``raw``, ``base64_wrapped``, ...): planted cases and how many leaked."""

    encoding: str
    planted: int
    missed: int

    @property
    def recall(self) -> float:
        return 1.0 if not self.planted else (self.planted - self.missed) / self.planted


class RedactionReport(msgspec.Struct, frozen=True):
    """The result of :func:`evaluate`; ``to_dict()`` is what ``--json`` prints."""

    registry_version: str
    profile: str
    positives: int
    benign: int
    missed_total: int
    false_positives_total: int
    mislabeled_total: int
    per_family: list[FamilyRow]
    per_encoding: list[EncodingRow]
    missed_cases: list[str]
    false_positive_cases: list[str]

    @property
    def passed(self) -> bool:
        """100 % recall and no false positive."""
        return self.missed_total == 0 and self.false_positives_total == 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self)
        out["per_family"] = [
            {**msgspec.to_builtins(row), "recall": round(row.recall, 4)} for row in self.per_family
        ]
        out["per_encoding"] = [
            {**msgspec.to_builtins(row), "recall": round(row.recall, 4)}
            for row in self.per_encoding
        ]
        out["passed"] = self.passed
        return out


# ---------------------------------------------------------------------------------------------
# Documents


def _base_document() -> dict[str, Any]:
    schema = json.dumps({"type": "object", "properties": {"path": {"type": "string"}}})
    return {
        "schema": "agentmem.trajectory/1",
        "date": "2026-07-28",
        "outcome": "succeeded",
        "failure_class": None,
        "messages": [
            {"role": "user", "content": "Please check the deployment settings."},
            {
                "role": "assistant",
                "content": "Let me read them first.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "read_config",
                            "arguments": json.dumps({"path": "deploy/settings.toml"}),
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
            {"role": "assistant", "content": "Done, everything is in place."},
        ],
        "tools": [
            {"name": "read_config", "schema_sha256": hashlib.sha256(schema.encode()).hexdigest()}
        ],
    }


def materialize(text: str, position: str) -> dict[str, Any]:
    """A trajectory-shaped document with ``text`` placed at ``position``."""
    doc = _base_document()
    messages = doc["messages"]
    if position == "user":
        messages[0]["content"] = text
    elif position == "assistant":
        messages[3]["content"] = text
    elif position == "tool_arguments":
        args = {"path": "deploy/settings.toml", "note": text}
        messages[1]["tool_calls"][0]["function"]["arguments"] = json.dumps(args)
    elif position == "tool_result":
        messages[2]["content"] = text
    elif position == "tool_result_json":
        messages[2]["content"] = json.dumps({"status": "ok", "output": {"lines": [text]}})
    else:
        raise InvalidInput(f"unknown position {position!r}; known: {', '.join(POSITIONS)}")
    return doc


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
        head = obj.lstrip()[:1]
        if head in ("{", "["):
            with contextlib.suppress(ValueError):
                yield from _strings(json.loads(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def _decoded_views(text: str) -> Iterator[str]:
    """The text and everything the scanner could decode out of it (for the leak check)."""
    import base64
    import binascii
    import re

    yield text
    layers = [text]
    jv = json_view(text)
    if jv is not None:
        layers.append(jv.text)
    uv = unicode_view(layers[-1])
    if uv is not None:
        layers.append(uv.text)
    yield from layers[1:]
    if "\u202e" in text:
        # an override written as is reverses escapes too: undo it before decoding them
        rv = unicode_view(text)
        if rv is not None:
            yield rv.text
            rj = json_view(rv.text)
            if rj is not None:
                yield rj.text
    pv = percent_view(layers[-1])
    if pv is not None:
        yield pv.text
    # base64 wrapped at a fixed width decodes only with its line breaks taken out
    joined = re.sub(r"(?<=[A-Za-z0-9+/_-])\r?\n[ \t]*(?=[A-Za-z0-9+/_-])", "", layers[-1])
    blobs = re.findall(r"[A-Za-z0-9+/_-]{12,}", layers[-1])
    if joined != layers[-1]:
        blobs += re.findall(r"[A-Za-z0-9+/_-]{12,}", joined)
    for blob in blobs:
        alt = b"-_" if ("-" in blob or "_" in blob) else None
        try:
            yield base64.b64decode(blob + "=" * (-len(blob) % 4), altchars=alt).decode(
                "utf-8", "ignore"
            )
        except (binascii.Error, ValueError):
            continue


def _leaked(core: str, doc: Any) -> bool:
    return any(core in view for s in _strings(doc) for view in _decoded_views(s))


# ---------------------------------------------------------------------------------------------
# Corpus loading


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: not a readable JSON file ({exc.__class__.__name__})") from exc


def _expect(cond: bool, path: Path, what: str) -> None:
    if not cond:
        raise InvalidInput(f"{path}: {what}")


def _positives(corpus: Path) -> Iterator[tuple[str, str, str, str, int, str]]:
    """(case id, rule, encoding, position, seed, template text) for every positive spec."""
    tpath = corpus / "templates.json"
    tdoc = _load_json(tpath)
    _expect(tdoc.get("format") == _TEMPLATES_FORMAT, tpath, f"format must be {_TEMPLATES_FORMAT}")
    templates: dict[str, str] = tdoc.get("templates", {})
    for name, body in templates.items():
        _expect(isinstance(body, str) and body.count("{secret}") == 1, tpath, f"template {name}")
    for path in sorted((corpus / "positive").glob("*.json")):
        doc = _load_json(path)
        _expect(doc.get("format") == _CASES_FORMAT, path, f"format must be {_CASES_FORMAT}")
        rule = doc.get("rule")
        _expect(rule in fakes.RULES_WITH_FAKES, path, f"unknown rule {rule!r}")
        for case in doc.get("cases", []):
            enc, pos, seed, tname = (
                case.get(k) for k in ("encoding", "position", "seed", "template")
            )
            _expect(enc in fakes.ENCODINGS, path, f"unknown encoding {enc!r}")
            _expect(pos in POSITIONS, path, f"unknown position {pos!r}")
            _expect(isinstance(seed, int), path, "seed must be an integer")
            _expect(tname in templates, path, f"unknown template {tname!r}")
            yield f"{rule}/{enc}/{pos}/{seed}", rule, enc, pos, seed, templates[tname]


def _benign(corpus: Path) -> Iterator[tuple[str, str, str]]:
    """(case id, text, position) for every literal and generated benign case."""
    lpath = corpus / "benign.jsonl"
    with lpath.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise InvalidInput(f"{lpath}:{n}: not a JSON object") from exc
            _expect(isinstance(item.get("text"), str), lpath, f"line {n} has no text")
            for pos in item.get("positions", ["user"]):
                _expect(pos in POSITIONS, lpath, f"line {n}: unknown position {pos!r}")
                yield f"benign/{item.get('id', n)}/{pos}", item["text"], pos
    gpath = corpus / "benign_generated.json"
    gdoc = _load_json(gpath)
    _expect(gdoc.get("format") == _BENIGN_FORMAT, gpath, f"format must be {_BENIGN_FORMAT}")
    for case in gdoc.get("cases", []):
        kind, seed, pos = case.get("kind"), case.get("seed"), case.get("position", "user")
        _expect(kind in fakes.BENIGN_KINDS, gpath, f"unknown benign kind {kind!r}")
        _expect(isinstance(seed, int), gpath, "seed must be an integer")
        _expect(pos in POSITIONS, gpath, f"unknown position {pos!r}")
        text = fakes.benign(kind, random.Random(f"benign/{kind}/{seed}"))
        yield f"benign/{kind}/{pos}/{seed}", f"Here is the value: {text} (for reference).", pos


def positive_case(rule: str, encoding: str, seed: int, template: str) -> tuple[str, str]:
    """(text, core) of one positive case: the filled template and the part that must go."""
    rng = random.Random(f"{rule}/{encoding}/{seed}")
    secret, core = fakes.generate_case(rule, rng)
    return template.replace("{secret}", fakes.encode(secret, encoding, rng)), core


# ---------------------------------------------------------------------------------------------


def evaluate(corpus_dir: Path, registry: RuleRegistry | None = None) -> RedactionReport:
    """Run every case under ``corpus_dir`` through ``redact_json`` and ``verify_document``."""
    reg = registry or default_registry()
    corpus = Path(corpus_dir)
    counts = {f: [0, 0, 0, 0] for f in FAMILIES}
    by_encoding = {e: [0, 0] for e in fakes.ENCODINGS}
    families = dict(reg.rules)
    missed_cases: list[str] = []
    positives = mislabeled_total = 0
    for case_id, rule, enc, pos, seed, template in _positives(corpus):
        family = families.get(rule)
        if family is None:
            continue
        positives += 1
        text, core = positive_case(rule, enc, seed, template)
        redacted, _ = reg.redact_json(materialize(text, pos))
        leaked = _leaked(core, redacted)
        if not leaked:
            try:
                reg.verify_document(redacted)
            except RedactionFailed:
                leaked = True
        row = counts[family]
        row[0] += 1
        by_encoding[enc][0] += 1
        if leaked:
            row[1] += 1
            by_encoding[enc][1] += 1
            missed_cases.append(case_id)
        elif marker(rule) not in json.dumps(redacted, ensure_ascii=False):
            row[2] += 1
            mislabeled_total += 1
    fp_cases: list[str] = []
    benign = 0
    for case_id, text, pos in _benign(corpus):
        benign += 1
        doc = materialize(text, pos)
        redacted, n = reg.redact_json(doc)
        culprit: str | None = None
        if n or redacted != doc:
            found = MARKER_RX.search(json.dumps(redacted, ensure_ascii=False))
            culprit = found.group()[10:-1] if found else ""
        else:
            try:
                reg.verify_document(redacted)
            except RedactionFailed as exc:
                culprit = exc.rule
        if culprit is not None:
            fp_cases.append(case_id)
            family = families.get(culprit)
            if family is not None:
                counts[family][3] += 1
    rows = [FamilyRow(f, *c) for f, c in counts.items() if c[0] or c[3]]
    return RedactionReport(
        registry_version=reg.version,
        profile=reg.profile.name,
        positives=positives,
        benign=benign,
        missed_total=len(missed_cases),
        false_positives_total=len(fp_cases),
        mislabeled_total=mislabeled_total,
        per_family=rows,
        per_encoding=[EncodingRow(e, *c) for e, c in by_encoding.items() if c[0]],
        missed_cases=missed_cases,
        false_positive_cases=fp_cases,
    )
