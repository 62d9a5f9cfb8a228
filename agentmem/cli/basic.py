"""``agentmem init`` and ``agentmem status``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec

from agentmem.cli.common import (
    DbOpt,
    JsonOpt,
    command,
    db_args,
    flag,
    open_store,
    plural,
    print_fields,
    print_json,
    read_store,
    resolve_settings,
)
from agentmem.errors import UsageError

if TYPE_CHECKING:
    from agentmem.log import BeliefCounts

EncryptOpt = Annotated[
    bool,
    flag(
        "Create the file encrypted (needs the encryption extra; key from AGENTMEM_KEY_FILE "
        "or a new random key in the OS keyring).",
        name="--encrypt",
    ),
]


def init(*, encrypt: EncryptOpt = False, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Create the database file with the current schema (safe to repeat: an existing database
    is kept as it is, upgraded to the current schema if it is older).

    The only command that also creates a missing directory for ``--db``.
    """
    from agentmem.encryption import convert, file_state, key_for, require_cipher

    if encrypt:
        require_cipher("creating an encrypted database")
    settings = resolve_settings(db, create=True, create_parents=True)
    target = Path(settings.db_path())
    existed = target.is_file() and target.stat().st_size > 0
    if encrypt and existed and file_state(target) == "plain":
        raise UsageError(
            f"{target} already exists unencrypted; encrypt it with: "
            + command("db", "encrypt", *db_args(settings))
        )
    if encrypt:
        key_for(target, create=True)  # no key to be had: refused before a file exists
    with open_store(db, create=True, create_parents=True) as store:
        info = store.status()
    if encrypt and file_state(target) == "plain":
        convert(target, encrypt=True)
    if json:
        print_json(
            {"db_path": info.db_path, "schema_version": info.schema_version, "created": not existed}
        )
    elif existed:
        print(
            f"{info.db_path} already exists (schema version {info.schema_version}, "
            f"{plural(info.events, 'event')}); nothing changed"
        )
    else:
        print(f"initialized {info.db_path} (schema version {info.schema_version})")


def status(*, db: DbOpt = None, json: JsonOpt = False) -> int:
    """Show the database, what it holds, and which memory-formation policy is active and why.

    Exits 8 when provider assistance is ``required`` but no matching evidence activates it.
    """
    from agentmem.backup import backup_stamp
    from agentmem.encryption import describe as cipher_of
    from agentmem.errors import EvidenceMismatch
    from agentmem.memory.composition import describe

    with read_store(db) as store:
        info = store.status()
        cipher = cipher_of(store.conn, store.path)
        copy_of = backup_stamp(store.conn)
        try:
            formation = describe(store)
            refused = None
        except EvidenceMismatch as exc:
            formation = {
                "mode": "required",
                "formation_policy": None,
                "decision": "refused",
                "reason": exc.message,
            }
            refused = exc
    if json:
        print_json(
            {
                **msgspec.to_builtins(info),
                "formation": formation,
                "encryption": cipher,
                "backup": copy_of,
            }
        )
    else:
        print_fields(
            [
                ("database", info.db_path),
                ("schema", info.schema_version),
                ("events", f"{info.events:,}"),
                ("sessions", f"{info.sessions:,} ({info.open_sessions:,} open)"),
                ("runs", f"{info.runs:,}"),
                ("beliefs", _beliefs(info.beliefs)),
                ("artifacts", _artifacts(info.artifacts, info.expired_artifacts)),
                ("synchronous", info.synchronous),
                ("encryption", cipher or "none"),
                *(
                    [
                        (
                            "backup of",
                            f"the log through seq {copy_of['through_seq']}, "
                            f"taken {copy_of['created_at']}",
                        )
                    ]
                    if copy_of
                    else []
                ),
                ("provider assistance", formation["mode"]),
                ("formation policy", formation["formation_policy"] or "- (refused)"),
                ("decision", formation["decision"]),
                ("reason", formation["reason"]),
            ]
        )
    return refused.exit_code if refused is not None else 0


def _beliefs(counts: BeliefCounts) -> str:
    return (
        f"{counts.active:,} active, {counts.superseded:,} superseded, "
        f"{counts.forgotten:,} forgotten"
    )


def _artifacts(count: int, expired: int) -> str:
    """The artifact count, and how many of them are expired: unreadable already, and on disk
    until a sweep deletes them."""
    if not expired:
        return f"{count:,}"
    return f"{count:,} ({expired:,} expired; 'agentmem artifacts sweep' deletes them)"
