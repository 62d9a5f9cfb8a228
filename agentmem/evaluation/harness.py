"""``agentmem eval memory-formation``: paired arms, identical scoring, atomic evidence.

Every case of the corpus runs twice, each time in its own fresh database: once through the
deterministic extractor alone, once with the provider-assisted extractor built by its
evaluation-mode constructor (ADR-0057 decision 7: it needs no evidence and marks every audit).
Both arms are scored by the same function against the explicit labels. The activation schema
is then checked exactly as the runtime re-checks an artifact (``validate_artifact``): only if it
passes is an evidence artifact written, atomically (temporary file, fsync, rename, fsync of the
directory), so a crash can never leave a half-written artifact where activation would look.
"""

from __future__ import annotations

import math
import os
import secrets
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from agentmem.errors import EvidenceMismatch, InvalidInput
from agentmem.evaluation.corpus import Case, CaseResult, corpus_hash, run_case, tuned_cases
from agentmem.events import now_text
from agentmem.memory.evidence import (
    ArmSummary,
    EvidenceArtifact,
    coverage_floor,
    validate_artifact,
)

__all__ = [
    "ArmReport",
    "EvaluationResult",
    "evaluate_memory_formation",
    "select_cases",
    "write_atomically",
]


class ArmReport(msgspec.Struct, frozen=True):
    """One arm's totals, by claim kind and by rejection reason."""

    supported: int
    fabricated: int
    policy_failures: int
    fully_supported_positive: int
    by_kind: dict[str, int]
    rejected: dict[str, int]
    provider_audits: int
    #: How the provider calls ended, by outcome class (``accepted``, ``timeout``, ...): a live
    #: run whose calls all timed out must not read like an offline one.
    provider_outcomes: dict[str, int] = msgspec.field(default_factory=dict)


class EvaluationResult(msgspec.Struct, frozen=True):
    """The whole evaluation: both arms, per-case results, and the activation verdict."""

    corpus_hash: str
    samples: int
    positive_cases: int
    coverage_floor: int
    deterministic: ArmReport
    provider: ArmReport
    cases: list[dict[str, Any]]
    passed: bool
    problems: list[str]
    artifact: EvidenceArtifact | None


def _arm(results: list[CaseResult]) -> ArmReport:
    by_kind: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for r in results:
        by_kind.update(r.supported_by_kind)
        rejected.update(r.rejected)
        outcomes.update(r.provider_outcomes)
    return ArmReport(
        supported=sum(r.supported for r in results),
        fabricated=sum(r.fabricated for r in results),
        policy_failures=sum(r.policy_failures for r in results),
        fully_supported_positive=sum(r.fully_supported for r in results if not r.protected),
        by_kind=dict(sorted(by_kind.items())),
        rejected=dict(sorted(rejected.items())),
        provider_audits=sum(r.provider_audits for r in results),
        provider_outcomes=dict(sorted(outcomes.items())),
    )


def select_cases(cases: list[Case], *, pattern: str | None, limit: int | None) -> list[Case]:
    """The cases whose id matches the shell-style ``pattern`` (all if ``None``), at most
    ``limit`` of them: a quick look at a new model before a run over the whole corpus."""
    from fnmatch import fnmatchcase

    chosen = [c for c in cases if pattern is None or fnmatchcase(c.id, pattern)]
    if not chosen:
        raise InvalidInput(f"no corpus case matches {pattern!r}")
    return chosen if limit is None else chosen[:limit]


def _case_entry(case: Case, d: CaseResult, p: CaseResult) -> dict[str, Any]:
    """One case's comparison of the two arms, as reported, streamed and kept in the artifact."""
    shared = {(b.kind, tuple(b.values.items())) for b in d.beliefs} & {
        (b.kind, tuple(b.values.items())) for b in p.beliefs
    }
    failing = bool(
        p.fabricated or p.policy_failures or (not case.protected and not p.fully_supported)
    )
    return {
        "case": case.id,
        "protected": case.protected,
        "labels": d.labels,
        "failing": failing,
        "deterministic": msgspec.to_builtins(d),
        "provider": msgspec.to_builtins(p),
        "shared_beliefs": len(shared),
        "provider_added_beliefs": len(p.beliefs) - len(shared),
    }


def evaluate_memory_formation(
    corpus_dir: Path,
    make_assist: Callable[[], Any],
    *,
    tuple_: Any,
    live: bool,
    progress: Callable[[int, int], None] | None = None,
    on_case: Callable[[dict[str, Any]], None] | None = None,
    pattern: str | None = None,
    limit: int | None = None,
) -> EvaluationResult:
    """Run both arms over the corpus and decide whether an artifact may be written.

    ``on_case`` receives each case's entry as soon as the case finishes, so a long live run
    can be followed (and what it found kept) even if it is stopped. ``pattern`` and ``limit``
    run a subset; a subset is never evidence, so its result has a problem and no artifact.
    """
    from agentmem.memory.service import FormationService

    # the held-out part is measured (tests/test_memory_corpus.py), never a gate: a case that had
    # to pass before a provider may activate would be tuned on
    every: list[Case] = tuned_cases(corpus_dir)
    subset = pattern is not None or limit is not None
    cases = select_cases(every, pattern=pattern, limit=limit) if subset else every
    deterministic: list[CaseResult] = []
    provider: list[CaseResult] = []
    per_case = []
    for index, case in enumerate(cases, start=1):
        deterministic.append(run_case(case, lambda store: FormationService(store)))
        provider.append(run_case(case, lambda store: FormationService(store, assist=make_assist())))
        per_case.append(_case_entry(case, deterministic[-1], provider[-1]))
        if on_case is not None:
            on_case(per_case[-1])
        if progress is not None:
            progress(index, len(cases))
    positives = sum(1 for c in cases if not c.protected)
    floor = coverage_floor(positives)
    det, prov = _arm(deterministic), _arm(provider)
    digest = corpus_hash(cases)
    artifact = EvidenceArtifact(
        schema="agentmem.memory-evidence/1",
        evidence_id="ev-" + secrets.token_hex(8),
        created_at=now_text(),
        live=live,
        tuple=tuple_,
        corpus_hash=digest,
        samples=len(cases),
        positive_cases=positives,
        coverage_floor=floor,
        deterministic=ArmSummary(
            det.supported, det.fabricated, det.policy_failures, det.fully_supported_positive
        ),
        provider=ArmSummary(
            prov.supported, prov.fabricated, prov.policy_failures, prov.fully_supported_positive
        ),
        per_case=[
            {
                "case": c["case"],
                "failing": c["failing"],
                "deterministic_supported": c["deterministic"]["supported"],
                "provider_supported": c["provider"]["supported"],
                "provider_fabricated": c["provider"]["fabricated"],
                "provider_added_beliefs": c["provider_added_beliefs"],
                "provider_audits": c["provider"]["provider_audits"],
            }
            for c in per_case
        ],
    )
    problems: list[str] = []
    try:
        validate_artifact(artifact)
    except EvidenceMismatch as exc:
        problems = exc.message.split(": ", 1)[1].split("; ")
    if len(cases) < len(every):
        problems.insert(
            0,
            f"only {len(cases)} of the corpus's {len(every)} cases were run: evidence needs "
            "every case",
        )
    per_case.sort(key=lambda c: (not c["failing"], c["case"]))
    return EvaluationResult(
        corpus_hash=digest,
        samples=len(cases),
        positive_cases=positives,
        coverage_floor=math.ceil(floor),
        deterministic=det,
        provider=prov,
        cases=per_case,
        passed=not problems,
        problems=problems,
        artifact=artifact if not problems else None,
    )


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` so that ``path`` is either absent or complete, never partial.

    The temporary file's name does not end in ``.json``, so evidence discovery never sees it.
    """
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
