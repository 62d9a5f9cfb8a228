"""``agentmem erase session|principal`` and ``agentmem db backup|restore``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from cyclopts import Parameter

from agentmem.cli.common import (
    DbOpt,
    JsonOpt,
    SessionArg,
    command,
    db_args,
    flag,
    open_store,
    print_fields,
    print_json,
    progress,
    read_store,
    resolve_settings,
    terminal_safe,
)
from agentmem.errors import UsageError

if TYPE_CHECKING:
    from agentmem.backup import BackupInfo
    from agentmem.erasure import ErasureReport

YesOpt = Annotated[bool, flag("Erase without asking for confirmation.", name="--yes")]
DryRunOpt = Annotated[bool, flag("Print what would be erased; change nothing.", name="--dry-run")]
ForceOpt = Annotated[
    bool,
    flag("Replace an existing database (it is kept aside as NAME.replaced-TIME).", name="--force"),
]


def session(
    session_id: SessionArg,
    /,
    *,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Erase a session: its events, projections, beliefs formed from it and its exports.

    One content-free ``erasure`` event stays in the log. Backups made before are not reached.
    """
    _erase("session", session_id, yes=yes, dry_run=dry_run, db=db, json=json)


def principal(
    principal_id: Annotated[str, Parameter(help="The principal whose every trace is erased.")],
    /,
    *,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Erase a principal: every event, session, run, belief, consent record and artifact of theirs.

    One content-free ``erasure`` event stays in the log. Backups made before are not reached.
    """
    _erase("principal", principal_id, yes=yes, dry_run=dry_run, db=db, json=json)


def _erase(
    scope: str, subject: str, *, yes: bool, dry_run: bool, db: Path | None, json: bool
) -> None:
    with open_store(db) as store:
        erase = store.erase_session if scope == "session" else store.erase_principal
        if not (yes or dry_run):
            preview = erase(subject, dry_run=True)
            if not preview.already_erased:
                _confirm(preview)
        with progress("erasing", enabled=not json, unit="steps") as update:
            report = erase(subject, dry_run=dry_run, progress=update)
    if json:
        print_json(report)
        return
    shown = terminal_safe(repr(subject))
    if report.already_erased:
        print(f"{scope} {shown} was erased earlier; the -wal file is emptied again")
        return
    verb = "would erase" if report.dry_run else "erased"
    where = f" (erasure event seq {report.erasure_seq})" if report.erasure_seq else ""
    print(f"{verb} {scope} {shown}{where}:")
    print_fields([(name, count) for name, count in report.counts.items()])
    if not report.dry_run:
        print("backups and copies made before this erasure still hold it")


def _confirm(preview: ErasureReport) -> None:
    counts = ", ".join(f"{count} {name}" for name, count in preview.counts.items() if count)
    subject = terminal_safe(repr(preview.subject))
    sys.stderr.write(f"This erases {preview.scope} {subject} for good: {counts}.\nErase it? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        raise UsageError("not confirmed; nothing was erased (pass --yes to skip the question)")


def backup(
    path: Annotated[Path, Parameter(help="The backup file to write.")],
    /,
    *,
    vacuum: Annotated[
        bool,
        flag("Write a compact copy (VACUUM INTO).", name="--vacuum"),
    ] = False,
    force: Annotated[bool, flag("Overwrite an existing file at PATH.", name="--force")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Copy the database to PATH while agents keep writing; the copy is checked before success.

    It records the log position it covers. Erasing later does not reach this copy.
    """
    with read_store(db) as store, progress("backing up", enabled=not json, unit="pages") as update:
        info = store.backup(path, vacuum=vacuum, overwrite=force, progress=update)
    if json:
        print_json(info)
        return
    print(f"backed up {store.path} to {terminal_safe(info.path)}: checked")
    _print_info(info)


def restore(
    path: Annotated[Path, Parameter(help="The backup file to restore from.")],
    /,
    *,
    force: ForceOpt = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Replace the database with the backup at PATH, after checking the backup.

    A file that is not an agentmem database, is damaged or is newer than this version is refused
    and nothing changes; an existing database is replaced only with --force, and kept aside.
    """
    from agentmem.backup import restore as run_restore
    from agentmem.errors import Conflict

    settings = resolve_settings(db, create=True)
    target = settings.db_path()
    try:
        with progress("restoring", enabled=not json, unit="pages") as update:
            info, kept = run_restore(target, path, replace=force, progress=update)
    except Conflict as exc:
        raise Conflict(
            f"{exc.message}; to replace it (it is kept aside): "
            + command("db", "restore", str(path), "--force", *db_args(settings))
        ) from exc
    if json:
        print_json({"restored": info, "replaced_kept_at": str(kept) if kept else None})
        return
    print(f"restored {target} from {terminal_safe(str(path))}")
    _print_info(info)
    if kept is not None:
        print(f"the database it replaced is kept at {kept}")


def _print_info(info: BackupInfo) -> None:
    print_fields(
        [
            ("events", info.events),
            ("through seq", info.through_seq),
            ("backed up at", info.backup_created_at),
            ("schema", info.schema_version),
            ("size", f"{info.size:,} bytes"),
        ]
    )


def encrypt(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Encrypt the database in place (SQLite3 Multiple Ciphers, ChaCha20-Poly1305).

    The key is read from the file named by AGENTMEM_KEY_FILE, or made at random and kept in
    the OS keyring under the database's path. Stop every agent using the file first.
    """
    _convert(db, json, encrypt=True)


def decrypt(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Turn an encrypted database back into a plain SQLite file, in place."""
    _convert(db, json, encrypt=False)


def _convert(db: Path | None, json: bool, *, encrypt: bool) -> None:
    from agentmem.encryption import CIPHER, convert

    path = convert(resolve_settings(db).db_path(), encrypt=encrypt)
    cipher = CIPHER if encrypt else None
    if json:
        print_json({"path": str(path), "encrypted": encrypt, "cipher": cipher})
    elif encrypt:
        print(f"encrypted {path} ({cipher}); without its key the file cannot be read")
    else:
        print(f"decrypted {path}: it is a plain SQLite file again")
