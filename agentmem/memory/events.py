"""Process events of memory formation: content-free audits in the ordinary log.

They carry counts, versions, ids and seqs, never statements, quotes, prompts or responses, and
deterministic event ids, so an audit written twice is stored once.
"""

from __future__ import annotations

from agentmem.events import Event, register_process_event

__all__ = ["BeliefForgotten", "MemoryConsolidated"]


class MemoryConsolidated(Event, frozen=True, kw_only=True, tag="memory.consolidated"):
    """A session was consolidated through ``through_seq`` under ``formation_policy``."""

    through_seq: int
    formation_policy: str
    extractor: str
    outcomes: dict[str, int]
    rejected: dict[str, int]


class BeliefForgotten(Event, frozen=True, kw_only=True, tag="memory.belief.forgotten"):
    """A belief was forgotten; only its id is recorded."""

    belief_id: str


register_process_event(MemoryConsolidated)
register_process_event(BeliefForgotten)
