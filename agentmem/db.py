"""The one place where a database connection is opened and the schema is brought up to date.

Connection setup follows apsw's best practice (WAL, foreign keys, no double-quoted strings,
query-planner statistics) plus our own choices: a busy timeout measured in seconds so several
local processes can write to one file, ``BEGIN IMMEDIATE`` outermost write transactions
(:func:`transaction`) so a writer takes the write lock before it reads (no upgrade
deadlocks), and a checked ``synchronous`` level.

The schema is ``schema.sql`` (the whole current version) behind a ``PRAGMA user_version``
ladder: an empty file gets the current schema, an older agentmem database gets the migration
steps in order, a newer one is refused, and a file that is anything else is refused before a
single byte of it is changed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path

import apsw

from agentmem._resources import data_path
from agentmem.errors import NotADatabase, SchemaTooNew, StoreError, UsageError

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "DatabaseUnavailable",
    "connect",
    "projection_snapshot",
    "rebuild_projections",
    "transaction",
    "where",
]

APPLICATION_ID = 0x41474D4D  # "AGMM"
SCHEMA_VERSION = 1

# Migration steps: MIGRATIONS[n] upgrades a database at user_version n to n + 1. The first
# released schema is version 1, so the ladder is empty until a schema change ships.
MIGRATIONS: dict[int, str] = {}

PROJECTION_TABLES = ("sessions", "runs", "run_tools", "consent")


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
) -> apsw.Connection:
    """Open ``path`` as an agentmem database, creating it when ``create`` is true.

    Identity is checked before any pragma that writes (WAL mode rewrites the header), so a
    foreign SQLite file, or a file that is not SQLite at all, is refused unmodified.
    """
    path = os.fspath(path)
    memory = _is_memory(path)
    if not memory:
        target = Path(path)
        if target.is_dir():
            raise DatabaseUnavailable(f"{path} is a directory; pass a database file path")
        if not target.exists():
            if not create:
                raise DatabaseUnavailable(
                    f"no agentmem database at {path}; run 'agentmem init' or pass --db"
                )
            parent = target.parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(
                    f"cannot create directory {parent}: {exc.strerror}"
                ) from exc
        if not os.access(target.parent, os.W_OK):
            raise DatabaseUnavailable(
                f"cannot write in {target.parent}: the directory is read-only "
                "(SQLite needs to create its -wal and -shm files there)"
            )
    flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE | apsw.SQLITE_OPEN_URI
    try:
        conn = apsw.Connection(path, flags=flags)
    except apsw.Error as exc:
        raise DatabaseUnavailable(f"cannot open {path}: {exc}") from exc
    try:
        conn.set_busy_timeout(busy_timeout_ms)
        _check_identity(conn, path)
        if conn.pragma("user_version") == 0:
            # Only possible before the first table exists: lets the sweeper hand freed pages
            # back to the filesystem with incremental_vacuum.
            conn.pragma("auto_vacuum", "INCREMENTAL")
        conn.config(apsw.SQLITE_DBCONFIG_DQS_DML, 0)
        conn.config(apsw.SQLITE_DBCONFIG_DQS_DDL, 0)
        if not memory:
            _check_pragma(conn, "journal_mode", "wal", "wal")
        _check_pragma(conn, "foreign_keys", "ON", 1)
        # Triggers make every insert open a statement journal; keep it off the disk.
        _check_pragma(conn, "temp_store", "MEMORY", 2)
        # Deleted content (swept artifacts, forgotten beliefs) is overwritten, not left in
        # free pages.
        _check_pragma(conn, "secure_delete", "ON", 1)
        conn.pragma("synchronous", synchronous)
        level = {"0": "OFF", "1": "NORMAL", "2": "FULL", "3": "EXTRA"}[
            str(conn.pragma("synchronous"))
        ]
        if level != synchronous.upper():
            raise StoreError(f"PRAGMA synchronous={synchronous} did not take effect")
        _ensure_schema(conn)
        conn.pragma("optimize", 0x10002)
    except apsw.NotADBError as exc:
        conn.close()
        raise NotADatabase(f"{path} is not an SQLite database; it was not modified") from exc
    except apsw.BusyError as exc:
        conn.close()
        raise StoreError(f"{path} stayed locked by another process past the busy timeout") from exc
    except apsw.Error as exc:
        conn.close()
        raise StoreError(f"cannot set up {path}: {exc}") from exc
    except BaseException:
        conn.close()
        raise
    return conn


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


def _ensure_schema(conn: apsw.Connection) -> None:
    version = conn.pragma("user_version")
    if version == SCHEMA_VERSION:
        return
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
    return conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").get


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


def projection_snapshot(conn: apsw.Connection) -> dict[str, list[tuple]]:
    """Every projection table's rows, ordered, for equality checks."""
    out: dict[str, list[tuple]] = {}
    for table in PROJECTION_TABLES:
        out[table] = list(conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"))
    return out


def rebuild_projections(conn: apsw.Connection) -> None:
    """Recompute every projection from the log, inside the caller's transaction.

    The log is replayed through the *same* trigger bodies that maintain the projections
    incrementally: each ``events_proj_*`` trigger is re-created as a TEMP trigger on a TEMP
    copy of the events table, and the log is copied into it in seq order. Sharing the SQL is
    what makes "rebuilt equals incremental" true by construction rather than by parallel code.
    """
    triggers = list(
        conn.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' "
            "AND name GLOB 'events_proj_*' ORDER BY name"
        )
    )
    conn.execute("DROP TABLE IF EXISTS temp.replay_events")
    conn.execute("CREATE TEMP TABLE replay_events AS SELECT * FROM main.events WHERE 0")
    try:
        for name, sql in triggers:
            marker = "AFTER INSERT ON events"
            if marker not in sql:
                raise StoreError(f"projection trigger {name} has an unexpected shape")
            temp_sql = sql.replace(
                f"CREATE TRIGGER {name}", f"CREATE TEMP TRIGGER replay_{name}", 1
            )
            temp_sql = temp_sql.replace(marker, "AFTER INSERT ON temp.replay_events", 1)
            conn.execute(temp_sql)
        for table in PROJECTION_TABLES:
            conn.execute(f"DELETE FROM main.{table}")
        conn.execute("INSERT INTO temp.replay_events SELECT * FROM main.events ORDER BY seq")
    finally:
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER IF EXISTS temp.replay_{name}")
        conn.execute("DROP TABLE IF EXISTS temp.replay_events")
