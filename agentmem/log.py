"""The core of agentmem: one database file, one writer connection, the event log.

:class:`EventLog` appends events (validated client events, and agentmem's own process events
through :meth:`EventLog.append_process`) and reads the log and its projections (sessions, runs,
status). It imports nothing above the core, so the modules of the layer above (consent, export,
artifacts, memory) take an EventLog and never the facade that composes them
(:class:`agentmem.store.Store`, which ``agentmem.open()`` returns and which is an EventLog too).

Writes run in :meth:`EventLog.transaction` blocks (IMMEDIATE at the outermost level,
savepoints when nested), so a failure anywhere in a batch leaves the file exactly as it was.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Self, TypeVar, cast

import apsw
import msgspec

from agentmem import bulk, db
from agentmem.config import Settings, load_settings
from agentmem.errors import (
    AgentmemError,
    Conflict,
    DatabaseCorrupt,
    EventRejected,
    InvalidInput,
    NotFound,
    StoreError,
    UsageError,
)
from agentmem.events import (
    CLIENT_EVENT_TYPES,
    ROW_JSON_SQL,
    Event,
    RunStarted,
    canonical_json,
    closed_types,
    event_type,
    format_time,
    new_event_id,
    now_text,
    payload_of,
    schema_sha256,
    stored_decoder,
    validate_client_event,
)

__all__ = [
    "AppendResult",
    "BeliefCounts",
    "ClientInput",
    "EventLog",
    "ImportResult",
    "PreparedEvent",
    "RunInfo",
    "RunTool",
    "SessionInfo",
    "StatusInfo",
    "content_hash",
    "prepare_event",
]


class _Row(NamedTuple):
    """One ``events`` row as appended; the INSERT names its columns from these fields."""

    event_id: str
    type: str
    session_id: str | None
    run_id: str | None
    principal: str
    payload: str
    content_hash: str
    created_at: str


_INSERT = (
    f"INSERT INTO events ({', '.join(_Row._fields)}) VALUES ({', '.join('?' * len(_Row._fields))})"
    " ON CONFLICT (event_id) DO NOTHING"
)
_GUARD = re.compile(r"agentmem:([a-z_]+)")

#: A client event before validation: a dict, or JSON text (``Event`` structs are accepted too).
ClientInput = dict[str, Any] | bytes | str


class PreparedEvent(NamedTuple):
    """A client event validated, normalised and hashed into its row (:func:`prepare_event`),
    which every append of any EventLog accepts as it is. Build it only with
    :func:`prepare_event`: an append trusts its hash."""

    row: _Row
    given: bool

    @property
    def session_id(self) -> str | None:
        """The event's session."""
        return self.row.session_id


class AppendResult(msgspec.Struct, frozen=True):
    """Where an event landed; ``duplicate`` when it was an idempotent replay."""

    seq: int
    event_id: str
    duplicate: bool


class ImportResult(msgspec.Struct, frozen=True):
    """Outcome of a batch append: events newly written, and replays recognised."""

    imported: int
    duplicates: int
    first_seq: int | None
    last_seq: int | None


class SessionInfo(msgspec.Struct, frozen=True):
    """The ``sessions`` projection row."""

    session_id: str
    principal: str
    status: str
    event_count: int
    user_message_count: int
    assistant_message_count: int
    run_count: int
    first_seq: int
    last_seq: int
    closed_seq: int | None
    created_at: str
    last_activity_at: str


#: The ``sessions`` columns, named in SessionInfo's field order (never ``SELECT *``).
_SESSION_COLUMNS = ", ".join(SessionInfo.__struct_fields__)


class RunTool(msgspec.Struct, frozen=True):
    """A tool a run declared, with the SHA-256 of its canonical JSON schema."""

    name: str
    schema_sha256: str


class RunInfo(msgspec.Struct, frozen=True):
    """The ``runs`` projection row, with the tools the run declared."""

    run_id: str
    session_id: str
    parent_run_id: str | None
    principal: str
    status: str
    outcome: str | None
    failure_class: str | None
    event_count: int
    started_seq: int
    completed_seq: int | None
    started_at: str
    completed_at: str | None
    consent_seq: int | None
    tools: tuple[RunTool, ...] = ()


#: The ``runs`` columns, named in RunInfo's field order (everything but ``tools``); a running
#: run's event_count is counted from the log (see :data:`agentmem.db.RUN_EVENT_COUNT`).
_RUN_COLUMNS = ", ".join(
    f"{db.RUN_EVENT_COUNT} AS event_count" if name == "event_count" else name
    for name in RunInfo.__struct_fields__[:-1]
)


class BeliefCounts(msgspec.Struct, frozen=True):
    """Beliefs of every principal by status: each status the ``beliefs`` table allows, 0 when
    none, so a reader never has to know which ones are missing."""

    active: int = 0
    superseded: int = 0
    forgotten: int = 0


class StatusInfo(msgspec.Struct, frozen=True):
    """What ``agentmem status`` reports (counts over every principal: the file's state).

    ``artifacts`` counts every artifact row, ``expired_artifacts`` those past ``expires_at``
    that are unreadable already and wait for the sweeper to delete them.
    """

    db_path: str
    schema_version: int
    events: int
    sessions: int
    open_sessions: int
    runs: int
    artifacts: int
    expired_artifacts: int
    beliefs: BeliefCounts
    synchronous: str


_GUARD_MESSAGES = {
    "session_closed": "session {session_id!r} is closed; nothing more can be appended to it",
    "run_exists": "run {run_id!r} has already started",
    "parent_run_unknown": "run {run_id!r} names a parent run that was never started",
    "run_unknown": "run {run_id!r} was never started; append its run.started event first",
    "run_other_session": "run {run_id!r} belongs to another session than {session_id!r}",
    "run_completed": "run {run_id!r} has completed; nothing more can be appended to it",
    "append_only": "the event log is append-only",
    "unknown_type": "the database does not know this event type (schema older than the code?)",
}


class EventLog:
    """An open agentmem database: the log and its projections. Use as a context manager, or
    call :meth:`close`.

    An EventLog may be shared between threads: every public method holds :attr:`lock` while it
    uses the connection (an iterator holds it while it fetches each batch of rows), and a
    :meth:`transaction` block holds it until the block ends, so one thread's transaction never
    absorbs another thread's writes. Calls are serialised, not parallel; for parallel work open
    one per thread (as the HTTP server does). SQLite failures a user can meet become errors of
    the tree (:class:`DatabaseBusy`, :class:`DiskFull`, :class:`DatabaseCorrupt`, ...); after a
    :class:`DatabaseCorrupt` it refuses every further write.

    Subclasses (the facade) get the same guard on every public method they add.
    """

    def __init__(
        self, conn: apsw.Connection, settings: Settings, path: str, *, readonly: bool = False
    ) -> None:
        self.conn = conn
        self.settings = settings
        self.path = path
        self.readonly = readonly
        #: Held by every public method; hold it to make several calls one uninterrupted step.
        self.lock = threading.RLock()
        self._damaged = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _guard_public_methods(cls)

    # -- lifecycle -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | None = None,
        *,
        settings: Settings | None = None,
        create: bool = True,
        principal: str | None = None,
        readonly: bool = False,
    ) -> Self:
        """Open (and by default create) the database at ``path`` or the configured default.

        ``readonly`` opens an existing database for reading only: nothing is created, converted
        or written, it never waits for a writer's lock, and it works on read-only files and
        media (a backup, say). A missing or empty file is refused.
        """
        if settings is None:
            settings = load_settings(db=path, principal=principal)
        elif path is not None or principal is not None:
            settings = msgspec.structs.replace(
                settings,
                db=path if path is not None else settings.db,
                principal=principal if principal is not None else settings.principal,
            )
        target = settings.db_path()
        conn = db.connect(
            target,
            synchronous=settings.storage.synchronous,
            busy_timeout_ms=settings.storage.busy_timeout_ms,
            create=create and not readonly,
            readonly=readonly,
        )
        return cls(conn, settings, target, readonly=readonly)

    def close(self) -> None:
        """Close the connection (idempotent); a Store that wrote refreshes planner statistics."""
        db.close(self.conn)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[apsw.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``; a savepoint when nested).

        Everything inside lands together or not at all; use it to group several library calls
        into one atomic change. The block holds the Store's lock (see the class docstring).
        """
        with self.lock:
            self._refuse_if_damaged()
            try:
                with db.transaction(self.conn) as conn:
                    yield conn
            except apsw.Error as exc:
                mapped = self._translate(exc)
                if mapped is None:
                    raise
                raise mapped from exc

    def _translate(self, exc: apsw.Error) -> AgentmemError | None:
        mapped = db.translate(exc, self.path)
        if isinstance(mapped, DatabaseCorrupt):
            self._damaged = True
        return mapped

    @property
    def principal(self) -> str:
        """The default principal events and commands act for."""
        return self.settings.principal

    def acting_for(self, principal: str | None = None) -> str:
        """``principal``, or this log's own principal when ``None``: the one meaning of
        ``principal=None`` across the library, so leaving it out never reaches another
        principal's data."""
        return self.principal if principal is None else principal

    def principal_filter(
        self, principal: str | None = None, all_principals: bool = False
    ) -> str | None:
        """The principal a read is limited to (see :meth:`acting_for`); ``None``, no limit,
        only when ``all_principals`` asks for every principal's rows (an administrator's
        listing), never because ``principal`` was left out."""
        if all_principals:
            if principal is not None:
                raise UsageError("a read is for one principal or for all of them, not both")
            return None
        return self.acting_for(principal)

    # -- appending -------------------------------------------------------------------------

    def _prepare(
        self,
        event: Event | ClientInput | PreparedEvent,
        now: str | None = None,
        *,
        process: bool = False,
    ) -> tuple[_Row, bool]:
        if isinstance(event, PreparedEvent):
            return event
        return _row_of(event, self.principal, now, process)

    def _insert(self, cursor: apsw.Cursor, prepared: tuple[_Row, bool]) -> AppendResult:
        row, given = prepared
        try:
            cursor.execute(_INSERT, row)
        except apsw.ConstraintError as exc:
            replay = self._replay(cursor, row, given)
            if replay is not None:
                return replay
            raise _guard_error(exc, row) from exc
        # The seq from the connection, not from RETURNING: a RETURNING clause cost a fifth of
        # an insert. Rows the triggers write count in neither changes() nor the rowid.
        if self.conn.changes():
            return AppendResult(self.conn.last_insert_rowid(), row.event_id, False)
        replay = self._replay(cursor, row, given)
        if replay is None:  # pragma: no cover - the conflict target guarantees a row
            raise StoreError(f"event {row.event_id!r} vanished during append")
        return replay

    def _replay(self, cursor: apsw.Cursor, row: _Row, given: bool) -> AppendResult | None:
        if not given:
            return None
        rows = cursor.execute(
            "SELECT seq, content_hash FROM events WHERE event_id = ?", (row.event_id,)
        ).fetchall()
        if not rows:
            return None
        seq, digest = cast("tuple[int, str]", rows[0])  # events is a STRICT table
        if digest != row.content_hash:
            raise Conflict(
                f"event_id {row.event_id!r} is already stored (seq {seq}) with different content"
            )
        return AppendResult(seq, row.event_id, True)

    def append(self, event: Event | ClientInput | PreparedEvent) -> int:
        """Append one event durably and return its seq (the original seq on replay).

        ``event`` is a client event as a struct, a dict or JSON text; every form is validated
        the same way, and agentmem's own process types (``consent.*``, ``memory.*``) are
        refused with :class:`InvalidInput`.
        """
        return self._insert_one(self._prepare(event)).seq

    def append_event(self, event: Event | ClientInput | PreparedEvent) -> AppendResult:
        """Like :meth:`append`, but also says whether the event was an idempotent replay."""
        return self._insert_one(self._prepare(event))

    def _insert_one(self, prepared: tuple[_Row, bool]) -> AppendResult:
        """One INSERT, with its triggers: outside a transaction the statement is its own
        (SQLite takes the write lock when a writing statement starts, so it never upgrades a
        stale snapshot, and a statement lands whole or not at all), which saves the separate
        BEGIN IMMEDIATE and COMMIT round trips; inside one it joins it as a savepoint.

        Only for the public methods, which already hold the lock and map SQLite's errors
        (:func:`_guarded`): a second lock and mapping cost a single append 1.5 µs."""
        if self.conn.in_transaction:
            with self.transaction():
                return self._insert(self.conn.cursor(), prepared)
        self._refuse_if_damaged()
        return self._insert(self.conn.cursor(), prepared)

    def _refuse_if_damaged(self) -> None:
        if self._damaged:
            raise DatabaseCorrupt(
                f"{self.path} was found damaged earlier; this Store writes nothing more to it"
            )

    def append_many(
        self,
        events: Iterable[Event | ClientInput | PreparedEvent],
        *,
        progress: Callable[[int], None] | None = None,
        where: Callable[[int], str] | None = None,
    ) -> ImportResult:
        """Append a batch in one transaction: all of it lands, or none of it.

        Errors are re-raised prefixed with where the offending event came from (``where(i)``
        for the 1-based position, default ``event i``), so an import can point at the line.
        """
        return self._append_batch(events, progress=progress, where=where, process=False)

    def _append_batch(
        self,
        events: Iterable[Event | ClientInput | PreparedEvent],
        *,
        progress: Callable[[int], None] | None = None,
        where: Callable[[int], str] | None = None,
        process: bool,
    ) -> ImportResult:
        tally = _Tally()
        now = now_text()  # one transaction, one arrival time for events without their own
        numbered = enumerate(events, start=1)
        # The first chunk is validated and hashed before the write lock is taken (BEGIN
        # IMMEDIATE), so a batch that fits in one chunk (every HTTP request) holds the lock
        # only while it inserts; later chunks of a large import are prepared as they come.
        chunk = list(itertools.islice(numbered, bulk.CHUNK))
        prepared = self._prepare_chunk(chunk, now, process)
        with self.transaction():
            cursor = self.conn.cursor()
            supported: bool | None = None
            while chunk:
                large = len(chunk) >= bulk.MIN_CHUNK
                if large and supported is None:
                    supported = bulk.supported(self.conn)
                self._write_chunk(cursor, *prepared, tally, progress, where, large and supported)
                chunk = list(itertools.islice(numbered, bulk.CHUNK))
                prepared = self._prepare_chunk(chunk, now, process)
        return ImportResult(tally.imported, tally.duplicates, tally.first, tally.last)

    def _prepare_chunk(
        self, chunk: list[tuple[int, Event | ClientInput | PreparedEvent]], now: str, process: bool
    ) -> tuple[list[tuple[int, tuple[_Row, bool]]], tuple[int, AgentmemError] | None]:
        """The rows of ``chunk`` up to its first invalid event, and that event's error."""
        prepared: list[tuple[int, tuple[_Row, bool]]] = []
        prepare = self._prepare
        for index, event in chunk:
            try:
                prepared.append((index, prepare(event, now, process=process)))
            except AgentmemError as exc:
                return prepared, (index, exc)
        return prepared, None

    def _write_chunk(
        self,
        cursor: apsw.Cursor,
        prepared: list[tuple[int, tuple[_Row, bool]]],
        failure: tuple[int, AgentmemError] | None,
        tally: _Tally,
        progress: Callable[[int], None] | None,
        where: Callable[[int], str] | None,
        use_bulk: bool | None,
    ) -> None:
        """Insert a prepared chunk: by :func:`bulk.insert_chunk` when ``use_bulk`` and it can
        take the chunk as it is, else event by event.

        Whatever the bulk path cannot take as it is (an event id already stored or given twice,
        an event a guard refuses, an invalid event, a process type it does not project) is
        appended event by event, in order, so the batch fails at the same event with the same
        error as it would one by one.
        """
        span = None
        if use_bulk and failure is None and bulk.takes(row.type for _, (row, _) in prepared):
            given = [row.event_id for _, (row, was_given) in prepared if was_given]
            if len(set(given)) == len(given) and not self._stored_any(given):
                span = bulk.insert_chunk(self.conn, [row for _, (row, _) in prepared])
        if span is not None:
            tally.add_span(span, [index for index, _ in prepared], progress)
        else:
            for index, one in prepared:
                try:
                    result = self._insert(cursor, one)
                except AgentmemError as exc:
                    _label(exc, index, where)
                    raise
                tally.add(index, result, progress)
        if failure is not None:
            _label(failure[1], failure[0], where)
            raise failure[1]

    def _stored_any(self, event_ids: list[str]) -> bool:
        if not event_ids:
            return False
        found = self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM events WHERE event_id IN "
            "(SELECT value FROM json_each(?)))",
            (msgspec.json.encode(event_ids).decode("utf-8"),),
        ).get
        return bool(found)

    def append_process(self, event: Event) -> AppendResult:
        """Append an event agentmem itself writes: a process event (consent, memory audits,
        Agents SDK bookkeeping) of a type registered with
        :func:`~agentmem.events.register_process_event`, or a client event.

        Process events skip the client validation that refuses their types in :meth:`append`;
        they are still checked by the database's guards. For agentmem's own modules, not for
        events that arrive from a client.
        """
        return self._insert_one(self._prepare(event, process=True))

    def append_process_many(
        self,
        events: Iterable[Event | ClientInput | PreparedEvent],
        *,
        where: Callable[[int], str] | None = None,
    ) -> ImportResult:
        """Like :meth:`append_many`, for a batch that mixes client events (validated) with
        agentmem's own process events (see :meth:`append_process`)."""
        return self._append_batch(events, where=where, process=True)

    # -- reading ---------------------------------------------------------------------------

    def _event_rows(
        self,
        *,
        principal: str | None = None,
        all_principals: bool = False,
        session_id: str | None = None,
        run_id: str | None = None,
        after: int | None = None,
        limit: int | None = None,
        types: Iterable[str] | None = None,
    ) -> Iterator[tuple[str]]:
        extra: list[tuple[str, Sequence[object]]] = []
        if after is not None:
            extra.append(("seq > ?", [after]))
        if types is not None:
            wanted = list(types)
            extra.append((f"type IN ({', '.join('?' * len(wanted))})", wanted))
        if run_id is not None:
            # The run's events through the indexes that hold them (db.run_seqs), not a scan.
            extra.append((f"seq IN ({db.run_seqs('?')})", [run_id, run_id]))
        condition, params = db.where(
            {
                "principal": self.principal_filter(principal, all_principals),
                "session_id": session_id,
            },
            *extra,
        )
        sql = f"SELECT {ROW_JSON_SQL} FROM events{condition} ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return self.conn.execute(sql, params)

    def events(self, **filters: Any) -> Iterator[Event]:
        """Stored events in seq order, as structs.

        Filters: principal (``None``: this log's principal; ``all_principals=True``: every
        principal's), session_id, run_id, after, limit, types (``None``: no filter).
        """
        decode = stored_decoder().decode
        for (text,) in self._event_rows(**filters):
            yield decode(text)

    def events_json(self, **filters: Any) -> Iterator[bytes]:
        """Stored events in seq order, each in the interchange format plus seq and created_at
        (the filters of :meth:`events`)."""
        for (text,) in self._event_rows(**filters):
            yield text.encode("utf-8")

    def session(
        self, session_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> SessionInfo:
        """One session's projection row; :class:`NotFound` if it has no events or belongs to
        another principal than ``principal`` (this log's when ``None``), as in the listings:
        knowing an id grants nothing. Anyone's session only with ``all_principals``."""
        owner = self.principal_filter(principal, all_principals)
        condition, params = db.where({"session_id": session_id, "principal": owner})
        # fetchall, never fetchone: a half-read cursor keeps a read snapshot open, and a later
        # write on this connection would then fail with SQLITE_BUSY_SNAPSHOT at once.
        rows = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions{condition}", params
        ).fetchall()
        if not rows:
            raise NotFound(f"no session {session_id!r}" + _of(owner))
        return _bind(SessionInfo, rows[0])

    def sessions(
        self,
        *,
        principal: str | None = None,
        all_principals: bool = False,
        status: str | None = None,
    ) -> list[SessionInfo]:
        """Sessions of ``principal`` (this log's principal when ``None``; every principal's
        with ``all_principals``), most recently active first."""
        owner = self.principal_filter(principal, all_principals)
        condition, params = db.where({"principal": owner, "status": status})
        sql = (
            f"SELECT {_SESSION_COLUMNS} FROM sessions{condition} "
            "ORDER BY last_activity_at DESC, session_id"
        )
        return [_bind(SessionInfo, row) for row in self.conn.execute(sql, params)]

    def run(
        self, run_id: str, *, principal: str | None = None, all_principals: bool = False
    ) -> RunInfo:
        """One run's projection row with its tools; :class:`NotFound` if never started or
        another principal's (see :meth:`session`)."""
        owner = self.principal_filter(principal, all_principals)
        found = self._runs(*db.where({"run_id": run_id, "principal": owner}))
        if not found:
            raise NotFound(f"no run {run_id!r}" + _of(owner))
        return found[0]

    def runs(
        self,
        *,
        session_id: str | None = None,
        principal: str | None = None,
        all_principals: bool = False,
    ) -> list[RunInfo]:
        """Runs of ``principal`` (this log's principal when ``None``; every principal's with
        ``all_principals``) in start order, each with the tools it declared."""
        owner = self.principal_filter(principal, all_principals)
        return self._runs(*db.where({"session_id": session_id, "principal": owner}))

    def _runs(self, condition: str, params: list[object]) -> list[RunInfo]:
        # fetchall, never a half-read cursor (see session()); tools in one query for all runs.
        rows = self.conn.execute(
            f"SELECT {_RUN_COLUMNS} FROM runs{condition} ORDER BY started_seq", params
        ).fetchall()
        tools: dict[object, list[dict[str, object]]] = {}
        for run_id, name, digest in self.conn.execute(
            "SELECT run_id, name, schema_sha256 FROM run_tools "
            f"WHERE run_id IN (SELECT run_id FROM runs{condition}) ORDER BY run_id, name",
            params,
        ).fetchall():
            tools.setdefault(run_id, []).append({"name": name, "schema_sha256": digest})
        return [_bind(RunInfo, row, tools=tools.get(row[0], [])) for row in rows]

    def status(self) -> StatusInfo:
        """Counts and settings for ``agentmem status``.

        Beliefs are counted in SQL, not by loading them: the count stays as cheap as the
        others, and reading the log's status loads no memory module.
        """
        q = self.conn.execute
        beliefs = {
            str(status): count
            for status, count in q("SELECT status, count(*) FROM beliefs GROUP BY status")
        }
        return StatusInfo(
            db_path=self.path,
            schema_version=self.conn.pragma("user_version"),
            events=q("SELECT count(*) FROM events").get,
            sessions=q("SELECT count(*) FROM sessions").get,
            open_sessions=q("SELECT count(*) FROM sessions WHERE status = 'open'").get,
            runs=q("SELECT count(*) FROM runs").get,
            artifacts=q("SELECT count(*) FROM artifacts").get,
            expired_artifacts=q(
                "SELECT count(*) FROM artifacts WHERE expires_at <= ?", (now_text(),)
            ).get,
            beliefs=msgspec.convert(beliefs, BeliefCounts),
            synchronous=self.settings.storage.synchronous,
        )

    # -- maintenance -----------------------------------------------------------------------

    def rebuild_projections(self) -> None:
        """Recompute sessions, runs, run_tools and consent from the log (one transaction)."""
        with self.transaction():
            db.rebuild_projections(self.conn)

    def check(self, *, progress: Callable[[int, int], None] | None = None) -> list[str]:
        """Integrity check, schema and log verification, projection consistency; returns the
        problems found (empty: ok). ``progress(done, total)`` follows the events verified,
        the long part on a large file, for a caller's progress bar.

        The schema objects must equal ``schema.sql`` (a dropped trigger is reported), and
        every event's ``content_hash`` is recomputed, so a row rewritten by a raw SQL client
        is reported even when the projections still agree with it.

        Consistency is checked by replaying the log into TEMP tables inside a savepoint that
        is then rolled back, and comparing: the file is never changed by a check, and a check
        works on a read-only Store without waiting for writers.
        """
        try:
            problems = [
                f"integrity: {row[0]}"
                for row in self.conn.execute("PRAGMA integrity_check")
                if row[0] != "ok"
            ]
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            return [f"integrity: {exc} (SQLite could not finish its integrity check)"]
        if problems:
            return problems  # everything below reads data SQLite says is damaged
        problems += [
            f"foreign key: {row[0]} row {row[1]} -> {row[2]}"
            for row in self.conn.execute("PRAGMA foreign_key_check")
        ]
        problems += [f"schema: {d}" for d in db.schema_differences(self.conn)]
        problems += _log_problems(self.conn, progress)
        drift = db.projection_drift(self.conn)
        problems += [
            f"projection {table}: {count} rows differ from a rebuild from the log "
            "(rebuilding the projections repairs them)"
            for table, count in drift
        ]
        return problems


class _Tally:
    """What a batch append has written so far (an :class:`ImportResult` in the making)."""

    def __init__(self) -> None:
        self.imported = self.duplicates = 0
        self.first: int | None = None
        self.last: int | None = None

    def add_span(
        self, span: tuple[int, int], indexes: list[int], progress: Callable[[int], None] | None
    ) -> None:
        """Events ``indexes`` of the batch, all new, written at seqs ``span``."""
        self.imported += len(indexes)
        self.first = span[0] if self.first is None else self.first
        self.last = span[1]
        if progress is not None:
            for index in indexes:
                progress(index)

    def add(self, index: int, result: AppendResult, progress: Callable[[int], None] | None) -> None:
        if result.duplicate:
            self.duplicates += 1
        else:
            self.imported += 1
            self.first = result.seq if self.first is None else self.first
            self.last = result.seq
        if progress is not None:
            progress(index)


def _label(exc: AgentmemError, index: int, where: Callable[[int], str] | None) -> None:
    """Prefix ``exc`` with where its event came from (``where(i)``, default ``event i``)."""
    label = where(index) if where is not None else f"event {index}"
    exc.message = f"{label}: {exc.message}"
    exc.args = (exc.message,)


def _log_problems(
    conn: apsw.Connection, progress: Callable[[int, int], None] | None = None
) -> list[str]:
    """Events changed outside agentmem: a ``content_hash`` that no longer matches the stored
    event, or a type outside the closed set (the log cannot be read back past either)."""
    known = closed_types()
    altered: list[int] = []
    unknown: list[int] = []
    total = conn.execute("SELECT count(*) FROM events").get if progress is not None else 0
    rows = conn.execute(
        "SELECT seq, event_id, type, session_id, run_id, principal, payload, content_hash "
        "FROM events ORDER BY seq"
    )
    for done, (seq, event_id, kind, session_id, run_id, principal, payload, digest) in enumerate(
        rows, start=1
    ):
        if kind not in known:
            unknown.append(seq)
        if content_hash(kind, session_id, run_id, principal, event_id, payload.encode()) != digest:
            altered.append(seq)
        if progress is not None and (done % 256 == 0 or done >= total):
            progress(done, max(done, total))  # a writer may have appended since the count

    def seqs(found: list[int]) -> str:
        shown = ", ".join(map(str, found[:10]))
        return shown + (f" and {len(found) - 10} more" if len(found) > 10 else "")

    problems = []
    if altered:
        problems.append(
            f"log: the content_hash of {len(altered)} event(s) does not match the stored event "
            f"(seq {seqs(altered)}): the log was changed outside agentmem"
        )
    if unknown:
        problems.append(
            f"log: {len(unknown)} event(s) have a type outside the closed set (seq "
            f"{seqs(unknown)}): they were written outside agentmem"
        )
    return problems


def _row_of(
    event: Event | ClientInput, default_principal: str, now: str | None, process: bool
) -> tuple[_Row, bool]:
    """Validate and normalise one event into its row, and whether the client gave its id
    (only then can a conflict be a replay). On the hot path: kept lean.

    Client input of every form goes through :func:`validate_client_event`; only agentmem's
    own process events, appended with ``process=True``, skip it. See :func:`content_hash`
    for what the hash covers.
    """
    if not (process and isinstance(event, Event) and event_type(event) not in CLIENT_EVENT_TYPES):
        event = validate_client_event(event)
    principal = event.principal if event.principal is not None else default_principal
    if isinstance(event, RunStarted) and event.tools:
        event = _hash_tools(event)
    event_id = event.event_id
    given = event_id is not None
    if event_id is None:
        event_id = new_event_id()
    if event.created_at is not None:
        created_at = format_time(event.created_at)
    else:
        created_at = now or now_text()
    kind = event_type(event)
    payload = canonical_json(payload_of(event))
    row = _Row(
        event_id,
        kind,
        event.session_id,
        event.run_id,
        principal,
        payload.decode("utf-8"),
        content_hash(kind, event.session_id, event.run_id, principal, event_id, payload),
        created_at,
    )
    return row, given


def prepare_event(
    event: Event | ClientInput, *, principal: str, now: str | None = None
) -> PreparedEvent:
    """Validate, normalise and hash one client event into the row an append inserts, without
    a database: a server prepares events on its request threads, so its single writer holds
    the write lock only while it inserts them. ``principal`` fills in a missing principal;
    ``now`` is the arrival time of an event without ``created_at`` (default: now).
    Raises :class:`InvalidInput` as :meth:`EventLog.append` would.
    """
    row, given = _row_of(event, principal, now or now_text(), False)
    return PreparedEvent(row, given)


def content_hash(
    kind: str,
    session_id: str | None,
    run_id: str | None,
    principal: str,
    event_id: str,
    payload: bytes,
) -> str:
    """SHA-256 of an event's envelope and canonical payload, as stored in ``content_hash``.

    ``created_at`` and ``seq`` are left out: re-sending an event is the same event even if the
    client's clock, or ours, says otherwise.
    """
    import hashlib

    digest = hashlib.sha256(canonical_json((kind, session_id, run_id, principal, event_id)))
    digest.update(payload)
    return digest.hexdigest()


_BATCH = 256  # rows an iterator fetches per hold of the lock


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` under the Store's lock, with SQLite failures mapped onto the error tree."""
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generator(self: EventLog, *args: Any, **kwargs: Any) -> Iterator[Any]:
            rows = method(self, *args, **kwargs)
            while True:
                with self.lock:
                    try:
                        batch = list(itertools.islice(rows, _BATCH))
                    except apsw.Error as exc:
                        mapped = self._translate(exc)
                        if mapped is None:
                            raise
                        raise mapped from exc
                if not batch:
                    return
                yield from batch

        return generator

    @functools.wraps(method)
    def call(self: EventLog, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            try:
                return method(self, *args, **kwargs)
            except apsw.Error as exc:
                mapped = self._translate(exc)
                if mapped is None:
                    raise
                raise mapped from exc

    return call


def _guard_public_methods(cls: type[EventLog]) -> None:
    """Guard every public method ``cls`` defines (not inherited ones: they are guarded already).

    The log is the library's boundary: every public method is guarded here, in one place,
    rather than by a decorator on each (a method added later, here or in a subclass, cannot
    forget it).
    """
    for name, member in list(vars(cls).items()):
        if inspect.isfunction(member) and not name.startswith("_") and name != "transaction":
            setattr(cls, name, _guarded(member))


_guard_public_methods(EventLog)


_Struct = TypeVar("_Struct", bound=msgspec.Struct)


def _bind(cls: type[_Struct], row: Sequence[object], **extra: object) -> _Struct:
    """A projection row as its struct, bound by column name (the SELECT names the struct's
    fields in order, ``extra`` the rest); msgspec checks every value's type."""
    fields = cls.__struct_fields__[: len(row)]
    return msgspec.convert({**dict(zip(fields, row, strict=True)), **extra}, cls)


def _of(owner: str | None) -> str:
    """The tail of a NotFound message: whose rows were looked in, when a read was scoped."""
    return "" if owner is None else f" for principal {owner!r}"


def _hash_tools(event: RunStarted) -> RunStarted:
    names = [tool.name for tool in event.tools]
    if len(set(names)) != len(names):
        raise InvalidInput("run.started lists the same tool name twice")
    tools = []
    for tool in event.tools:
        digest = schema_sha256(tool.schema)
        if tool.schema_sha256 is not None and tool.schema_sha256 != digest:
            raise InvalidInput(
                f"tool {tool.name!r}: schema_sha256 does not match its schema "
                "(omit it; the store computes it)"
            )
        tools.append(msgspec.structs.replace(tool, schema_sha256=digest))
    return msgspec.structs.replace(event, tools=tuple(tools))


def _guard_error(exc: apsw.ConstraintError, row: _Row) -> AgentmemError:
    match = _GUARD.search(str(exc))
    if match is None:
        return InvalidInput(f"event refused by the database: {exc}")
    template = _GUARD_MESSAGES.get(match.group(1), "event refused: {reason}")
    return EventRejected(
        template.format(session_id=row.session_id, run_id=row.run_id, reason=match.group(1))
    )
