"""``agentmem demo``: the one command that shows a newcomer what agentmem does."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import msgspec

from agentmem._resources import data_path
from agentmem.cli._common import DbOpt, command, open_store, print_table
from agentmem.errors import AgentmemError, UsageError
from agentmem.events import decode_client_event
from agentmem.store import Store


def _section(title: str) -> None:
    print()
    print(f"== {title} ==")


def demo(*, db: DbOpt = None) -> None:
    """Walk through the store, memory formation and a consent-gated, redacted export.

    Without ``--db`` the database lives in a new temporary directory, so the demo never
    touches your real store; ``--db`` must name a new or empty database, because the sample
    conversations could never be removed from an append-only log.
    """
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="agentmem-demo-")) / "agentmem.db"
    elif db.exists() and db.is_file() and db.stat().st_size > 0:
        with open_store(db) as existing:
            held = existing.status().events
        if held:
            raise UsageError(
                f"{db} already holds {held} events; the demo would add sample conversations "
                "that can never be removed: pass a new file, or omit --db"
            )
    sample = data_path("corpus") / "sample" / "sample.jsonl"
    events = [
        decode_client_event(line)
        for line in sample.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with open_store(db, "alice", create=True) as store:
        result = store.append_many(events)
        print(f"database: {store.path}")
        print(
            f"imported {result.imported} events from the sample conversation "
            f"({result.duplicates} already present)"
        )
        _log_tour(store, events)
        _memory_tour(store)
        _export_tour(store)
    print()
    print(f"Explore it yourself: {command('event', 'list', '--all-principals', '--db', str(db))}")


def _log_tour(store: Store, events: list) -> None:
    _section("sessions (projection maintained by SQL triggers)")
    print_table(
        ["session", "principal", "status", "events", "user msgs", "runs"],
        [
            (s.session_id, s.principal, s.status, s.event_count, s.user_message_count, s.run_count)
            for s in store.sessions()
        ],
    )
    _section("runs (outcome, failure class, parent run, tools offered)")
    rows = []
    for r in store.runs():
        tools = ", ".join(tool.name for tool in r.tools) or "-"
        rows.append((r.run_id, r.parent_run_id, r.outcome, r.failure_class, tools))
    print_table(["run", "parent", "outcome", "failure class", "tools"], rows)

    _section("the append-only log refuses rewrites, whoever the client is")
    try:
        store.conn.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
    except Exception as exc:  # apsw.ConstraintError raised by the trigger
        print(f"UPDATE events ... -> refused by SQLite: {exc}")
    again = store.append_many(events)
    print(f"re-importing: {again.imported} new events, {again.duplicates} duplicates recognised")
    problems = store.check()
    print(
        "projections rebuilt from the log equal the incremental ones: "
        + ("yes" if not problems else "; ".join(problems))
    )


def _memory_tour(store: Store) -> None:
    _section("memory: closing sessions consolidates what the user said")
    rejected: dict[str, int] = {}
    for session in store.sessions():
        report = store.close_session(session.session_id)
        for reason, count in report.rejected.items():
            rejected[reason] = rejected.get(reason, 0) + count
    for belief in sorted(store.beliefs(), key=lambda b: (b.principal, b.statement or "")):
        seq, quote = belief.evidence[0]
        print(f'{belief.principal:<6} {belief.statement:<42} <- seq {seq}: "{quote}"')
    print(f"policy: {store.formation_service().formation_policy}")
    reasons = ", ".join(f"{k} x{v}" for k, v in sorted(rejected.items())) or "none"
    print(f"candidates rejected by the formation service: {reasons}")
    print("(questions, negations, assistant text and transient states never become candidates)")
    found = store.search_beliefs("dog", principal="bob")
    print(f"recall for bob, 'dog': {[b.statement for b in found]}")


def _export_tour(store: Store) -> None:
    from agentmem.redaction import fakes

    _section("export: consent is stamped when a run starts")
    try:
        store.export_run("r-code-1")
    except AgentmemError as exc:
        print(f"export r-code-1 -> refused (exit {exc.exit_code}): {exc.message}")
    store.grant_consent("alice")
    print("alice grants consent for trajectory export")
    secret = fakes.generate("aws_access_key_id", random.Random())
    session = {"session_id": "s-deploy", "run_id": "r-deploy-1"}
    store.append(
        {
            "type": "run.started",
            **session,
            "tools": [{"name": "deploy", "schema": {"type": "object"}}],
        }
    )
    store.append(
        {"type": "system.prompt.set", **session, "text": "internal prompt, never exported"}
    )
    store.append(
        {
            "type": "user.message.created",
            **session,
            "text": f"Deploy with my key {secret} please, and mail ops@example.com.",
        }
    )
    store.append(
        {
            "type": "assistant.message.created",
            **session,
            "text": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "name": "deploy",
                    "arguments": msgspec.json.encode({"key": secret}).decode(),
                }
            ],
        }
    )
    store.append(
        {
            "type": "tool.result.created",
            **session,
            "tool_call_id": "c1",
            "content": "deploy failed: region not found",
        }
    )
    store.append(
        {
            "type": "run.completed",
            **session,
            "outcome": "failed",
            "failure_class": "tool_error",
            "error": "region eu-west-9 does not exist",
        }
    )
    result = store.export_run("r-deploy-1")
    print(
        f"a new run pastes a (generated, fake) AWS key; exported as {result.artifact_id} "
        f"with {result.replacements} redactions:"
    )
    _, data = store.read_artifact(result.artifact_id)
    print(msgspec.json.format(data, indent=2).decode())
    print(f"the pasted key appears in the export: {secret in data.decode()}")

    _section("withdrawal reaches backwards")
    store.withdraw_consent("alice")
    try:
        store.read_artifact(result.artifact_id)
    except AgentmemError as exc:
        print(f"read {result.artifact_id} after withdrawal -> refused: {exc.message}")
    swept = store.sweep_artifacts()
    print(
        f"sweeper: deleted {swept.artifacts} artifact(s) and {swept.blobs} blob(s); "
        f"artifacts left: {len(store.artifacts(include_expired=True))}"
    )
