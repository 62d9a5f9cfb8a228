"""Online backup and verified restore of one agentmem database file.

A backup goes through SQLite's backup API (or ``VACUUM INTO`` for a compact copy), which reads
a consistent snapshot while agents keep writing (WAL: readers never block writers). The copy is
written beside its destination under a temporary name, checked (SQLite's integrity check, the
agentmem application id, a schema version this code knows), stamped with the log position it
covers, switched to a self-contained rollback journal, and only then renamed into place: a
failed or interrupted backup never leaves a file that looks finished.

A restore checks its source the same way before it writes a byte, keeps the database it
replaces aside (an online copy, beside it), and copies the backup into the live file through the
backup API, so other connections see either the old or the restored database, never a mix.
Erasure (agentmem.erasure) cannot reach a backup made before it: restoring one brings the erased
data back, which is why ``through_seq`` is recorded and shown.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import apsw
import msgspec

from agentmem import db, encryption
from agentmem.errors import (
    Conflict,
    DatabaseCorrupt,
    EncryptionUnavailable,
    NotADatabase,
    SchemaTooNew,
    UsageError,
)

if TYPE_CHECKING:
    from agentmem.log import EventLog

__all__ = ["BackupInfo", "backup", "backup_stamp", "inspect", "restore"]

#: Pages copied per step of the backup API: about 4 MiB with 4 KiB pages, so a progress bar
#: moves on large files while each step stays short.
STEP_PAGES = 1024
#: A writer committing between steps makes SQLite restart the copy; after this many restarts
#: the rest is copied in one step (one read snapshot, which writers in WAL mode do not wait for).
MAX_RESTARTS = 3

#: (pages done, pages in total), called after each step.
Progress = Callable[[int, int], None]


class BackupInfo(msgspec.Struct, frozen=True):
    """A verified backup (or restore source): where, how big, and what of the log it holds.

    ``through_seq`` is the newest event in the copy; ``backup_created_at`` when the copy was
    made (``None`` for a file that was never made by :func:`backup`).
    """

    path: str
    size: int
    schema_version: int
    events: int
    through_seq: int
    backup_created_at: str | None = None
    vacuumed: bool = False


def backup(
    log: EventLog,
    destination: str | os.PathLike[str],
    *,
    vacuum: bool = False,
    overwrite: bool = False,
    progress: Progress | None = None,
) -> BackupInfo:
    """Copy the open database to ``destination`` while writers go on; returns the checked copy.

    ``vacuum`` writes a compact copy (``VACUUM INTO``: free pages left out, one step). An
    existing ``destination`` is refused unless ``overwrite``; it is replaced only once the new
    copy has passed its checks.
    """
    import secrets

    target = Path(destination)
    if target.is_dir():
        raise UsageError(f"{target} is a directory; name the backup file to write")
    if target.exists() and not overwrite:
        raise Conflict(f"{target} already exists; nothing was written (choose another path)")
    if not target.parent.is_dir():
        raise UsageError(f"directory {target.parent} does not exist; nothing was written")
    if _same_file(target, Path(log.path)):
        raise UsageError("a backup cannot overwrite the database it copies")
    partial = target.with_name(f".{target.name}.partial-{secrets.token_hex(4)}")
    try:
        if vacuum:
            with _mapped(log.path), _writable(log.conn):
                log.conn.execute("VACUUM INTO ?", (str(partial),))
            if progress is not None:
                progress(1, 1)
        else:
            with _open_plain(partial) as copy:
                _key_like(copy, partial, log.path)
                _copy(copy, log.conn, progress)
        info = _finish(partial, vacuum=vacuum, owner=log.path)
        os.replace(partial, target)
        _fsync_dir(target.parent)
    finally:
        for leftover in [partial, *(Path(f"{partial}-{x}") for x in ("journal", "wal", "shm"))]:
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return msgspec.structs.replace(info, path=str(target))


def inspect(path: str | os.PathLike[str], *, owner: str | None = None) -> BackupInfo:
    """Check a file as a restore source, writing nothing; :class:`NotADatabase`,
    :class:`SchemaTooNew` or :class:`DatabaseCorrupt` when it cannot be restored. An encrypted
    file is opened with its own key, else with the key of ``owner`` (the database it backs up).
    """
    source = Path(path)
    if not source.is_file():
        raise UsageError(f"no file at {source}")
    with _open_readonly(source) as conn:
        encryption.unlock_as(conn, source, *([owner] if owner else []))
        return _verify(conn, source)


def restore(
    log_path: str | os.PathLike[str],
    source: str | os.PathLike[str],
    *,
    replace: bool = False,
    progress: Progress | None = None,
) -> tuple[BackupInfo, Path | None]:
    """Make the database at ``log_path`` a copy of the backup at ``source``.

    ``source`` is checked first; a bad one changes nothing. An existing agentmem database at
    ``log_path`` is replaced only with ``replace``, and an online copy of it is kept aside
    first (its path is returned). Returns the restored file's info and that path.
    """
    target = Path(log_path)
    info = inspect(source, owner=str(target))
    if _same_file(target, Path(source)):
        raise UsageError("a backup cannot be restored onto itself")
    kept: Path | None = None
    if target.exists() and target.stat().st_size > 0:
        if not replace:
            raise Conflict(
                f"{target} already holds a database; it was not replaced "
                "(restoring over a live database must be asked for explicitly)"
            )
        with contextlib.closing(db.connect(target, create=False)) as live:
            kept = target.with_name(f"{target.name}.replaced-{_stamp(live)}")
            with _open_plain(kept) as aside:
                _key_like(aside, kept, str(target))
                _copy(aside, live, None)
            _finish(kept, vacuum=False, owner=str(target))
    with contextlib.closing(apsw.Connection(str(source), flags=apsw.SQLITE_OPEN_READONLY)) as src:
        encryption.unlock_as(src, source, str(target))
        dest = apsw.Connection(str(target))
        try:
            dest.set_busy_timeout(10_000)
            with _mapped(str(target)):
                if encryption.file_state(target) in ("missing", "empty"):
                    _key_like(dest, target, str(source))
                else:
                    encryption.unlock_as(dest, target)
                _copy(dest, src, progress)
        finally:
            dest.close()
    # Opening it the agentmem way sets WAL again and upgrades an older schema.
    with contextlib.closing(db.connect(target, create=False)) as restored:
        problems = [row[0] for row in restored.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:  # pragma: no cover - the source passed the same check
            raise DatabaseCorrupt(f"{target} failed its integrity check after the restore")
    return msgspec.structs.replace(info, path=str(target), size=target.stat().st_size), kept


def backup_stamp(conn: apsw.Connection) -> dict[str, object] | None:
    """What a file made by :func:`backup` records about itself (the log position it covers and
    when it was taken), or ``None`` for a database that is not such a copy."""
    rows: dict[str, object] = {
        str(key): value
        for key, value in conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('backup_through_seq', 'backup_created_at')"
        )
    }
    if "backup_through_seq" not in rows:
        return None
    return {"through_seq": rows["backup_through_seq"], "created_at": rows.get("backup_created_at")}


def _copy(dest: apsw.Connection, source: apsw.Connection, progress: Progress | None) -> None:
    """Copy ``source`` into ``dest`` with the backup API, in steps while that makes progress."""
    restarts = 0
    last_remaining: int | None = None
    with dest.backup("main", source, "main") as job:
        while not job.done:
            pages = -1 if restarts >= MAX_RESTARTS else STEP_PAGES
            job.step(pages)
            if last_remaining is not None and job.remaining > last_remaining:
                restarts += 1  # a writer committed between steps: SQLite starts over
            last_remaining = job.remaining
            if progress is not None:
                progress(job.page_count - job.remaining, job.page_count)


def _key_like(conn: apsw.Connection, path: Path, original: str) -> None:
    """Key a new copy like the encrypted file it copies (the backup API needs the same cipher
    on both sides, and a copy of an encrypted database must not be readable without its key)."""
    if encryption.file_state(original) == "encrypted":
        key = encryption.key_for(original)
        if key is None:
            raise EncryptionUnavailable(f"no key found for {original}; nothing was written")
        encryption.apply_key(conn, key, path)


def _finish(path: Path, *, vacuum: bool, owner: str) -> BackupInfo:
    """Verify a fresh copy, stamp it, make it one self-contained file; its info."""
    with _open_plain(path) as conn:
        encryption.unlock_as(conn, path, owner)
        info = _verify(conn, path)
        stamp = str(conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").get)
        with conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('backup_through_seq', ?), "
                "('backup_created_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (info.through_seq, stamp),
            )
        conn.pragma("journal_mode", "delete")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return msgspec.structs.replace(
        info, size=path.stat().st_size, backup_created_at=stamp, vacuumed=vacuum
    )


def _verify(conn: apsw.Connection, path: Path) -> BackupInfo:
    try:
        app_id = conn.pragma("application_id")
        version = conn.pragma("user_version")
    except apsw.NotADBError as exc:
        raise NotADatabase(f"{path} is not an SQLite database; nothing was changed") from exc
    if app_id != db.APPLICATION_ID:
        raise NotADatabase(f"{path} is not an agentmem database; nothing was changed")
    if version > db.SCHEMA_VERSION:
        raise SchemaTooNew(
            f"{path} has schema version {version}, newer than this agentmem supports "
            f"({db.SCHEMA_VERSION}); nothing was changed (upgrade agentmem)"
        )
    try:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    except (apsw.CorruptError, apsw.NotADBError) as exc:
        raise DatabaseCorrupt(f"{path} is damaged ({exc}); nothing was changed") from exc
    if problems != ["ok"]:
        raise DatabaseCorrupt(
            f"{path} is damaged: it failed SQLite's integrity check ({problems[0]}); "
            "nothing was changed"
        )
    events, through = conn.execute("SELECT count(*), coalesce(max(seq), 0) FROM events").get
    created = conn.execute("SELECT value FROM meta WHERE key = 'backup_created_at'").fetchall()
    return BackupInfo(
        str(path),
        path.stat().st_size,
        version,
        events,
        through,
        backup_created_at=str(created[0][0]) if created else None,
    )


@contextlib.contextmanager
def _open_plain(path: Path) -> Iterator[apsw.Connection]:
    conn = apsw.Connection(str(path))
    try:
        conn.set_busy_timeout(10_000)
        with _mapped(str(path)):
            yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def _open_readonly(path: Path) -> Iterator[apsw.Connection]:
    try:
        conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    except apsw.Error as exc:
        raise NotADatabase(
            f"cannot open {path} as a database ({exc}); nothing was changed"
        ) from exc
    try:
        with _mapped(str(path)):
            yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def _mapped(path: str) -> Iterator[None]:
    """SQLite failures a user can meet, as errors of the tree."""
    try:
        yield
    except apsw.NotADBError as exc:
        raise NotADatabase(f"{path} is not an SQLite database; nothing was changed") from exc
    except apsw.Error as exc:
        mapped = db.translate(exc, path)
        if mapped is None:
            raise
        raise mapped from exc


@contextlib.contextmanager
def _writable(conn: apsw.Connection) -> Iterator[None]:
    """``VACUUM INTO`` writes only the new file, but ``query_only`` (a read-only Store) refuses
    it as a statement that writes; lift it for that one statement."""
    query_only = conn.pragma("query_only")
    if query_only:
        conn.pragma("query_only", False)
    try:
        yield
    finally:
        if query_only:
            conn.pragma("query_only", True)


def _stamp(conn: apsw.Connection) -> str:
    import secrets

    text = conn.execute("SELECT strftime('%Y%m%dT%H%M%SZ', 'now')").get
    return f"{text}-{secrets.token_hex(2)}"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a directory
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
