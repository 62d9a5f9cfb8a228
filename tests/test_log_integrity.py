"""The log's promises against clients that bypass agentmem, and the one validation path.

Raw SQL attacks run through plain apsw connections on real files (no agentmem code in the
attacker's path); ``db check`` must then name what was changed. Client input is validated the
same way whether it arrives as a struct, a dict or JSON text.
"""

from __future__ import annotations

import importlib
import json
import re
import secrets
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Any

import apsw
import msgspec
import pytest
from _events import run_started, user_msg

import agentmem
from agentmem import db as dbmod
from agentmem.events import (
    EVENT_TYPES,
    ConsentWithdrawn,
    UserMessageCreated,
    canonical_json,
    decode_client_event,
)
from agentmem.store import content_hash

FIXTURES = Path(__file__).with_name("fixtures")


def _seed(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(run_started())
        store.append(user_msg("I live in Lisbon.", event_id="e-1"))


def _raw(db_path: Path) -> apsw.Connection:
    return apsw.Connection(str(db_path))  # another client: no agentmem code involved


def _text_of(db_path: Path, seq: int) -> str:
    with _raw(db_path) as raw:
        return raw.execute("SELECT payload ->> '$.text' FROM events WHERE seq = ?", (seq,)).get


# -- item 6: append-only for every client ----------------------------------------------------


def test_insert_or_replace_cannot_rewrite_an_event_by_seq(db_path: Path) -> None:
    _seed(db_path)
    raw = _raw(db_path)
    with pytest.raises(apsw.ConstraintError, match="agentmem:append_only"):
        raw.execute(
            "INSERT OR REPLACE INTO events (seq, event_id, type, session_id, run_id, principal,"
            " payload, content_hash, created_at) SELECT seq, 'forged', type, session_id, run_id,"
            ' principal, \'{"text":"I never said this"}\', content_hash, created_at'
            " FROM events WHERE seq = 2"
        )
    raw.close()
    assert _text_of(db_path, 2) == "I live in Lisbon."


def test_insert_or_replace_cannot_rewrite_an_event_by_event_id(db_path: Path) -> None:
    _seed(db_path)
    raw = _raw(db_path)
    for verb in ("INSERT OR REPLACE", "REPLACE"):
        with pytest.raises(apsw.ConstraintError, match="agentmem:append_only"):
            raw.execute(
                f"{verb} INTO events (event_id, type, session_id, run_id, principal, payload,"
                " content_hash, created_at) SELECT event_id, type, session_id, run_id, principal,"
                ' \'{"text":"I never said this"}\', content_hash, created_at'
                " FROM events WHERE event_id = 'e-1'"
            )
    assert raw.execute("SELECT count(*) FROM events").get == 2
    raw.close()
    assert _text_of(db_path, 2) == "I live in Lisbon."


@pytest.mark.parametrize("kind", ["User.Message.Created", "USER.MESSAGE.CREATED", "note", ""])
def test_a_type_must_match_the_closed_set_exactly(db_path: Path, kind: str) -> None:
    _seed(db_path)
    with _raw(db_path) as raw, pytest.raises(apsw.ConstraintError, match="unknown_type"):
        raw.execute(
            "INSERT INTO events (event_id, type, session_id, run_id, principal, payload,"
            " content_hash, created_at) VALUES ('x-1', ?, 's1', 'r1', 'alice',"
            " '{\"text\":\"hi\"}', 'h', '2026-01-01T00:00:00.000Z')",
            (kind,),
        )


def test_the_sql_type_list_is_the_python_registry() -> None:
    # Process types register where they are defined: import every module that defines one.
    package = Path(agentmem.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if "register_process_event(" in path.read_text(encoding="utf-8"):
            importlib.import_module(
                ".".join(path.relative_to(package.parent).with_suffix("").parts)
            )
    conn = apsw.Connection(":memory:")
    conn.execute(dbmod.data_path("schema.sql").read_text(encoding="utf-8"))
    sql = conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'events_append_only_insert'").get
    listed = re.findall(r"WHEN '([^']*)' THEN 0", sql)
    assert sorted(listed) == sorted(EVENT_TYPES)  # registration order depends on imports


def _drop_trigger_and_rewrite(db_path: Path) -> str:
    """What a raw client can still do: drop the guard, rewrite, and put the guard back."""
    with _raw(db_path) as raw:
        sql = raw.execute(
            "SELECT sql FROM sqlite_schema WHERE name = 'events_append_only_update'"
        ).get
        raw.execute("DROP TRIGGER events_append_only_update")
        raw.execute(
            "UPDATE events SET payload = json_set(payload, '$.text', 'I never said this')"
            " WHERE seq = 2"
        )
    return sql


def test_check_reports_a_dropped_trigger(db_path: Path, run_cli) -> None:
    _seed(db_path)
    _drop_trigger_and_rewrite(db_path)
    with agentmem.open(str(db_path)) as store:
        problems = store.check()
    assert "schema: trigger events_append_only_update is missing" in problems
    result = run_cli("db", "check", "--db", str(db_path))
    assert result.returncode == 1
    assert "trigger events_append_only_update is missing" in result.stdout


def test_check_reports_a_rewritten_event_even_with_the_trigger_restored(
    db_path: Path, run_cli
) -> None:
    _seed(db_path)
    sql = _drop_trigger_and_rewrite(db_path)
    with _raw(db_path) as raw:
        raw.execute(sql)  # the schema looks untouched again
    with agentmem.open(str(db_path)) as store:
        problems = store.check()
    assert len(problems) == 1 and "content_hash" in problems[0] and "seq 2" in problems[0]
    result = run_cli("db", "check", "--db", str(db_path), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"ok": False, "problems": problems}


def test_check_reports_an_extra_or_changed_schema_object(db_path: Path) -> None:
    _seed(db_path)
    with _raw(db_path) as raw:
        raw.execute("CREATE INDEX sneaky ON events (principal)")
        raw.execute("DROP INDEX artifacts_one_export")
        raw.execute("CREATE UNIQUE INDEX artifacts_one_export ON artifacts (run_id)")
    with agentmem.open(str(db_path)) as store:
        problems = store.check()
    assert problems == [
        "schema: index artifacts_one_export differs from its definition in schema.sql",
        "schema: index sneaky is not part of the agentmem schema",
    ]


def test_check_reports_an_event_of_unknown_type_written_around_the_guard(db_path: Path) -> None:
    _seed(db_path)
    with _raw(db_path) as raw:
        sql = raw.execute(
            "SELECT sql FROM sqlite_schema WHERE name = 'events_append_only_insert'"
        ).get
        raw.execute("DROP TRIGGER events_append_only_insert")
        payload = b'{"text":"hi"}'
        digest = content_hash("User.Message.Created", "s1", "r1", "alice", "x-1", payload)
        raw.execute(
            "INSERT INTO events (event_id, type, session_id, run_id, principal, payload,"
            " content_hash, created_at) VALUES ('x-1', 'User.Message.Created', 's1', 'r1',"
            " 'alice', ?, ?, '2026-01-01T00:00:00.000Z')",
            (payload.decode(), digest),
        )
        raw.execute(sql)
    with agentmem.open(str(db_path)) as store:
        assert store.check() == [
            "log: 1 event(s) have a type outside the closed set (seq 3): they were written "
            "outside agentmem"
        ]


def test_a_clean_database_checks_ok(db_path: Path, run_cli) -> None:
    _seed(db_path)
    result = run_cli("db", "check", "--db", str(db_path))
    assert result.returncode == 0, result.stdout + result.stderr


# -- migration: a version-1 file is upgraded ---------------------------------------------------


def _v1_event(
    conn: apsw.Connection, kind: str, fields: dict[str, Any], *, run: str | None = "r1"
) -> None:
    event_id = f"ev-{secrets.token_hex(4)}"
    payload = canonical_json(fields)
    conn.execute(
        "INSERT INTO events (event_id, type, session_id, run_id, principal, payload,"
        " content_hash, created_at) VALUES (?, ?, 's1', ?, 'alice', ?, ?,"
        " strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        (
            event_id,
            kind,
            run,
            payload.decode(),
            content_hash(kind, "s1", run, "alice", event_id, payload),
        ),
    )


def _v1_artifact(conn: apsw.Connection, artifact_id: str, run: str, created: str, expires: str):
    conn.execute(
        "INSERT INTO artifacts (artifact_id, origin, blob_key, run_id, principal, media_type,"
        " doc_schema, size, created_at, expires_at) VALUES (?, 'trajectory_export', 'b1', ?,"
        " 'alice', 'application/json', 'agentmem.trajectory/1', 2, ?, ?)",
        (artifact_id, run, created, expires),
    )


def _build_v1_file(path: Path) -> None:
    """A file as agentmem version 1 left it, written with the released version-1 schema."""
    conn = apsw.Connection(str(path))
    conn.pragma("auto_vacuum", "INCREMENTAL")
    conn.pragma("journal_mode", "wal")
    with conn:
        conn.execute((FIXTURES / "schema_v1.sql").read_text(encoding="utf-8"))
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('blob_secret', ?), ('created_at', ?)",
            (secrets.token_bytes(32), "2026-01-01T00:00:00.000Z"),
        )
        conn.pragma("application_id", dbmod.APPLICATION_ID)
        conn.pragma("user_version", 1)
        _v1_event(conn, "consent.granted", {"purpose": "trajectory_export"}, run=None)
        _v1_event(
            conn,
            "run.started",
            {"tools": [{"name": "search", "schema": {}, "schema_sha256": "0" * 64}]},
        )
        _v1_event(conn, "user.message.created", {"text": "I live in Lisbon."})
        _v1_event(conn, "run.completed", {"outcome": "succeeded"})
        # A run still running when the file was left: its counter moved with every message.
        _v1_event(conn, "run.started", {}, run="r-open")
        _v1_event(conn, "user.message.created", {"text": "and a cat"}, run="r-open")
        _v1_event(conn, "assistant.message.created", {"text": "noted"}, run="r-open")
        conn.execute("INSERT INTO blobs (blob_key, size, data) VALUES ('b1', 2, x'7b7d')")
        # Version 1 kept export idempotency in Python only: duplicates could exist.
        _v1_artifact(
            conn, "a-expired", "r1", "2025-01-01T00:00:00.000Z", "2025-02-01T00:00:00.000Z"
        )
        _v1_artifact(conn, "a-live", "r1", "2025-03-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z")
        _v1_artifact(conn, "a-dup", "r1", "2025-04-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z")
        _v1_artifact(conn, "b-old", "r2", "2025-01-01T00:00:00.000Z", "2025-02-01T00:00:00.000Z")
        _v1_artifact(conn, "b-new", "r2", "2025-03-01T00:00:00.000Z", "2025-04-01T00:00:00.000Z")
    conn.close()


_REPLACE_FIRST = (
    "REPLACE INTO events (seq, event_id, type, session_id, run_id, principal, payload,"
    " content_hash, created_at) SELECT seq, event_id, type, session_id, run_id, principal,"
    " payload, content_hash, created_at FROM events WHERE seq = 1"
)


def test_a_version_1_file_is_upgraded_and_then_equals_the_current_schema(db_path: Path) -> None:
    _build_v1_file(db_path)
    with _raw(db_path) as raw:  # the hole the upgrade closes is open in version 1
        raw.execute(_REPLACE_FIRST)
    with agentmem.open(str(db_path)) as store:
        assert store.conn.pragma("user_version") == dbmod.SCHEMA_VERSION
        assert store.check() == []
        kept = [
            row[0] for row in store.conn.execute("SELECT artifact_id FROM artifacts ORDER BY 1")
        ]
        # The export export_run returned (oldest live) stays; the newest expired one of a run
        # without a live export stays for the sweeper.
        assert sorted(kept) == ["a-live", "b-new"]
        assert store.export_run("r1", principal="alice").artifact_id == "a-live"
        alices = store.events(principal="alice", types=["user.message.created"])
        assert [e.text for e in alices] == ["I live in Lisbon.", "and a cat"]
        # Both runs report what they hold, counted before and after the upgrade alike.
        runs = {run.run_id: run.event_count for run in store.runs(principal="alice")}
        assert runs == {"r1": 3, "r-open": 3}
        store.append(
            {
                "type": "user.message.created",
                "session_id": "s1",
                "run_id": "r-open",
                "principal": "alice",
                "text": "one more",
            }
        )
        assert store.run("r-open", principal="alice").event_count == 4
        assert len(list(store.events(principal="alice", run_id="r-open"))) == 4
    with _raw(db_path) as raw, pytest.raises(apsw.ConstraintError, match="append_only"):
        raw.execute(_REPLACE_FIRST)


# -- item 7: one validation path for structs, dicts and JSON -----------------------------------

_GOOD = {"type": "user.message.created", "session_id": "s1", "run_id": "r1", "text": "hi"}
_BAD = {
    "empty text": {"text": ""},
    "5,000-character id": {"session_id": "s" * 5000},
    "ESC in an id": {"event_id": "e\x1b[31m"},
    "NUL in an id": {"run_id": "r\x00"},
    "C1 control in an id": {"event_id": "e\x85"},
    "bidi override in an id": {"session_id": "s\u202e1"},
    "zero-width space in an id": {"event_id": "e\u200b"},
    "tag character in an id": {"event_id": "e\U000e0041"},
    "trailing newline in an id": {"event_id": "e-1\n"},
    "empty principal": {"principal": ""},
    "created_at past year 9999 in UTC": {"created_at": "9999-12-31T23:59:59-01:00"},
    "created_at before year 1 in UTC": {"created_at": "0001-01-01T00:00:00+00:01"},
}


def _forms(fields: dict[str, Any]) -> dict[str, Any]:
    struct_fields = {k: v for k, v in fields.items() if k != "type"}
    if "created_at" in struct_fields:  # a struct holds a datetime, not text
        struct_fields["created_at"] = datetime.fromisoformat(struct_fields["created_at"])
    return {
        "dict": dict(fields),
        "json": json.dumps(fields),
        "struct": UserMessageCreated(**struct_fields),
    }


@pytest.mark.parametrize("case", list(_BAD))
def test_every_form_of_a_bad_event_is_refused_with_the_same_message(
    store: agentmem.Store, case: str
) -> None:
    store.append(run_started())
    before = store.status().events
    messages = set()
    for form, event in _forms({**_GOOD, **_BAD[case]}).items():
        with pytest.raises(agentmem.InvalidInput) as refused:
            store.append(event)
        messages.add(refused.value.message)
        with pytest.raises(agentmem.InvalidInput):
            store.append_many([_GOOD, event])
        assert "\n" not in refused.value.message, form
    assert len(messages) == 1, messages
    assert store.status().events == before


def test_good_events_are_accepted_in_every_form(store: agentmem.Store) -> None:
    store.append(run_started())
    for form, event in _forms({**_GOOD, "created_at": "2026-01-01T10:00:00+02:00"}).items():
        assert not store.append_event(event).duplicate, form
    stored = list(store.events(types=["user.message.created"]))
    assert [e.created_at.isoformat() for e in stored] == ["2026-01-01T08:00:00+00:00"] * 3


def test_process_type_structs_are_refused_from_clients(store: agentmem.Store) -> None:
    store.grant_consent("alice")
    forged = ConsentWithdrawn(principal="alice", purpose="trajectory_export")
    with pytest.raises(agentmem.InvalidInput, match="written by agentmem itself"):
        store.append(forged)
    with pytest.raises(agentmem.InvalidInput, match="written by agentmem itself"):
        store.append_many([forged])
    assert store.consent_status("alice").state == "granted"


def test_a_decoded_event_changed_afterwards_is_validated_again(store: agentmem.Store) -> None:
    store.append(run_started())
    decoded = decode_client_event(json.dumps(_GOOD))
    with pytest.raises(agentmem.InvalidInput, match="text"):
        store.append(msgspec.structs.replace(decoded, text=""))
    assert store.append(decoded) == 2


def test_ids_refuse_every_control_and_format_character_unicode_knows() -> None:
    refused = [
        chr(c)
        for c in range(0x110000)
        if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    ]
    for char in refused:
        with pytest.raises(agentmem.InvalidInput):
            decode_client_event(
                json.dumps({**_GOOD, "event_id": f"e{char}e"}, ensure_ascii=False)
                if unicodedata.category(char) != "Cs"
                else json.dumps({**_GOOD, "event_id": f"e{char}e"})
            )
    assert decode_client_event(json.dumps({**_GOOD, "event_id": "é-日本-🙂 x"})).event_id


def test_cli_refuses_an_unprintable_id_with_one_line(run_cli, db_path: Path) -> None:
    event = json.dumps({**_GOOD, "run_id": None, "session_id": "s\u202e1"})
    result = run_cli("event", "append", event, "--db", str(db_path))
    assert result.returncode == 4
    assert result.stderr.count("\n") == 1 and "session_id" in result.stderr
    assert "printable" in result.stderr


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+00:01"])
def test_cli_refuses_an_out_of_range_created_at(run_cli, db_path: Path, moment: str) -> None:
    event = json.dumps({**_GOOD, "run_id": None, "created_at": moment})
    result = run_cli("event", "append", event, "--db", str(db_path))
    assert result.returncode == 4, result.stderr
    assert result.stderr.count("\n") == 1 and "created_at" in result.stderr
    imported = run_cli("event", "import", "-", "--db", str(db_path), input=event + "\n")
    assert imported.returncode == 4 and "created_at" in imported.stderr


def test_early_and_late_times_keep_text_order(store: agentmem.Store) -> None:
    for moment in ("0005-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z"):
        store.append({"type": "session.closed", "session_id": f"s-{moment}", "created_at": moment})
    rows = list(store.conn.execute("SELECT created_at FROM events ORDER BY seq"))
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert rows[0][0] == "0005-01-01T00:00:00.000Z"


# -- item 11: tools in every listing, and every tool the run touched in the export ---------------


def _run_with_tools(store: agentmem.Store, principal: str = "alice") -> None:
    """A run that declares ``search`` and calls ``search`` and ``browse``."""
    base = {"session_id": "s1", "run_id": "r1", "principal": principal}
    tools = [{"name": "search", "schema": {"type": "object"}}]
    store.append({"type": "run.started", **base, "tools": tools})
    store.append({"type": "user.message.created", **base, "text": "find schools"})
    calls = [
        {"id": "c1", "name": "search", "arguments": "{}"},
        {"id": "c2", "name": "browse", "arguments": "{}"},
    ]
    store.append({"type": "assistant.message.created", **base, "tool_calls": calls})
    store.append({"type": "run.completed", **base, "outcome": "succeeded"})


def test_runs_listings_carry_their_tools(db_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store:
        _run_with_tools(store, principal="local")  # the CLI's default principal
        (listed,) = store.runs()
        assert [t.name for t in listed.tools] == ["search"] and listed == store.run("r1")
    db = ["--db", str(db_path)]
    expected = [{"name": "search", "schema_sha256": listed.tools[0].schema_sha256}]
    runs = json.loads(run_cli("run", "list", *db, "--json").stdout)
    assert runs[0]["tools"] == expected
    session = json.loads(run_cli("session", "show", "s1", *db, "--json").stdout)
    assert session["runs"][0]["tools"] == expected
    shown = json.loads(run_cli("run", "show", "r1", *db, "--json").stdout)
    assert shown["tools"] == expected


def test_export_lists_an_undeclared_tool_it_called_with_a_null_hash(store: agentmem.Store) -> None:
    store.grant_consent("alice")
    _run_with_tools(store)
    result = store.export_run("r1", principal="alice")
    _, data = store.read_artifact(result.artifact_id, principal="alice")
    tools = msgspec.json.decode(data)["tools"]
    assert tools == [
        {"name": "browse", "schema_sha256": None},
        {
            "name": "search",
            "schema_sha256": store.run("r1", principal="alice").tools[0].schema_sha256,
        },
    ]


# -- item 12: one export per run and document schema, in SQL -----------------------------------


def test_sql_refuses_a_second_export_of_a_run(db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.grant_consent("alice")
        _run_with_tools(store)
        first = store.export_run("r1")
    with _raw(db_path) as raw, pytest.raises(apsw.ConstraintError, match="UNIQUE"):
        raw.execute(
            "INSERT INTO artifacts SELECT 'art-copy', origin, blob_key, run_id, principal,"
            " media_type, doc_schema, size, created_at, expires_at FROM artifacts"
            " WHERE artifact_id = ?",
            (first.artifact_id,),
        )


def test_an_expired_export_is_swept_and_the_run_exported_again(store: agentmem.Store) -> None:
    store.grant_consent("alice")
    _run_with_tools(store)
    first = store.export_run("r1", principal="alice")
    store.conn.execute("UPDATE artifacts SET expires_at = '2000-01-01T00:00:00.000Z'")
    again = store.export_run("r1", principal="alice")
    assert again.created and again.artifact_id != first.artifact_id
    listed = store.artifacts(principal="alice", include_expired=True)
    assert [a.artifact_id for a in listed] == [again.artifact_id]
    assert store.check() == []
