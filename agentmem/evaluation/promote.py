"""``agentmem eval promote``: turn a trajectory export into a corpus case for review.

ADR-0032 decision 8: the export is perishable, a reviewed case in source control is what lasts.
The converter reads only the redacted artifact, through the authorized read path, never the
event log: redaction happens at export, not at conversion, and this module cannot undo it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from agentmem.errors import Conflict, InvalidInput

if TYPE_CHECKING:
    from agentmem.store import Store

__all__ = ["document_to_case", "promote"]


def document_to_case(document: dict[str, Any], principal: str) -> dict[str, Any]:
    """A memory-formation case (labels empty, for a reviewer) from a trajectory document."""
    if document.get("schema") != "agentmem.trajectory/1":
        raise InvalidInput("only agentmem.trajectory/1 exports can be promoted")
    run_id = str(document.get("run_id") or "run")
    base = {"session_id": "s1", "principal": principal, "run_id": "r1"}
    events: list[dict[str, Any]] = [{"type": "run.started", **base, "tools": []}]
    for message in document.get("messages", []):
        role = message.get("role")
        if role == "user":
            events.append(
                {"type": "user.message.created", **base, "text": message.get("content") or ""}
            )
        elif role == "assistant":
            event = {
                "type": "assistant.message.created",
                **base,
                "text": message.get("content") or "",
            }
            calls = [
                {
                    "id": c["id"],
                    "name": c["function"]["name"],
                    "arguments": c["function"]["arguments"],
                }
                for c in message.get("tool_calls") or []
            ]
            if calls:
                event["tool_calls"] = calls
            events.append(event)
        elif role == "tool":
            events.append(
                {
                    "type": "tool.result.created",
                    **base,
                    "tool_call_id": message.get("tool_call_id") or "",
                    "content": message.get("content") or "",
                    "is_error": False,
                }
            )
    events.append(
        {"type": "run.completed", **base, "outcome": document.get("outcome") or "succeeded"}
    )
    slug = re.sub(r"[^a-z0-9]+", "-", run_id.lower()).strip("-") or "run"
    return {
        "id": f"promoted-{slug}",
        "description": f"Promoted from the trajectory export of run {run_id}; "
        "REVIEW: write the labels (or set protected) before adding it to the corpus.",
        "principal": principal,
        "protected": False,
        "tags": ["promoted"],
        "existing_beliefs": [],
        "events": events,
        "labels": [],
    }


def promote(
    store: Store,
    artifact_id: str,
    to_dir: Path,
    *,
    principal: str | None = None,
    operator: bool = False,
) -> Path:
    """Write the case file for ``artifact_id`` into ``to_dir``; refuses expired artifacts."""
    from agentmem.evaluation.harness import write_atomically

    info, data = store.read_artifact(artifact_id, principal=principal, operator=operator)
    if info.origin != "trajectory_export":
        raise InvalidInput(f"artifact {artifact_id!r} is a {info.origin}, not a trajectory export")
    case = document_to_case(msgspec.json.decode(data), info.principal)
    target = to_dir / f"{case['id']}.json"
    if target.exists():
        raise Conflict(f"{target} already exists; review or remove it first")
    write_atomically(target, msgspec.json.format(msgspec.json.encode(case), indent=2) + b"\n")
    return target
