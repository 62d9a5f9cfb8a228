"""``agentmem session close``, ``agentmem consolidate`` and ``agentmem beliefs ...``."""

from __future__ import annotations

import re
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
from agentmem.errors import UsageError
from agentmem.memory.service import Belief, ConsolidationReport

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """``90s``, ``30m``, ``2h``, ``1d`` (or plain seconds) -> seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not match:
        raise UsageError(f"invalid duration {text!r}: use a number with s, m, h or d (e.g. 30m)")
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


def _report_lines(report: ConsolidationReport) -> str:
    if report.skipped:
        return f"{report.session_id}: already consolidated through seq {report.through_seq}"
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(report.counts.items())) or "no beliefs"
    rejected = ", ".join(f"{k} {v}" for k, v in sorted(report.rejected.items()))
    line = f"{report.session_id}: {outcomes} ({report.formation_policy})"
    return line + (f"; rejected: {rejected}" if rejected else "")


def close(session_id: str, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Close a session and consolidate what its user said into beliefs."""
    with open_store(db) as store:
        report = store.close_session(session_id)
    if json:
        print_json(msgspec.to_builtins(report))
    else:
        print(_report_lines(report))


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
) -> None:
    """Consolidate idle and closed sessions that have unconsolidated events."""
    with open_store(db) as store:
        reports = store.consolidate_idle(parse_duration(idle) if idle is not None else None)
    if json:
        print_json([msgspec.to_builtins(r) for r in reports])
        return
    for report in reports:
        print(_report_lines(report))
    if not reports:
        print("nothing to consolidate")


def _rows(beliefs: list[Belief]) -> list[tuple]:
    return [
        (
            b.belief_id,
            b.principal,
            b.statement,
            b.formation_policy,
            ", ".join(str(seq) for seq, _ in b.evidence),
        )
        for b in beliefs
    ]


def list_(
    *,
    principal: PrincipalOpt = None,
    all: Annotated[bool, Parameter(negative="", help="Include superseded and forgotten.")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List beliefs (every principal unless --principal is given)."""
    with open_store(db) as store:
        beliefs = store.beliefs(principal=principal, include_inactive=all)
    if json:
        print_json([msgspec.to_builtins(b) for b in beliefs])
        return
    print_table(["belief", "principal", "statement", "policy", "evidence seqs"], _rows(beliefs))


def search(
    query: str,
    /,
    *,
    principal: PrincipalOpt = None,
    limit: int = 20,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Full-text search over active beliefs (FTS5, BM25 ranking)."""
    with open_store(db) as store:
        found = store.search_beliefs(query, principal=principal, limit=limit)
    if json:
        print_json([msgspec.to_builtins(b) for b in found])
        return
    print_table(["belief", "principal", "statement", "policy", "evidence seqs"], _rows(found))


def show(
    belief_id: str, /, *, principal: PrincipalOpt = None, db: DbOpt = None, json: JsonOpt = False
) -> None:
    """Show one belief with its evidence quotes and seqs."""
    with open_store(db) as store:
        b = store.belief(belief_id, principal=principal)
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
        print(f"evidence  seq {seq}: " + (f'"{quote}"' if quote is not None else "(erased)"))


def forget(
    belief_id: str, /, *, principal: PrincipalOpt = None, db: DbOpt = None, json: JsonOpt = False
) -> None:
    """Erase a belief's statement, values and quotes (table and search index)."""
    with open_store(db) as store:
        b = store.forget_belief(belief_id, principal=principal)
    if json:
        print_json({"belief_id": b.belief_id, "status": b.status})
    else:
        print(f"forgot {b.belief_id}: its text is erased; the same evidence will not form it again")
