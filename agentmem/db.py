"""The one place where a database connection is opened and the schema is brought up to date.

Connection setup follows apsw's best practice (WAL, foreign keys, no double-quoted strings,
query-planner statistics) plus our own choices: a busy timeout measured in seconds so several
local processes can write to one file, ``BEGIN IMMEDIATE`` outermost write transactions
(:func:`transaction`) so a writer takes the write lock before it reads (no upgrade
deadlocks), and a checked ``synchronous`` level.

A read-only connection (``connect(..., readonly=True)``) changes nothing and never asks for the
write lock: no schema set-up, no journal-mode change, no ``PRAGMA optimize`` (which analyzes,
that is writes). It works on read-only files and media, and refuses a missing or empty file
instead of creating a database. Query-planner statistics are refreshed by :func:`close` on a
connection that wrote, and only if the lock is free at that moment.

:func:`translate` maps the SQLite failures a user can meet (busy, disk full, corruption,
read-only) onto the error tree; everything else stays a bug.

The schema is ``schema.sql`` (the whole current version) behind a ``PRAGMA user_version``
ladder: an empty file gets the current schema, an older agentmem database gets the migration
steps in order, a newer one is refused, and a file that is anything else is refused before a
single byte of it is changed.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import apsw

from agentmem.encryption import unlock
from agentmem.errors import (
    AgentmemError,
    DatabaseBusy,
    DatabaseCorrupt,
    DiskFull,
    InvalidInput,
    NotADatabase,
    SchemaTooNew,
    StoreError,
    UsageError,
)
from agentmem.resources import data_path

__all__ = [
    "APPLICATION_ID",
    "RUN_EVENT_COUNT",
    "RUN_MEMBERS_SQL",
    "RUN_MEMBER_TYPES",
    "SCHEMA_VERSION",
    "DatabaseUnavailable",
    "close",
    "connect",
    "projection_drift",
    "projection_snapshot",
    "rebuild_projections",
    "run_seqs",
    "schema_differences",
    "transaction",
    "translate",
    "where",
]

APPLICATION_ID = 0x41474D4D  # "AGMM"
SCHEMA_VERSION = 7

#: The types a run's member guard (``events_proj_run_member``) keeps in the run's session
#: between its start and its completion: readers find them in that session's range.
RUN_MEMBER_TYPES = (
    "user.message.created",
    "assistant.message.created",
    "tool.result.created",
    "system.prompt.set",
)
#: The same types as an SQL list, for the statements that name them.
RUN_MEMBERS_SQL = ", ".join(f"'{kind}'" for kind in RUN_MEMBER_TYPES)

#: A ``runs`` row's event count (the row is named ``runs``): stored when the run completes,
#: counted from the log while it runs (schema.sql says why).
RUN_EVENT_COUNT = (
    "CASE runs.status WHEN 'completed' THEN runs.event_count ELSE ("
    "SELECT count(*) FROM main.events AS e WHERE e.session_id = runs.session_id"
    " AND e.seq >= runs.started_seq AND e.run_id = runs.run_id"
    f" AND e.type IN ('run.started', 'run.completed', {RUN_MEMBERS_SQL})) END"
)


def run_seqs(runs: str) -> str:
    """A SELECT of the seqs of every event tagged with one of ``runs`` (SQL naming run ids: a
    ``?`` parameter or a subquery, used twice, so a parameter is bound twice).

    Members are read from the run's session range (``events_by_session`` carries run_id), the
    rest (its start and completion, and any other type tagged with it) from the partial
    ``events_by_run``: the same events a ``run_id =`` filter finds, with no index entry per
    message.
    """
    return (
        "SELECT e.seq FROM main.runs AS r JOIN main.events AS e"
        " ON e.session_id = r.session_id"
        " AND e.seq BETWEEN r.started_seq AND coalesce(r.completed_seq, 9223372036854775807)"
        f" WHERE r.run_id IN ({runs}) AND e.run_id = r.run_id"
        f" UNION ALL SELECT seq FROM main.events WHERE run_id IN ({runs})"
        f" AND run_id IS NOT NULL AND type NOT IN ({RUN_MEMBERS_SQL})"
    )


# Migration steps: MIGRATIONS[n] upgrades a database at user_version n to n + 1, inside the
# write transaction that then sets user_version. Each step is the literal SQL of its version
# (a later schema.sql must not change what an old step does); a test upgrades a version-1 file
# and checks that its schema then equals schema.sql, as ``agentmem db check`` does.
MIGRATIONS: dict[int, str] = {
    # 1 -> 2: every insert into the log is checked first (no REPLACE of an existing seq or
    # event_id, exact types), and one export per run and document schema. Duplicate exports
    # written before the index existed are reduced to the one export_run returned (the
    # oldest live one; if none is live, the newest expired one stays for the sweeper).
    1: """
CREATE TRIGGER events_append_only_insert BEFORE INSERT ON events
BEGIN
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM events WHERE seq = NEW.seq)
          OR EXISTS (SELECT 1 FROM events WHERE event_id = NEW.event_id)
            THEN RAISE(ABORT, 'agentmem:append_only')
        WHEN CASE NEW.type
                 WHEN 'session.closed' THEN 0
                 WHEN 'run.started' THEN 0
                 WHEN 'run.completed' THEN 0
                 WHEN 'user.message.created' THEN 0
                 WHEN 'assistant.message.created' THEN 0
                 WHEN 'tool.result.created' THEN 0
                 WHEN 'system.prompt.set' THEN 0
                 WHEN 'consent.granted' THEN 0
                 WHEN 'consent.withdrawn' THEN 0
                 WHEN 'memory.consolidated' THEN 0
                 WHEN 'memory.belief.forgotten' THEN 0
                 WHEN 'memory.provider.called' THEN 0
                 WHEN 'memory.formation.policy_resolved' THEN 0
                 WHEN 'agents.item.added' THEN 0
                 WHEN 'agents.item.popped' THEN 0
                 WHEN 'agents.session.cleared' THEN 0
                 ELSE 1 END
            THEN RAISE(ABORT, 'agentmem:unknown_type')
    END;
END;
DELETE FROM artifacts WHERE artifact_id IN (
    SELECT artifact_id FROM (
        SELECT artifact_id, row_number() OVER (
            PARTITION BY run_id, doc_schema
            ORDER BY expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') DESC,
                     CASE WHEN expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                          THEN created_at END,
                     created_at DESC, artifact_id
        ) AS rank
        FROM artifacts WHERE origin = 'trajectory_export'
    ) WHERE rank > 1
);
CREATE UNIQUE INDEX artifacts_one_export ON artifacts (run_id, doc_schema)
WHERE origin = 'trajectory_export';
""",
    # 2 -> 3: the recall index follows the beliefs table by triggers (until now the formation
    # service wrote it from Python). The index itself is already in step and is kept as it is.
    2: """
CREATE TRIGGER beliefs_fts_insert AFTER INSERT ON beliefs WHEN NEW.status = 'active'
BEGIN
    INSERT INTO beliefs_fts (rowid, statement, claim_values) VALUES (
        NEW.rowid,
        NEW.statement,
        (SELECT group_concat(value, ' ') FROM json_each(NEW.claim_values)
         WHERE value IS NOT NULL AND value <> '')
    );
END;
CREATE TRIGGER beliefs_fts_deactivate AFTER UPDATE OF status ON beliefs
WHEN OLD.status = 'active' AND NEW.status <> 'active'
BEGIN
    DELETE FROM beliefs_fts WHERE rowid = OLD.rowid;
END;
CREATE TRIGGER beliefs_fts_delete AFTER DELETE ON beliefs WHEN OLD.status = 'active'
BEGIN
    DELETE FROM beliefs_fts WHERE rowid = OLD.rowid;
END;
""",
    # 3 -> 4: the live items of each Agents SDK session as a projection (agents_items), filled
    # from the log. An added item is live unless a later pop names it, or a later clear reaches
    # it: a clear at seq c through t removes every item at or before min(t, c - 1), so one
    # cutoff per session says it (a set-based form of what the triggers do event by event).
    3: """
CREATE TABLE agents_items (
    session_id TEXT NOT NULL,
    principal  TEXT NOT NULL,
    item_seq   INTEGER NOT NULL,
    PRIMARY KEY (session_id, principal, item_seq)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER events_proj_agents_item_added AFTER INSERT ON events
WHEN NEW.type = 'agents.item.added' AND NEW.session_id IS NOT NULL
BEGIN
    INSERT INTO agents_items (session_id, principal, item_seq)
    VALUES (NEW.session_id, NEW.principal, NEW.seq);
END;
CREATE TRIGGER events_proj_agents_item_popped AFTER INSERT ON events
WHEN NEW.type = 'agents.item.popped'
BEGIN
    DELETE FROM agents_items
    WHERE session_id = NEW.session_id AND principal = NEW.principal
      AND item_seq = json_extract(NEW.payload, '$.item_seq');
END;
CREATE TRIGGER events_proj_agents_session_cleared AFTER INSERT ON events
WHEN NEW.type = 'agents.session.cleared'
BEGIN
    DELETE FROM agents_items
    WHERE session_id = NEW.session_id AND principal = NEW.principal
      AND item_seq <= json_extract(NEW.payload, '$.through_seq');
END;
INSERT INTO agents_items (session_id, principal, item_seq)
SELECT a.session_id, a.principal, a.seq
FROM events AS a
LEFT JOIN (
    SELECT session_id, principal,
           max(min(seq - 1, json_extract(payload, '$.through_seq'))) AS cutoff
    FROM events WHERE type = 'agents.session.cleared' GROUP BY session_id, principal
) AS c ON c.session_id = a.session_id AND c.principal = a.principal
WHERE a.type = 'agents.item.added' AND a.session_id IS NOT NULL
  AND (c.cutoff IS NULL OR a.seq > c.cutoff)
  AND (a.session_id, a.principal, a.seq) NOT IN (
      SELECT session_id, principal, json_extract(payload, '$.item_seq') FROM events
      WHERE type = 'agents.item.popped' AND session_id IS NOT NULL
        AND seq > json_extract(payload, '$.item_seq'));
""",
    # 4 -> 5: erasure (agentmem.erasure), the one audited path that removes events: the purge
    # table and its triggers, a delete guard that lets through only the rows listed there,
    # and the `erasure` event type in the closed set.
    4: """
CREATE TABLE purge (
    seq         INTEGER PRIMARY KEY,
    erasure_seq INTEGER NOT NULL
) STRICT;
CREATE TRIGGER purge_audited BEFORE INSERT ON purge
BEGIN
    SELECT RAISE(ABORT, 'agentmem:purge_unaudited')
    WHERE NEW.erasure_seq IS NOT (SELECT max(seq) FROM events)
       OR NOT EXISTS (SELECT 1 FROM events WHERE seq = NEW.erasure_seq AND type = 'erasure')
       OR NEW.seq >= NEW.erasure_seq;
END;
CREATE TRIGGER purge_event AFTER INSERT ON purge
BEGIN
    DELETE FROM events WHERE seq = NEW.seq;
    DELETE FROM purge WHERE seq = NEW.seq;
END;
DROP TRIGGER events_append_only_delete;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
WHEN OLD.type = 'erasure' OR NOT EXISTS (SELECT 1 FROM purge WHERE seq = OLD.seq)
BEGIN
    SELECT RAISE(ABORT, 'agentmem:append_only');
END;
DROP TRIGGER events_append_only_insert;
CREATE TRIGGER events_append_only_insert BEFORE INSERT ON events
BEGIN
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM events WHERE seq = NEW.seq)
          OR EXISTS (SELECT 1 FROM events WHERE event_id = NEW.event_id)
            THEN RAISE(ABORT, 'agentmem:append_only')
        WHEN CASE NEW.type
                 WHEN 'session.closed' THEN 0
                 WHEN 'run.started' THEN 0
                 WHEN 'run.completed' THEN 0
                 WHEN 'user.message.created' THEN 0
                 WHEN 'assistant.message.created' THEN 0
                 WHEN 'tool.result.created' THEN 0
                 WHEN 'system.prompt.set' THEN 0
                 WHEN 'consent.granted' THEN 0
                 WHEN 'consent.withdrawn' THEN 0
                 WHEN 'memory.consolidated' THEN 0
                 WHEN 'memory.belief.forgotten' THEN 0
                 WHEN 'memory.provider.called' THEN 0
                 WHEN 'memory.formation.policy_resolved' THEN 0
                 WHEN 'agents.item.added' THEN 0
                 WHEN 'agents.item.popped' THEN 0
                 WHEN 'agents.session.cleared' THEN 0
                 WHEN 'erasure' THEN 0
                 ELSE 1 END
            THEN RAISE(ABORT, 'agentmem:unknown_type')
    END;
END;
""",
    # 5 -> 6: a principal's newest active beliefs (the context a consolidation carries) are
    # read from an index in rowid order instead of sorting all of them.
    5: """
CREATE INDEX beliefs_newest ON beliefs (principal, status);
""",
    # 6 -> 7: a message append writes neither a run index entry nor the run's row. The session
    # index carries run_id, the run index keeps only a run's non-member events, and a run's
    # event_count is counted when it completes (a running run's is counted on read).
    6: """
DROP INDEX events_by_run;
DROP INDEX events_by_session;
CREATE INDEX events_by_session ON events (session_id, seq, run_id);
CREATE INDEX events_by_run ON events (run_id, seq)
WHERE run_id IS NOT NULL
  AND type NOT IN ('user.message.created', 'assistant.message.created', 'tool.result.created',
                   'system.prompt.set');
DROP TRIGGER events_proj_run_member;
CREATE TRIGGER events_proj_run_member AFTER INSERT ON events
WHEN NEW.run_id IS NOT NULL
 AND NEW.type IN ('user.message.created', 'assistant.message.created', 'tool.result.created',
                  'system.prompt.set')
BEGIN
    SELECT CASE
        WHEN r.run_id IS NULL THEN RAISE(ABORT, 'agentmem:run_unknown')
        WHEN r.session_id <> NEW.session_id THEN RAISE(ABORT, 'agentmem:run_other_session')
        WHEN r.status <> 'running' THEN RAISE(ABORT, 'agentmem:run_completed')
    END
    FROM (SELECT NEW.run_id AS wanted) LEFT JOIN runs AS r ON r.run_id = wanted;
END;
DROP TRIGGER events_proj_run_completed;
CREATE TRIGGER events_proj_run_completed AFTER INSERT ON events
WHEN NEW.type = 'run.completed'
BEGIN
    SELECT CASE
        WHEN r.run_id IS NULL THEN RAISE(ABORT, 'agentmem:run_unknown')
        WHEN r.session_id <> NEW.session_id THEN RAISE(ABORT, 'agentmem:run_other_session')
        WHEN r.status <> 'running' THEN RAISE(ABORT, 'agentmem:run_completed')
    END
    FROM (SELECT NEW.run_id AS wanted) LEFT JOIN runs AS r ON r.run_id = wanted;
    UPDATE runs SET
        event_count = (SELECT count(*) FROM events AS e
                       WHERE e.session_id = NEW.session_id
                         AND e.seq BETWEEN runs.started_seq AND NEW.seq
                         AND e.run_id = NEW.run_id
                         AND e.type IN ('run.started', 'run.completed', 'user.message.created',
                                        'assistant.message.created', 'tool.result.created',
                                        'system.prompt.set')),
        status = 'completed',
        outcome = json_extract(NEW.payload, '$.outcome'),
        failure_class = json_extract(NEW.payload, '$.failure_class'),
        completed_seq = NEW.seq,
        completed_at = NEW.created_at
    WHERE run_id = NEW.run_id;
END;
UPDATE runs SET event_count = 1 WHERE status = 'running';
DROP TRIGGER events_proj_session;
CREATE TRIGGER events_proj_session AFTER INSERT ON events
WHEN NEW.type IN ('session.closed', 'run.started', 'run.completed', 'user.message.created',
                  'assistant.message.created', 'tool.result.created', 'system.prompt.set')
BEGIN
    INSERT INTO sessions (session_id, principal, status, event_count, user_message_count,
                          assistant_message_count, run_count, first_seq, last_seq, closed_seq,
                          created_at, last_activity_at)
    VALUES (NEW.session_id, NEW.principal,
            CASE NEW.type WHEN 'session.closed' THEN 'closed' ELSE 'open' END, 1,
            NEW.type = 'user.message.created', NEW.type = 'assistant.message.created',
            NEW.type = 'run.started', NEW.seq, NEW.seq,
            CASE NEW.type WHEN 'session.closed' THEN NEW.seq END,
            NEW.created_at, NEW.created_at)
    ON CONFLICT (session_id) DO UPDATE SET
        status = CASE status WHEN 'closed' THEN RAISE(ABORT, 'agentmem:session_closed')
                             ELSE excluded.status END,
        event_count = event_count + 1,
        user_message_count = user_message_count + excluded.user_message_count,
        assistant_message_count = assistant_message_count + excluded.assistant_message_count,
        run_count = run_count + excluded.run_count,
        last_seq = excluded.last_seq,
        closed_seq = excluded.closed_seq,
        last_activity_at = max(last_activity_at, excluded.last_activity_at);
END;
""",
}

PROJECTION_TABLES = ("sessions", "runs", "run_tools", "consent", "agents_items")


class DatabaseUnavailable(UsageError):
    """The database path cannot be opened as asked (missing, or its directory is read-only)."""

    code = "database_unavailable"


def _check_pragma(conn: apsw.Connection, name: str, value: object, expect: object) -> None:
    got = conn.pragma(name, value)
    if got is not None and str(got).lower() != str(expect).lower():
        raise StoreError(f"PRAGMA {name}={value} did not take effect (got {got!r})")


def _is_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file::memory:")


def connect(
    path: str | os.PathLike[str],
    *,
    synchronous: str = "FULL",
    busy_timeout_ms: int = 10_000,
    create: bool = True,
    readonly: bool = False,
) -> apsw.Connection:
    """Open ``path`` as an agentmem database, creating it when ``create`` is true.

    Identity is checked before any pragma that writes (WAL mode rewrites the header), so a
    foreign SQLite file, or a file that is not SQLite at all, is refused unmodified. With
    ``readonly`` the file must already be an agentmem database; nothing is ever written.
    """
    path = os.fspath(path)
    if readonly:
        return _connect_readonly(path, busy_timeout_ms)
    memory = _is_memory(path)
    if not memory:
        target = Path(path)
        if target.is_dir():
            raise DatabaseUnavailable(f"{path} is a directory; pass a database file path")
        if not target.exists():
            if not create:
                raise DatabaseUnavailable(
                    f"no agentmem database at {path}, and this open does not create one"
                )
            parent = target.parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(
                    f"cannot create directory {parent}: {exc.strerror}"
                ) from exc
        elif not os.access(target, os.W_OK):
            raise DatabaseUnavailable(
                f"{path} is read-only; nothing was written (reading it works without write access)"
            )
        if not os.access(target.parent, os.W_OK):
            raise DatabaseUnavailable(
                f"cannot write in {target.parent}: the directory is read-only "
                "(SQLite needs to create its -wal and -shm files there)"
            )
    flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE | apsw.SQLITE_OPEN_URI
    conn = _open_handle(path, flags, busy_timeout_ms, path)
    try:
        conn.set_busy_timeout(busy_timeout_ms)
        if not memory:
            unlock(conn, path)  # an encrypted file is keyed before anything reads it
        _check_identity(conn, path)
        if conn.pragma("user_version") == 0:
            # Only possible before the first table exists: lets the sweeper hand freed pages
            # back to the filesystem with incremental_vacuum.
            conn.pragma("auto_vacuum", "INCREMENTAL")
        _configure(conn)
        if not memory:
            _check_pragma(conn, "journal_mode", "wal", "wal")
        # Deleted content (swept artifacts, forgotten beliefs) is overwritten, not left in
        # free pages.
        _check_pragma(conn, "secure_delete", "ON", 1)
        conn.pragma("synchronous", synchronous)
        level = {"0": "OFF", "1": "NORMAL", "2": "FULL", "3": "EXTRA"}[
            str(conn.pragma("synchronous"))
        ]
        if level != synchronous.upper():
            raise StoreError(f"PRAGMA synchronous={synchronous} did not take effect")
        # (a private one only: a shared-cache one may have other connections)
        _ensure_schema(conn, memory=path == ":memory:")
    except BaseException as exc:
        conn.close()
        mapped = _setup_error(exc, path)
        if mapped is exc:
            raise
        raise mapped from exc
    return conn


def _open_handle(name: str, flags: int, busy_timeout_ms: int, path: str) -> apsw.Connection:
    """``apsw.Connection(name)``, waiting out a lock the way the busy handler would.

    A handle has no busy handler until it exists, yet its constructor can meet a lock: the
    functions in ``apsw.connection_hooks`` run inside it (an application's, or a test suite's
    that keys every connection, read the file), while another connection holds the file for an
    instant. Without this wait an open failed at random while a writer worked.
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    pause = 0.001
    while True:
        try:
            return apsw.Connection(name, flags=flags)
        except (apsw.BusyError, apsw.LockedError) as exc:
            if time.monotonic() + pause > deadline:
                raise _busy(path) from exc
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        except apsw.Error as exc:
            raise DatabaseUnavailable(f"cannot open {path}: {exc}") from exc


def _configure(conn: apsw.Connection) -> None:
    """The settings every connection shares, reading or writing."""
    conn.config(apsw.SQLITE_DBCONFIG_DQS_DML, 0)
    conn.config(apsw.SQLITE_DBCONFIG_DQS_DDL, 0)
    _check_pragma(conn, "foreign_keys", "ON", 1)
    # Triggers make every insert open a statement journal; keep it off the disk.
    _check_pragma(conn, "temp_store", "MEMORY", 2)


def _setup_error(exc: BaseException, path: str) -> BaseException:
    if isinstance(exc, apsw.NotADBError):
        return NotADatabase(f"{path} is not an SQLite database; it was not modified")
    if isinstance(exc, apsw.Error):
        mapped = translate(exc, path)
        return mapped if mapped is not None else StoreError(f"cannot set up {path}: {exc}")
    return exc


def _connect_readonly(path: str, busy_timeout_ms: int) -> apsw.Connection:
    """A connection that can only read, and leaves no file behind.

    On a file we may write, a read-write handle with ``query_only``: SQLite then removes its
    -wal and -shm files when the last connection closes, as for any writer. On a file we may
    not write (a backup, read-only media) without a -wal file, an ``immutable`` handle: SQLite
    could not create -wal and -shm files there, or would leave them behind, and with no -wal
    the file itself is the whole database. With a -wal file present (a writer is at work, or
    crashed), a plain read-only handle that reads through the existing -wal and -shm.
    """
    if _is_memory(path):
        raise DatabaseUnavailable("an in-memory database starts empty: there is nothing to read")
    target = Path(path)
    if target.is_dir():
        raise DatabaseUnavailable(f"{path} is a directory; pass a database file path")
    if not target.exists():
        raise DatabaseUnavailable(
            f"no agentmem database at {path}, and a read-only open never creates one"
        )
    writable = os.access(target, os.W_OK) and os.access(target.parent, os.W_OK)
    if writable:
        name, flags = path, apsw.SQLITE_OPEN_READWRITE
    elif not Path(f"{path}-wal").exists():
        name = target.resolve().as_uri() + "?mode=ro&immutable=1"
        flags = apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI
    else:
        name, flags = path, apsw.SQLITE_OPEN_READONLY
    conn = _open_handle(name, flags, busy_timeout_ms, path)
    try:
        conn.set_busy_timeout(busy_timeout_ms)
        unlock(conn, path)
        _check_identity(conn, path)
        version = conn.pragma("user_version")
        if version == 0:
            raise DatabaseUnavailable(f"{path} is empty: no agentmem database was created in it")
        if version < SCHEMA_VERSION:
            raise DatabaseUnavailable(
                f"{path} has schema version {version}; it must be opened for writing once to be "
                f"upgraded to {SCHEMA_VERSION} (copy it somewhere writable first if need be)"
            )
        _configure(conn)
        if writable:
            _check_pragma(conn, "query_only", "ON", 1)
    except apsw.CantOpenError as exc:
        conn.close()
        raise DatabaseUnavailable(
            f"cannot read {path}: SQLite cannot open its -wal or -shm file ({exc})"
        ) from exc
    except BaseException as exc:
        conn.close()
        mapped = _setup_error(exc, path)
        if mapped is exc:
            raise
        raise mapped from exc
    return conn


def close(conn: apsw.Connection) -> None:
    """Close ``conn``; a connection that wrote first refreshes the planner's statistics.

    ``PRAGMA optimize`` may run ``ANALYZE``, which writes, so it runs only here and only when
    the write lock is free at once (busy timeout 0): closing never waits for another writer,
    and readers never run it.
    """
    try:
        wrote = conn.total_changes() > 0 and not conn.readonly("main")
    except apsw.ConnectionClosedError:
        return
    # an in-memory database vanishes on close: its statistics would serve no one
    if not wrote or not conn.filename:
        conn.close()
        return
    try:
        if not conn.in_transaction and not conn.pragma("query_only"):
            conn.set_busy_timeout(0)
            conn.pragma("optimize")
    except apsw.Error:
        pass  # statistics are an optimisation; a busy, full or damaged file keeps its old ones
    finally:
        conn.close()


def _busy(path: str) -> DatabaseBusy:
    return DatabaseBusy(
        f"{path} stayed locked by another connection past the busy timeout; "
        "nothing was changed, try again"
    )


def translate(exc: apsw.Error, path: str) -> AgentmemError | None:
    """The agentmem error for an SQLite failure a user can meet, or ``None`` for a bug.

    Messages say what happened to the file and that nothing was written (every write runs in a
    transaction, and SQLite rolls it back on these errors); what to type is the caller's part.
    """
    if isinstance(exc, (apsw.BusyError, apsw.LockedError)):
        return _busy(path)
    if isinstance(exc, apsw.FullError):
        return DiskFull(
            f"no space left to write {path} (the disk or a file-size limit is full); "
            "the change was rolled back and nothing was written"
        )
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return DatabaseCorrupt(
            f"{path} is damaged (SQLite: {exc}); the operation was rolled back and nothing "
            "more is written to it"
        )
    if isinstance(exc, apsw.ReadOnlyError):
        return DatabaseUnavailable(
            f"{path} is open read-only (or the file cannot be written); nothing was written"
        )
    if isinstance(exc, apsw.CantOpenError):
        return DatabaseUnavailable(f"cannot open {path} or its -wal/-shm files: {exc}")
    if isinstance(exc, apsw.IOError):
        return StoreError(f"I/O error on {path} (SQLite: {exc}); the operation was rolled back")
    if isinstance(exc, apsw.TooBigError):
        return InvalidInput(f"a value is too large for the database ({exc}); nothing was written")
    if isinstance(exc, apsw.ThreadingViolationError):
        return UsageError(
            "one database connection was used by two threads at once; use the Store's own "
            "methods (they take its lock) or open one Store per thread"
        )
    return None


def _check_identity(conn: apsw.Connection, path: str) -> None:
    app_id = conn.pragma("application_id")
    version = conn.pragma("user_version")
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"{path} has schema version {version}, newer than this agentmem supports "
                f"({SCHEMA_VERSION}); upgrade agentmem"
            )
        return
    if app_id == 0 and version == 0:
        has_tables = conn.execute("SELECT count(*) FROM sqlite_schema").get
        if not has_tables:
            return
    raise NotADatabase(f"{path} is an SQLite database but not an agentmem one; it was not modified")


# The schema of an in-memory database, built once per process (see _copy_memory_schema)
_memory_template: apsw.Connection | None = None
_memory_template_lock = threading.Lock()


def _copy_memory_schema(conn: apsw.Connection) -> None:
    """Give a new in-memory database the schema by copying a template's pages.

    Evaluations and tests open thousands of throw-away in-memory stores; running the schema's
    DDL costs about 2 ms each, a page copy with SQLite's backup API about 30 µs. The copy is
    the same database the DDL builds (same schema, ``user_version``, ``application_id`` and
    auto-vacuum mode); only what must differ per database is written afresh: the blob secret
    and the creation time.
    """
    import secrets

    global _memory_template
    with _memory_template_lock:
        if _memory_template is None:
            template = apsw.Connection(":memory:")
            template.pragma("auto_vacuum", "INCREMENTAL")
            _configure(template)
            _build_schema(template)
            _memory_template = template
        with conn.backup("main", _memory_template, "main") as backup:
            backup.step()
    with transaction(conn):
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'blob_secret'", (secrets.token_bytes(32),)
        )
        conn.execute("UPDATE meta SET value = ? WHERE key = 'created_at'", (_now_text(conn),))


def _ensure_schema(conn: apsw.Connection, *, memory: bool = False) -> None:
    version = conn.pragma("user_version")
    if version == SCHEMA_VERSION:
        return
    if memory:
        _copy_memory_schema(conn)
        return
    _build_schema(conn)


def _build_schema(conn: apsw.Connection) -> None:
    import secrets

    with transaction(conn):
        # Re-read inside the write lock: another process may have initialized the file.
        version = conn.pragma("user_version")
        if version == 0:
            conn.execute(data_path("schema.sql").read_text(encoding="utf-8"))
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('blob_secret', ?), ('created_at', ?)",
                (secrets.token_bytes(32), _now_text(conn)),
            )
            conn.pragma("application_id", APPLICATION_ID)
            version = SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            conn.execute(MIGRATIONS[version])
            version += 1
        conn.pragma("user_version", version)


@contextlib.contextmanager
def transaction(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """A write transaction: ``BEGIN IMMEDIATE`` at the outermost level, a savepoint inside.

    IMMEDIATE takes the write lock before the first read, so a writer never has to upgrade a
    stale read snapshot (which SQLite refuses at once, without the busy handler). The BEGIN is
    issued through ``execute``, which releases the GIL while SQLite waits on the busy handler:
    apsw's own ``with connection`` holds the GIL while it waits for an IMMEDIATE lock, so
    threads of one process (the HTTP server's workers) would block the very writer they wait
    for. Nested blocks use apsw's savepoints; any exception rolls back and propagates.
    """
    if conn.in_transaction:
        with conn:
            yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _now_text(conn: apsw.Connection) -> str:
    return str(conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").get)


def where(
    equals: dict[str, object], *extra: tuple[str, Sequence[object]]
) -> tuple[str, list[object]]:
    """A `` WHERE ...`` clause and its parameters for the listing queries.

    ``equals`` maps column names (from code, never from input) to values; a ``None`` value
    means "no filter". ``extra`` adds raw clauses with their own parameters.
    """
    clauses: list[str] = []
    params: list[object] = []
    for column, value in equals.items():
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    for clause, values in extra:
        clauses.append(clause)
        params.extend(values)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def projection_snapshot(
    conn: apsw.Connection, schema: str = "main"
) -> dict[str, list[tuple[object, ...]]]:
    """Every projection table's rows in ``schema``, ordered, for equality checks."""
    out: dict[str, list[tuple[object, ...]]] = {}
    for table in PROJECTION_TABLES:
        out[table] = list(conn.execute(f"SELECT * FROM {schema}.{table} ORDER BY 1, 2"))
    return out


def rebuild_projections(conn: apsw.Connection) -> None:
    """Recompute every projection from the log, inside the caller's write transaction."""
    with _replayed(conn):
        for table in PROJECTION_TABLES:
            conn.execute(f"DELETE FROM main.{table}")
            conn.execute(f"INSERT INTO main.{table} SELECT * FROM temp.{table}")


def projection_drift(conn: apsw.Connection) -> list[tuple[str, int]]:
    """Each projection table whose rows differ from a replay of the log, with how many rows
    differ (present on one side only, or changed); empty when they all match.

    The replay happens in TEMP tables inside a savepoint that is rolled back, so this works on
    a read-only connection and never takes the write lock; main and replay are read in one
    snapshot.
    """
    query_only = conn.pragma("query_only")
    if query_only:
        conn.pragma("query_only", False)  # TEMP tables only; the main file stays untouched
    conn.execute("SAVEPOINT agentmem_drift")
    try:
        with _replayed(conn):
            stored = projection_snapshot(conn, "main")
            replayed = projection_snapshot(conn, "temp")
        drift = []
        for table in PROJECTION_TABLES:
            ours, theirs = set(stored[table]), set(replayed[table])
            differing = max(len(ours - theirs), len(theirs - ours))
            if differing or stored[table] != replayed[table]:
                drift.append((table, differing))
        return drift
    finally:
        conn.execute("ROLLBACK TO agentmem_drift")
        conn.execute("RELEASE agentmem_drift")
        if query_only:
            conn.pragma("query_only", True)


@contextlib.contextmanager
def _replayed(conn: apsw.Connection) -> Iterator[None]:
    """TEMP projection tables holding a replay of the whole log, for the ``with`` block.

    The log is replayed through the *same* trigger bodies that maintain the projections
    incrementally: each ``events_proj_*`` trigger is re-created as a TEMP trigger on a TEMP
    copy of the events table. A TEMP table shadows the main table of the same name for the
    unqualified names in those bodies, so the replay fills TEMP copies of the projections
    (created from their own DDL, keys and checks included), and any other table a trigger
    writes (``artifacts``, expired by a consent withdrawal) is an empty TEMP stand-in: the
    replay never changes the main file. Sharing the SQL is what makes "rebuilt equals
    incremental" true by construction rather than by parallel code.
    """
    triggers = list(
        conn.execute(
            "SELECT name, sql FROM main.sqlite_schema WHERE type = 'trigger' "
            "AND name GLOB 'events_proj_*' ORDER BY name"
        )
    )
    tables = list(
        conn.execute(
            "SELECT name, sql FROM main.sqlite_schema WHERE type = 'table' "
            "AND name NOT GLOB 'sqlite_*' AND name <> 'events' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        )
    )
    bodies = " ".join(sql for _, sql in triggers)
    created: list[str] = []
    try:
        conn.execute("CREATE TEMP TABLE replay_events AS SELECT * FROM main.events WHERE 0")
        created.append("replay_events")
        for name, sql in tables:
            if name in PROJECTION_TABLES:
                prefix = f"CREATE TABLE {name}"
                if not sql.startswith(prefix):
                    raise StoreError(f"projection table {name} has an unexpected shape")
                conn.execute("CREATE TEMP TABLE" + sql[len("CREATE TABLE") :])
            elif re.search(rf"\b{re.escape(name)}\b", bodies):
                conn.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM main.{name} WHERE 0")
            else:
                continue
            created.append(name)
        for name, sql in triggers:
            marker = "AFTER INSERT ON events"
            if marker not in sql:
                raise StoreError(f"projection trigger {name} has an unexpected shape")
            temp_sql = sql.replace(
                f"CREATE TRIGGER {name}", f"CREATE TEMP TRIGGER replay_{name}", 1
            )
            temp_sql = temp_sql.replace(marker, "AFTER INSERT ON temp.replay_events", 1)
            conn.execute(temp_sql)
        conn.execute("INSERT INTO temp.replay_events SELECT * FROM main.events ORDER BY seq")
        yield
    finally:
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER IF EXISTS temp.replay_{name}")
        for name in created:
            conn.execute(f"DROP TABLE IF EXISTS temp.{name}")


def schema_differences(conn: apsw.Connection) -> list[str]:
    """How the file's tables, indexes, triggers and views differ from ``schema.sql``.

    SQLite lets any client drop a trigger, and nothing else would notice that a guard or a
    projection had stopped running; comparing every object's stored SQL with a fresh build of
    ``schema.sql`` does. Empty when they are equal; never writes.
    """
    reference = apsw.Connection(":memory:")
    try:
        reference.execute(data_path("schema.sql").read_text(encoding="utf-8"))
        expected = _schema_objects(reference)
    finally:
        reference.close()
    found = _schema_objects(conn)
    differences = []
    for kind, name in sorted(expected.keys() | found.keys()):
        if (kind, name) not in found:
            differences.append(f"{kind} {name} is missing")
        elif (kind, name) not in expected:
            differences.append(f"{kind} {name} is not part of the agentmem schema")
        elif found[kind, name] != expected[kind, name]:
            differences.append(f"{kind} {name} differs from its definition in schema.sql")
    return differences


def _schema_objects(conn: apsw.Connection) -> dict[tuple[str, str], str | None]:
    # SQLite's own objects (sqlite_stat1, autoindexes) come and go with ANALYZE and are not ours.
    rows = conn.execute(
        "SELECT type, name, sql FROM main.sqlite_schema WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'"
    )
    return {(kind, name): sql for kind, name, sql in rows}
