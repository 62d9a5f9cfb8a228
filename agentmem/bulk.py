"""Bulk appends: a chunk of client events in one ``executemany``, projections updated per set.

Appended one by one, every event runs the projection triggers' programs (``events_proj_*``):
half of a bulk import's time in SQLite. For a large batch of client events (and of the Agents
SDK's verbatim items, ``agents.item.added``, which ``AgentmemSession.add_items`` writes beside
them) the log instead takes, inside the caller's write transaction: the guards of the five
triggers those events fire are checked over the whole chunk at once, the triggers are
dropped, the chunk is inserted with one ``executemany``, the projections are updated by one
statement per table, and the triggers are re-created from their own stored SQL. Other
connections never see the file without its triggers (all of it happens inside the writer's
transaction), and the append-only guard on ``events`` stays in force throughout.

Why this equals the triggers' result: the guard walk (:func:`refused`) flags a chunk exactly
when a trigger would refuse one of its events given the projections before the chunk plus the
chunk's earlier events; then nothing is kept and the caller appends the chunk event by event,
which raises the exact error for the exact event. Without a refusal, each statement below
computes the value the triggers reach after the last event of the chunk (sums of their
increments, the last event's status, the first event's creation values).
``tests/test_projections.py`` and ``tests/test_bulk_sessions.py`` check both against the
event-by-event path on generated histories, refused ones included.

The statements are written against the trigger bodies of :data:`TRIGGERS`; :func:`supported`
refuses the bulk path (the caller then appends event by event) if the file's triggers are not
those, so a changed trigger can make imports slower, never wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

import apsw
import msgspec

from agentmem.db import RUN_MEMBER_TYPES, RUN_MEMBERS_SQL
from agentmem.errors import StoreError
from agentmem.events import CLIENT_EVENT_TYPES

__all__ = [
    "CHUNK",
    "IDLE_TRIGGERS",
    "MIN_CHUNK",
    "TAKEN_TYPES",
    "TRIGGERS",
    "TRIGGERS_SHA256",
    "insert_chunk",
    "refused",
    "supported",
    "takes",
]

#: Events validated, checked and inserted at a time: large enough that the per-chunk work
#: (a TEMP table, dropping and re-creating the triggers) is noise, small enough that an
#: import of any size holds only one chunk in memory.
CHUNK = 2048
#: Smaller batches are appended event by event: the drop and re-creation of the triggers
#: (and the schema reload it costs other connections) only pays off over many events.
MIN_CHUNK = 256

#: The projection triggers that client events and ``agents.item.added`` fire (by name); the
#: statements below replace them.
TRIGGERS = (
    "events_proj_agents_item_added",
    "events_proj_run_completed",
    "events_proj_run_member",
    "events_proj_run_started",
    "events_proj_session",
)
#: AFTER INSERT triggers on the log that no taken type fires (the WHEN of each names a type
#: outside :data:`TAKEN_TYPES`): dropped too while the chunk is inserted, so SQLite does not
#: evaluate their WHEN for every row, and re-created with the others.
IDLE_TRIGGERS = (
    "events_proj_agents_item_popped",
    "events_proj_agents_session_cleared",
    "events_proj_consent_granted",
    "events_proj_consent_withdrawn",
)
#: SHA-256 of the SQL of those triggers and the idle ones as ``schema.sql`` defines them,
#: joined by newlines in name order (a test compares it with a fresh database).
TRIGGERS_SHA256 = "ff12e13ae52c8f6ca2d8627a1058f02c708d9b44cf0ff1fd5b5b98443c1ef690"

_CHECKED = tuple(sorted((*TRIGGERS, *IDLE_TRIGGERS)))

_INSERT = (
    "INSERT INTO events (event_id, type, session_id, run_id, principal, payload, content_hash,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
#: The types events_proj_session fires on (its WHEN clause): the client types.
_CONVERSATION = (
    "'session.closed', 'run.started', 'run.completed', 'user.message.created', "
    "'assistant.message.created', 'tool.result.created', 'system.prompt.set'"
)
#: What the bulk path inserts: the client types, and the Agents SDK's verbatim items
#: (``agents.item.added``, written by AgentmemSession.add_items with their conversation
#: events), whose one trigger only adds the item to ``agents_items``. Any other type in a chunk
#: sends it event by event.
TAKEN_TYPES = frozenset((*CLIENT_EVENT_TYPES, "agents.item.added"))

_SESSION_TYPES = frozenset(CLIENT_EVENT_TYPES)
_MEMBER_TYPES = frozenset(RUN_MEMBER_TYPES)
_ID_LIST = "(SELECT value FROM json_each(?))"


def refused(conn: apsw.Connection, rows: Sequence[Sequence[object]]) -> bool:
    """Whether a trigger would refuse an event of ``rows`` appended one by one after the file's
    current state: the guards of the replaced triggers, replayed in order over the chunk from
    the projection rows it touches (two indexed queries), before anything is inserted.

    - events_proj_session (client types): an event of a session that is closed, in the file
      or by an earlier event of the chunk;
    - events_proj_run_started: a run that already exists, or a parent run that does not (yet);
    - events_proj_run_member (with a run_id) and events_proj_run_completed: a run that does not
      exist, belongs to another session, or has completed.

    ``agents.item.added`` has no guard. The walk only answers whether; which event and which
    error is left to the event-by-event append, which raises exactly what the triggers raise.
    """
    sessions: set[object] = set()
    run_ids: set[object] = set()
    parents: dict[int, object] = {}
    for position, row in enumerate(rows):
        kind = row[1]
        if kind not in _SESSION_TYPES:
            continue
        sessions.add(row[2])
        if row[3] is not None:
            run_ids.add(row[3])
        if kind == "run.started":
            parent = msgspec.json.decode(cast("str", row[5])).get("parent_run_id")
            if parent is not None:
                parents[position] = parent
                run_ids.add(parent)
    closed = {
        session_id
        for (session_id,) in conn.execute(
            f"SELECT session_id FROM sessions WHERE session_id IN {_ID_LIST} AND status = 'closed'",
            (msgspec.json.encode(sorted(map(str, sessions))).decode(),),
        )
    }
    runs = {
        run_id: [session_id, status]
        for run_id, session_id, status in conn.execute(
            f"SELECT run_id, session_id, status FROM runs WHERE run_id IN {_ID_LIST}",
            (msgspec.json.encode(sorted(map(str, run_ids))).decode(),),
        )
    }
    for position, row in enumerate(rows):
        kind, session_id, run_id = row[1], row[2], row[3]
        if kind not in _SESSION_TYPES:
            continue
        if session_id in closed:
            return True
        if kind == "session.closed":
            closed.add(session_id)
        elif kind == "run.started":
            if run_id in runs or (position in parents and parents[position] not in runs):
                return True
            runs[run_id] = [session_id, "running"]
        elif run_id is not None and (kind in _MEMBER_TYPES or kind == "run.completed"):
            run = runs.get(run_id)
            if run is None or run[0] != session_id or run[1] != "running":
                return True
            if kind == "run.completed":
                run[1] = "completed"
    return False


# What the triggers leave after the chunk's last event, one statement per projection.
_PROJECT = (
    # events_proj_session (client types only): counts add up; status and closed_seq are the
    # last event's; principal and created_at the first event's (a conflict keeps the existing
    # row's); the latest activity is the greatest created_at.
    f"""
    WITH chunk AS (
        SELECT session_id, min(seq) AS first_seq, max(seq) AS last_seq, count(*) AS n,
               sum(type = 'user.message.created') AS users,
               sum(type = 'assistant.message.created') AS assistants,
               sum(type = 'run.started') AS runs, max(created_at) AS last_at,
               max(CASE type WHEN 'session.closed' THEN seq END) AS closed_seq
        FROM events WHERE seq BETWEEN ?1 AND ?2 AND type IN ({_CONVERSATION})
        GROUP BY session_id
    )
    INSERT INTO sessions (session_id, principal, status, event_count, user_message_count,
                          assistant_message_count, run_count, first_seq, last_seq, closed_seq,
                          created_at, last_activity_at)
    SELECT c.session_id, f.principal, CASE WHEN c.closed_seq IS NULL THEN 'open' ELSE 'closed' END,
           c.n, c.users, c.assistants, c.runs, c.first_seq, c.last_seq, c.closed_seq,
           f.created_at, c.last_at
    FROM chunk AS c JOIN events AS f ON f.seq = c.first_seq WHERE 1
    ON CONFLICT (session_id) DO UPDATE SET
        status = excluded.status,
        event_count = event_count + excluded.event_count,
        user_message_count = user_message_count + excluded.user_message_count,
        assistant_message_count = assistant_message_count + excluded.assistant_message_count,
        run_count = run_count + excluded.run_count,
        last_seq = excluded.last_seq,
        closed_seq = excluded.closed_seq,
        last_activity_at = max(last_activity_at, excluded.last_activity_at)
    """,
    # events_proj_run_started: a row per run, stamped with the consent in force (client events
    # never change consent, so it is the same for the whole chunk), and the run's tools.
    """
    INSERT INTO runs (run_id, session_id, parent_run_id, principal, status, event_count,
                      started_seq, started_at, consent_seq)
    SELECT e.run_id, e.session_id, json_extract(e.payload, '$.parent_run_id'), e.principal,
           'running', 1, e.seq, e.created_at,
           (SELECT granted_seq FROM consent
            WHERE principal = e.principal AND purpose = 'trajectory_export'
              AND status = 'granted')
    FROM events AS e WHERE e.seq BETWEEN ?1 AND ?2 AND e.type = 'run.started' ORDER BY e.seq
    """,
    """
    INSERT INTO run_tools (run_id, name, schema_sha256)
    SELECT e.run_id, json_extract(t.value, '$.name'), json_extract(t.value, '$.schema_sha256')
    FROM events AS e, json_each(e.payload, '$.tools') AS t
    WHERE e.seq BETWEEN ?1 AND ?2 AND e.type = 'run.started' ORDER BY e.seq
    """,
    # events_proj_run_completed: a run completed in the chunk counts its events in the log
    # (the same count as the trigger's: the chunk is inserted before this runs, and no member
    # of a run can follow its completion) and takes its outcome. Members change no run row.
    f"""
    UPDATE runs SET
        event_count = (SELECT count(*) FROM events AS e
                       WHERE e.session_id = d.session_id
                         AND e.seq BETWEEN runs.started_seq AND d.seq
                         AND e.run_id = d.run_id
                         AND e.type IN ('run.started', 'run.completed', {RUN_MEMBERS_SQL})),
        status = 'completed',
        outcome = json_extract(d.payload, '$.outcome'),
        failure_class = json_extract(d.payload, '$.failure_class'),
        completed_seq = d.seq,
        completed_at = d.created_at
    FROM (SELECT seq, session_id, run_id, payload, created_at FROM events
          WHERE seq BETWEEN ?1 AND ?2 AND type = 'run.completed') AS d
    WHERE runs.run_id = d.run_id
    """,
    # events_proj_agents_item_added: every item with a session is live when added (its seq is
    # new, so the primary key never conflicts).
    """
    INSERT INTO agents_items (session_id, principal, item_seq)
    SELECT session_id, principal, seq FROM events
    WHERE seq BETWEEN ?1 AND ?2 AND type = 'agents.item.added' AND session_id IS NOT NULL
    """,
)


def _trigger_sql(conn: apsw.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name, sql FROM main.sqlite_schema WHERE type = 'trigger' AND name IN "
        f"({', '.join('?' * len(_CHECKED))}) ORDER BY name",
        _CHECKED,
    ).fetchall()
    return [str(sql) for _, sql in rows]


def supported(conn: apsw.Connection) -> bool:
    """Whether the file's projection triggers are the ones the bulk statements replace, and
    the idle ones still fire on other types only."""
    import hashlib

    found = _trigger_sql(conn)
    digest = hashlib.sha256("\n".join(found).encode("utf-8")).hexdigest()
    return len(found) == len(_CHECKED) and digest == TRIGGERS_SHA256


def takes(types: Iterable[str]) -> bool:
    """Whether every event type of a chunk is one the bulk path inserts (:data:`TAKEN_TYPES`)."""
    return TAKEN_TYPES.issuperset(types)


def insert_chunk(conn: apsw.Connection, rows: Sequence[Sequence[object]]) -> tuple[int, int] | None:
    """Insert ``rows`` (new client events, in order; every ``event_id`` new) inside the caller's
    write transaction and update the projections as the triggers would.

    Returns the first and last seq, or ``None`` when nothing was written because an event
    would be refused (the caller then appends the chunk event by event for the exact error).
    The check (:func:`refused`) runs before anything is inserted: a savepoint around the
    insert would have made SQLite journal it and cost five times the insert itself, and a
    TEMP copy of the chunk for a query to check cost a fifth of the bulk path. Any other
    failure propagates, and the caller's transaction rolls back (triggers included).
    """
    before = int(conn.execute("SELECT coalesce(max(seq), 0) FROM main.events").get)
    first, last = before + 1, before + len(rows)
    if refused(conn, rows):
        return None
    # Every trigger on the log, in creation order: SQLite fires a table's triggers newest
    # first, so re-creating only the dropped ones would change which check refuses an event
    # that breaks two rules (and so the error a later append reports). All of them are
    # re-created in their original order instead.
    on_events = conn.execute(
        "SELECT name, sql FROM main.sqlite_schema WHERE type = 'trigger' AND tbl_name = 'events' "
        "ORDER BY rowid"
    ).fetchall()
    for name in _CHECKED:
        conn.execute(f"DROP TRIGGER main.{name}")
    conn.executemany(_INSERT, rows)
    if conn.last_insert_rowid() != last:
        raise StoreError(f"bulk append: seqs {first}..{last} were expected, the log disagrees")
    for statement in _PROJECT:
        conn.execute(statement, (first, last))
    for trigger, _ in on_events:
        if trigger not in _CHECKED:
            conn.execute(f"DROP TRIGGER main.{trigger}")
    for _, sql in on_events:
        conn.execute(str(sql))
    return first, last
