"""The recall index follows the beliefs table by triggers, and older files are upgraded to them.

Search answers from ``beliefs_fts``; what a user notices when the index and the table disagree is
a superseded or forgotten belief still found by search, or a new one never found. Every check
here compares the index with the table itself, on real files.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import apsw
from _events import user_msg

import agentmem
from agentmem import db as dbmod
from agentmem.memory.claims import normalize_claim
from agentmem.memory.service import seed_belief

FIXTURES = Path(__file__).with_name("fixtures")


def _index(conn: apsw.Connection) -> list[tuple[int, str, str]]:
    return conn.execute(
        "SELECT rowid, statement, claim_values FROM beliefs_fts ORDER BY rowid"
    ).fetchall()


def _active_rowids(conn: apsw.Connection) -> list[int]:
    return [r for (r,) in conn.execute("SELECT rowid FROM beliefs WHERE status = 'active'")]


def _v2_belief(conn: apsw.Connection, belief_id: str, statement: str, values: str) -> None:
    """A belief as version 2 wrote it: the row, then its index entry written from Python."""
    conn.execute(
        "INSERT INTO beliefs (belief_id, principal, kind, claim_key, conflict_key, statement,"
        " claim_values, status, candidate_status, scope, portability, salience,"
        " formation_policy, extractor, origin, session_id, created_at, updated_at)"
        " VALUES (?, 'alice', 'home_location', ?, ?, ?, ?, 'active', 'AFFIRMED', 'principal',"
        " 'portable', 0.8, 'formation@7', 'deterministic-extractor/9', 'deterministic', 's1',"
        " '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
        (belief_id, f"key-{belief_id}", f"conflict-{belief_id}", statement, values),
    )
    conn.execute(
        "INSERT INTO beliefs_fts (rowid, statement, claim_values) VALUES (?, ?, ?)",
        (
            conn.last_insert_rowid(),
            statement,
            " ".join(v for v in json.loads(values).values() if v),
        ),
    )


def _build_v2_file(path: Path) -> None:
    conn = apsw.Connection(str(path))
    conn.pragma("auto_vacuum", "INCREMENTAL")
    conn.pragma("journal_mode", "wal")
    with conn:
        conn.execute((FIXTURES / "schema_v2.sql").read_text(encoding="utf-8"))
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('blob_secret', ?), ('created_at', ?)",
            (secrets.token_bytes(32), "2026-01-01T00:00:00.000Z"),
        )
        conn.pragma("application_id", dbmod.APPLICATION_ID)
        conn.pragma("user_version", 2)
        _v2_belief(conn, "bel-lisbon", "User lives in Lisbon", '{"city":"Lisbon"}')
        _v2_belief(conn, "bel-porto", "User lives in Porto", '{"city":"Porto"}')
    conn.close()


def test_a_version_2_file_is_upgraded_with_its_index_unchanged(db_path: Path) -> None:
    _build_v2_file(db_path)
    with apsw.Connection(str(db_path)) as raw:
        before = _index(raw)
    with agentmem.open(str(db_path), principal="alice") as store:
        assert store.conn.pragma("user_version") == dbmod.SCHEMA_VERSION
        assert store.check() == []
        assert _index(store.conn) == before
        assert [b.belief_id for b in store.search_beliefs("Lisbon")] == ["bel-lisbon"]
        # From now on the triggers keep the index: forgetting removes the entry, a new belief
        # is found at once.
        store.forget_belief("bel-lisbon")
        assert store.search_beliefs("Lisbon") == []
        new_id = seed_belief(store, "alice", normalize_claim("allergy", {"allergen": "peanuts"}))
        assert [b.belief_id for b in store.search_beliefs("peanuts")] == [new_id]
        assert [r for r, _, _ in _index(store.conn)] == sorted(_active_rowids(store.conn))


def test_the_index_holds_exactly_the_active_beliefs_after_supersede_and_forget(
    db_path: Path,
) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(user_msg("I live in Lisbon.", session="s1", run=None))
        store.close_session("s1")
        store.append(user_msg("I live in Porto now.", session="s2", run=None))
        store.close_session("s2")
        statuses = {b.statement: b.status for b in store.beliefs(include_inactive=True)}
        assert statuses.get("User lives in Lisbon") == "superseded"
        assert statuses.get("User lives in Porto") == "active"
        assert [r for r, _, _ in _index(store.conn)] == sorted(_active_rowids(store.conn))
        assert store.search_beliefs("Lisbon") == []
        (porto,) = store.search_beliefs("Porto")
        store.forget_belief(porto.belief_id)
        assert _index(store.conn) == []


def test_a_deleted_belief_leaves_the_index(db_path: Path) -> None:
    # Erasure deletes rows: the index must follow a DELETE as it follows an UPDATE.
    with agentmem.open(str(db_path), principal="alice") as store:
        belief_id = seed_belief(store, "alice", normalize_claim("allergy", {"allergen": "kiwi"}))
        with store.transaction():
            store.conn.execute("DELETE FROM beliefs WHERE belief_id = ?", (belief_id,))
        assert _index(store.conn) == []
        assert store.search_beliefs("kiwi") == []
