"""Beliefs as stored: reading, searching and forgetting them, and the one way a row is written.

The formation service decides what becomes a belief; this module owns the ``beliefs`` table's
shape, so reading beliefs (``agentmem beliefs list``, search, the HTTP API) needs neither the
service's gates nor any extractor. The recall index ``beliefs_fts`` is kept in step with the
table by triggers in ``schema.sql``: a belief is indexed when it is written active and leaves
the index as soon as it stops being active (superseded, withdrawn, forgotten or deleted), so no
write path here or elsewhere can forget it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from agentmem.canonical import canonical_json
from agentmem.db import where
from agentmem.errors import DatabaseBusy, NotFound
from agentmem.events import now_text
from agentmem.memory.claims import CLAIM_KINDS, Claim
from agentmem.memory.events import BeliefForgotten

if TYPE_CHECKING:
    from agentmem.log import EventLog

__all__ = [
    "Belief",
    "NewBelief",
    "belief",
    "beliefs",
    "claim_key",
    "conflict_key",
    "forget",
    "fts_query",
    "insert_belief",
    "search",
    "stored_claim",
]


class Belief(msgspec.Struct, frozen=True):
    """A belief as stored. Forgotten beliefs have no statement, values or quotes left."""

    belief_id: str
    principal: str
    kind: str
    statement: str | None
    values: dict[str, str | None] | None
    status: str
    scope: str
    portability: str
    salience: float
    formation_policy: str
    extractor: str
    origin: str
    session_id: str
    supersedes: str | None
    superseded_by: str | None
    created_at: str
    updated_at: str
    evidence: tuple[tuple[int, str | None], ...] = ()


class NewBelief(msgspec.Struct, frozen=True, kw_only=True):
    """A row about to be written: every column the writers set, bound by name on insert."""

    belief_id: str
    principal: str
    kind: str
    claim_key: str
    conflict_key: str
    statement: str
    claim_values: str
    candidate_status: str
    scope: str
    portability: str
    salience: float
    formation_policy: str
    extractor: str
    origin: str
    session_id: str
    supersedes: str | None
    created_at: str
    updated_at: str


_NEW_COLUMNS = NewBelief.__struct_fields__
_INSERT = (
    f"INSERT INTO beliefs (status, {', '.join(_NEW_COLUMNS)}) "
    f"VALUES ('active', {', '.join(':' + c for c in _NEW_COLUMNS)})"
)


def insert_belief(store: EventLog, row: NewBelief) -> None:
    """Write one active belief (inside the caller's transaction); the index follows by trigger."""
    store.conn.execute(_INSERT, msgspec.structs.asdict(row))


def claim_key(claim: Claim) -> str:
    """The identity of a claim among a principal's beliefs: equal keys merge evidence."""
    return canonical_json([claim.kind, list(claim.values.values())]).decode()


def conflict_key(claim: Claim) -> str:
    """What a claim competes with: a single-valued kind's slot, or a preference's object."""
    kind, values = claim.conflict_key()
    return canonical_json([kind, list(values)]).decode()


def _stored_values(kind: str, text: str) -> dict[str, str | None]:
    """Stored values (canonical JSON, sorted keys) back in the kind's field order."""
    values = msgspec.json.decode(text)
    return {field: values.get(field) for field in CLAIM_KINDS[kind].fields}


def stored_claim(kind: str, text: str) -> Claim:
    """The claim of a stored row (``claim_values`` is canonical JSON)."""
    return Claim(kind=kind, values=_stored_values(kind, text))


#: The columns a Belief is read from; ``claim_values`` becomes ``values``.
_READ_COLUMNS = tuple(
    "claim_values" if name == "values" else name for name in Belief.__struct_fields__[:-1]
)
_SELECT = ", ".join(f"b.{name}" for name in _READ_COLUMNS)


def _beliefs(store: EventLog, rows: Sequence[Sequence[object]]) -> list[Belief]:
    """Bind rows to beliefs by column name, with their evidence fetched in one query."""
    found = [dict(zip(_READ_COLUMNS, row, strict=True)) for row in rows]
    evidence: dict[str, list[tuple[int, str | None]]] = {str(r["belief_id"]): [] for r in found}
    ids = list(evidence)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for belief_id, seq, quote in store.conn.execute(
            "SELECT belief_id, seq, quote FROM belief_evidence WHERE belief_id IN "
            f"({', '.join('?' * len(chunk))}) ORDER BY belief_id, seq",
            chunk,
        ):
            evidence[belief_id].append((seq, quote))
    out = []
    for fields in found:
        text = fields.pop("claim_values")
        kind = str(fields["kind"])
        values = _stored_values(kind, str(text)) if text is not None else None
        fields.update(values=values, evidence=evidence[str(fields["belief_id"])])
        out.append(msgspec.convert(fields, Belief))
    return out


def beliefs(
    store: EventLog,
    *,
    principal: str | None = None,
    all_principals: bool = False,
    include_inactive: bool = False,
    limit: int | None = None,
) -> list[Belief]:
    """Active beliefs of ``principal`` (the store's principal when ``None``; every principal's
    with ``all_principals``), newest first; at most ``limit`` of them (the limit is applied by
    SQLite, so a few are cheap among many)."""
    active: list[tuple[str, list[object]]] = [] if include_inactive else [("status = 'active'", [])]
    owner = store.principal_filter(principal, all_principals)
    condition, params = where({"principal": owner}, *active)
    if limit is None:
        sql = f"SELECT {_SELECT} FROM beliefs AS b{condition} ORDER BY created_at DESC, belief_id"
    else:
        # insertion order is creation order: walking rowids backwards stops after ``limit``
        # rows instead of sorting every belief of the principal
        sql = f"SELECT {_SELECT} FROM beliefs AS b{condition} ORDER BY b.rowid DESC LIMIT ?"
        params = [*params, limit]
    return _beliefs(store, store.conn.execute(sql, params).fetchall())


def belief(
    store: EventLog, belief_id: str, *, principal: str | None = None, all_principals: bool = False
) -> Belief:
    """One belief by id, if it belongs to ``principal`` (the store's principal when ``None``;
    any principal with ``all_principals``). Another principal's belief is not found, so its
    existence is not revealed either."""
    owner = store.principal_filter(principal, all_principals)
    rows = store.conn.execute(
        f"SELECT {_SELECT} FROM beliefs AS b WHERE belief_id = ?", (belief_id,)
    ).fetchall()
    found = _beliefs(store, rows)
    if not found or (owner is not None and found[0].principal != owner):
        raise NotFound(f"no belief {belief_id!r}" + (f" for {owner!r}" if owner else ""))
    return found[0]


def fts_query(text: str) -> str:
    """A safe FTS5 query: each word quoted, OR-ed (BM25 ranks the best matches first)."""
    words = [w for w in "".join(c if c.isalnum() else " " for c in text).split() if w]
    return " OR ".join(f'"{w}"' for w in words)


def search(
    store: EventLog,
    query: str,
    *,
    principal: str | None = None,
    all_principals: bool = False,
    limit: int = 20,
) -> list[Belief]:
    """Active beliefs of ``principal`` (the store's principal when ``None``; every principal's
    with ``all_principals``) matching ``query``, best BM25 match first."""
    owner = store.principal_filter(principal, all_principals)
    match = fts_query(query)
    if not match:
        return []
    sql = (
        f"SELECT {_SELECT} FROM beliefs_fts JOIN beliefs AS b ON b.rowid = beliefs_fts.rowid "
        "WHERE beliefs_fts MATCH ? AND b.status = 'active'"
    )
    params: list[object] = [match]
    if owner is not None:
        sql += " AND b.principal = ?"
        params.append(owner)
    sql += " ORDER BY bm25(beliefs_fts) LIMIT ?"
    params.append(int(limit))
    return _beliefs(store, store.conn.execute(sql, params).fetchall())


def forget(
    store: EventLog, belief_id: str, *, principal: str | None = None, all_principals: bool = False
) -> Belief:
    """Erase a belief's content everywhere; keep only a content-free tombstone and an event.

    The belief must be ``principal``'s (the store's principal when ``None``; anyone's with
    ``all_principals``, an administrator's erasure).

    Everywhere means every byte of the file and its ``-wal``: the row and its evidence quotes,
    the FTS index (its trigger deletes the entry under ``secure-delete``), and the query
    planner's ``sqlite_stat4`` samples, which copy index keys (``beliefs_by_claim`` keys hold
    the claim's values, FTS index keys hold its words); ``secure_delete`` zeroes what is
    deleted. After the commit a TRUNCATE checkpoint moves the changed pages into the file and
    empties the ``-wal``, where earlier page images still held the text. Called inside the
    caller's own transaction, the checkpoint is left to the caller's commit. Forgetting again
    is harmless and retries the checkpoint.
    """
    with store.transaction():
        target = belief(store, belief_id, principal=principal, all_principals=all_principals)
        if target.status != "forgotten":
            store.conn.execute(
                "UPDATE beliefs SET statement = NULL, claim_values = NULL, claim_key = NULL, "
                "conflict_key = NULL, status = 'forgotten', updated_at = ? WHERE belief_id = ?",
                (now_text(), belief_id),
            )
            store.conn.execute(
                "UPDATE belief_evidence SET quote = NULL WHERE belief_id = ?", (belief_id,)
            )
            if store.conn.execute(
                "SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat4'"
            ).fetchall():
                # The planner keeps no samples of these tables until it next analyzes them,
                # and then only samples what is still there.
                store.conn.execute(
                    "DELETE FROM sqlite_stat4 WHERE tbl IN ('beliefs', 'belief_evidence') "
                    "OR tbl GLOB 'beliefs_fts_*'"
                )
            store.append_process(
                BeliefForgotten(
                    principal=target.principal,
                    belief_id=belief_id,
                    event_id=f"memory.belief.forgotten:{belief_id}",
                )
            )
        forgotten = belief(store, belief_id, principal=target.principal)
    if not store.conn.in_transaction:
        busy, _, _ = store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0]
        if busy:
            raise DatabaseBusy(
                f"belief {belief_id!r} is forgotten, but another connection kept reading "
                f"{store.path}, so earlier copies of its pages remain in the -wal file until "
                "the next checkpoint; forget it again to finish"
            )
    return forgotten
