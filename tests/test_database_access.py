"""How the database file is opened, shared and failed: issue 10, items 4, 5, 8 and 9.

Readers never wait for writers and never write (item 4, item 9); forgetting leaves no byte of
the belief in the file or its -wal (item 5); SQLite failures (busy, disk full, corruption,
threads) reach users as errors of the tree with documented exit codes (item 8).
"""

from __future__ import annotations

import json
from pathlib import Path

import agentmem
from tests._events import run_started, user_msg


def _raw(db_path: Path) -> bytes:
    """The database file and its -wal, as a forensic reader of the disk would see them."""
    wal = db_path.with_name(db_path.name + "-wal")
    return db_path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


# -- item 5: forgetting erases every byte ----------------------------------------------------


def test_forget_leaves_no_byte_in_the_file_stat4_or_wal(db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())
        store.append(user_msg("I have a dog named Zanzibar."))
        store.append(user_msg("I live in Lisbon."))
        store.close_session("s1")
        (pet,) = [b for b in store.beliefs() if "Zanzibar" in (b.statement or "")]
        # What PRAGMA optimize does on a busy file: sample index keys into sqlite_stat4.
        store.conn.execute("ANALYZE")
        samples = b"".join(row[0] for row in store.conn.execute("SELECT sample FROM sqlite_stat4"))
        assert b'["pet",["dog","zanzibar"]]' in samples  # the beliefs_by_claim key
        assert b"User has a dog named Zanzibar" in _raw(db_path)

        store.forget_belief(pet.belief_id)

        raw = _raw(db_path)
        # The user's own message stays in the append-only log, once; nothing else remains:
        # not the statement, the claim's values or key, the quote, or an FTS term.
        assert raw.count(b"Zanzibar") == 1
        assert b"zanzibar" not in raw
        assert b"User has a dog named" not in raw
        assert b"Lisbon" in raw  # the other belief is untouched
        assert [b.statement for b in store.search_beliefs("lisbon")] == ["User lives in Lisbon"]
    raw = _raw(db_path)  # closing re-analyzes: it samples only what is left
    assert raw.count(b"Zanzibar") == 1 and b"zanzibar" not in raw


def test_cli_forget_erases_from_the_raw_files(run_cli, db_path: Path) -> None:
    events = [run_started(), user_msg("I have a dog named Zanzibar.")]
    db = ("--db", str(db_path))
    alice = {"AGENTMEM_PRINCIPAL": "alice"}
    lines = "".join(json.dumps(e) + "\n" for e in events)
    assert run_cli("event", "import", "-", *db, input=lines, env=alice).returncode == 0
    assert run_cli("session", "close", "s1", *db, env=alice).returncode == 0
    (pet,) = json.loads(run_cli("beliefs", "list", *db, "--json", env=alice).stdout)
    with agentmem.open(str(db_path)) as store:  # a long-lived reader-writer, as a server is
        store.conn.execute("ANALYZE")
        forgot = run_cli("beliefs", "forget", pet["belief_id"], *db, env=alice)
        assert forgot.returncode == 0, forgot.stderr
        raw = _raw(db_path)
        assert raw.count(b"Zanzibar") == 1 and b"zanzibar" not in raw
