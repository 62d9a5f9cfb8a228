"""Storage benchmarks: agentmem against raw apsw on the same machine, data and run.

Run from a checkout: ``python benchmarks/storage.py [--quick]``. Every row is a ratio measured
in this run against a baseline measured in this run, so the numbers travel between machines
better than absolute timings do. Higher is better for throughput rows; for the start-up row,
lower is better (it is a time ratio).

Baselines:
- durable single appends: raw apsw autocommit INSERTs into a table with the same columns,
  WAL and the same ``synchronous`` level (FULL, agentmem's default);
- bulk import: raw apsw ``executemany`` of pre-built rows in one transaction, against
  ``Store.append_many`` fed from JSONL text (decode, validation, hashing, triggers included);
- session read: raw apsw rows of one session plus ``msgspec.json.decode`` of each payload,
  against ``Store.events(session_id=...)`` returning typed, validated structs;
- start-up: ``python -c "import cyclopts, apsw, msgspec"`` against ``agentmem status``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import apsw  # noqa: E402
import msgspec  # noqa: E402

import agentmem  # noqa: E402
from agentmem.events import decode_client_event  # noqa: E402

RAW_SCHEMA = """
CREATE TABLE events (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
  session_id TEXT, run_id TEXT, principal TEXT NOT NULL, payload TEXT NOT NULL,
  content_hash TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX events_by_session ON events (session_id, seq);
"""


def raw_connection(path: Path) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.pragma("journal_mode", "wal")
    conn.pragma("synchronous", "FULL")
    conn.execute(RAW_SCHEMA)
    return conn


def message(i: int, session: str = "s1", run: str = "r1") -> dict:
    return {
        "type": "user.message.created" if i % 2 else "assistant.message.created",
        "session_id": session,
        "run_id": run,
        "principal": "alice",
        "event_id": f"{session}-e{i:07d}",
        "text": f"message number {i}: the quick brown fox jumps over the lazy dog " * 2,
    }


def raw_row(i: int, session: str = "s1", run: str = "r1") -> tuple:
    ev = message(i, session, run)
    payload = msgspec.json.encode({"text": ev["text"]}).decode()
    return (
        ev["event_id"],
        ev["type"],
        session,
        run,
        "alice",
        payload,
        "0" * 64,
        "2026-01-01T00:00:00.000Z",
    )


RAW_INSERT = (
    "INSERT INTO events (event_id, type, session_id, run_id, principal, payload, content_hash,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def best_of(fn, repeats: int) -> float:
    return min(fn() for _ in range(repeats))


def bench_single_appends(tmp: Path, n: int) -> tuple[float, float]:
    def ours() -> float:
        path = tmp / f"single-{time.perf_counter_ns()}.db"
        with agentmem.open(str(path)) as store:
            store.append(
                {"type": "run.started", "session_id": "s1", "run_id": "r1", "principal": "alice"}
            )
            events = [decode_client_event(msgspec.json.encode(message(i))) for i in range(n)]
            start = time.perf_counter()
            for ev in events:
                store.append(ev)
            return time.perf_counter() - start

    def raw() -> float:
        conn = raw_connection(tmp / f"raw-single-{time.perf_counter_ns()}.db")
        rows = [raw_row(i) for i in range(n)]
        start = time.perf_counter()
        for row in rows:
            conn.execute(RAW_INSERT, row)
        elapsed = time.perf_counter() - start
        conn.close()
        return elapsed

    return n / best_of(ours, 3), n / best_of(raw, 3)


def bench_bulk_import(tmp: Path, n: int) -> tuple[float, float]:
    lines = [
        msgspec.json.encode(
            {"type": "run.started", "session_id": "s1", "run_id": "r1", "principal": "alice"}
        )
    ]
    lines += [msgspec.json.encode(message(i)) for i in range(n - 1)]

    def ours() -> float:
        path = tmp / f"bulk-{time.perf_counter_ns()}.db"
        with agentmem.open(str(path)) as store:
            start = time.perf_counter()
            store.append_many(decode_client_event(line) for line in lines)
            return time.perf_counter() - start

    def raw() -> float:
        conn = raw_connection(tmp / f"raw-bulk-{time.perf_counter_ns()}.db")
        rows = [raw_row(i) for i in range(n)]
        start = time.perf_counter()
        with conn:
            conn.executemany(RAW_INSERT, rows)
        elapsed = time.perf_counter() - start
        conn.close()
        return elapsed

    return n / best_of(ours, 2), n / best_of(raw, 2)


def bench_session_read(tmp: Path, n: int) -> tuple[float, float]:
    path = tmp / "read.db"
    with agentmem.open(str(path)) as store:
        store.append(
            {"type": "run.started", "session_id": "big", "run_id": "rb", "principal": "alice"}
        )
        store.append_many(message(i, "big", "rb") for i in range(n - 1))
        store.append_many(message(i, "other", None) for i in range(n))

        def ours() -> float:
            start = time.perf_counter()
            events = list(store.events(session_id="big"))
            assert len(events) == n
            return time.perf_counter() - start

        def raw() -> float:
            conn = store.conn
            start = time.perf_counter()
            rows = [
                (row[0], row[1], row[2], msgspec.json.decode(row[3]))
                for row in conn.execute(
                    "SELECT seq, event_id, type, payload FROM events WHERE session_id = ? "
                    "ORDER BY seq",
                    ("big",),
                )
            ]
            assert len(rows) == n
            return time.perf_counter() - start

        return n / best_of(ours, 5), n / best_of(raw, 5)


def bench_startup(tmp: Path, repeats: int) -> tuple[float, float]:
    db = tmp / "startup.db"
    agentmem.open(str(db)).close()
    env = {**os.environ, "PYTHONPATH": str(REPO), "AGENTMEM_CONFIG": str(tmp / "none.toml")}

    def timed(cmd: list[str]) -> float:
        samples = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    baseline = timed([sys.executable, "-c", "import cyclopts, apsw, msgspec"])
    ours = timed([sys.executable, "-m", "agentmem", "status", "--db", str(db)])
    return ours, baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a smoke run")
    args = parser.parse_args()
    singles, bulk, read, starts = (
        (300, 20_000, 10_000, 5) if args.quick else (2_000, 100_000, 10_000, 15)
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ours, raw = bench_single_appends(tmp, singles)
        rows.append(
            (
                f"durable single appends ({singles:,}, synchronous=FULL)",
                f"{ours:,.0f} ev/s",
                f"{raw:,.0f} ev/s",
                ours / raw,
                ">= 0.8x",
            )
        )
        ours, raw = bench_bulk_import(tmp, bulk)
        rows.append(
            (
                f"bulk import ({bulk:,} events, one transaction)",
                f"{ours:,.0f} ev/s",
                f"{raw:,.0f} ev/s",
                ours / raw,
                ">= 0.6x",
            )
        )
        ours, raw = bench_session_read(tmp, read)
        rows.append(
            (
                f"read one {read:,}-event session into structs",
                f"{ours:,.0f} ev/s",
                f"{raw:,.0f} ev/s",
                ours / raw,
                ">= 0.8x",
            )
        )
        ours, raw = bench_startup(tmp, starts)
        rows.append(
            (
                "`agentmem status` process time (lower is better)",
                f"{ours * 1000:.0f} ms",
                f"{raw * 1000:.0f} ms",
                ours / raw,
                "<= 1.3x",
            )
        )
    print("| benchmark | agentmem | baseline | ratio | target |")
    print("|---|---|---|---|---|")
    for name, ours_text, raw_text, ratio, target in rows:
        print(f"| {name} | {ours_text} | {raw_text} | {ratio:.2f}x | {target} |")


if __name__ == "__main__":
    main()
