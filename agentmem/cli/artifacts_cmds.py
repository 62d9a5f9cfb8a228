"""``agentmem artifacts list|get|sweep``."""

from __future__ import annotations

import sys
from typing import Annotated, Literal

import msgspec
from cyclopts import Parameter

from agentmem.cli._common import (
    AllPrincipalsOpt,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    check_scope,
    open_store,
    print_json,
    print_table,
    read_store,
)
from agentmem.errors import ArtifactUnavailable


def list_(
    *,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    expired: Annotated[bool, Parameter(negative="", help="Include expired artifacts.")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's artifacts, newest first (``--all-principals``: everyone's)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        who = None if all_principals else store.principal
        rows = store.artifacts(principal=who, include_expired=expired)
    if json:
        print_json([msgspec.to_builtins(r) for r in rows])
        return
    print_table(
        ["artifact", "origin", "run", "principal", "size", "expires"],
        [(r.artifact_id, r.origin, r.run_id, r.principal, r.size, r.expires_at) for r in rows],
    )


def get(
    artifact_id: str,
    /,
    *,
    principal: PrincipalOpt = None,
    operator: Annotated[
        bool, Parameter(negative="", help="Read as an operator, whatever the principal.")
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
    with open_store(db) as store:
        result = store.sweep_artifacts()
    if json:
        print_json(msgspec.to_builtins(result))
    else:
        print(
            f"swept {result.artifacts} expired artifacts and {result.blobs} blobs "
            f"({result.bytes:,} bytes)"
        )
