"""Erasure of a session or a principal: the one path that removes events from the log.

The log is append-only because an audit trail must not be rewritten; a person who asks to be
forgotten is the exception it must still serve. Erasure is therefore explicit and audited in
the database itself (``schema.sql``): a content-free ``erasure`` event is appended first, then
the covered seqs are listed in the ``purge`` table, whose trigger deletes exactly those events,
and the delete guard lets nothing else through. The erasure event records the scope, when, the
log position and counts, and an HMAC of the subject under the database's own secret (so the
same request can be recognised as done, but the log does not name whom it forgot).

What goes with the events, in the same transaction: the session and run projections (rebuilt
from what remains, so rebuilt still equals incremental), beliefs that cite an erased event or
were formed in an erased session (rows, evidence quotes, FTS rows, tombstones), the
consolidation audits and provider retries of erased sessions, the artifacts exported from
erased runs (or owned by an erased principal) and their unreferenced blobs, and consent rows
(their events are the principal's). Then the indexes that can hold erased identifiers are
rebuilt, the planner's statistics re-analysed, and after the commit a TRUNCATE checkpoint
empties the ``-wal``, where earlier page images still held the text; ``secure_delete`` has
zeroed every freed cell and page in the file. Copies made before (backups, exports already
handed out) are out of reach, and the README says so.

This is a core module: it takes the core :class:`~agentmem.log.EventLog` (every Store is one)
and touches the tables by SQL, never through the memory or export layers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import apsw
import msgspec

from agentmem import db
from agentmem.errors import DatabaseBusy, InvalidInput, NotFound
from agentmem.events import Event, register_process_event

if TYPE_CHECKING:
    from agentmem.log import EventLog

__all__ = ["ERASURE_PRINCIPAL", "SCOPES", "Erasure", "ErasureReport", "erase", "scrub"]

SCOPES = ("session", "principal")
#: The envelope principal of every erasure event: never the erased principal (the log must not
#: keep that name), and never erasable itself.
ERASURE_PRINCIPAL = "agentmem"

Scope = Literal["session", "principal"]


class Erasure(Event, frozen=True, kw_only=True, tag="erasure"):
    """Process event: a session or a principal was erased. Content-free by construction.

    ``subject_hmac`` is HMAC-SHA256 of the scope and subject under the database's secret: the
    same request is recognised as already done, while the log itself does not name the subject.
    ``through_seq`` is the newest seq before the erasure; ``counts`` says what went.
    """

    scope: Scope
    subject_hmac: str
    through_seq: int
    counts: dict[str, int]


register_process_event(Erasure)


class ErasureReport(msgspec.Struct, frozen=True):
    """What an erasure removed (or, with ``dry_run``, would remove).

    ``erasure_seq`` is the seq of the erasure event (``None`` for a dry run, or when the
    subject was erased earlier and this call only finished the scrub: ``already_erased``).
    """

    scope: str
    subject: str
    counts: dict[str, int]
    dry_run: bool = False
    erasure_seq: int | None = None
    already_erased: bool = False


# Temporary working sets (TEMP tables, dropped before the transaction ends): the covered seqs,
# runs, whole sessions and beliefs.
_WORK_TABLES = {
    "erasure_seqs": "seq INTEGER PRIMARY KEY",
    "erasure_runs": "run_id TEXT PRIMARY KEY",
    "erasure_sessions": "session_id TEXT PRIMARY KEY",
    "erasure_beliefs": "belief_id TEXT PRIMARY KEY, belief_rowid INTEGER NOT NULL",
}

# Indexes whose keys are identifiers an erased subject may have used (session, run, event and
# belief ids, principal names, claim keys). Their interior b-tree pages keep copies of keys as
# dividers, which deleting a leaf entry does not zero; a rebuild does.
_REINDEX = (
    "sqlite_autoindex_events_1",
    "events_by_session",
    "events_by_run",
    "beliefs_by_principal",
    "beliefs_by_claim",
    "artifacts_by_run",
    "artifacts_by_principal",
)

_SELECT_SEQS = {
    "session": "INSERT INTO temp.erasure_seqs SELECT seq FROM main.events "
    "WHERE session_id = :subject AND type <> 'erasure'",
    # A principal's own events, and every event of the sessions that principal owns.
    "principal": "INSERT INTO temp.erasure_seqs SELECT seq FROM main.events "
    "WHERE type <> 'erasure' AND (principal = :subject OR session_id IN "
    "(SELECT session_id FROM main.sessions WHERE principal = :subject))",
}

# Runs started by a covered event, and their descendants: a run's events all go with it (a
# child run whose parent is gone could not be replayed into the projections).
_CLOSE_RUNS = (
    "INSERT OR IGNORE INTO temp.erasure_runs "
    "WITH RECURSIVE tree(run_id) AS ("
    " SELECT run_id FROM main.events WHERE type = 'run.started'"
    "  AND seq IN (SELECT seq FROM temp.erasure_seqs)"
    " UNION SELECT r.run_id FROM main.runs AS r JOIN tree ON r.parent_run_id = tree.run_id"
    ") SELECT run_id FROM tree WHERE run_id IS NOT NULL",
    "INSERT OR IGNORE INTO temp.erasure_seqs SELECT seq FROM main.events "
    f"WHERE seq IN ({db.run_seqs('SELECT run_id FROM temp.erasure_runs')}) "
    "AND type <> 'erasure'",
)

# Sessions that keep no event at all once the covered ones are gone (plus the named session).
_WHOLE_SESSIONS = (
    "INSERT OR IGNORE INTO temp.erasure_sessions "
    "SELECT DISTINCT e.session_id FROM main.events AS e "
    "WHERE e.seq IN (SELECT seq FROM temp.erasure_seqs) AND e.session_id IS NOT NULL "
    "AND NOT EXISTS (SELECT 1 FROM main.events AS o WHERE o.session_id = e.session_id "
    "AND o.seq NOT IN (SELECT seq FROM temp.erasure_seqs) AND o.type <> 'erasure')"
)

# Beliefs formed from the erased conversation: formed in an erased session, owned by an erased
# principal, or citing any erased event (a belief that also rests on other sessions goes too:
# its statement was read from erased text, and over-erasing is the safe error here).
_SELECT_BELIEFS = (
    "INSERT OR IGNORE INTO temp.erasure_beliefs SELECT belief_id, rowid FROM main.beliefs "
    "WHERE session_id IN (SELECT session_id FROM temp.erasure_sessions) "
    "OR (:scope = 'principal' AND principal = :subject) "
    "OR belief_id IN (SELECT belief_id FROM main.belief_evidence "
    " WHERE seq IN (SELECT seq FROM temp.erasure_seqs) "
    " OR session_id IN (SELECT session_id FROM temp.erasure_sessions))"
)

_COUNTS = {
    "events": "SELECT count(*) FROM temp.erasure_seqs",
    "sessions": "SELECT count(*) FROM main.sessions "
    "WHERE session_id IN (SELECT session_id FROM temp.erasure_sessions)",
    "runs": "SELECT count(*) FROM main.runs WHERE run_id IN (SELECT run_id FROM temp.erasure_runs)",
    "beliefs": "SELECT count(*) FROM main.beliefs WHERE status <> 'forgotten' "
    "AND belief_id IN (SELECT belief_id FROM temp.erasure_beliefs)",
    "tombstones": "SELECT count(*) FROM main.beliefs WHERE status = 'forgotten' "
    "AND belief_id IN (SELECT belief_id FROM temp.erasure_beliefs)",
    "consolidations": "SELECT count(*) FROM main.consolidations "
    "WHERE session_id IN (SELECT session_id FROM temp.erasure_sessions) "
    "OR (:scope = 'principal' AND principal = :subject)",
    "artifacts": "SELECT count(*) FROM main.artifacts "
    "WHERE run_id IN (SELECT run_id FROM temp.erasure_runs) "
    "OR (:scope = 'principal' AND principal = :subject)",
    "consent": "SELECT count(*) FROM main.consent "
    "WHERE :scope = 'principal' AND principal = :subject",
}

_DELETE_DERIVED = (
    # Beliefs: references from surviving beliefs first, then evidence, rows and index entries.
    "UPDATE main.beliefs SET supersedes = NULL "
    "WHERE supersedes IN (SELECT belief_id FROM temp.erasure_beliefs)",
    "UPDATE main.beliefs SET superseded_by = NULL "
    "WHERE superseded_by IN (SELECT belief_id FROM temp.erasure_beliefs)",
    "DELETE FROM main.belief_evidence WHERE belief_id IN "
    "(SELECT belief_id FROM temp.erasure_beliefs)",
    "DELETE FROM main.beliefs WHERE belief_id IN (SELECT belief_id FROM temp.erasure_beliefs)",
    # The delete trigger already drops an active belief's index entry; superseded ones have
    # none. Deleting a missing FTS5 rowid is a no-op, so this holds with or without triggers.
    "DELETE FROM main.beliefs_fts WHERE rowid IN (SELECT belief_rowid FROM temp.erasure_beliefs)",
    "DELETE FROM main.consolidations "
    "WHERE session_id IN (SELECT session_id FROM temp.erasure_sessions) "
    "OR (:scope = 'principal' AND principal = :subject)",
    "DELETE FROM main.provider_retries "
    "WHERE session_id IN (SELECT session_id FROM temp.erasure_sessions)",
    # Exports of erased runs, everything an erased principal owns, and blobs left unreferenced.
    "DELETE FROM main.artifacts WHERE run_id IN (SELECT run_id FROM temp.erasure_runs) "
    "OR (:scope = 'principal' AND principal = :subject)",
    "DELETE FROM main.blobs WHERE NOT EXISTS "
    "(SELECT 1 FROM main.artifacts WHERE artifacts.blob_key = blobs.blob_key)",
)


def subject_hmac(store: EventLog, scope: str, subject: str) -> str:
    """HMAC-SHA256 of ``scope`` and ``subject`` under the database's secret (hex)."""
    import hashlib
    import hmac

    secret = store.conn.execute("SELECT value FROM meta WHERE key = 'blob_secret'").get
    if not isinstance(secret, bytes):  # pragma: no cover - written by db at creation
        raise InvalidInput("the database has no secret to key the erasure record with")
    message = f"{scope}\x00{subject}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def erase(
    store: EventLog,
    scope: str,
    subject: str,
    *,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ErasureReport:
    """Erase every trace of a session or a principal from the database file.

    ``scope`` is ``"session"`` (``subject`` a session id) or ``"principal"``. With
    ``dry_run`` nothing is written and the counts say what would go. A subject with nothing
    left that an earlier erasure removed returns ``already_erased`` after repeating the scrub
    (the way to finish one whose checkpoint a reader held up); a subject never seen is
    :class:`NotFound`. Raises :class:`DatabaseBusy` after the commit when another connection
    kept reading, so earlier page images could not yet be removed from the ``-wal``.
    ``progress(done, total)`` follows the steps (selecting, each deletion, the rebuild and
    reindexing, the scrub), for a caller's progress bar.
    """
    step = _Steps(progress)
    if scope not in SCOPES:
        raise InvalidInput(f"unknown erasure scope {scope!r}; one of: {', '.join(SCOPES)}")
    if not subject:
        raise InvalidInput(f"the {scope} to erase must be named")
    with store.transaction():
        conn = store.conn
        _create_work_tables(conn)
        try:
            counts = _select(store, scope, subject)
            step()
            if not any(counts.values()):
                digest = subject_hmac(store, scope, subject)
                done = conn.execute(
                    "SELECT 1 FROM main.events WHERE type = 'erasure' "
                    "AND payload ->> '$.subject_hmac' = ? LIMIT 1",
                    (digest,),
                ).fetchall()
                if not done:
                    raise NotFound(f"no {scope} {subject!r}: nothing is stored for it")
                report = ErasureReport(scope, subject, counts, dry_run, None, True)
            elif dry_run:
                report = ErasureReport(scope, subject, counts, True)
            else:
                seq = _purge(store, scope, subject, counts, step)
                report = ErasureReport(scope, subject, counts, False, seq)
        finally:
            for table in _WORK_TABLES:
                conn.execute(f"DROP TABLE IF EXISTS temp.{table}")
    if not dry_run:
        try:
            scrub(store, what=f"{scope} {subject!r}")
        except apsw.Error as exc:
            mapped = db.translate(exc, store.path)
            if mapped is None:
                raise
            raise mapped from exc
    step(final=True)
    return report


class _Steps:
    """Counts an erasure's steps for ``progress(done, total)``: selecting, writing the event,
    each deletion, the rebuild, each reindex, the statistics and the scrub."""

    TOTAL = 1 + 1 + len(_DELETE_DERIVED) + 1 + len(_REINDEX) + 1 + 1

    def __init__(self, progress: Callable[[int, int], None] | None) -> None:
        self.progress = progress
        self.done = 0

    def __call__(self, *, final: bool = False) -> None:
        self.done = self.TOTAL if final else self.done + 1
        if self.progress is not None:
            self.progress(self.done, self.TOTAL)


def _create_work_tables(conn: apsw.Connection) -> None:
    for table, columns in _WORK_TABLES.items():
        conn.execute(f"DROP TABLE IF EXISTS temp.{table}")
        conn.execute(f"CREATE TEMP TABLE {table} ({columns})")


def _select(store: EventLog, scope: str, subject: str) -> dict[str, int]:
    """Fill the working sets and count what they cover."""
    conn = store.conn
    bindings = {"scope": scope, "subject": subject}
    conn.execute(_SELECT_SEQS[scope], bindings)
    for sql in _CLOSE_RUNS:
        conn.execute(sql)
    if scope == "session":
        conn.execute("INSERT OR IGNORE INTO temp.erasure_sessions VALUES (?)", (subject,))
    conn.execute(_WHOLE_SESSIONS)
    conn.execute(_SELECT_BELIEFS, bindings)
    return {name: conn.execute(sql, bindings).get for name, sql in _COUNTS.items()}


def _purge(store: EventLog, scope: str, subject: str, counts: dict[str, int], step: _Steps) -> int:
    """Write the erasure event, delete what it covers, rebuild the projections; its seq."""
    import secrets

    conn = store.conn
    through = conn.execute("SELECT coalesce(max(seq), 0) FROM main.events").get
    event = Erasure(
        principal=ERASURE_PRINCIPAL,
        scope=scope,  # type: ignore[arg-type]  # checked against SCOPES by erase()
        subject_hmac=subject_hmac(store, scope, subject),
        through_seq=through,
        counts=counts,
        event_id="erasure-" + secrets.token_hex(12),
    )
    seq = store.append_process(event).seq
    step()
    conn.execute(
        "INSERT INTO main.purge (seq, erasure_seq) SELECT seq, ? FROM temp.erasure_seqs "
        "ORDER BY seq",
        (seq,),
    )
    for sql in _DELETE_DERIVED:
        conn.execute(sql, {"scope": scope, "subject": subject})
        step()
    db.rebuild_projections(conn)
    step()
    for index in _REINDEX:
        conn.execute(f"REINDEX main.{index}")
        step()
    # The planner's samples (sqlite_stat4) copy index keys; ANALYZE replaces them with samples
    # of what remains. Only where statistics exist: a file that never had them keeps none.
    if conn.execute("SELECT 1 FROM main.sqlite_schema WHERE name = 'sqlite_stat1'").fetchall():
        conn.execute("ANALYZE main")
    step()
    return seq


def scrub(store: EventLog, *, what: str = "the erased data") -> None:
    """Hand freed pages back and empty the ``-wal`` (TRUNCATE checkpoint), outside a transaction.

    ``secure_delete`` zeroed what the erasure freed in the database file, but the ``-wal``
    still holds the page images written before it, text included, until a checkpoint resets it.
    A reader that keeps an old snapshot open holds the checkpoint back: :class:`DatabaseBusy`.
    """
    conn = store.conn
    if conn.in_transaction:
        return  # the caller's transaction owns the commit; it scrubs afterwards
    list(conn.execute("PRAGMA incremental_vacuum"))
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0]
    if busy:
        raise DatabaseBusy(
            f"{what} is erased from the database, but another connection kept reading "
            f"{store.path}, so earlier copies of its pages remain in the -wal file until the "
            "next checkpoint; erase it again once that reader has closed to finish"
        )
