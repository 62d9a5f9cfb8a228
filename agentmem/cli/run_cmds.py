"""``agentmem run list|show``."""

from __future__ import annotations

from typing import Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli._common import (
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    open_store,
    print_fields,
    print_json,
    print_table,
)


def list_(
    *,
    session: Annotated[str | None, Parameter(help="Only runs of this session.")] = None,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List runs in start order."""
    with open_store(db) as store:
        runs = store.runs(session_id=session, principal=principal)
    if json:
        print_json([msgspec.to_builtins(r) for r in runs])
        return
    print_table(
        ["run", "session", "parent", "principal", "status", "outcome", "consent"],
        [
            (
                r.run_id,
                r.session_id,
                r.parent_run_id,
                r.principal,
                r.status,
                r.outcome,
                "stamped" if r.consent_seq else "-",
            )
            for r in runs
        ],
    )


def show(run_id: str, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Show one run: status, outcome, failure class, tools and consent stamp."""
    with open_store(db) as store:
        info = store.run(run_id)
    if json:
        data = msgspec.to_builtins(info)
        data["tools"] = [{"name": n, "schema_sha256": h} for n, h in info.tools]
        print_json(data)
        return
    print_fields(
        [
            ("run", info.run_id),
            ("session", info.session_id),
            ("parent run", info.parent_run_id),
            ("principal", info.principal),
            ("status", info.status),
            ("outcome", info.outcome),
            ("failure class", info.failure_class),
            ("events", info.event_count),
            ("started", info.started_at),
            ("completed", info.completed_at),
            (
                "consent",
                f"stamped (grant seq {info.consent_seq})" if info.consent_seq else "not stamped",
            ),
        ]
    )
    for name, digest in info.tools:
        print(f"tool  {name}  sha256:{digest}")


def export(
    run_id: str,
    /,
    *,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Export a run as a redacted trajectory artifact (needs consent stamped at run start).

    Idempotent: exporting the same run again returns the same live artifact.
    """
    with open_store(db, principal) as store:
        result = store.export_run(run_id, principal=principal)
    if json:
        print_json({"artifact_id": result.artifact_id, "created": result.created})
    elif result.created:
        print(
            f"exported run {run_id} as {result.artifact_id} "
            f"({result.replacements} redactions); read it with 'agentmem artifacts get "
            f"{result.artifact_id}'"
        )
    else:
        print(f"run {run_id} is already exported as {result.artifact_id}")
