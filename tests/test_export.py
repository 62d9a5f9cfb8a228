"""Trajectory export (ADR-0032): document shape, consent, fail-closed redaction, crash safety."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from _events import run_started, user_msg

import agentmem
from agentmem.redaction import fakes


def _conversation(
    store: agentmem.Store, run: str = "r1", session: str = "s1", secret: str | None = None
) -> None:
    tools = [{"name": "search", "schema": {"type": "object", "properties": {}}}]
    store.append(run_started(run, session=session, tools=tools))
    base = {"session_id": session, "run_id": run}
    store.append({"type": "system.prompt.set", **base, "text": "SYSTEM-PROMPT-TEXT"})
    store.append({**user_msg("find me schools", session=session, run=run)})
    args = json.dumps({"q": "schools", **({"key": secret} if secret else {})})
    store.append(
        {
            "type": "assistant.message.created",
            **base,
            "text": "",
            "tool_calls": [{"id": "c1", "name": "search", "arguments": args}],
        }
    )
    store.append(
        {
            "type": "tool.result.created",
            **base,
            "tool_call_id": "c1",
            "content": "3 results" + (f" token={secret}" if secret else ""),
        }
    )
    store.append(run_started(f"{run}-child", session=session, parent=run))
    store.append(user_msg("CHILD-RUN-TEXT", session=session, run=f"{run}-child"))
    store.append({"type": "assistant.message.created", **base, "text": "Here are three."})
    store.append(
        {
            "type": "run.completed",
            **base,
            "outcome": "failed",
            "failure_class": "tool_error",
            "error": "ERROR-TEXT-LOCAL-ONLY",
        }
    )


def test_document_shape_and_structural_exclusion(store: agentmem.Store) -> None:
    store.grant_consent("alice")
    _conversation(store)
    result = store.export_run("r1", principal="alice")
    _, data = store.read_artifact(result.artifact_id, principal="alice")
    doc = msgspec.json.decode(data)
    assert doc["schema"] == "agentmem.trajectory/1" and next(iter(doc)) == "schema"
    assert len(doc["date"]) == 10 and "T" not in doc["date"]
    assert (doc["outcome"], doc["failure_class"]) == ("failed", "tool_error")
    assert [t["name"] for t in doc["tools"]] == ["search"]
    assert len(doc["tools"][0]["schema_sha256"]) == 64
    assert [m["role"] for m in doc["messages"]] == ["user", "assistant", "tool", "assistant"]
    assert doc["messages"][1]["tool_calls"][0]["function"]["name"] == "search"
    assert doc["messages"][2]["tool_call_id"] == "c1"
    text = data.decode()
    for excluded in (
        "SYSTEM-PROMPT-TEXT",
        "CHILD-RUN-TEXT",
        "ERROR-TEXT-LOCAL-ONLY",
        "created_at",
        "seq",
    ):
        assert excluded not in text, excluded


def test_export_is_idempotent_per_run(run_cli, db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.grant_consent()
        _conversation(store)
    first = run_cli("run", "export", "r1", "--db", str(db_path), "--principal", "alice", "--json")
    second = run_cli("run", "export", "r1", "--db", str(db_path), "--principal", "alice", "--json")
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["created"] is True and b["created"] is False and a["artifact_id"] == b["artifact_id"]
    got = run_cli(
        "artifacts", "get", a["artifact_id"], "--db", str(db_path), "--principal", "alice"
    )
    assert got.returncode == 0 and json.loads(got.stdout)["run_id"] == "r1"
    share = run_cli(
        "artifacts",
        "get",
        a["artifact_id"],
        "--db",
        str(db_path),
        "--principal",
        "alice",
        "--format",
        "sharegpt",
    )
    froms = [c["from"] for c in json.loads(share.stdout)["conversations"]]
    assert froms[0] == "human" and "function_call" in froms and "gpt" in froms
    other = run_cli(
        "artifacts", "get", a["artifact_id"], "--db", str(db_path), "--principal", "mallory"
    )
    assert other.returncode == 6


def test_consent_lifecycle_from_the_cli(run_cli, db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        _conversation(store, "early", "s0")
    db = ["--db", str(db_path)]
    refused = run_cli("run", "export", "early", *db, "--principal", "alice")
    assert refused.returncode == 6 and "consent" in refused.stderr
    assert run_cli("consent", "grant", "alice", *db).returncode == 0
    still = run_cli("run", "export", "early", *db, "--principal", "alice")
    assert still.returncode == 6 and "started before" in still.stderr
    with agentmem.open(str(db_path), principal="alice") as store:
        _conversation(store, "late", "s1")
    exported = json.loads(
        run_cli("run", "export", "late", *db, "--principal", "alice", "--json").stdout
    )
    status = json.loads(run_cli("consent", "status", "alice", *db, "--json").stdout)
    assert status["state"] == "granted"
    assert run_cli("consent", "withdraw", "alice", *db).returncode == 0
    gone = run_cli("artifacts", "get", exported["artifact_id"], *db, "--principal", "alice")
    assert gone.returncode == 6 and "expired" in gone.stderr
    blocked = run_cli("run", "export", "late", *db, "--principal", "alice")
    assert blocked.returncode == 6
    swept = json.loads(run_cli("artifacts", "sweep", *db, "--json").stdout)
    assert swept["artifacts"] == 1
    assert run_cli("consent", "grant", "alice", *db).returncode == 0
    revived = run_cli("run", "export", "late", *db, "--principal", "alice")
    assert revived.returncode == 6  # a re-grant does not revive earlier runs
    listing = json.loads(
        run_cli("artifacts", "list", *db, "--all-principals", "--json", "--expired").stdout
    )
    assert listing == []


@pytest.mark.parametrize("rule", fakes.RULES_WITH_FAKES)
def test_every_rule_is_redacted_in_every_position(store: agentmem.Store, rule: str) -> None:
    secret = fakes.generate(rule, random.Random(rule))
    store.grant_consent("alice")
    _conversation(store, secret=secret)
    store.append(user_msg(f"pasted: {secret}", session="s2", run=None))
    result = store.export_run("r1", principal="alice")
    _, data = store.read_artifact(result.artifact_id, principal="alice")
    leaked = secret in data.decode() or secret in str(msgspec.json.decode(data))
    assert not leaked, f"{rule} survived the export"


def test_verification_hit_fails_closed_and_writes_nothing(store, monkeypatch) -> None:
    from agentmem.redaction import default_registry

    secret = fakes.generate("github_token", random.Random(3))
    store.grant_consent("alice")
    _conversation(store, secret=secret)
    registry = default_registry()
    monkeypatch.setattr(type(registry), "redact_json", lambda self, obj, **_: (obj, 0))
    with pytest.raises(agentmem.RedactionFailed) as info:
        store.export_run("r1", principal="alice")
    assert secret not in str(info.value) and info.value.rule and info.value.path.startswith("$")
    assert store.conn.execute("SELECT count(*) FROM artifacts").get == 0
    assert store.conn.execute("SELECT count(*) FROM blobs").get == 0


CHILD = r"""
import sys, time
import agentmem
from agentmem import artifacts
original = artifacts.put
def slow_put(*args, **kwargs):
    info = original(*args, **kwargs)
    print("PUT", flush=True)
    time.sleep(60)
    return info
artifacts.put = slow_put
with agentmem.open(sys.argv[1], principal="alice") as store:
    store.export_run("r1")
"""


def test_sigkill_during_export_leaves_nothing_and_next_export_succeeds(db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.grant_consent()
        _conversation(store)
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "PUT"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    with agentmem.open(str(db_path), principal="alice") as store:
        assert store.conn.execute("SELECT count(*) FROM artifacts").get == 0
        assert store.conn.execute("SELECT count(*) FROM blobs").get == 0
        assert store.export_run("r1").created


def test_gates_pass(run_cli) -> None:
    listed = run_cli("gates", "list", "--json")
    names = {g["name"] for g in json.loads(listed.stdout)}
    assert {"gate.event.export_redacted", "gate.event.export_consent"} <= names
    ran = run_cli(
        "gates", "run", "gate.event.export_redacted", "gate.event.export_consent", "--json"
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert all(r["passed"] for r in json.loads(ran.stdout))
    unknown = run_cli("gates", "run", "gate.nope")
    assert unknown.returncode == 2


def test_export_gate_fails_when_redaction_is_broken(monkeypatch) -> None:
    from agentmem.gates import run_gates
    from agentmem.redaction import default_registry

    registry_type = type(default_registry())
    monkeypatch.setattr(registry_type, "redact_json", lambda self, obj, **_: (obj, 0))
    monkeypatch.setattr(registry_type, "verify_document", lambda self, obj, **_: None)
    (result,) = run_gates(["gate.event.export_redacted"])
    assert not result.passed and "survived" in result.details
