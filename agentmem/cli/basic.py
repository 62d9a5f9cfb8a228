"""``agentmem init`` and ``agentmem status``."""

from __future__ import annotations

import msgspec

from agentmem.cli._common import DbOpt, JsonOpt, open_store, print_fields, print_json, read_store


def init(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Create the database file with the current schema (safe to repeat).

    The only command that also creates a missing directory for ``--db``.
    """
    with open_store(db, create=True, create_parents=True) as store:
        info = store.status()
    if json:
        print_json({"db_path": info.db_path, "schema_version": info.schema_version})
    else:
        print(f"initialized {info.db_path} (schema version {info.schema_version})")


def status(*, db: DbOpt = None, json: JsonOpt = False) -> int:
    """Show the database, what it holds, and which memory-formation policy is active and why.

    Exits 8 when provider assistance is ``required`` but no matching evidence activates it.
    """
    from agentmem.errors import EvidenceMismatch
    from agentmem.memory.composition import describe

    with read_store(db) as store:
        info = store.status()
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
        print_json({**msgspec.to_builtins(info), "formation": formation})
    else:
        print_fields(
            [
                ("database", info.db_path),
                ("schema", info.schema_version),
                ("events", info.events),
                ("sessions", f"{info.sessions} ({info.open_sessions} open)"),
                ("runs", info.runs),
                ("artifacts", info.artifacts),
                ("synchronous", info.synchronous),
                ("provider assistance", formation["mode"]),
                ("formation policy", formation["formation_policy"] or "- (refused)"),
                ("decision", formation["decision"]),
                ("reason", formation["reason"]),
            ]
        )
    return refused.exit_code if refused is not None else 0
