"""``agentmem init`` and ``agentmem status``."""

from __future__ import annotations

import msgspec

from agentmem.cli._common import DbOpt, JsonOpt, open_store, print_fields, print_json


def init(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Create the database file with the current schema (safe to repeat)."""
    with open_store(db, create=True) as store:
        info = store.status()
    if json:
        print_json({"db_path": info.db_path, "schema_version": info.schema_version})
    else:
        print(f"initialized {info.db_path} (schema version {info.schema_version})")


def status(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Show where the database is, its schema version and what it holds."""
    with open_store(db) as store:
        info = store.status()
    if json:
        print_json(msgspec.to_builtins(info))
        return
    print_fields(
        [
            ("database", info.db_path),
            ("schema", info.schema_version),
            ("events", info.events),
            ("sessions", f"{info.sessions} ({info.open_sessions} open)"),
            ("runs", info.runs),
            ("artifacts", info.artifacts),
            ("synchronous", info.synchronous),
        ]
    )
