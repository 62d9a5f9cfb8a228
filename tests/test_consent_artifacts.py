"""Consent stamping and withdrawal (at the SQL level too), and the artifact store."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

import agentmem
from agentmem import artifacts


def _raw_event(
    conn: apsw.Connection,
    event_id: str,
    type_: str,
    principal: str,
    payload: str = "{}",
    session: str | None = None,
    run: str | None = None,
) -> None:
    conn.execute(
        "INSERT INTO events (event_id, type, session_id, run_id, principal, payload, "
        "content_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, 'x', "
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        (event_id, type_, session, run, principal, payload),
    )


def test_triggers_stamp_and_expire_for_a_foreign_client(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(
            {"type": "run.started", "session_id": "s0", "run_id": "early", "principal": "ann"}
        )
    raw = apsw.Connection(str(db_path))  # no agentmem code on this connection
    _raw_event(raw, "g1", "consent.granted", "ann", '{"purpose": "trajectory_export"}')
    _raw_event(raw, "r1", "run.started", "ann", '{"tools": []}', "s1", "late")
    stamps = dict(raw.execute("SELECT run_id, consent_seq FROM runs"))
    assert stamps["early"] is None and stamps["late"] is not None
    raw.execute(
        "INSERT INTO blobs VALUES ('k', 1, x'00'); INSERT INTO artifacts VALUES ('a1', "
        "'trajectory_export', 'k', 'late', 'ann', 'application/json', 'x', 1, "
        "'2000-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z')"
    )
    _raw_event(raw, "w1", "consent.withdrawn", "ann", '{"purpose": "trajectory_export"}')
    expires = raw.execute("SELECT expires_at FROM artifacts WHERE artifact_id = 'a1'").get
    assert expires < "2999"
    assert raw.execute("SELECT status FROM consent WHERE principal = 'ann'").get == "withdrawn"


def test_consent_commands_are_idempotent_and_logged(store: agentmem.Store) -> None:
    assert store.consent_status("bo").state == "never"
    assert store.grant_consent("bo").changed
    assert not store.grant_consent("bo").changed
    assert store.withdraw_consent("bo").changed
    assert not store.withdraw_consent("bo").changed
    types = [type(e).__name__ for e in store.events(principal="bo")]
    assert types == ["ConsentGranted", "ConsentWithdrawn"]


def test_artifact_read_path(store: agentmem.Store) -> None:
    info = artifacts.put(
        store,
        origin="trajectory_export",
        data=b'{"a": 1}',
        principal="alice",
        media_type="application/json",
        doc_schema="t/1",
    )
    row, data = store.read_artifact(info.artifact_id, principal="alice")
    assert data == b'{"a": 1}' and row.size == 8
    with pytest.raises(agentmem.ArtifactUnavailable, match="another principal"):
        store.read_artifact(info.artifact_id, principal="mallory")
    assert store.read_artifact(info.artifact_id, principal="x", operator=True)[1] == data
    with pytest.raises(agentmem.NotFound):
        store.read_artifact("art-missing", principal="alice")


def test_expired_artifact_is_unreadable_before_any_sweep(store: agentmem.Store) -> None:
    info = artifacts.put(
        store,
        origin="trajectory_export",
        data=b"x",
        principal="alice",
        media_type="text/plain",
        doc_schema="t/1",
    )
    store.conn.execute("UPDATE artifacts SET expires_at = '2000-01-01T00:00:00.000Z'")
    with pytest.raises(agentmem.ArtifactUnavailable, match="expired"):
        store.read_artifact(info.artifact_id, principal="alice")
    mine = {"principal": "alice", "include_expired": True}
    assert store.artifacts(principal="alice") == [] and len(store.artifacts(**mine)) == 1


def test_blobs_are_content_addressed_under_a_per_database_key(tmp_path: Path) -> None:
    keys = []
    for name in ("a.db", "b.db"):
        with agentmem.open(str(tmp_path / name)) as store:
            one = artifacts.put(
                store,
                origin="evaluation_report",
                data=b"same",
                principal="p",
                media_type="text/plain",
                doc_schema="t/1",
            )
            two = artifacts.put(
                store,
                origin="evaluation_report",
                data=b"same",
                principal="p",
                media_type="text/plain",
                doc_schema="t/1",
            )
            assert one.blob_key == two.blob_key and one.artifact_id != two.artifact_id
            assert store.conn.execute("SELECT count(*) FROM blobs").get == 1
            keys.append(one.blob_key)
    assert keys[0] != keys[1]  # keyed hash: the key reveals nothing across databases


def test_sweep_deletes_expired_and_unreferenced_and_frees_the_bytes(db_path: Path) -> None:
    marker = b"SWEEP-ME-" + b"z" * 20000
    with agentmem.open(str(db_path)) as store:
        info = artifacts.put(
            store,
            origin="trajectory_export",
            data=marker,
            principal="p",
            media_type="text/plain",
            doc_schema="t/1",
        )
        keep = artifacts.put(
            store,
            origin="trajectory_export",
            data=b"keep",
            principal="p",
            media_type="text/plain",
            doc_schema="t/1",
        )
        store.conn.execute(
            "UPDATE artifacts SET expires_at = '2000-01-01T00:00:00.000Z' WHERE artifact_id = ?",
            (info.artifact_id,),
        )
        result = store.sweep_artifacts()
        assert (result.artifacts, result.blobs, result.bytes) == (1, 1, len(marker))
        assert [a.artifact_id for a in store.artifacts(principal="p")] == [keep.artifact_id]
    raw = db_path.read_bytes()
    wal = db_path.with_name(db_path.name + "-wal")
    assert b"SWEEP-ME-" not in raw
    assert not wal.exists() or b"SWEEP-ME-" not in wal.read_bytes()
