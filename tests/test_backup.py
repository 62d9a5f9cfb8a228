"""Online backup and verified restore, through the CLI in a subprocess, on real files."""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest
from _events import user_msg

import agentmem
from agentmem import backup as backup_mod
from agentmem import db as dbmod

WRITER = """
import sys, time
import agentmem
path, stop = sys.argv[1], sys.argv[2]
deadline = time.monotonic() + 30
import os
with agentmem.open(path) as store:
    n = 0
    while not os.path.exists(stop) and time.monotonic() < deadline:
        store.append({"type": "user.message.created", "session_id": "live", "principal": "w",
                      "text": f"message {n} " + "x" * 500})
        n += 1
        if n == 20:
            open(stop + ".started", "w").close()
"""


def _seed(db_path: Path, count: int = 50, size: int = 100) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append_many(
            user_msg(f"note {i} " + "y" * size, session=f"s{i % 7}", run=None) for i in range(count)
        )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _events(path: Path) -> list[bytes]:
    with agentmem.open(str(path), readonly=True) as store:
        return list(store.events_json(all_principals=True))


def test_backup_while_a_writer_appends_is_a_checked_snapshot(
    db_path: Path, tmp_path: Path, run_cli
) -> None:
    _seed(db_path, count=6000, size=1000)  # ~8 MB: the copy takes several steps
    stop = tmp_path / "stop"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db_path), str(stop)])
    try:
        for _ in range(300):
            if Path(f"{stop}.started").exists():
                break
            time.sleep(0.05)
        copy = tmp_path / "copy.db"
        result = run_cli("db", "backup", str(copy), "--json", "--db", str(db_path))
    finally:
        stop.touch()
        writer.wait(timeout=60)
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["events"] >= 6020 and info["through_seq"] == info["events"]
    assert not Path(f"{copy}-wal").exists()  # one self-contained file
    check = run_cli("db", "check", "--db", str(copy))
    assert check.returncode == 0, check.stdout
    with contextlib.closing(apsw.Connection(str(copy))) as raw:
        assert (
            raw.execute("SELECT value FROM meta WHERE key = 'backup_through_seq'").get
            == (info["through_seq"])
        )
    # The writer went on after the snapshot; the live file has more.
    assert len(_events(db_path)) > info["events"]


def test_vacuum_backup_is_compact_and_checked(db_path: Path, tmp_path: Path, run_cli) -> None:
    _seed(db_path, count=400, size=2000)
    plain, compact = tmp_path / "plain.db", tmp_path / "compact.db"
    assert run_cli("db", "backup", str(plain), "--db", str(db_path)).returncode == 0
    result = run_cli("db", "backup", str(compact), "--vacuum", "--db", str(db_path))
    assert result.returncode == 0, result.stderr
    assert "checked" in result.stdout
    assert compact.stat().st_size <= plain.stat().st_size
    assert _events(compact) == _events(db_path)
    assert run_cli("db", "check", "--db", str(compact)).returncode == 0


def test_backup_refuses_to_overwrite_without_force(db_path: Path, tmp_path: Path, run_cli) -> None:
    _seed(db_path)
    target = tmp_path / "exists.db"
    target.write_bytes(b"precious")
    refused = run_cli("db", "backup", str(target), "--db", str(db_path))
    assert refused.returncode == 5 and "already exists" in refused.stderr
    assert target.read_bytes() == b"precious"
    assert run_cli("db", "backup", str(target), "--force", "--db", str(db_path)).returncode == 0
    assert _events(target) == _events(db_path)
    onto_itself = run_cli("db", "backup", str(db_path), "--force", "--db", str(db_path))
    assert onto_itself.returncode == 2


def _newer(path: Path) -> None:
    with contextlib.closing(apsw.Connection(str(path))) as raw:
        raw.pragma("user_version", dbmod.SCHEMA_VERSION + 1)


def _foreign(path: Path) -> None:
    path.unlink()
    with contextlib.closing(apsw.Connection(str(path))) as raw:
        raw.execute("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('hi')")


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a database at all " * 500)


def _damaged(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, page):
        data[offset : offset + 64] = b"\xff" * 64  # every b-tree page header but the first
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("spoil", "code", "words"),
    [
        (_garbage, 4, "not an SQLite database"),
        (_foreign, 4, "not an agentmem database"),
        (_newer, 5, "newer than this agentmem"),
        (_damaged, 12, "is damaged"),
    ],
)
def test_restore_refuses_a_bad_file_and_changes_nothing(
    db_path: Path, tmp_path: Path, run_cli, spoil, code: int, words: str
) -> None:
    _seed(db_path, count=300, size=300)
    bad = tmp_path / "bad.db"
    assert run_cli("db", "backup", str(bad), "--db", str(db_path)).returncode == 0
    spoil(bad)
    before = _digest(db_path)
    result = run_cli("db", "restore", str(bad), "--force", "--db", str(db_path))
    assert result.returncode == code, result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr
    assert _digest(db_path) == before
    assert list(tmp_path.glob("*.replaced-*")) == []


def test_restore_replaces_a_live_database_only_when_asked(
    db_path: Path, tmp_path: Path, run_cli
) -> None:
    _seed(db_path, count=20)
    copy = tmp_path / "copy.db"
    assert run_cli("db", "backup", str(copy), "--db", str(db_path)).returncode == 0
    backed_up = _events(copy)
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg("written after the backup", run=None))
    newer = _events(db_path)
    refused = run_cli("db", "restore", str(copy), "--db", str(db_path))
    assert refused.returncode == 5
    assert "--force" in refused.stderr and _events(db_path) == newer
    with agentmem.open(str(db_path)) as reader:  # another connection stays open throughout
        result = run_cli("db", "restore", str(copy), "--force", "--db", str(db_path))
        assert result.returncode == 0, result.stderr
        # it sees the restored file at once
        assert list(reader.events_json(all_principals=True)) == backed_up
    (kept,) = tmp_path.glob("agentmem.db.replaced-*")
    assert f"kept at {kept}" in result.stdout
    assert _events(kept) == newer
    assert run_cli("db", "check", "--db", str(db_path)).returncode == 0


def test_restore_creates_a_missing_database(db_path: Path, tmp_path: Path) -> None:
    _seed(db_path, count=10)
    copy = tmp_path / "copy.db"
    with agentmem.open(str(db_path), readonly=True) as store:
        backup_mod.backup(store, copy)
    fresh = tmp_path / "fresh.db"
    info, kept = backup_mod.restore(fresh, copy)
    assert kept is None and info.events == 10
    assert _events(fresh) == _events(db_path)


def test_status_of_a_copy_shows_the_log_position_it_covers(
    db_path: Path, tmp_path: Path, run_cli
) -> None:
    _seed(db_path, count=12)
    copy = tmp_path / "copy.db"
    assert run_cli("db", "backup", str(copy), "--db", str(db_path)).returncode == 0
    status = run_cli("status", "--json", "--db", str(copy))
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["backup"]["through_seq"] == 12
    assert (
        "backup of            the log through seq 12" in run_cli("status", "--db", str(copy)).stdout
    )
    assert json.loads(run_cli("status", "--json", "--db", str(db_path)).stdout)["backup"] is None
