"""Composition: which extractors and formation policy a store uses (ADR-0057 decision 2).

Deterministic formation (``formation@7``) is always available. Provider assistance
(``formation@8``) is resolved once per store from the rollout mode:

- ``off``: never resolves evidence, never constructs or calls a provider;
- ``auto`` (default): searches the operator evidence path, then the evidence bundled with the
  release (``release-evidence/``), and activates only on an exact tuple match with a valid,
  live artifact; otherwise runs deterministic formation and records why;
- ``required`` (also the legacy enable flag): refuses to start (exit 8) without a match.

Every decision is recorded once as a ``memory.formation.policy_resolved`` event carrying the
reason code and, for a tuple mismatch, the mismatching field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from agentmem.canonical import canonical_json
from agentmem.corpus import corpus_hash, tuned_cases
from agentmem.errors import EvidenceMismatch
from agentmem.events import Event, register_process_event
from agentmem.memory.episode import DETERMINISTIC_POLICY
from agentmem.memory.events import audit_event_id
from agentmem.memory.evidence import ModelTuple, Resolution, find_evidence
from agentmem.resources import data_path

if TYPE_CHECKING:
    from agentmem.config import Settings
    from agentmem.log import EventLog
    from agentmem.memory.service import FormationService
    from agentmem.providers.pricing import PricingCatalog

__all__ = [
    "DETERMINISTIC_POLICY",
    "PolicyResolved",
    "compiled_policy_version",
    "describe",
    "formation_service",
    "resolve",
    "resolve_settings",
    "runtime_tuple",
]


class PolicyResolved(Event, frozen=True, kw_only=True, tag="memory.formation.policy_resolved"):
    """The composition's decision, recorded once per distinct decision."""

    mode: str
    formation_policy: str
    reason: str
    field: str | None = None
    evidence_id: str | None = None
    provider: str | None = None
    model: str | None = None
    #: The exact runtime tuple decided about (``None`` when no provider is configured).
    model_tuple: ModelTuple | None = None


register_process_event(PolicyResolved)


def _catalog(settings: Settings) -> PricingCatalog:
    from agentmem.providers.pricing import load_catalog

    path = settings.memory.pricing_path
    return load_catalog(Path(path) if path else None)


def runtime_tuple(store: EventLog, provider: str, model: str) -> ModelTuple:
    """The exact tuple this code and configuration would run with."""
    return tuple_for(_catalog(store.settings), provider, model)


def tuple_for(catalog: PricingCatalog, provider: str, model: str) -> ModelTuple:
    """The exact tuple for ``provider``/``model`` under ``catalog`` and this code."""
    from agentmem.memory.provider import EXTRACTOR_VERSION, FORMATION_POLICY, MODEL_POLICY
    from agentmem.redaction import default_registry

    registry = default_registry()
    profile = getattr(registry, "profile", None)
    profile_name = getattr(profile, "name", "default")
    return ModelTuple(
        extractor_version=EXTRACTOR_VERSION,
        formation_policy=FORMATION_POLICY,
        model_policy=MODEL_POLICY,
        provider=provider,
        model=model,
        policy_profile=profile_name,
        compiled_policy_version=compiled_policy_version(
            catalog_hash=catalog.sha256(), policy_profile_version=registry.version
        ),
    )


def compiled_policy_version(*, catalog_hash: str, policy_profile_version: str) -> str:
    """SHA-256 over everything that shapes formation: claim kinds, gate constants, marker
    rules, the redaction registry, the deterministic extractor's version, the prompt template,
    the response schema, the budget and the pricing catalog (the tuple's last field)."""
    from agentmem.memory import markers, provider, service
    from agentmem.memory.claims import CLAIM_KINDS
    from agentmem.memory.extractor import EXTRACTOR_VERSION

    parts = {
        "claim_kinds": [msgspec.to_builtins(k) for k in CLAIM_KINDS.values()],
        "gates": {
            "order": ["source", "scope", "portability", "salience", "rejection", "conflict"],
            "max_candidates": service.MAX_CANDIDATES,
            "min_salience": service.MIN_SALIENCE,
        },
        "markers": {
            "injection": [
                [c, p.pattern if hasattr(p, "pattern") else str(p)]
                for c, p in markers.INJECTION_MARKERS
            ],
            "transient": [
                [c, p.pattern if hasattr(p, "pattern") else str(p)]
                for c, p in markers.TRANSIENT_MARKERS
            ],
        },
        "redaction": policy_profile_version,
        "deterministic_extractor": EXTRACTOR_VERSION,
        "prompt": provider.SYSTEM_PROMPT,
        "schema": provider.response_schema(),
        "budget": msgspec.to_builtins(provider.BUDGET),
        "overhead": provider.PROMPT_OVERHEAD_TOKENS,
        "pricing": catalog_hash,
    }
    import hashlib

    return hashlib.sha256(canonical_json(parts)).hexdigest()


def bundled_corpus_hash() -> str:
    """Hash of the memory-formation corpus this release evaluates on (evidence must be about it):
    the shipped corpus less its held-out part, as ``eval memory-formation`` runs it."""
    return corpus_hash(tuned_cases(data_path("corpus") / "memory-formation"))


def _locations(settings: Settings) -> list[tuple[str, Path]]:
    out = []
    if settings.memory.evidence_path:
        out.append(("operator", Path(settings.memory.evidence_path)))
    out.append(("release", data_path("release-evidence")))
    return out


def resolve(store: EventLog) -> Resolution:
    """Decide the formation policy for ``store`` (no side effects, no provider calls)."""
    return resolve_settings(store.settings)


def resolve_settings(settings: Settings) -> Resolution:
    """Decide the formation policy ``settings`` select, without opening any database.

    Every entry point that can consolidate calls this before it writes anything, so
    ``required`` without matching evidence refuses at start-up (:class:`EvidenceMismatch`)
    rather than after a session was closed or a server began to take writes.
    """
    memory = settings.memory
    mode = memory.rollout_mode()
    if mode == "off":
        return Resolution(mode, False, DETERMINISTIC_POLICY, "mode_off")
    configured = memory.provider
    if not configured.provider or not configured.model:
        return _refuse_or_fallback(
            Resolution(mode, False, DETERMINISTIC_POLICY, "no_provider_configured")
        )
    wanted = tuple_for(_catalog(settings), configured.provider, configured.model)
    artifact, path, reason, field = find_evidence(
        _locations(settings), wanted, corpus_hash=bundled_corpus_hash()
    )
    if artifact is None:
        return _refuse_or_fallback(
            Resolution(mode, False, DETERMINISTIC_POLICY, reason, field, tuple=wanted)
        )
    from agentmem.memory.provider import FORMATION_POLICY

    return Resolution(
        mode, True, FORMATION_POLICY, "matched", None, artifact.evidence_id, str(path), wanted
    )


def _refuse_or_fallback(resolution: Resolution) -> Resolution:
    if resolution.mode == "required":
        detail = f" (field {resolution.field})" if resolution.field else ""
        raise EvidenceMismatch(
            "provider assistance is required but cannot activate: "
            f"{resolution.reason}{detail}; supply evidence for the configured model tuple, or "
            "set memory.provider_assistance to auto"
        )
    return resolution


def record(store: EventLog, resolution: Resolution) -> None:
    """Append the decision to the log once (idempotent per distinct decision)."""
    provider = store.settings.memory.provider
    event = PolicyResolved(
        principal=store.principal,
        mode=resolution.mode,
        formation_policy=resolution.formation_policy,
        reason=resolution.reason,
        field=resolution.field,
        evidence_id=resolution.evidence_id,
        provider=provider.provider,
        model=provider.model,
        model_tuple=resolution.tuple,
    )
    store.append_process(msgspec.structs.replace(event, event_id=audit_event_id(event)))


def formation_service(store: EventLog) -> FormationService:
    """A formation service for ``store``'s settings, its policy resolved and recorded now.

    Resolving reads evidence files and may construct a provider: the facade builds one service
    per open database and keeps it.
    """
    from agentmem.memory.extractor import DeterministicExtractor
    from agentmem.memory.service import FormationService

    resolution = resolve(store)
    if resolution.mode != "off":
        record(store, resolution)
    assist = None
    if resolution.active:
        from agentmem.memory.provider import ProviderAssistedCandidateExtractor
        from agentmem.providers import make_provider

        spec = msgspec.to_builtins(store.settings.memory.provider)
        provider = make_provider({k: v for k, v in spec.items() if v is not None})
        assist = ProviderAssistedCandidateExtractor(
            provider, _catalog(store.settings), evidence_id=resolution.evidence_id or ""
        )
    return FormationService(store, DeterministicExtractor(), assist=assist, resolution=resolution)


_REASONS = {
    "mode_off": "provider assistance is off; deterministic formation only",
    "no_provider_configured": "no provider/model configured (memory.provider.*)",
    "no_evidence": "no evidence artifact found in the operator path or release-evidence",
    "invalid_evidence": "the only evidence found is invalid (schema or activation criteria)",
    "not_live": "the matching evidence was produced by a scripted, non-live run",
    "tuple_mismatch": "evidence exists, but for another tuple",
    "corpus_mismatch": "evidence was produced on another corpus than the one this release ships",
    "matched": "evidence matches the exact runtime tuple",
}


def describe(store: EventLog) -> dict[str, object]:
    """The decision as ``agentmem status`` shows it (raises in required mode without a match)."""
    resolution = resolve(store)
    reason = _REASONS.get(resolution.reason, resolution.reason)
    if resolution.field:
        reason += f" (mismatching field: {resolution.field})"
    return {
        "mode": resolution.mode,
        "formation_policy": resolution.formation_policy,
        "decision": "provider-assisted" if resolution.active else "deterministic",
        "reason": reason,
        "reason_code": resolution.reason,
        "field": resolution.field,
        "evidence_id": resolution.evidence_id,
        "evidence_path": resolution.evidence_path,
        "tuple": msgspec.to_builtins(resolution.tuple) if resolution.tuple else None,
    }
