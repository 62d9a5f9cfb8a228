"""Erasure of a session or a principal: what a user who asked to be forgotten would check.

Every test works on real files; the raw-file tests grep the database, its ``-wal`` and the
planner's statistics for the erased text after the CLI (a real subprocess) has returned.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

import apsw
import pytest
from _events import run_started, user_msg
from _forensics import readable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentmem
from agentmem import db as dbmod
from agentmem.erasure import erase

# Distinctive words that occur nowhere but in the erased conversation. Under
# AGENTMEM_TEST_ENCRYPTED=1 (tests/conftest.py) the raw files must hold none of them, nor bob's
# "Lisbon", at any time, and the greps read the files decrypted (tests/_forensics.py).
SECRET_WORDS = ("Quorvelle", "Zanzibarvillage", "plumtreeargument", "calloway-9931")
_PLAINTEXT = (*(w.encode() for w in SECRET_WORDS), b"Lisbon")


def _seed(store: agentmem.Store, *, alice: str = "alice", session: str = "s1") -> None:
    """A conversation of alice's that reaches every table erasure must clean, plus bob's."""
    store.grant_consent(alice)
    store.append(
        run_started(
            "r1", session=session, principal=alice, tools=[{"name": "search", "schema": {}}]
        )
    )
    for text in (
        "My daughter is called Quorvelle.",
        "I live in Zanzibarvillage.",
        "I am allergic to cashews.",
    ):
        store.append(user_msg(text, session=session, run="r1", principal=alice))
    store.append(
        {
            "type": "assistant.message.created",
            "session_id": session,
            "principal": alice,
            "run_id": "r1",
            "text": "",
            "tool_calls": [
                {"id": "c1", "name": "search", "arguments": '{"q": "plumtreeargument"}'}
            ],
        }
    )
    store.append(
        {
            "type": "tool.result.created",
            "session_id": session,
            "principal": alice,
            "run_id": "r1",
            "tool_call_id": "c1",
            "content": "calloway-9931 results",
        }
    )
    store.append(
        {
            "type": "run.completed",
            "session_id": session,
            "principal": alice,
            "run_id": "r1",
            "outcome": "succeeded",
        }
    )
    store.append(user_msg("I live in Lisbon.", session="s2", run=None, principal="bob"))
    store.close_session(session, principal=alice)
    store.close_session("s2", principal="bob")
    store.export_run("r1", principal=alice)
    store.conn.execute("ANALYZE")  # the planner's samples now copy index keys


def _stat_rows(db_path: Path) -> str:
    with contextlib.closing(apsw.Connection(str(db_path))) as raw:
        names = [
            r[0]
            for r in raw.execute("SELECT name FROM sqlite_schema WHERE name GLOB 'sqlite_stat*'")
        ]
        return repr([list(raw.execute(f"SELECT * FROM {name}")) for name in names])


def test_erase_session_leaves_none_of_its_text_in_the_files(db_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store:
        _seed(store)
        assert len(store.beliefs(principal="alice")) == 3
        assert _stat_rows(db_path) != "[]"
        raw = readable(db_path, *_PLAINTEXT)
        assert all(word.encode() in raw for word in SECRET_WORDS)  # the test can see them
        # This Store stays open (idle) while the CLI erases: its -wal holds old page images.
        result = run_cli("erase", "session", "s1", "--yes", "--json", "--db", str(db_path))
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        # the conversation, its close and the consolidation audit
        assert report["counts"]["events"] == 9
        assert report["counts"]["beliefs"] == 3
        assert report["counts"]["artifacts"] == 1
        raw = readable(db_path, *_PLAINTEXT)
        for word in SECRET_WORDS:
            assert word.encode() not in raw, word
            assert word not in _stat_rows(db_path)
        assert Path(f"{db_path}-wal").stat().st_size == 0
        assert b"Lisbon" in raw  # bob's conversation is untouched
        assert store.check() == []
        with pytest.raises(agentmem.NotFound):
            store.session("s1", all_principals=True)
        assert store.beliefs(principal="alice") == []
        assert store.artifacts(all_principals=True, include_expired=True) == []
        assert [b.statement for b in store.beliefs(principal="bob")] == ["User lives in Lisbon"]
    check = run_cli("db", "check", "--db", str(db_path))
    assert check.returncode == 0, check.stdout


def test_the_erasure_event_explains_itself_without_content(db_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store:
        _seed(store)
    assert run_cli("erase", "session", "s1", "--yes", "--db", str(db_path)).returncode == 0
    listed = run_cli("event", "list", "--json", "--db", str(db_path), "--all-principals")
    events = [json.loads(line) for line in listed.stdout.splitlines()]
    erasures = [e for e in events if e["type"] == "erasure"]
    assert len(erasures) == 1
    (event,) = erasures
    assert event["scope"] == "session" and event["counts"]["events"] == 9
    assert event["principal"] == "agentmem" and event["session_id"] is None
    text = json.dumps(event)
    assert "s1" not in text.replace(event["subject_hmac"], "")
    assert "alice" not in text
    assert not any(e.get("session_id") == "s1" for e in events)
    # The same request again is recognised as done (and repeats the scrub), not an error.
    again = run_cli("erase", "session", "s1", "--yes", "--db", str(db_path))
    assert again.returncode == 0 and "erased earlier" in again.stdout
    missing = run_cli("erase", "session", "s-never", "--yes", "--db", str(db_path))
    assert missing.returncode == 3
    assert "no session 's-never'" in missing.stderr


def test_erase_principal_removes_consent_artifacts_and_their_name(db_path: Path, run_cli) -> None:
    name = "alice-vanderquist"
    with agentmem.open(str(db_path)) as store:
        _seed(store, alice=name)
        store.append(user_msg("I am vegan.", session="s3", run=None, principal=name))
    result = run_cli("erase", "principal", name, "--yes", "--json", "--db", str(db_path))
    assert result.returncode == 0, result.stderr
    counts = json.loads(result.stdout)["counts"]
    assert counts["sessions"] == 2 and counts["consent"] == 1 and counts["artifacts"] == 1
    raw = readable(db_path, name.encode(), *_PLAINTEXT)
    assert name.encode() not in raw
    for word in SECRET_WORDS:
        assert word.encode() not in raw
    with agentmem.open(str(db_path)) as store:
        assert store.check() == []
        assert store.consent_status(name).state == "never"
        assert [s.session_id for s in store.sessions(all_principals=True)] == ["s2"]
        assert store.conn.execute("SELECT count(*) FROM blobs").get == 0


def test_dry_run_and_a_refused_confirmation_change_nothing(db_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store:
        _seed(store)
        everyone = list(store.events_json(all_principals=True))
        before = (everyone, dbmod.projection_snapshot(store.conn))
    dry = run_cli("erase", "principal", "alice", "--dry-run", "--db", str(db_path))
    assert dry.returncode == 0, dry.stderr
    assert "would erase principal 'alice'" in dry.stdout and "events          10" in dry.stdout
    declined = run_cli("erase", "principal", "alice", "--db", str(db_path), input="n\n")
    assert declined.returncode == 2
    assert "Erase it? [y/N]" in declined.stderr and "nothing was erased" in declined.stderr
    with agentmem.open(str(db_path)) as store:
        assert before[0]  # alice and bob wrote events
        everyone = store.events_json(all_principals=True)
        assert (list(everyone), dbmod.projection_snapshot(store.conn)) == before
    confirmed = run_cli("erase", "principal", "alice", "--db", str(db_path), input="y\n")
    assert confirmed.returncode == 0, confirmed.stderr
    with agentmem.open(str(db_path)) as store:
        assert store.sessions(principal="alice") == []


def test_only_the_audited_purge_removes_events(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(run_started())
        store.append(user_msg("I live in Lisbon."))
    with contextlib.closing(apsw.Connection(str(db_path))) as raw:
        with pytest.raises(apsw.ConstraintError, match="agentmem:append_only"):
            raw.execute("DELETE FROM events WHERE seq = 2")
        with pytest.raises(apsw.ConstraintError, match="agentmem:purge_unaudited"):
            raw.execute("INSERT INTO purge (seq, erasure_seq) VALUES (2, 2)")
        assert raw.execute("SELECT count(*) FROM events").get == 2
    with agentmem.open(str(db_path)) as store:
        seq = erase(store, "session", "s1").erasure_seq
    with contextlib.closing(apsw.Connection(str(db_path))) as raw:
        # An erasure event itself can never be purged, nor can a purge reuse an old erasure.
        with pytest.raises(apsw.ConstraintError, match="agentmem:append_only"):
            raw.execute("DELETE FROM events WHERE seq = ?", (seq,))
        assert raw.execute("SELECT count(*) FROM purge").get == 0


def test_seqs_are_never_reused_after_erasing_the_newest_events(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg("I live in Lisbon.", run=None, session="keep"))
        last = store.append(user_msg("I live in Porto.", run=None, session="gone"))
        erasure_seq = erase(store, "session", "gone").erasure_seq
        assert erasure_seq == last + 1
        assert store.append(user_msg("Hello.", run=None, session="gone")) == last + 2


def test_unknown_scope_and_missing_database_are_clear_errors(db_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store, pytest.raises(agentmem.InvalidInput):
        erase(store, "everything", "x")
    result = run_cli("erase", "session", "s1", "--yes", "--db", str(db_path.with_name("no.db")))
    assert result.returncode == 2 and "no agentmem database" in result.stderr


# -- rebuilt equals incremental, with erasures in the history --------------------------------

SESSIONS = ["s1", "s2", "s3"]
RUNS = ["r1", "r2", "r3"]
PRINCIPALS = ["alice", "bob"]

_op = st.one_of(
    st.tuples(
        st.just("start"),
        st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(PRINCIPALS),
        st.none() | st.sampled_from(RUNS),
    ),
    st.tuples(
        st.just("user"),
        st.none() | st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(PRINCIPALS),
    ),
    st.tuples(st.just("complete"), st.sampled_from(RUNS), st.sampled_from(SESSIONS)),
    st.tuples(st.just("close"), st.sampled_from(SESSIONS), st.sampled_from(PRINCIPALS)),
    st.tuples(st.just("grant"), st.sampled_from(PRINCIPALS)),
    st.tuples(st.just("erase_session"), st.sampled_from(SESSIONS)),
    st.tuples(st.just("erase_principal"), st.sampled_from(PRINCIPALS)),
)


def _apply(store: agentmem.Store, op: tuple) -> None:
    kind = op[0]
    if kind == "grant":
        store.grant_consent(op[1])
    elif kind.startswith("erase_"):
        with contextlib.suppress(agentmem.NotFound):
            erase(store, kind.removeprefix("erase_"), op[1])
    elif kind == "start":
        _, run, session, principal, parent = op
        store.append(run_started(run, session=session, principal=principal, parent=parent))
    elif kind == "user":
        _, run, session, principal = op
        store.append(user_msg("hello there", session=session, run=run, principal=principal))
    elif kind == "complete":
        store.append(
            {
                "type": "run.completed",
                "session_id": op[2],
                "principal": "alice",
                "run_id": op[1],
                "outcome": "succeeded",
            }
        )
    else:
        store.append({"type": "session.closed", "session_id": op[1], "principal": op[2]})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_op, max_size=30))
def test_rebuilt_projections_equal_incremental_across_erasures(ops: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp, agentmem.open(str(Path(tmp) / "a.db")) as store:
        for op in ops:
            with contextlib.suppress(agentmem.EventRejected):  # refused events write nothing
                _apply(store, op)
        incremental = dbmod.projection_snapshot(store.conn)
        assert store.check() == []
        store.rebuild_projections()
        assert dbmod.projection_snapshot(store.conn) == incremental
        # The survivors alone, appended to a fresh file under their own seqs, project the same.
        survivors = store.conn.execute("SELECT * FROM events ORDER BY seq").fetchall()
        with agentmem.open(str(Path(tmp) / "fresh.db")) as fresh, fresh.transaction():
            fresh.conn.executemany(f"INSERT INTO events VALUES ({', '.join('?' * 9)})", survivors)
            assert dbmod.projection_snapshot(fresh.conn) == incremental
