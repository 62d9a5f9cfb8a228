"""Process events of memory formation: content-free audits in the ordinary log.

They carry counts, versions, ids and seqs, never statements, quotes, prompts or responses, and
event ids derived from their content (:func:`audit_event_id`), so an audit written twice is
stored once.
"""

from __future__ import annotations

from agentmem.events import Event, canonical_json, event_type, payload_of, register_process_event

__all__ = ["BeliefForgotten", "MemoryConsolidated", "audit_event_id"]


def audit_event_id(event: Event) -> str:
    """The id of an idempotent audit: its type and the SHA-256 of everything in its content.

    Principal, session, run and every payload field go into the hash, so writing the same
    audit again is a replay, while an audit that differs in anything, even only in its
    principal, gets another id and can never be taken for a conflicting replay. An id built
    from a hand-picked subset of the content breaks the first time a field left out differs.
    """
    if event.principal is None:
        raise ValueError("an audit's principal must be set before its id is derived")
    kind = event_type(event)
    content = [kind, event.session_id, event.run_id, event.principal, payload_of(event)]
    import hashlib

    return f"{kind}:{hashlib.sha256(canonical_json(content)).hexdigest()}"


class MemoryConsolidated(Event, frozen=True, kw_only=True, tag="memory.consolidated"):
    """A session was consolidated through ``through_seq`` under ``formation_policy``."""

    through_seq: int
    formation_policy: str
    extractor: str
    outcomes: dict[str, int]
    rejected: dict[str, int]
    #: 1, or the retry of a retryable provider failure (ADR-0068) this consolidation was.
    attempt: int = 1


class BeliefForgotten(Event, frozen=True, kw_only=True, tag="memory.belief.forgotten"):
    """A belief was forgotten; only its id is recorded."""

    belief_id: str


register_process_event(MemoryConsolidated)
register_process_event(BeliefForgotten)
