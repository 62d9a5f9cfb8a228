"""Evidence artifacts and the exact model tuple they activate (ADR-0057 decisions 2, 9, 10).

An evidence artifact is what ``agentmem eval memory-formation`` writes when a provider arm
passes the activation schema. Its schema is strict (unknown fields are rejected) and it is
re-validated whenever it is read: the coverage floor is derived from the positive-case count,
so an artifact that claims a weaker floor is invalid, whatever else it says.

The tuple has seven fields; every one must match the running composition exactly. Its
``compiled_policy_version`` is a hash over everything that shapes formation (computed by
:func:`agentmem.memory.composition.compiled_policy_version`, which knows every part), so
changing any part deactivates every artifact made before the change. This module is a leaf of
the memory layer: it reads and checks artifacts and imports no part it would hash.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Literal

import msgspec

from agentmem.errors import EvidenceMismatch

__all__ = [
    "ARTIFACT_SCHEMA",
    "ArmSummary",
    "EvidenceArtifact",
    "ModelTuple",
    "Resolution",
    "coverage_floor",
    "find_evidence",
    "load_artifact",
    "validate_artifact",
]

ARTIFACT_SCHEMA = "agentmem.memory-evidence/1"
MIN_SAMPLES = 20
MIN_POSITIVE = 20
COVERAGE = 0.8


class ModelTuple(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The exact runtime tuple evidence is bound to."""

    extractor_version: str
    formation_policy: str
    model_policy: str
    provider: str
    model: str
    policy_profile: str
    compiled_policy_version: str


class ArmSummary(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Scores of one arm over the corpus."""

    supported: int
    fabricated: int
    policy_failures: int
    fully_supported_positive: int


class EvidenceArtifact(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The activation evidence for one model tuple."""

    schema: Literal["agentmem.memory-evidence/1"]
    evidence_id: str
    created_at: str
    live: bool
    tuple: ModelTuple
    corpus_hash: str
    samples: int
    positive_cases: int
    coverage_floor: int
    deterministic: ArmSummary
    provider: ArmSummary
    per_case: list[dict[str, object]] = msgspec.field(default_factory=list)


class Resolution(msgspec.Struct, frozen=True):
    """The composition's decision: which policy runs, and why."""

    mode: str
    active: bool
    formation_policy: str
    reason: str
    field: str | None = None
    evidence_id: str | None = None
    evidence_path: str | None = None
    tuple: ModelTuple | None = None


def coverage_floor(positive_cases: int) -> int:
    """ceil(0.8 x positives): the fully-supported count an artifact needs."""
    return math.ceil(COVERAGE * positive_cases - 1e-9)


_decoder = msgspec.json.Decoder(EvidenceArtifact)


def validate_artifact(artifact: EvidenceArtifact) -> None:
    """Re-check the activation schema; raise :class:`EvidenceMismatch` naming what fails."""
    problems = []
    if artifact.samples < MIN_SAMPLES:
        problems.append(f"{artifact.samples} samples (< {MIN_SAMPLES})")
    if artifact.positive_cases < MIN_POSITIVE:
        problems.append(f"{artifact.positive_cases} positive cases (< {MIN_POSITIVE})")
    floor = coverage_floor(artifact.positive_cases)
    if artifact.coverage_floor != floor:
        problems.append(
            f"coverage floor {artifact.coverage_floor} is not the derived {floor} "
            f"(ceil(0.8 x {artifact.positive_cases}))"
        )
    p, d = artifact.provider, artifact.deterministic
    if p.fully_supported_positive < floor:
        problems.append(f"{p.fully_supported_positive} fully supported positive cases < {floor}")
    if p.supported <= d.supported:
        problems.append(
            f"provider supported {p.supported} is not above deterministic {d.supported}"
        )
    if p.fabricated or d.fabricated:
        problems.append(f"fabricated: provider {p.fabricated}, deterministic {d.fabricated}")
    if p.policy_failures > d.policy_failures:
        problems.append(f"policy failures rose from {d.policy_failures} to {p.policy_failures}")
    if problems:
        raise EvidenceMismatch(f"evidence {artifact.evidence_id}: " + "; ".join(problems))


def load_artifact(path: Path) -> EvidenceArtifact:
    """Decode and validate one artifact file (strict: unknown fields are refused)."""
    try:
        artifact = _decoder.decode(path.read_bytes())
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise EvidenceMismatch(f"evidence file {path.name} is invalid: {exc}") from exc
    except OSError as exc:
        raise EvidenceMismatch(f"evidence file {path} cannot be read: {exc.strerror}") from exc
    validate_artifact(artifact)
    return artifact


def _files(location: Path) -> list[Path]:
    if location.is_file():
        return [location]
    if location.is_dir():
        return sorted(location.glob("*.json"))
    return []


def find_evidence(
    locations: list[tuple[str, Path]], wanted: ModelTuple, *, corpus_hash: str | None = None
) -> tuple[EvidenceArtifact | None, Path | None, str, str | None]:
    """Search ``locations`` in order for a valid, live artifact of exactly ``wanted``.

    Returns (artifact, path, reason, mismatching field). Reasons: ``matched``, ``no_evidence``,
    ``invalid_evidence``, ``tuple_mismatch``, ``corpus_mismatch``, ``not_live``.
    """
    best_reason, best_field = "no_evidence", None
    rank = {
        "no_evidence": 0,
        "tuple_mismatch": 1,
        "invalid_evidence": 2,
        "corpus_mismatch": 3,
        "not_live": 4,
    }
    for _origin, location in locations:
        for path in _files(location):
            try:
                artifact = load_artifact(path)
            except EvidenceMismatch:
                if rank[best_reason] < rank["invalid_evidence"]:
                    best_reason, best_field = "invalid_evidence", None
                continue
            if artifact.tuple != wanted:
                field = next(
                    f
                    for f in ModelTuple.__struct_fields__
                    if getattr(artifact.tuple, f) != getattr(wanted, f)
                )
                if rank[best_reason] <= rank["tuple_mismatch"] and (
                    best_reason != "tuple_mismatch" or best_field is None
                ):
                    best_reason, best_field = "tuple_mismatch", field
                continue
            if corpus_hash is not None and artifact.corpus_hash != corpus_hash:
                if rank[best_reason] < rank["corpus_mismatch"]:
                    best_reason, best_field = "corpus_mismatch", "corpus_hash"
                continue
            if not artifact.live:
                best_reason, best_field = "not_live", None
                continue
            return artifact, path, "matched", None
    return None, None, best_reason, best_field
