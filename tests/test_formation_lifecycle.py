"""Consolidation as a deployment lives it: several principals in one file, ``required`` mode
refusing at start-up before anything is written, and one failing session that must not stop
the others."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from pathlib import Path

import apsw
import msgspec
import pytest
from _events import run_started, user_msg

import agentmem
from agentmem.config import load_settings
from agentmem.events import event_type, stored_decoder
from agentmem.memory.events import audit_event_id


def _jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def _conversation(session: str, principal: str, text: str) -> list[dict]:
    run = f"r-{session}"
    return [
        run_started(run, session=session, principal=principal),
        user_msg(text, session=session, run=run, principal=principal),
    ]


def _statements(db: Path, principal: str) -> set[str]:
    with agentmem.open(str(db)) as store:
        return {b.statement or "" for b in store.beliefs(principal=principal)}


def _audit_ids_are_derived_from_content(store: agentmem.Store) -> None:
    """Every idempotent audit's id is the one :func:`audit_event_id` derives from its content."""
    decode = stored_decoder().decode
    audits = 0
    for raw in store.events_json(all_principals=True):
        kind = json.loads(raw)["type"]
        if kind == "memory.belief.forgotten" or not kind.startswith(
            ("memory.", "agents.item.popped", "agents.session.cleared")
        ):
            continue
        event = decode(raw)
        audits += 1
        assert event.event_id == audit_event_id(event), kind
    assert audits > 0


# -- item 1: a second principal consolidates ---------------------------------------------------


def test_second_and_third_principals_consolidate_through_the_cli(run_cli, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    events = (
        _conversation("s1", "local", "I live in Lisbon.")
        + _conversation("s2", "alice", "I have a dog named Rex.")
        + _conversation("s3", "bob", "I live in Porto.")
    )
    imported = run_cli("event", "import", "-", "--db", str(db), input=_jsonl(events))
    assert imported.returncode == 0, imported.stderr

    first = run_cli("session", "close", "s1", "--db", str(db))
    assert first.returncode == 0, first.stderr
    second = run_cli("session", "close", "s2", "--db", str(db), env={"AGENTMEM_PRINCIPAL": "alice"})
    assert second.returncode == 0, second.stderr
    third = run_cli(
        "consolidate", "--idle", "0s", "--db", str(db), env={"AGENTMEM_PRINCIPAL": "bob"}
    )
    assert third.returncode == 0, third.stderr
    again = run_cli(
        "consolidate", "--idle", "0s", "--db", str(db), env={"AGENTMEM_PRINCIPAL": "eve"}
    )
    assert again.returncode == 0, again.stderr

    assert _statements(db, "local") == {"User lives in Lisbon"}
    assert _statements(db, "alice") == {"User has a dog named Rex"}
    assert _statements(db, "bob") == {"User lives in Porto"}
    with agentmem.open(str(db)) as store:
        decisions = {
            e.principal
            for e in store.events(all_principals=True)
            if event_type(e) == "memory.formation.policy_resolved"
        }
        assert decisions == {"local", "alice", "bob", "eve"}
        _audit_ids_are_derived_from_content(store)


def test_second_principal_consolidates_through_the_python_api(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    with agentmem.open(db) as store:
        store.append_many(
            _conversation("s1", "local", "I live in Lisbon.")
            + _conversation("s2", "alice", "I live in Porto.")
        )
        assert store.close_session("s1").counts == {"formed": 1}
    with agentmem.open(db, principal="alice") as store:
        assert store.close_session("s2").counts == {"formed": 1}
        assert store.close_session("s2").skipped  # a repeat writes nothing
        assert [b.statement for b in store.beliefs(principal="alice")] == ["User lives in Porto"]
        _audit_ids_are_derived_from_content(store)


def test_audit_ids_differ_whenever_the_content_does() -> None:
    from agentmem.memory.composition import PolicyResolved

    base = PolicyResolved(
        principal="local", mode="auto", formation_policy="formation@7", reason="no_evidence"
    )
    same = PolicyResolved(
        principal="local", mode="auto", formation_policy="formation@7", reason="no_evidence"
    )
    assert audit_event_id(base) == audit_event_id(same)
    assert audit_event_id(base) != audit_event_id(
        PolicyResolved(
            principal="alice", mode="auto", formation_policy="formation@7", reason="no_evidence"
        )
    )
    assert audit_event_id(base) != audit_event_id(msgspec.structs.replace(base, model="m"))
    assert len(audit_event_id(base)) <= 128


# -- item 3: ``required`` refuses at start-up, before anything is written ------------------------

REQUIRED = {"AGENTMEM_PROVIDER_ASSISTANCE": "required"}


def _open_session(db: Path) -> int:
    with agentmem.open(str(db)) as store:
        store.append_many(_conversation("s1", "local", "I live in Lisbon."))
        return store.status().events


def _untouched(db: Path, events: int) -> None:
    with agentmem.open(str(db), create=False) as store:
        assert store.status().events == events
        assert store.session("s1").status == "open"
        assert store.conn.execute("SELECT count(*) FROM consolidations").get == 0


def test_required_without_evidence_refuses_every_consolidating_command(
    run_cli, tmp_path: Path
) -> None:
    db = tmp_path / "r.db"
    events = _open_session(db)
    for args in (
        ("session", "close", "s1"),
        ("consolidate", "--idle", "0s"),
    ):
        out = run_cli(*args, "--db", str(db), env=REQUIRED)
        assert out.returncode == 8, (args, out.stderr)
        assert out.stderr.count("\n") == 1 and "required" in out.stderr
        _untouched(db, events)

    fresh = tmp_path / "fresh.db"
    config = tmp_path / "config"
    for args in (("serve", "--port", "0"), ("mcp",)):
        out = run_cli(
            *args,
            "--db",
            str(fresh),
            env={**REQUIRED, "AGENTMEM_CONFIG_DIR": str(config)},
            timeout=60,
        )
        assert out.returncode == 8, (args, out.stderr)
        assert out.stderr.count("\n") == 1 and "required" in out.stderr
        assert not fresh.exists() and not config.exists()  # no database, no token file


def test_required_without_evidence_refuses_the_python_api_before_writing(
    tmp_path: Path, monkeypatch
) -> None:
    from agentmem.integrations.openai_agents import AgentmemSession

    db = tmp_path / "r.db"
    events = _open_session(db)
    settings = load_settings(db=str(db), memory__provider_assistance="required")
    with agentmem.Store.open(settings=settings) as store:
        with pytest.raises(agentmem.EvidenceMismatch):
            store.close_session("s1")
        with pytest.raises(agentmem.EvidenceMismatch):
            store.consolidate_idle(0)
        with pytest.raises(agentmem.EvidenceMismatch):
            AgentmemSession("s1", store=store)
    _untouched(db, events)

    monkeypatch.setenv("AGENTMEM_PROVIDER_ASSISTANCE", "required")
    fresh = tmp_path / "agents.db"
    with pytest.raises(agentmem.EvidenceMismatch):
        AgentmemSession("chat", db=fresh, principal="ada")
    assert not fresh.exists()


def test_required_without_evidence_http_answers_503_with_the_reason(tmp_path: Path) -> None:
    from agentmem.http import AgentmemServer

    db = tmp_path / "h.db"
    settings = load_settings(db=str(db), memory__provider_assistance="required")
    with AgentmemServer(settings=settings, token_file=tmp_path / "token") as server:
        for method, path in (
            ("GET", "/v1/health"),
            ("POST", "/v1/sessions/s1/close"),
            ("POST", "/v1/events"),
        ):
            request = urllib.request.Request(server.url + path, method=method, data=None)
            with pytest.raises(urllib.error.HTTPError) as info:
                urllib.request.urlopen(request, timeout=10)
            assert info.value.code == 503, path
            body = json.loads(info.value.read())
            assert body["error"]["code"] == "evidence_mismatch"
            assert "required" in body["error"]["message"]
        openapi = urllib.request.urlopen(server.url + "/v1/openapi.json", timeout=10)
        assert openapi.status == 200
    assert not db.exists()  # the refusal was decided at start-up, before anything was written
    assert not (tmp_path / "token").exists()


# -- item 2: one failing session does not stop the others ---------------------------------------


def test_one_failing_session_does_not_stop_the_others(run_cli, tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    with agentmem.open(str(db)) as store:
        store.append_many(
            _conversation("bad", "local", "I live in Lisbon.")
            + _conversation("good", "alice", "I live in Porto.")
        )
        store.append({"type": "session.closed", "session_id": "bad"})
        store.append({"type": "session.closed", "session_id": "good"})
    # A fault only this session's consolidation meets (as a broken disk sector would); a raw
    # apsw connection, which the suite keys when it runs encrypted.
    with contextlib.closing(apsw.Connection(str(db))) as raw:
        raw.execute(
            "CREATE TRIGGER fault BEFORE INSERT ON consolidations WHEN NEW.session_id = 'bad' "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )

    out = run_cli("consolidate", "--idle", "0s", "--db", str(db), "--json")
    assert out.returncode != 0
    reports = {r["session_id"]: r for r in json.loads(out.stdout)}
    assert reports["good"]["error"] is None and reports["good"]["counts"] == {"formed": 1}
    assert reports["bad"]["error"] and reports["bad"]["error_code"]
    assert "bad" in out.stderr and out.stderr.count("\n") == 1
    assert _statements(db, "alice") == {"User lives in Porto"}

    text = run_cli("consolidate", "--idle", "0s", "--db", str(db))
    assert text.returncode != 0 and "bad" in text.stderr
