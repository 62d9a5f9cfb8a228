"""``agentmem session list|show``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import (
    AllPrincipalsOpt,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    SessionArg,
    check_scope,
    owned,
    print_fields,
    print_json,
    print_table,
    read_store,
    timestamp,
)

if TYPE_CHECKING:
    from agentmem.store import SessionInfo, Store


def owned_session(store: Store, session_id: str) -> SessionInfo:
    """The session, if it belongs to the principal the command acts for."""
    return owned(store.session, session_id)


def list_(
    *,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    status: Annotated[Literal["open", "closed"] | None, Parameter(help="open or closed.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's sessions (``--all-principals``: everyone's)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        sessions = store.sessions(all_principals=all_principals, status=status)
    if json:
        print_json([msgspec.to_builtins(s) for s in sessions])
        return
    headers = ["session", "principal", "status", "events", "runs", "last activity"]
    rows = [
        (
            s.session_id,
            s.principal,
            s.status,
            s.event_count,
            s.run_count,
            timestamp(s.last_activity_at),
        )
        for s in sessions
    ]
    print_table(
        headers,
        rows,
        right=("events", "runs"),
        omit=() if all_principals else ("principal",),
    )


def show(
    session_id: SessionArg,
    /,
    *,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show one session's counters and its runs."""
    with read_store(db, principal) as store:
        info = owned_session(store, session_id)
        runs = store.runs(session_id=session_id)
    if json:
        print_json({**msgspec.to_builtins(info), "runs": [msgspec.to_builtins(r) for r in runs]})
        return
    print_fields(
        [
            ("session", info.session_id),
            ("principal", info.principal),
            ("status", info.status),
            ("events", info.event_count),
            ("user messages", info.user_message_count),
            ("assistant messages", info.assistant_message_count),
            ("seq range", f"{info.first_seq}-{info.last_seq}"),
            ("created", timestamp(info.created_at)),
            ("last activity", timestamp(info.last_activity_at)),
        ]
    )
    if runs:
        print()
        print_table(
            ["run", "parent", "status", "outcome", "failure class"],
            [(r.run_id, r.parent_run_id, r.status, r.outcome, r.failure_class) for r in runs],
        )
