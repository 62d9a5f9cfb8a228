"""The facade ``agentmem.open()`` returns: the event log plus consent, export, artifacts, memory.

:class:`Store` is an :class:`~agentmem.log.EventLog` (appending, reading the log and its
projections, transactions, checks) that also composes the modules of the layer above the core:
consent and trajectory export (ADR-0032), the artifact store, and long-term memory (ADR-0057).
Those modules take the core log and never import this facade, so the dependencies point one
way: core, then memory and export, then this facade, then the CLI, HTTP and integrations.
Each method here is a thin delegation; the CLI, the HTTP API and other adapters are thinner
still: parse, call the Store, render.

Memory is imported when first used: appending and reading events never load the formation
service, the extractor or a provider.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from agentmem import artifacts, backup, consent, erasure, trajectory
from agentmem.errors import EventRejected
from agentmem.log import (
    AppendResult,
    EventLog,
    ImportResult,
    RunInfo,
    RunTool,
    SessionInfo,
    StatusInfo,
    content_hash,
)

if TYPE_CHECKING:
    from agentmem.artifacts import ArtifactInfo, SweepResult
    from agentmem.backup import BackupInfo
    from agentmem.consent import ConsentStatus
    from agentmem.erasure import ErasureReport
    from agentmem.memory.beliefs import Belief
    from agentmem.memory.service import ConsolidationReport, ExplainedClause, FormationService
    from agentmem.trajectory import ExportResult

# The core's result types are named here too, where callers of the facade have always found them.
__all__ = [
    "AppendResult",
    "ImportResult",
    "RunInfo",
    "RunTool",
    "SessionInfo",
    "StatusInfo",
    "Store",
    "content_hash",
    "open",
]


class Store(EventLog):
    """An open agentmem database with everything built on the log. Use as a context manager,
    or call :meth:`close`; threads may share it as they may share an EventLog."""

    _formation: FormationService | None = None

    # -- consent, export and artifacts (ADR-0032) ------------------------------------------

    def grant_consent(self, principal: str | None = None) -> ConsentStatus:
        """Grant trajectory-export consent for runs that start from now on.

        Here as everywhere in the library, ``principal=None`` means the store's principal (the
        one given to :func:`open`); reading across principals is an explicit
        ``all_principals=True``.
        """
        return consent.grant(self, principal)

    def withdraw_consent(self, principal: str | None = None) -> ConsentStatus:
        """Withdraw consent: blocks every export and expires every existing one at once."""
        return consent.withdraw(self, principal)

    def consent_status(self, principal: str | None = None) -> ConsentStatus:
        """The principal's current trajectory-export consent."""
        return consent.status(self, principal)

    def export_run(self, run_id: str, *, principal: str | None = None) -> ExportResult:
        """Export a run as a redacted trajectory artifact (idempotent per run and schema)."""
        return trajectory.export_run(self, run_id, principal=principal)

    def read_artifact(
        self, artifact_id: str, *, principal: str | None = None, operator: bool = False
    ) -> tuple[ArtifactInfo, bytes]:
        """Read an artifact through the one authorized path (owner, or operator; not expired)."""
        return artifacts.read(self, artifact_id, principal=principal, operator=operator)

    def artifacts(
        self,
        *,
        principal: str | None = None,
        all_principals: bool = False,
        include_expired: bool = False,
    ) -> list[ArtifactInfo]:
        """Artifacts of the principal (every principal's with ``all_principals``), newest first."""
        return artifacts.list_artifacts(
            self,
            principal=principal,
            all_principals=all_principals,
            include_expired=include_expired,
        )

    def sweep_artifacts(self) -> SweepResult:
        """Delete expired artifacts and unreferenced blobs (the only deletion path)."""
        return artifacts.sweep(self)

    # -- erasure and backup ----------------------------------------------------------------

    def erase_session(
        self,
        session_id: str,
        *,
        dry_run: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> ErasureReport:
        """Erase a session and everything formed from it (see :mod:`agentmem.erasure`)."""
        return erasure.erase(self, "session", session_id, dry_run=dry_run, progress=progress)

    def erase_principal(
        self,
        principal: str,
        *,
        dry_run: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> ErasureReport:
        """Erase every trace of a principal (see :mod:`agentmem.erasure`)."""
        return erasure.erase(self, "principal", principal, dry_run=dry_run, progress=progress)

    def backup(
        self,
        destination: str | os.PathLike[str],
        *,
        vacuum: bool = False,
        overwrite: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> BackupInfo:
        """Copy the database online to ``destination``, checked (see :mod:`agentmem.backup`)."""
        return backup.backup(
            self, destination, vacuum=vacuum, overwrite=overwrite, progress=progress
        )

    # -- memory (ADR-0057) -----------------------------------------------------------------

    def formation_service(self) -> FormationService:
        """The formation service this store's settings select (see ``agentmem status``),
        resolved and recorded once per Store."""
        if self._formation is None:
            from agentmem.memory.composition import formation_service

            self._formation = formation_service(self)
        return self._formation

    def close_session(
        self, session_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> ConsolidationReport:
        """Close one of the principal's sessions (anyone's with ``all_principals``; idempotent)
        and consolidate it into beliefs. Another principal's session is :class:`NotFound`.

        The formation policy is resolved first: when it refuses (``required`` without
        matching evidence), the session stays open and nothing is written.
        """
        info = self.session(session_id, principal=principal, all_principals=all_principals)
        service = self.formation_service()
        if info.status != "closed":
            try:
                self.append(
                    {
                        "type": "session.closed",
                        "session_id": session_id,
                        "principal": info.principal,
                    }
                )
            except EventRejected:
                # Another writer closed it between our read and our append: same outcome.
                if self.session(session_id, principal=info.principal).status != "closed":
                    raise
        return service.consolidate(session_id, trigger="close")

    def explain_session(
        self, session_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> list[ExplainedClause]:
        """Why each clause of one of the principal's sessions (anyone's with
        ``all_principals``) was (not) remembered; writes nothing.

        Secrets are redacted in the clauses, and a message that holds one is withheld whole.
        """
        self.session(session_id, principal=principal, all_principals=all_principals)
        return self.formation_service().explain(session_id)

    def consolidate_idle(
        self,
        idle_seconds: float | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[ConsolidationReport]:
        """Consolidate closed and idle sessions that have unconsolidated events.

        One session's failure does not stop the others: its report carries ``error`` and
        ``error_code``, and the next session is consolidated. A refused formation policy
        (``required`` without evidence) raises before anything is written.
        ``progress(done, total)`` follows the sessions, for a caller's progress bar.
        """
        from agentmem.memory.service import consolidate_idle

        return consolidate_idle(self, self.formation_service(), idle_seconds, progress=progress)

    def beliefs(
        self,
        *,
        principal: str | None = None,
        all_principals: bool = False,
        include_inactive: bool = False,
    ) -> list[Belief]:
        """Active beliefs of the principal (every principal's with ``all_principals``), newest
        first."""
        from agentmem.memory.beliefs import beliefs

        return beliefs(
            self,
            principal=principal,
            all_principals=all_principals,
            include_inactive=include_inactive,
        )

    def belief(
        self, belief_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> Belief:
        """One of the principal's beliefs (anyone's with ``all_principals``), with its evidence."""
        from agentmem.memory.beliefs import belief

        return belief(self, belief_id, principal=principal, all_principals=all_principals)

    def search_beliefs(
        self,
        query: str,
        *,
        principal: str | None = None,
        all_principals: bool = False,
        limit: int = 20,
    ) -> list[Belief]:
        """Full-text recall over the principal's active beliefs (every principal's with
        ``all_principals``), best BM25 match first."""
        from agentmem.memory.beliefs import search

        return search(self, query, principal=principal, all_principals=all_principals, limit=limit)

    def forget_belief(
        self, belief_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> Belief:
        """Erase one of the principal's beliefs (anyone's with ``all_principals``): its content
        leaves the table and the index, a content-free tombstone stays."""
        from agentmem.memory.beliefs import forget

        return forget(self, belief_id, principal=principal, all_principals=all_principals)


def open(
    path: str | None = None,
    *,
    principal: str | None = None,
    create: bool = True,
    readonly: bool = False,
) -> Store:
    """Open the agentmem database at ``path`` (default: settings, then platformdirs).

    ``readonly`` reads an existing database without ever writing, creating or waiting for a
    writer (see :meth:`Store.open`).
    """
    return Store.open(path, principal=principal, create=create, readonly=readonly)
