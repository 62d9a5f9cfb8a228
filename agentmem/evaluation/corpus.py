"""The labeled memory-formation corpus: strict case format, loading, hashing, running, scoring.

A case is one session of one principal with explicit normalized labels (corpus README). Each
case runs in its own fresh in-memory database, so arms and cases cannot influence each other,
and is scored against its labels with no model judge: a written belief equal to a label is
supported, a written belief equal to no label is fabricated, and any belief in a protected case
is also a policy failure.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from agentmem.errors import InvalidInput
from agentmem.memory.claims import Claim, normalize_claim

__all__ = [
    "Case",
    "CaseResult",
    "Label",
    "corpus_hash",
    "load_corpus",
    "run_case",
    "tuned_cases",
]

_PLACEHOLDER = re.compile(r"\{\{secret:([a-z0-9_]+)\}\}")


class Label(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A normalized claim, as written in a case file."""

    kind: str
    values: dict[str, str | None]


class Case(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One labeled session (see corpus/memory-formation/README.md)."""

    id: str
    description: str
    principal: str
    protected: bool
    tags: list[str]
    existing_beliefs: list[Label]
    events: list[dict[str, Any]]
    labels: list[Label]


class CaseResult(msgspec.Struct, frozen=True):
    """One case through one arm: normalized beliefs, scores and counts."""

    case_id: str
    protected: bool
    beliefs: list[Label]
    supported: int
    fabricated: int
    labels: int
    fully_supported: bool
    policy_failures: int
    rejected: dict[str, int]
    outcomes: dict[str, int]
    provider_audits: int = 0
    origins: dict[str, int] = msgspec.field(default_factory=dict)
    supported_by_kind: dict[str, int] = msgspec.field(default_factory=dict)
    provider_outcomes: dict[str, int] = msgspec.field(default_factory=dict)
    #: Active beliefs at the end that are neither labels nor untouched existing beliefs: a value
    #: the user retracted or corrected that was left standing (counted by stepwise runs).
    false_active: int = 0


def load_corpus(directory: Path) -> list[Case]:
    """All cases of ``directory`` and its subdirectories (``realistic/``, ``holdout/``), sorted by
    id; a malformed case is an error naming its file."""
    if not directory.is_dir():
        raise InvalidInput(f"no corpus directory at {directory}")
    cases = []
    decoder = msgspec.json.Decoder(Case)
    for path in sorted(directory.rglob("*.json"), key=lambda p: p.name):
        try:
            case = decoder.decode(path.read_bytes())
        except msgspec.ValidationError as exc:
            raise InvalidInput(f"{path.name}: {exc}") from exc
        except msgspec.DecodeError as exc:
            raise InvalidInput(f"{path.name}: malformed JSON: {exc}") from exc
        if case.id != path.stem:
            raise InvalidInput(f"{path.name}: id {case.id!r} does not match the file name")
        cases.append(case)
    if not cases:
        raise InvalidInput(f"no cases (*.json) in {directory}")
    return cases


#: The part of the corpus no rule is tuned on (corpus/memory-formation/README.md).
HOLDOUT = "holdout"


def tuned_cases(directory: Path) -> list[Case]:
    """The cases of ``directory`` less its held-out part: what a gate may assert on, since a
    held-out case that had to pass would be tuned on."""
    held = (
        {c.id for c in load_corpus(directory / HOLDOUT)}
        if (directory / HOLDOUT).is_dir()
        else set()
    )
    return [c for c in load_corpus(directory) if c.id not in held]


def corpus_hash(cases: Iterable[Case]) -> str:
    """SHA-256 over the canonical encoding of every case, in id order."""
    from agentmem.events import canonical_json

    digest = hashlib.sha256()
    for case in sorted(cases, key=lambda c: c.id):
        digest.update(canonical_json(case))
    return digest.hexdigest()


def _claim(label: Label) -> Claim:
    return normalize_claim(label.kind, label.values)


def _materialize(value: Any, rng: random.Random) -> Any:
    """Replace ``{{secret:<rule>}}`` placeholders with fakes generated now (never committed)."""
    if isinstance(value, str) and "{{secret:" in value:
        from agentmem.redaction import fakes

        return _PLACEHOLDER.sub(lambda m: fakes.generate(m.group(1), rng), value)
    if isinstance(value, dict):
        return {k: _materialize(v, rng) for k, v in value.items()}
    if isinstance(value, list):
        return [_materialize(v, rng) for v in value]
    return value


def run_case(
    case: Case,
    make_service: Callable[[Any], Any],
    *,
    seed: int = 57,
    stepwise: bool = False,
) -> CaseResult:
    """Run one case in a fresh in-memory store through the service ``make_service(store)``.

    ``stepwise`` also consolidates after every user message, as idle consolidation does in a
    long session, so that a value stated and then corrected or retracted has been formed before
    the correction arrives: the run then counts the beliefs left wrongly active at the end.
    """
    from agentmem.memory.service import seed_belief
    from agentmem.store import Store

    rng = random.Random(f"{seed}:{case.id}")
    with Store.open(":memory:", principal=case.principal) as store:
        for label in case.existing_beliefs:
            seed_belief(store, case.principal, _claim(label))
        session_id = case.events[0]["session_id"]
        service = make_service(store)
        touched: set[str] = set()
        if stepwise:
            for event in case.events:
                store.append(_materialize(event, rng))
                if event["type"] == "user.message.created":
                    touched.update(service.consolidate(session_id, trigger="idle").belief_ids)
        else:
            store.append_many(_materialize(event, rng) for event in case.events)
        report = service.consolidate(session_id, trigger="close")
        touched.update(report.belief_ids)
        active = [b for b in store.beliefs(principal=case.principal) if b.status == "active"]
        written = [
            b for b in store.beliefs(principal=case.principal) if b.belief_id in report.belief_ids
        ]
        if stepwise:
            written = [b for b in active if b.belief_id in touched]
        outcomes: dict[str, int] = {}
        for outcome, error_class in store.conn.execute(
            "SELECT json_extract(payload, '$.outcome'), json_extract(payload, '$.error_class') "
            "FROM events WHERE type = 'memory.provider.called'"
        ):
            key = outcome if error_class is None else f"{outcome}:{error_class}"
            outcomes[key] = outcomes.get(key, 0) + 1
        audits = sum(outcomes.values())
    expected = {_claim(label).key() for label in case.labels}
    existing = {_claim(label).key() for label in case.existing_beliefs}
    false_active = sum(
        1
        for b in active
        if b.values is not None
        and (key := (claim := Claim(kind=b.kind, values=b.values)).key()) not in expected
        and not any(_claim(label).implies(claim) for label in case.labels)
        and (key not in existing or b.belief_id in touched)
    )
    got = [Claim(kind=b.kind, values=b.values) for b in written if b.values is not None]
    supported = sum(1 for c in got if c.key() in expected)
    # a less specific form of a label ("has a cat" beside the label "has a cat named Pepper") is
    # true, so it is not fabricated; it supports nothing either
    label_claims = [_claim(label) for label in case.labels]
    implied = sum(
        1
        for c in got
        if c.key() not in expected and any(label.implies(c) for label in label_claims)
    )
    fabricated = len(got) - supported - implied
    covered = {c.key() for c in got} & expected
    by_kind: dict[str, int] = {}
    for c in got:
        if c.key() in expected:
            by_kind[c.kind] = by_kind.get(c.kind, 0) + 1
    origins: dict[str, int] = {}
    for b in written:
        origins[b.origin] = origins.get(b.origin, 0) + 1
    return CaseResult(
        case_id=case.id,
        protected=case.protected,
        beliefs=[Label(c.kind, dict(c.values)) for c in got],
        supported=supported,
        fabricated=fabricated,
        labels=len(expected),
        fully_supported=bool(expected) and covered == expected,
        policy_failures=len(got) if case.protected else 0,
        rejected=dict(report.rejected),
        outcomes=dict(report.counts),
        provider_audits=audits,
        origins=origins,
        supported_by_kind=by_kind,
        provider_outcomes=outcomes,
        false_active=false_active,
    )
