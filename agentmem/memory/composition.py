"""Composition: which extractor and formation policy a store uses.

Deterministic formation (``formation@7``) is always available. Provider assistance
(``formation@8``) is resolved here from the rollout mode and evidence (ADR-0057 decision 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentmem.memory.service import FormationService
    from agentmem.store import Store

__all__ = ["formation_service"]


def formation_service(store: Store) -> FormationService:
    """The formation service for ``store``'s settings."""
    from agentmem.memory.extractor import DeterministicExtractor
    from agentmem.memory.service import FormationService

    return FormationService(store, DeterministicExtractor())
