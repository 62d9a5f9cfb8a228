"""``agentmem session close``, ``agentmem consolidate`` and ``agentmem beliefs ...``."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import (
    OWNER_HINT,
    AllPrincipalsOpt,
    BeliefArg,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    SessionArg,
    check_scope,
    flag,
    open_store,
    print_fields,
    print_json,
    print_table,
    progress,
    read_store,
    terminal_safe,
    whole_number,
)
from agentmem.errors import NotFound, UsageError

if TYPE_CHECKING:
    from agentmem.memory.beliefs import Belief
    from agentmem.memory.service import ConsolidationReport, ExplainedClause
    from agentmem.store import Store

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
# Older than any session can be; a longer idle time is a typo (and overflows date arithmetic).
MAX_IDLE_DAYS = 36_500


def parse_duration(text: str) -> float:
    """``90s``, ``30m``, ``2h``, ``1d`` (or plain seconds) -> seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not match:
        raise UsageError(f"invalid duration {text!r}: use a number with s, m, h or d (e.g. 30m)")
    seconds = float(match.group(1)) * _UNITS[match.group(2) or "s"]
    if seconds > MAX_IDLE_DAYS * 86400:
        raise UsageError(f"duration {text!r} is too long: at most {MAX_IDLE_DAYS}d (100 years)")
    return seconds


def _report_lines(report: ConsolidationReport) -> str:
    if report.skipped:
        return f"{report.session_id}: already consolidated through seq {report.through_seq}"
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(report.counts.items())) or "no beliefs"
    rejected = ", ".join(f"{k} {v}" for k, v in sorted(report.rejected.items()))
    line = f"{report.session_id}: {outcomes} ({report.formation_policy})"
    return line + (f"; rejected: {rejected}" if rejected else "")


def close(
    session_id: SessionArg,
    /,
    *,
    explain: Annotated[
        bool,
        flag(
            "Also list each clause of the user's messages: what it states, and the "
            "marker or gate that stopped what was not remembered (secrets redacted).",
        ),
    ] = False,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Close one of the principal's sessions and consolidate what its user said into beliefs."""
    from agentmem.cli.session_cmds import owned_session

    with open_store(db, principal) as store:
        owned_session(store, session_id)
        report = store.close_session(session_id)
        clauses = store.explain_session(session_id) if explain else []
    if json:
        out = msgspec.to_builtins(report)
        if explain:
            out["explanation"] = msgspec.to_builtins(clauses)
        print_json(out)
        return
    print(_report_lines(report))
    if explain:
        print()
        print_table(
            ["seq", "clause", "outcome"],
            [(c.seq, c.clause, _explained(c)) for c in clauses],
            wrap=("clause", "outcome"),
            right=("seq",),
        )


def _explained(clause: ExplainedClause) -> str:
    said = "; ".join(clause.statements)
    if clause.reason is None:
        return f"remembered: {said}" if said else "nothing to remember"
    return f"not remembered ({clause.reason})" + (f": {said}" if said else "")


def consolidate(
    *,
    idle: Annotated[
        str | None,
        Parameter(
            help="Consolidate sessions idle at least this long (30m, 2h; default: "
            "settings). Closed sessions not yet consolidated are included."
        ),
    ] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> int:
    """Consolidate idle and closed sessions that have unconsolidated events.

    Maintenance for the whole file: every session is consolidated for its own principal. A
    session that fails is reported on stderr and the others are still consolidated; the exit
    code is then that of the first failure.
    """
    seconds = parse_duration(idle) if idle is not None else None
    with (
        progress("consolidating sessions", enabled=not json, unit="sessions") as update,
        open_store(db) as store,
    ):
        reports = store.consolidate_idle(seconds, progress=update)
    failed = [r for r in reports if r.error is not None]
    if json:
        print_json([msgspec.to_builtins(r) for r in reports])
    else:
        for report in reports:
            if report.error is None:
                print(_report_lines(report))
        if not reports:
            print("nothing to consolidate")
    # Every other session was consolidated; the failures are reported once, at the end.
    for report in failed:
        print(
            f"agentmem: session {report.session_id!r} was not consolidated: {report.error}",
            file=sys.stderr,
        )
    return _exit_code(failed[0].error_code) if failed else 0


def _exit_code(code: str | None) -> int:
    """The documented exit code of the error class whose ``code`` this is (1 if none)."""
    from agentmem.errors import AgentmemError

    pending: list[type[AgentmemError]] = [AgentmemError]
    while pending:
        cls = pending.pop()
        if cls.code == code:
            return cls.exit_code
        pending += cls.__subclasses__()
    return 1


def _owned(store: Store, belief_id: str, action: Callable[..., Belief]) -> Belief:
    """``action(belief_id, principal=...)`` for the command's principal, with a CLI hint."""
    try:
        return action(belief_id, principal=store.principal)
    except NotFound as exc:
        try:
            store.belief(belief_id, all_principals=True)
        except NotFound:
            raise exc from None
        exc.message += OWNER_HINT
        raise


def _print_beliefs(beliefs: list[Belief], *, principals: bool, status: bool) -> None:
    """The belief table; the principal column only when several can appear, and the status
    column when superseded and forgotten beliefs are listed too (they would look active)."""
    headers = ["belief", "principal", "status", "statement", "policy", "seqs"]
    rows = [
        (
            b.belief_id,
            b.principal,
            b.status,
            b.statement if b.statement is not None else "(forgotten)",
            b.formation_policy,
            ", ".join(str(seq) for seq, _ in b.evidence),
        )
        for b in beliefs
    ]
    omit = ([] if principals else ["principal"]) + ([] if status else ["status"])
    print_table(headers, rows, wrap=("statement",), omit=omit)


def list_(
    *,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    all: Annotated[
        bool, flag("Include superseded and forgotten beliefs (a STATUS column shows which).")
    ] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's beliefs (``--all-principals``: everyone's)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        beliefs = store.beliefs(all_principals=all_principals, include_inactive=all)
    if json:
        print_json([msgspec.to_builtins(b) for b in beliefs])
        return
    _print_beliefs(beliefs, principals=all_principals, status=all)


def search(
    query: Annotated[
        str,
        Parameter(help="Words to find: beliefs that hold any of them, best matches (BM25) first."),
    ],
    /,
    *,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    limit: Annotated[int, whole_number("At most this many beliefs.", minimum=1)] = 20,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Full-text search over one principal's active beliefs (FTS5, BM25 ranking)."""
    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        found = store.search_beliefs(query, all_principals=all_principals, limit=limit)
    if json:
        print_json([msgspec.to_builtins(b) for b in found])
        return
    _print_beliefs(found, principals=all_principals, status=False)


def show(
    belief_id: BeliefArg,
    /,
    *,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show one of the principal's beliefs with its evidence quotes and seqs."""
    with read_store(db, principal) as store:
        b = _owned(store, belief_id, store.belief)
    if json:
        print_json(msgspec.to_builtins(b))
        return
    print_fields(
        [
            ("belief", b.belief_id),
            ("principal", b.principal),
            ("statement", b.statement if b.statement is not None else "(forgotten)"),
            ("kind", b.kind),
            ("status", b.status),
            ("scope", b.scope),
            ("portability", b.portability),
            ("formation policy", b.formation_policy),
            ("extractor", b.extractor),
            ("origin", b.origin),
            ("supersedes", b.supersedes),
            ("superseded by", b.superseded_by),
        ]
    )
    for seq, quote in b.evidence:
        shown = f'"{terminal_safe(quote)}"' if quote is not None else "(erased)"
        print(f"evidence  seq {seq}: {shown}")


def forget(
    belief_id: BeliefArg,
    /,
    *,
    principal: PrincipalOpt = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Erase one of the principal's beliefs: statement, values and quotes (table and index)."""
    with open_store(db, principal) as store:
        b = _owned(store, belief_id, store.forget_belief)
    if json:
        print_json({"belief_id": b.belief_id, "status": b.status})
    else:
        print(f"forgot {b.belief_id}: its text is erased; the same evidence will not form it again")
