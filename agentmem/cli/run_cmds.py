"""``agentmem run list|show``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import (
    AllPrincipalsOpt,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    RunArg,
    check_scope,
    command,
    db_args,
    open_store,
    owned,
    print_fields,
    print_json,
    print_table,
    read_store,
    timestamp,
)
from agentmem.errors import Refused

if TYPE_CHECKING:
    from agentmem.store import RunInfo, Store


def owned_run(store: Store, run_id: str) -> RunInfo:
    """The run, if it belongs to the principal the command acts for."""
    return owned(store.run, run_id)


def list_(
    *,
    session: Annotated[str | None, Parameter(help="Only runs of this session.")] = None,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's runs in start order (``--all-principals``: everyone's)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        runs = store.runs(session_id=session, all_principals=all_principals)
    if json:
        print_json([msgspec.to_builtins(r) for r in runs])
        return
    headers = ["run", "session", "parent", "principal", "status", "outcome", "consent"]
    rows = [
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
    ]
    print_table(headers, rows, omit=() if all_principals else ("principal",))


def show(
    run_id: RunArg, /, *, principal: PrincipalOpt = None, db: DbOpt = None, json: JsonOpt = False
) -> None:
    """Show one run: status, outcome, failure class, tools and consent stamp."""
    with read_store(db, principal) as store:
        info = owned_run(store, run_id)
    if json:
        print_json(msgspec.to_builtins(info))
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
            ("started", timestamp(info.started_at)),
            ("completed", timestamp(info.completed_at) or None),
            (
                "consent",
                f"stamped (grant seq {info.consent_seq})" if info.consent_seq else "not stamped",
            ),
        ]
    )
    for tool in info.tools:
        print(f"tool  {tool.name}  sha256:{tool.schema_sha256}")


def export(
    run_id: RunArg,
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
        try:
            result = store.export_run(run_id, principal=store.principal)
        except Refused as exc:
            if store.run(run_id, all_principals=True).principal != store.principal:
                exc.message += "; pass --principal to act for its owner"
            raise
        read = command(
            "artifacts",
            "get",
            result.artifact_id,
            "--principal",
            store.principal,
            *db_args(store),
        )
    if json:
        print_json({"artifact_id": result.artifact_id, "created": result.created})
    elif result.created:
        print(
            f"exported run {run_id} as {result.artifact_id} "
            f"({result.replacements} redactions); read it with: {read}"
        )
    else:
        print(f"run {run_id} is already exported as {result.artifact_id}; read it with: {read}")
