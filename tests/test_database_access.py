"""How the database file is opened, shared and failed: issue 10, items 4, 5, 8 and 9.

Readers never wait for writers and never write (item 4, item 9); forgetting leaves no byte of
the belief in the file or its -wal (item 5); SQLite failures (busy, disk full, corruption,
threads) reach users as errors of the tree with documented exit codes (item 8).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import apsw
import pytest

import agentmem
from tests._events import run_started, user_msg
from tests._forensics import readable

# -- item 5: forgetting erases every byte ----------------------------------------------------

# What an encrypted file must not show at all (the greps below then read it decrypted).
_PLAINTEXT = (b"Zanzibar", b"zanzibar", b"Lisbon", b"User has a dog")


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
        # (an encrypted file shows none of it, even before; the rest reads it decrypted)
        assert b"User has a dog named Zanzibar" in readable(db_path, *_PLAINTEXT)

        store.forget_belief(pet.belief_id)

        raw = readable(db_path, *_PLAINTEXT)
        # The user's own message stays in the append-only log, once; nothing else remains:
        # not the statement, the claim's values or key, the quote, or an FTS term.
        assert raw.count(b"Zanzibar") == 1
        assert b"zanzibar" not in raw
        assert b"User has a dog named" not in raw
        assert b"Lisbon" in raw  # the other belief is untouched
        assert [b.statement for b in store.search_beliefs("lisbon")] == ["User lives in Lisbon"]
    raw = readable(db_path, *_PLAINTEXT)  # closing re-analyzes: it samples only what is left
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
        raw = readable(db_path, *_PLAINTEXT)
        assert raw.count(b"Zanzibar") == 1 and b"zanzibar" not in raw


# -- item 4: readers never wait for a writer -------------------------------------------------

_FAST_BUSY = {"AGENTMEM_BUSY_TIMEOUT_MS": "300", "AGENTMEM_PRINCIPAL": "alice"}


def _filled(db_path: Path, sessions: int = 40, messages: int = 50) -> None:
    """A file with enough rows that PRAGMA optimize wants to analyze its tables."""
    with agentmem.open(str(db_path), principal="alice") as store:
        events = []
        for s in range(sessions):
            session, run = f"s{s}", f"r{s}"
            events.append(run_started(run, session=session))
            events += [
                user_msg(f"Note {i} of session {s}: I live in Lisbon.", session=session, run=run)
                for i in range(messages)
            ]
        store.append_many(events)
        store.close_session("s0")


def test_read_commands_run_while_a_writer_holds_the_lock(run_cli, db_path: Path) -> None:
    _filled(db_path)
    db = ("--db", str(db_path))
    reads = [
        ("status",),
        ("event", "list", "--limit", "3"),
        ("session", "list"),
        ("session", "show", "s1"),
        ("run", "list"),
        ("run", "show", "r1"),
        ("db", "check"),
        ("beliefs", "list"),
        ("beliefs", "search", "lisbon"),
        ("consent", "status"),
        ("artifacts", "list"),
    ]
    with agentmem.open(str(db_path), principal="alice") as writer, writer.transaction():
        # A long import in progress: the write lock is held, uncommitted rows are pending.
        writer.append_many(
            [run_started("r-import", session="s-import")]
            + [user_msg(f"row {i}", session="s-import", run="r-import") for i in range(2000)]
        )
        for args in reads:
            out = run_cli(*args, *db, env=_FAST_BUSY)
            assert out.returncode == 0, (args, out.stderr)
            assert "s-import" not in out.stdout  # the reader sees the last committed state
        # A writer that cannot get the lock in time: one clear line, exit 10, nothing written.
        blocked = run_cli(
            "event", "append", json.dumps(run_started("r-x", session="s-x")), *db, env=_FAST_BUSY
        )
        assert blocked.returncode == 10, blocked.stderr
        assert blocked.stderr.count("\n") == 1 and "locked" in blocked.stderr
        assert "internal error" not in blocked.stderr
    with agentmem.open(str(db_path), readonly=True) as reader:
        assert "s-x" not in [s.session_id for s in reader.sessions(all_principals=True)]


def test_readonly_store_reads_during_an_import_in_another_thread(db_path: Path) -> None:
    _filled(db_path, sessions=2, messages=10)
    started, finish = threading.Event(), threading.Event()

    def importer() -> None:
        with agentmem.open(str(db_path), principal="alice") as writer, writer.transaction():
            writer.append(run_started("r-long", session="s-long"))
            started.set()
            finish.wait(10)

    thread = threading.Thread(target=importer)
    thread.start()
    try:
        assert started.wait(10)
        with agentmem.open(str(db_path), readonly=True) as reader:
            reader.conn.set_busy_timeout(100)
            assert reader.status().sessions == 2
            assert reader.check() == []
            assert len(list(reader.events(all_principals=True, limit=5))) == 5
    finally:
        finish.set()
        thread.join()


# -- item 9: read-only use -------------------------------------------------------------------


def _listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def _read_only(directory: Path) -> Iterator[None]:
    """Make ``directory`` and its files unwritable, as a read-only mount or backup medium is.

    Root ignores permission bits, so as root the immutable attribute stands in for the mount.
    """
    paths = [directory, *directory.iterdir()]
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("as root this needs chattr to make files unwritable")
        done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {done.stderr.strip()}")
        assert not os.access(paths[-1], os.W_OK)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
    else:
        for path in paths:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            for path in paths:
                path.chmod(0o755 if path.is_dir() else 0o644)


_READS = [
    ("status",),
    ("event", "list"),
    ("session", "list"),
    ("session", "show", "s1"),
    ("run", "show", "r1"),
    ("db", "check"),
    ("beliefs", "list"),
    ("beliefs", "search", "lisbon"),
    ("consent", "status"),
    ("artifacts", "list"),
]


@pytest.mark.parametrize("kind", ["empty", "missing"])
@pytest.mark.parametrize("args", [("status",), ("event", "list"), ("db", "check")])
def test_read_commands_never_create_a_database(run_cli, tmp_path: Path, kind, args) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    target = folder / "agentmem.db"
    if kind == "empty":
        target.touch()
    out = run_cli(*args, "--db", str(target))
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "internal error" not in out.stderr
    assert ("empty" if kind == "empty" else "no agentmem database") in out.stderr
    assert _listing(folder) == (["agentmem.db"] if kind == "empty" else [])
    if kind == "empty":
        assert target.stat().st_size == 0


def test_read_commands_leave_the_file_exactly_as_they_found_it(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db_path = folder / "agentmem.db"
    _filled(db_path, sessions=3, messages=5)
    before, files = _digest(db_path), _listing(folder)
    assert files == ["agentmem.db"]
    for args in _READS:
        out = run_cli(*args, "--db", str(db_path), env={"AGENTMEM_PRINCIPAL": "alice"})
        assert out.returncode == 0, (args, out.stderr)
        assert _digest(db_path) == before and _listing(folder) == files, args


def test_read_commands_work_on_read_only_media(run_cli, tmp_path: Path) -> None:
    backup = tmp_path / "backup"
    backup.mkdir()
    db_path = backup / "agentmem.db"
    _filled(db_path, sessions=3, messages=5)
    before = _digest(db_path)
    with agentmem.open(str(db_path), readonly=True) as store:
        stored = store.status().events
    alice = {"AGENTMEM_PRINCIPAL": "alice"}
    with _read_only(backup):
        for args in _READS:
            out = run_cli(*args, "--db", str(db_path), env=alice)
            assert out.returncode == 0, (args, out.stderr)
        listed = run_cli("event", "list", "--json", "--db", str(db_path), env=alice)
        assert len(listed.stdout.splitlines()) == stored > 3 * 6
        found = run_cli("beliefs", "search", "lisbon", "--json", "--db", str(db_path), env=alice)
        assert json.loads(found.stdout)[0]["statement"] == "User lives in Lisbon"
        with agentmem.open(str(db_path), readonly=True) as store:
            assert store.session("s1", principal="alice").user_message_count == 5
            assert store.check() == []
        # Writing is refused in one line, before SQLite creates anything.
        append = json.dumps(run_started("r9", session="s9"))
        refused = run_cli("event", "append", append, "--db", str(db_path), env=alice)
        assert refused.returncode == 2 and "read-only" in refused.stderr
        assert refused.stderr.count("\n") == 1
        assert _listing(backup) == ["agentmem.db"] and _digest(db_path) == before


def test_readonly_store_refuses_writes_and_never_creates(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    with pytest.raises(agentmem.UsageError, match="no agentmem database") as info:
        agentmem.open(str(missing), readonly=True)
    assert info.value.exit_code == 2 and not missing.exists()
    db_path = tmp_path / "agentmem.db"
    agentmem.open(str(db_path)).close()
    with agentmem.open(str(db_path), readonly=True) as store:
        assert store.readonly and store.status().events == 0
        with pytest.raises(agentmem.UsageError, match="read-only"):
            store.append(run_started())
        with pytest.raises(agentmem.UsageError, match="read-only"):
            store.grant_consent("alice")
    with agentmem.open(str(db_path), readonly=True) as store:
        assert store.status().events == 0


# -- item 8: SQLite failures are errors of the tree ------------------------------------------


def _corrupt_table(db_path: Path, table: str) -> None:
    """Overwrite every page of ``table`` with garbage (the header page stays intact)."""
    conn = apsw.Connection(str(db_path))
    page_size = conn.pragma("page_size")
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name = ?", (table,))]
    conn.close()
    assert pages and 1 not in pages
    with db_path.open("r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * page_size)
            handle.write(b"\xa5" * page_size)


def test_a_damaged_file_is_a_clear_error_and_nothing_more_is_written(
    run_cli, db_path: Path
) -> None:
    _filled(db_path, sessions=3, messages=20)
    _corrupt_table(db_path, "events")
    before = _digest(db_path)
    db = ("--db", str(db_path))
    alice = {"AGENTMEM_PRINCIPAL": "alice"}
    listed = run_cli("event", "list", *db, env=alice)
    assert listed.returncode == 12, listed.stderr
    assert listed.stderr.count("\n") == 1 and "damaged" in listed.stderr
    assert "agentmem db check" in listed.stderr and "internal error" not in listed.stderr
    append = json.dumps(user_msg("more", session="s1", run="r1"))
    refused = run_cli("event", "append", append, *db, env=alice)
    assert refused.returncode == 12, refused.stderr
    assert _digest(db_path) == before
    check = run_cli("db", "check", *db)
    assert check.returncode == 1 and "integrity" in check.stdout, check.stderr
    # A Store that met the damage refuses every later write, even one that would succeed.
    with agentmem.open(str(db_path), principal="alice") as store:
        with pytest.raises(agentmem.DatabaseCorrupt) as info:
            list(store.events())
        assert info.value.exit_code == 12
        with pytest.raises(agentmem.DatabaseCorrupt, match="writes nothing more"):
            store.grant_consent("alice")
    assert _digest(db_path) == before


def test_a_full_database_is_a_clear_error_and_writes_nothing(db_path: Path) -> None:
    _filled(db_path, sessions=1, messages=5)
    with agentmem.open(str(db_path), principal="alice") as store:
        events = store.status().events
        # A file-size limit: SQLite reports it exactly as it reports a full disk.
        store.conn.pragma("max_page_count", store.conn.pragma("page_count"))
        big = [run_started("r-big", session="s-big")] + [
            user_msg("x" * 4000, session="s-big", run="r-big") for _ in range(50)
        ]
        with pytest.raises(agentmem.DiskFull, match="nothing was written") as info:
            store.append_many(big)
        assert info.value.exit_code == 11 and info.value.http_status == 507
        assert store.status().events == events  # the store stays usable
        store.append(run_started("r-small", session="s-small"))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MiB file system of its own, so the disk can really be filled."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_a_clear_error_and_reads_still_work(run_cli, small_disk: Path) -> None:
    db_path = small_disk / "agentmem.db"
    _filled(db_path, sessions=2, messages=5)
    db = ("--db", str(db_path))
    alice = {"AGENTMEM_PRINCIPAL": "alice"}
    with agentmem.open(str(db_path), principal="alice") as holder:  # keeps -wal and -shm
        holder.append(user_msg("warm", session="s1", run="r1"))
        events = holder.status().events
        filler = small_disk / "filler"
        with filler.open("wb") as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        big = json.dumps(user_msg("y" * 200_000, session="s1", run="r1"))
        full = run_cli("event", "append", *db, input=big, env=alice)
        assert full.returncode == 11, full.stderr
        assert full.stderr.count("\n") == 1 and "no space left" in full.stderr
        assert "internal error" not in full.stderr
        status = run_cli("status", *db, env=alice)
        assert status.returncode == 0, status.stderr
        filler.unlink()
        assert holder.status().events == events  # nothing of the failed append
    assert run_cli("event", "append", *db, input=big, env=alice).returncode == 0


def test_a_store_may_be_shared_between_threads(db_path: Path) -> None:
    errors: list[BaseException] = []
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())

        def worker(n: int) -> None:
            try:
                for i in range(40):
                    store.append(user_msg(f"thread {n} message {i}"))
                    assert sum(1 for _ in store.events(session_id="s1")) >= 2
                    store.session("s1")
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.session("s1").user_message_count == 6 * 40
        assert store.check() == []


def test_a_transaction_in_one_thread_never_absorbs_another_threads_write(db_path: Path) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())
        inside, other_done = threading.Event(), threading.Event()

        def other() -> None:
            inside.wait(10)
            store.append(user_msg("kept"))  # waits for the transaction below to end
            other_done.set()

        thread = threading.Thread(target=other)
        thread.start()
        with pytest.raises(RuntimeError), store.transaction():
            store.append(user_msg("rolled back"))
            inside.set()
            assert not other_done.wait(0.3)
            raise RuntimeError("abandon the transaction")
        thread.join()
        texts = [e.text for e in store.events(session_id="s1") if hasattr(e, "text")]
        assert texts == ["kept"]


class _LockedWhileOpening(apsw.Connection):
    """An SQLite handle whose open meets another connection's lock the first ``busy`` times
    (the cipher build reads the file while it opens it, with no busy handler yet)."""

    busy = 0

    def __init__(self, *args, **kwargs) -> None:
        if type(self).busy > 0:
            type(self).busy -= 1
            raise apsw.BusyError("database is locked")
        super().__init__(*args, **kwargs)


@pytest.mark.parametrize("readonly", [False, True])
def test_opening_waits_out_a_lock_met_while_the_file_is_opened(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, readonly: bool
) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())
    monkeypatch.setattr(apsw, "Connection", _LockedWhileOpening)
    _LockedWhileOpening.busy = 3
    with agentmem.open(str(db_path), principal="alice", readonly=readonly) as store:
        assert store.status().events == 1
    assert _LockedWhileOpening.busy == 0


def test_a_lock_held_past_the_busy_timeout_while_opening_is_database_busy(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())
    before = db_path.read_bytes()
    monkeypatch.setenv("AGENTMEM_BUSY_TIMEOUT_MS", "50")
    monkeypatch.setattr(apsw, "Connection", _LockedWhileOpening)
    _LockedWhileOpening.busy = 10**6
    with pytest.raises(agentmem.DatabaseBusy) as caught:
        agentmem.open(str(db_path), principal="alice")
    assert "stayed locked by another connection" in str(caught.value)
    assert "\n" not in str(caught.value)
    monkeypatch.undo()
    assert db_path.read_bytes() == before
