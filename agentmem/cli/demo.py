"""``agentmem demo``: the one command that shows a newcomer what agentmem does."""

from __future__ import annotations

import tempfile
from pathlib import Path

from agentmem._resources import data_path
from agentmem.cli._common import DbOpt, print_table
from agentmem.events import decode_client_event
from agentmem.store import Store


def _section(title: str) -> None:
    print()
    print(f"== {title} ==")


def demo(*, db: DbOpt = None) -> None:
    """Import the bundled sample conversation into a fresh database and walk through it.

    Without ``--db`` the database lives in a new temporary directory, so the demo never
    touches your real store.
    """
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="agentmem-demo-")) / "agentmem.db"
    sample = data_path("corpus") / "sample" / "sample.jsonl"
    events = [
        decode_client_event(line)
        for line in sample.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with Store.open(str(db), create=True) as store:
        result = store.append_many(events)
        print(f"database: {store.path}")
        print(
            f"imported {result.imported} events from the sample conversation "
            f"({result.duplicates} already present)"
        )

        _section("sessions (projection maintained by SQL triggers)")
        print_table(
            ["session", "principal", "status", "events", "user msgs", "runs"],
            [
                (
                    s.session_id,
                    s.principal,
                    s.status,
                    s.event_count,
                    s.user_message_count,
                    s.run_count,
                )
                for s in store.sessions()
            ],
        )

        _section("runs (outcome, failure class, parent run, tools offered)")
        rows = []
        for r in store.runs():
            tools = ", ".join(name for name, _ in store.run(r.run_id).tools) or "-"
            rows.append((r.run_id, r.parent_run_id, r.outcome, r.failure_class, tools))
        print_table(["run", "parent", "outcome", "failure class", "tools"], rows)

        _section("the append-only log refuses rewrites, whoever the client is")
        try:
            store.conn.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
        except Exception as exc:  # apsw.ConstraintError from the trigger
            print(f"UPDATE events ... -> refused by SQLite: {exc}")

        _section("replaying the import is idempotent")
        again = store.append_many(events)
        print(f"imported {again.imported} new events, recognised {again.duplicates} duplicates")

        _section("projections rebuilt from the log equal the incremental ones")
        problems = store.check()
        print("ok" if not problems else "\n".join(problems))
    print()
    print(f"Explore it yourself: agentmem event list --db {db}")
