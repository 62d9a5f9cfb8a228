"""``agentmem artifacts list|get|sweep``."""

from __future__ import annotations

import sys
from typing import Annotated, Literal

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import (
    AllPrincipalsOpt,
    ArtifactArg,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    check_scope,
    flag,
    open_store,
    plural,
    print_json,
    print_table,
    progress,
    read_store,
    timestamp,
)
from agentmem.errors import ArtifactUnavailable


def list_(
    *,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    expired: Annotated[bool, flag("Include expired artifacts.")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's artifacts, newest first (``--all-principals``: everyone's)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        rows = store.artifacts(all_principals=all_principals, include_expired=expired)
    if json:
        print_json([msgspec.to_builtins(r) for r in rows])
        return
    headers = ["artifact", "origin", "run", "principal", "size", "expires"]
    table = [
        (r.artifact_id, r.origin, r.run_id, r.principal, f"{r.size:,}", timestamp(r.expires_at))
        for r in rows
    ]
    print_table(headers, table, right=("size",), omit=() if all_principals else ("principal",))


def get(
    artifact_id: ArtifactArg,
    /,
    *,
    principal: PrincipalOpt = None,
    operator: Annotated[
        bool, flag("Read as an operator (an administrator's read), whatever the principal.")
    ] = False,
    format: Annotated[
        Literal["trajectory", "sharegpt"],
        Parameter(help="sharegpt: a consumer's rename of roles; the stored artifact is unchanged."),
    ] = "trajectory",
    db: DbOpt = None,
) -> None:
    """Print an artifact's content (owner only, never once expired)."""
    from agentmem.artifacts import info

    with read_store(db, principal) as store:
        try:
            _, data = store.read_artifact(artifact_id, principal=store.principal, operator=operator)
        except ArtifactUnavailable as exc:
            if info(store, artifact_id).principal != store.principal:
                exc.message += (
                    "; pass the owning --principal, or --operator for an administrator's read"
                )
            raise
    if format == "sharegpt":
        from agentmem.trajectory import to_sharegpt

        data = msgspec.json.encode(to_sharegpt(msgspec.json.decode(data)))
    document = msgspec.json.format(data, indent=2)
    sys.stdout.buffer.write(document + b"\n")
    sys.stdout.flush()


def sweep(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Delete expired artifacts and unreferenced blobs, and return their pages to the OS."""
    with progress("sweeping artifacts", enabled=not json), open_store(db) as store:
        result = store.sweep_artifacts()
    if json:
        print_json(msgspec.to_builtins(result))
    else:
        print(
            f"swept {plural(result.artifacts, 'expired artifact')} and "
            f"{plural(result.blobs, 'blob')} ({plural(result.bytes, 'byte')})"
        )
