"""The store through its public API: append, idempotency, guards, identity checks."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import apsw
import pytest
from _events import run_started, user_msg

import agentmem
from agentmem import db as dbmod
from agentmem.events import CLIENT_EVENT_TYPES


def test_append_returns_increasing_seqs_and_reads_back(store: agentmem.Store) -> None:
    s1 = store.append(run_started())
    s2 = store.append(user_msg("hello"))
    assert s2 > s1
    events = list(store.events(session_id="s1", principal="alice"))
    assert [e.seq for e in events] == [s1, s2]
    assert events[1].text == "hello"
    assert events[1].created_at is not None and events[1].event_id


def test_same_event_id_same_content_is_idempotent(store: agentmem.Store) -> None:
    store.append(run_started())
    first = store.append_event(user_msg("hi", event_id="e-1"))
    again = store.append_event(user_msg("hi", event_id="e-1"))
    assert again.seq == first.seq and again.duplicate and not first.duplicate
    assert store.status().events == 2


def test_same_event_id_other_content_conflicts_and_writes_nothing(store: agentmem.Store) -> None:
    store.append(run_started())
    store.append(user_msg("hi", event_id="e-1"))
    with pytest.raises(agentmem.Conflict, match="e-1"):
        store.append(user_msg("changed", event_id="e-1"))
    assert store.status().events == 2


def test_update_and_delete_fail_inside_sqlite_for_any_client(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as s:
        s.append(run_started())
    raw = apsw.Connection(str(db_path))  # a different client, no agentmem code involved
    with pytest.raises(apsw.ConstraintError, match="append_only"):
        raw.execute("UPDATE events SET payload = '{}'")
    with pytest.raises(apsw.ConstraintError, match="append_only"):
        raw.execute("DELETE FROM events")
    assert raw.execute("SELECT count(*) FROM events").get == 1


def test_closed_session_refuses_appends_but_accepts_replay(store: agentmem.Store) -> None:
    store.append(run_started())
    store.append(user_msg("hi", event_id="e-1"))
    store.append({"type": "session.closed", "session_id": "s1", "principal": "alice"})
    with pytest.raises(agentmem.EventRejected, match="closed"):
        store.append(user_msg("late"))
    assert store.append_event(user_msg("hi", event_id="e-1")).duplicate


def test_completed_run_refuses_messages(store: agentmem.Store) -> None:
    store.append(run_started())
    store.append(
        {
            "type": "run.completed",
            "session_id": "s1",
            "principal": "alice",
            "run_id": "r1",
            "outcome": "succeeded",
        }
    )
    with pytest.raises(agentmem.EventRejected, match="completed"):
        store.append(user_msg("after"))


def test_event_for_unknown_run_is_refused(store: agentmem.Store) -> None:
    with pytest.raises(agentmem.EventRejected, match="never started"):
        store.append(user_msg("x", run="ghost"))
    assert store.status().events == 0


def test_run_in_other_session_and_unknown_parent_are_refused(store: agentmem.Store) -> None:
    store.append(run_started())
    with pytest.raises(agentmem.EventRejected, match="another session"):
        store.append(user_msg("x", session="s2"))
    with pytest.raises(agentmem.EventRejected, match="parent"):
        store.append(run_started("r2", parent="nope"))


def test_projections_follow_appends(store: agentmem.Store) -> None:
    store.append(run_started(tools=[{"name": "search", "schema": {"type": "object"}}]))
    store.append(run_started("r2", parent="r1"))
    store.append(user_msg("hi"))
    store.append(
        {
            "type": "run.completed",
            "session_id": "s1",
            "principal": "alice",
            "run_id": "r1",
            "outcome": "failed",
            "failure_class": "tool_error",
            "error": "backend timeout",
        }
    )
    session = store.session("s1", principal="alice")
    assert (session.status, session.event_count, session.run_count) == ("open", 4, 2)
    run = store.run("r1", principal="alice")
    assert (run.status, run.outcome, run.failure_class) == ("completed", "failed", "tool_error")
    assert run.tools[0].name == "search" and len(run.tools[0].schema_sha256) == 64
    assert store.run("r2", principal="alice").parent_run_id == "r1"


def test_tool_schema_hash_is_canonical(store: agentmem.Store) -> None:
    a = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}
    b = {"properties": {"n": {"type": "integer"}, "q": {"type": "string"}}, "type": "object"}
    store.append(run_started("ra", tools=[{"name": "t", "schema": a}]))
    store.append(run_started("rb", tools=[{"name": "t", "schema": b}]))
    assert store.run("ra", principal="alice").tools == store.run("rb", principal="alice").tools


@pytest.mark.parametrize(
    ("event", "needle"),
    [
        ({"type": "nope", "session_id": "s", "principal": "p"}, "known types"),
        ({"session_id": "s", "principal": "p"}, "missing required field `type`"),
        ({"type": "user.message.created", "session_id": "s", "principal": "p"}, "`text`"),
        (
            {"type": "user.message.created", "session_id": "", "principal": "p", "text": "x"},
            "session_id",
        ),
        (
            {
                "type": "user.message.created",
                "session_id": "s" * 129,
                "principal": "p",
                "text": "x",
            },
            "session_id",
        ),
        (
            {
                "type": "assistant.message.created",
                "session_id": "s",
                "principal": "p",
                "text": "x",
                "reasoning": "step by step",
            },
            "reasoning",
        ),
        (
            {
                "type": "assistant.message.created",
                "session_id": "s",
                "principal": "p",
                "reasoning_content": "...",
            },
            "never stores",
        ),
        ({"type": "consent.granted", "principal": "p"}, "written by agentmem itself"),
        (
            {
                "type": "run.started",
                "session_id": "s",
                "principal": "p",
                "run_id": "r",
                "tools": [{"name": "a"}, {"name": "a"}],
            },
            "twice",
        ),
    ],
)
def test_invalid_events_are_refused_with_a_clear_error(
    store: agentmem.Store, event: dict, needle: str
) -> None:
    with pytest.raises(agentmem.InvalidInput) as info:
        store.append(event)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)
    assert store.status().events == 0


def test_unknown_type_error_lists_every_known_type(store: agentmem.Store) -> None:
    with pytest.raises(agentmem.InvalidInput) as info:
        store.append({"type": "user.said", "session_id": "s", "principal": "p"})
    for name in CLIENT_EVENT_TYPES:
        assert name in str(info.value)


def test_sql_metacharacters_are_stored_verbatim(store: agentmem.Store) -> None:
    nasty = "x'); DROP TABLE events; -- \" % _ \\ ; /* */"
    store.append(run_started(nasty, session=nasty, principal=nasty))
    store.append(user_msg(nasty, session=nasty, run=nasty, principal=nasty, event_id=nasty))
    (event,) = [e for e in store.events(session_id=nasty, principal=nasty) if e.event_id == nasty]
    assert (event.text, event.session_id, event.run_id, event.principal) == (nasty,) * 4
    assert store.session(nasty, principal=nasty).principal == nasty


def test_batch_is_all_or_nothing_and_names_the_position(store: agentmem.Store) -> None:
    batch = [run_started(), user_msg("a"), user_msg("b", run="ghost"), user_msg("c")]
    with pytest.raises(agentmem.EventRejected, match=r"^event 3: "):
        store.append_many(batch)
    assert store.status().events == 0
    result = store.append_many(batch[:2] + batch[3:])
    assert (result.imported, result.duplicates) == (3, 0)


def test_missing_principal_defaults_from_settings(db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="carol") as s:
        s.append({"type": "run.started", "session_id": "s", "run_id": "r"})
        assert s.run("r").principal == "carol"
    with agentmem.open(str(db_path)) as s:
        s.append({"type": "run.started", "session_id": "s2", "run_id": "r2"})
        assert s.run("r2").principal == "local"


def test_memory_database_works() -> None:
    with agentmem.open(":memory:") as s:
        s.append(run_started())
        assert s.status().events == 1


def test_not_sqlite_file_is_refused_unmodified(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = path.read_bytes()
    with pytest.raises(agentmem.NotADatabase, match="not an SQLite database"):
        agentmem.open(str(path))
    assert path.read_bytes() == before
    assert not (tmp_path / "notes.db-wal").exists()


def test_foreign_sqlite_file_is_refused_unmodified(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = apsw.Connection(str(path))
    conn.execute("CREATE TABLE mine (x); INSERT INTO mine VALUES (1)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(agentmem.NotADatabase, match="not an agentmem one"):
        agentmem.open(str(path))
    assert path.read_bytes() == before


def test_newer_schema_is_refused(db_path: Path) -> None:
    agentmem.open(str(db_path)).close()
    conn = apsw.Connection(str(db_path))
    conn.pragma("user_version", dbmod.SCHEMA_VERSION + 1)
    conn.close()
    with pytest.raises(agentmem.SchemaTooNew) as info:
        agentmem.open(str(db_path))
    assert info.value.exit_code == 5


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_directory_is_a_clear_error(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(agentmem.AgentmemError, match="read-only"):
            agentmem.open(str(ro / "a.db"))
    finally:
        ro.chmod(stat.S_IRWXU)


def test_read_only_directory_check_does_not_depend_on_uid(tmp_path: Path, monkeypatch) -> None:
    # As root the permission bits do not bind, so exercise the same check through os.access.
    real_access = os.access
    monkeypatch.setattr(
        dbmod.os,
        "access",
        lambda p, mode: False if mode == os.W_OK else real_access(p, mode),
    )
    with pytest.raises(agentmem.AgentmemError, match="read-only") as info:
        agentmem.open(str(tmp_path / "a.db"))
    assert info.value.exit_code == 2
    assert not (tmp_path / "a.db").exists()


def test_connection_settings_are_in_force(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as s:
        assert s.conn.pragma("journal_mode") == "wal"
        assert s.conn.pragma("foreign_keys") == 1
        assert s.conn.pragma("synchronous") == 2  # FULL
        assert s.conn.pragma("application_id") == dbmod.APPLICATION_ID
        assert s.conn.pragma("busy_timeout") >= 1000


def test_synchronous_setting_is_applied(db_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("AGENTMEM_SYNCHRONOUS", "NORMAL")
    from agentmem.config import load_settings

    settings = load_settings(db=str(db_path))
    with agentmem.Store.open(settings=settings) as s:
        assert s.conn.pragma("synchronous") == 1


def test_invalid_setting_is_a_config_error(monkeypatch) -> None:
    monkeypatch.setenv("AGENTMEM_SYNCHRONOUS", "SOMETIMES")
    from agentmem.config import load_settings

    with pytest.raises(agentmem.ConfigError, match="synchronous"):
        load_settings()


def test_threads_of_one_process_write_concurrently(db_path: Path) -> None:
    import threading

    agentmem.open(str(db_path)).close()
    errors: list[str] = []

    def worker(i: int) -> None:
        try:
            with agentmem.open(str(db_path), principal="p") as s:
                for j in range(50):
                    s.append(
                        {"type": "user.message.created", "session_id": f"s{i % 4}", "text": f"m{j}"}
                    )
                s.grant_consent(f"p{i}")  # a read-then-write transaction
        except agentmem.AgentmemError as exc:
            errors.append(type(exc).__name__)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    with agentmem.open(str(db_path)) as s:
        assert s.status().events == 8 * 50 + 8
        assert s.check() == []


def test_transaction_groups_calls_atomically(store: agentmem.Store) -> None:
    store.append(run_started())
    with pytest.raises(agentmem.EventRejected), store.transaction():
        store.append(user_msg("kept only if all succeed"))
        store.append(user_msg("bad", run="ghost"))
    assert store.status().events == 1


def test_in_memory_stores_match_a_files_schema_and_keep_a_secret_of_their_own(
    tmp_path: Path,
) -> None:
    """In-memory stores copy a schema built once per process: what they hold must be exactly
    what a file's DDL builds, and each needs a blob secret of its own."""

    def schema(conn: apsw.Connection) -> list[tuple[object, ...]]:
        return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))

    def secret(store: agentmem.Store) -> object:
        return store.conn.execute("SELECT value FROM meta WHERE key = 'blob_secret'").get

    with (
        agentmem.open(str(tmp_path / "f.db"), principal="alice") as on_disk,
        agentmem.open(":memory:", principal="alice") as first,
        agentmem.open(":memory:", principal="alice") as second,
    ):
        assert schema(first.conn) == schema(on_disk.conn) == schema(second.conn)
        for pragma in ("user_version", "application_id", "auto_vacuum"):
            assert first.conn.pragma(pragma) == on_disk.conn.pragma(pragma)
        assert len({secret(on_disk), secret(first), secret(second)}) == 3
        first.append(run_started("r1"))
        first.append(user_msg("hello"))
        assert [type(e).__name__ for e in first.events()] == ["RunStarted", "UserMessageCreated"]
        assert list(second.events()) == []
