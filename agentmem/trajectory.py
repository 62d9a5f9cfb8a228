"""Trajectory export (ADR-0032): a versioned, redacted, consent-gated messages document.

The export is materialized once per run and document schema into the artifact store. It is
built in three stages that fail closed:

1. structural exclusion by the builder: only this run's user, assistant and tool messages;
   never system prompts, raw reasoning (never stored), process events, error text, child runs,
   per-message timestamps;
2. pattern replacement with the shared rule registry (``[REDACTED:<rule>]``);
3. a verification scan of the finished document with every rule. A hit raises
   :class:`RedactionFailed` naming the rule and JSON path, the transaction rolls back and no
   artifact exists. Nothing is redacted a second time: that would hide the gap in stage 2.

Consent is read from the stamp the run got when it started (SQL trigger) and from the
principal's current consent: a withdrawal blocks every export, stamped or not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import msgspec

from agentmem import artifacts
from agentmem.consent import PURPOSE
from agentmem.consent import status as consent_status
from agentmem.errors import ConsentRequired, Refused, StoreError
from agentmem.events import (
    AssistantMessageCreated,
    ToolResultCreated,
    UserMessageCreated,
    canonical_json,
    now_text,
)

if TYPE_CHECKING:
    from agentmem.log import EventLog, RunInfo

__all__ = ["DOC_SCHEMA", "ExportResult", "build_document", "export_run", "to_sharegpt"]

DOC_SCHEMA = "agentmem.trajectory/1"
ORIGIN = "trajectory_export"
MEDIA_TYPE = "application/vnd.agentmem.trajectory+json"


class ExportResult(msgspec.Struct, frozen=True):
    """The live export artifact of a run; ``created`` is false on an idempotent repeat."""

    artifact_id: str
    created: bool
    replacements: int = 0


def build_document(store: EventLog, run: RunInfo) -> dict[str, Any]:
    """Stage 1: the messages document of one run, with everything excluded by construction."""
    messages: list[dict[str, Any]] = []
    called: set[str] = set()
    for event in store.events(
        all_principals=True,  # the run's owner was checked; its events are the run's
        run_id=run.run_id,
        types=("user.message.created", "assistant.message.created", "tool.result.created"),
    ):
        if isinstance(event, UserMessageCreated):
            messages.append({"role": "user", "content": event.text})
        elif isinstance(event, AssistantMessageCreated):
            message: dict[str, Any] = {"role": "assistant", "content": event.text or None}
            if event.tool_calls:
                called.update(call.name for call in event.tool_calls)
                message["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in event.tool_calls
                ]
            messages.append(message)
        elif isinstance(event, ToolResultCreated):
            messages.append(
                {"role": "tool", "tool_call_id": event.tool_call_id, "content": event.content}
            )
    return {
        "schema": DOC_SCHEMA,
        "run_id": run.run_id,
        "date": run.started_at[:10],
        "outcome": run.outcome,
        "failure_class": run.failure_class,
        "tools": _touched_tools(run, called),
        "messages": messages,
    }


def _touched_tools(run: RunInfo, called: set[str]) -> list[dict[str, Any]]:
    """Every tool the run touched (ADR-0032 decision 2): the tools it declared, with their
    schema hashes, and any tool it called without declaring it, with a null hash."""
    declared = {tool.name: tool.schema_sha256 for tool in run.tools}
    undeclared = dict.fromkeys(called - declared.keys())
    return [
        {"name": name, "schema_sha256": digest}
        for name, digest in sorted({**declared, **undeclared}.items())
    ]


def _check_consent(store: EventLog, run: RunInfo) -> None:
    current = consent_status(store, run.principal)
    if current.state != "granted":
        raise ConsentRequired(
            f"principal {run.principal!r} has "
            + ("withdrawn" if current.state == "withdrawn" else "not granted")
            + f" consent for {PURPOSE} (only runs started after a grant can be exported)"
        )
    withdrawn = current.last_withdrawn_seq or 0
    if run.consent_seq is None or run.consent_seq < withdrawn:
        raise ConsentRequired(
            f"run {run.run_id!r} started before the current consent grant, so it carries no "
            "consent stamp and can never be exported (a grant only covers later runs)"
        )


def export_run(store: EventLog, run_id: str, *, principal: str | None = None) -> ExportResult:
    """Export one run, idempotently per run and document schema (ADR-0032 decision 9)."""
    principal = store.acting_for(principal)
    result = _export(store, run_id, principal)
    if result is None:
        # The run's earlier export has expired but still holds its place under the unique
        # index artifacts_one_export: the ordinary sweeper deletes it, then export again.
        artifacts.sweep(store)
        result = _export(store, run_id, principal)
    if result is None:  # pragma: no cover - the sweep above deleted every expired export
        raise StoreError(f"the expired export of run {run_id!r} could not be swept")
    return result


def _export(store: EventLog, run_id: str, principal: str) -> ExportResult | None:
    """The live export (made now if there is none); None if an expired one is in the way."""
    from agentmem.redaction import ScanMemo, default_registry

    with store.transaction():
        run = store.run(run_id, all_principals=True)
        if run.principal != principal:
            raise Refused(f"run {run_id!r} belongs to another principal")
        _check_consent(store, run)
        existing = store.conn.execute(
            "SELECT artifact_id, expires_at > ? FROM artifacts WHERE run_id = ? "
            "AND doc_schema = ? AND origin = ?",
            (now_text(), run_id, DOC_SCHEMA, ORIGIN),
        ).fetchall()
        if existing:
            artifact_id, live = cast("tuple[str, int]", existing[0])
            return ExportResult(artifact_id, created=False) if live else None
        registry = default_registry()
        document = build_document(store, run)
        memo = ScanMemo(registry)  # each distinct string is scanned once, not once a stage
        redacted, count = registry.redact_json(document, memo=memo)
        redacted["redaction"] = {"rules_version": registry.version, "replacements": count}
        registry.verify_document(redacted, memo=memo)
        info = artifacts.put(
            store,
            origin=ORIGIN,
            # Builder order (schema first) rather than sorted keys: the builder is
            # deterministic, so equal runs still give byte-equal documents.
            data=msgspec.json.encode(redacted),
            principal=run.principal,
            media_type=MEDIA_TYPE,
            doc_schema=DOC_SCHEMA,
            run_id=run_id,
        )
        return ExportResult(info.artifact_id, created=True, replacements=count)


_SHAREGPT_ROLES = {"user": "human", "assistant": "gpt", "tool": "tool"}


def to_sharegpt(document: dict[str, Any]) -> dict[str, Any]:
    """The consumer-side ShareGPT view of a trajectory document (a rename of roles)."""
    conversations = []
    for message in document.get("messages", []):
        role = message["role"]
        if role == "assistant" and message.get("tool_calls"):
            if message.get("content"):
                conversations.append({"from": "gpt", "value": message["content"]})
            for call in message["tool_calls"]:
                conversations.append(
                    {
                        "from": "function_call",
                        "value": canonical_json(
                            {
                                "name": call["function"]["name"],
                                "arguments": call["function"]["arguments"],
                            }
                        ).decode(),
                    }
                )
            continue
        conversations.append({"from": _SHAREGPT_ROLES[role], "value": message.get("content")})
    return {
        "schema": document.get("schema"),
        "run_id": document.get("run_id"),
        "outcome": document.get("outcome"),
        "conversations": conversations,
    }
