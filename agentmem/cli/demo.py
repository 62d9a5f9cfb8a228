"""``agentmem demo``: the one command that shows a newcomer what agentmem does differently.

The tour fits one 80-column screen (under 60 lines): what is remembered and the words that
prove it, the traps that are not remembered and why, an export refused without consent, the
redacted export once consent is given, and withdrawal reaching back to delete it.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Annotated, Any

import msgspec

from agentmem.cli.common import (
    DbOpt,
    command,
    flag,
    open_store,
    plural,
    print_table,
    terminal_safe,
)
from agentmem.errors import AgentmemError, UsageError
from agentmem.events import decode_client_event, event_type
from agentmem.resources import data_path
from agentmem.store import Store

#: Width of the tour when stdout is not a terminal (a pipe, a file, a test).
_PLAIN_WIDTH = 80


def demo(
    *,
    db: DbOpt = None,
    keep: Annotated[
        bool, flag("Keep the temporary database to explore afterwards (its path is printed).")
    ] = False,
    full: Annotated[
        bool, flag("Print the whole exported trajectory, not only its messages.")
    ] = False,
) -> None:
    """Walk through memory formation, its traps, and a consent-gated, redacted export.

    Without ``--db`` the database lives in a new temporary directory, deleted at the end unless
    ``--keep`` is given, so the demo never touches your real store. ``--db`` must name a new or
    empty database, because the sample conversations could never be removed from an append-only
    log.
    """
    temporary = None
    if db is None:
        temporary = Path(tempfile.mkdtemp(prefix="agentmem-demo-"))
        db = temporary / "agentmem.db"
    elif db.exists() and db.is_file() and db.stat().st_size > 0:
        with open_store(db) as existing:
            held = existing.status().events
        if held:
            raise UsageError(
                f"{db} already holds {held} events; the demo would add sample conversations "
                "that can never be removed: pass a new file, or omit --db"
            )
    tour = _Tour(shutil.get_terminal_size((_PLAIN_WIDTH, 24)).columns)
    try:
        with open_store(db, "alice", create=True) as store:
            _run(tour, store, full=full)
        if temporary is None or keep:
            tour.say("Explore it: " + command("event", "list", "--all-principals", "--db", str(db)))
        else:
            tour.say("The temporary database is deleted; rerun with --keep to explore it.")
    finally:
        if temporary is not None and not keep:
            shutil.rmtree(temporary, ignore_errors=True)


class _Tour:
    """Prose wrapped to the terminal (80 columns when there is none), sections, tables."""

    def __init__(self, columns: int) -> None:
        self.width = columns if sys.stdout.isatty() else _PLAIN_WIDTH

    def say(self, text: str, indent: str = "") -> None:
        print(
            textwrap.fill(
                terminal_safe(text),
                self.width,
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
                break_long_words=False,  # a path or an id is copied whole, never split
            )
        )

    def section(self, title: str) -> None:
        print(f"\n== {title} ==")

    def table(self, headers: list[str], rows: list[tuple[Any, ...]], wrap: tuple[str, ...]) -> None:
        print_table(headers, rows, wrap=wrap, fit=self.width)


def _run(tour: _Tour, store: Store, *, full: bool) -> None:
    sample = data_path("corpus") / "sample" / "sample.jsonl"
    events = [
        decode_client_event(line)
        for line in sample.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    result = store.append_many(events)
    sessions = store.sessions(all_principals=True)
    tour.say(
        f"A sample conversation: {result.imported} events, {len(sessions)} sessions of "
        f"{len({s.principal for s in sessions})} users, in {store.path}"
    )
    _log_tour(tour, store, events)
    _memory_tour(tour, store)
    _export_tour(tour, store, full=full)


def _log_tour(tour: _Tour, store: Store, events: list[Any]) -> None:
    tour.section("the log is append-only")
    try:
        store.conn.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
        refused = "no"
    except Exception as exc:  # apsw.ConstraintError raised by the trigger
        refused = f"yes ({exc})"
    tour.say(f"an UPDATE of a stored event refused by SQLite itself: {refused}")
    again = store.append_many(events)
    tour.say(
        f"importing the same file again: {again.imported} new events, "
        f"{again.duplicates} duplicates recognised"
    )


_REASONS = {
    "injection": "prompt injection",
    "question": "a question",
    "negation": "a negation",
    "hypothetical": "hypothetical",
    "transient": "time-bounded, not a lasting fact",
}


def _memory_tour(tour: _Tour, store: Store) -> None:
    tour.section("memory: what each user said, with the words that prove it")
    for session in store.sessions(all_principals=True):
        store.close_session(session.session_id, all_principals=True)
    policy = store.formation_service().formation_policy
    tour.say(f"{policy}: the versioned rules that formed these; each belief records it.")
    everyone = store.beliefs(all_principals=True)
    beliefs = sorted(everyone, key=lambda b: (b.principal, b.statement or ""))
    tour.table(
        ["user", "belief", "evidence"],
        [(b.principal, b.statement, _quote(b.evidence[0])) for b in beliefs],
        wrap=("belief", "evidence"),
    )
    tour.section("traps: said in the trap session, not remembered")
    for event in store.events(session_id="s-traps", all_principals=True):
        text = getattr(event, "text", None)
        if event_type(event) == "assistant.message.created" and text:
            tour.say(f'assistant: "{text}" -> never evidence', "  ")
    for clause in store.explain_session("s-traps", all_principals=True):
        if clause.statements:
            continue
        reason = clause.reason or ""
        why = _REASONS.get(reason.partition(":")[0], reason or "nothing to remember")
        tour.say(f'seq {clause.seq}: "{clause.clause}" -> {why.replace("_", " ")}', "  ")


def _quote(evidence: tuple[int, str | None]) -> str:
    seq, quote = evidence
    return f'"{quote}" (seq {seq})' if quote is not None else f"(erased, seq {seq})"


def _export_tour(tour: _Tour, store: Store, *, full: bool) -> None:
    from agentmem.redaction import fakes

    tour.section("export needs consent, stamped when a run starts")
    try:
        store.export_run("r-code-1")
    except AgentmemError as exc:
        tour.say(f"export r-code-1 -> refused (exit {exc.exit_code}): {exc.message}")
    store.grant_consent("alice")
    secret = fakes.generate("aws_access_key_id", random.Random())
    _deploy_run(store, secret)
    result = store.export_run("r-deploy-1")
    tour.say(
        f"alice grants consent; a new run pastes a generated fake AWS key. Exported as "
        f"{result.artifact_id} with {result.replacements} redactions:"
    )
    _, data = store.read_artifact(result.artifact_id)
    document = msgspec.json.decode(data)
    if full:
        print(msgspec.json.format(data, indent=2).decode())
    else:
        for message in document["messages"]:
            for call in message.get("tool_calls") or []:
                name, arguments = call["function"]["name"], call["function"]["arguments"]
                tour.say(f"{message['role']}: calls {name}({arguments})", "  ")
            if message.get("content"):
                tour.say(f"{message['role']}: {message['content']}", "  ")
    verdict = "yes" if secret in data.decode() else "no"
    tour.say(f"the pasted key appears in the export: {verdict}")
    if not full:
        tour.say("(the whole document, with tool schemas by hash: agentmem demo --full)")

    tour.section("withdrawal reaches backwards")
    store.withdraw_consent("alice")
    try:
        store.read_artifact(result.artifact_id)
        tour.say("read after withdrawal -> still readable")
    except AgentmemError as exc:
        tour.say(f"read after withdrawal -> refused: {exc.message}")
    swept = store.sweep_artifacts()
    left = len(store.artifacts(all_principals=True, include_expired=True))
    tour.say(
        f"sweeper: deleted {plural(swept.artifacts, 'artifact')} and "
        f"{plural(swept.blobs, 'blob')}; artifacts left: {left}"
    )


def _deploy_run(store: Store, secret: str) -> None:
    """A failed deploy run whose user pastes ``secret`` and whose tool call repeats it."""
    session = {"session_id": "s-deploy", "run_id": "r-deploy-1"}
    store.append({"type": "run.started", **session, "tools": [{"name": "deploy", "schema": {}}]})
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
