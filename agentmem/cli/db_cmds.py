"""``agentmem db check|rebuild-projections``."""

from __future__ import annotations

from agentmem.cli.common import (
    DbOpt,
    JsonOpt,
    command,
    db_args,
    open_store,
    print_json,
    progress,
    read_store,
)
from agentmem.errors import StoreError


def check(*, db: DbOpt = None, json: JsonOpt = False) -> int:
    """Run SQLite's integrity check and compare every projection with a rebuild from the log.

    Exits 1 when a problem is found; the file is never modified.
    """
    with (
        progress("checking the database", enabled=not json, unit="events") as update,
        read_store(db) as store,
    ):
        problems = store.check(progress=update)
    if json:
        print_json({"ok": not problems, "problems": problems})
    elif problems:
        for problem in problems:
            print(problem)
        if any(p.startswith("projection ") for p in problems):
            hint = command("db", "rebuild-projections", *db_args(store))
            print(f"the projections are rebuilt from the log with: {hint}")
    else:
        print("ok: integrity check passed; projections match the log")
    return 1 if problems else 0


def rebuild_projections(*, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Rebuild sessions, runs, run tools and consent from the event log in one transaction."""
    with open_store(db) as store:
        store.rebuild_projections()
        problems = store.check()
    if problems:
        raise StoreError("rebuild finished but the check still fails: " + "; ".join(problems))
    if json:
        print_json({"rebuilt": True})
    else:
        print("rebuilt projections from the log")
