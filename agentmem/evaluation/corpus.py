"""Running and scoring the labeled memory-formation corpus (its case format, loading and hash
are :mod:`agentmem.corpus`, below memory and evaluation alike).

A case is one session of one principal with explicit normalized labels (corpus README). Each
case runs in its own fresh in-memory database, so arms and cases cannot influence each other,
and is scored against its labels with no model judge: a written belief equal to a label is
supported, a written belief equal to no label is fabricated, and any belief in a protected case
is also a policy failure.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import msgspec

from agentmem.corpus import HOLDOUT, Case, Label, corpus_hash, load_corpus, tuned_cases
from agentmem.memory.claims import Claim, normalize_claim
from agentmem.memory.service import seed_belief

# The corpus's identity lives below memory (agentmem.corpus); it is named here too because
# every evaluation reads cases and results together.
__all__ = [
    "HOLDOUT",
    "Case",
    "CaseResult",
    "Label",
    "corpus_hash",
    "load_corpus",
    "run_case",
    "tuned_cases",
]

_PLACEHOLDER = re.compile(r"\{\{secret:([a-z0-9_]+)\}\}")


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
