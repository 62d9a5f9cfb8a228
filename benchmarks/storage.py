"""Storage benchmarks: agentmem against raw apsw on the same machine, data and run.

Run from a checkout: ``python benchmarks/storage.py [--quick]``. Every row is a ratio measured
in this run against a baseline measured in this run, so the numbers travel between machines
better than absolute timings do. Higher is better for throughput rows; for the start-up row,
lower is better (it is a time ratio).

Every figure is the median of three or more repeats, agentmem's and the baseline's
interleaved so a change in the machine's load hits both.

Baselines:
- durable single appends: raw apsw autocommit INSERTs into a table with the same columns,
  WAL and the same ``synchronous`` level (FULL, agentmem's default), against
  ``Store.append(dict)`` as the README shows it (validation and hashing included), both with
  SQLite's automatic checkpoints as a user runs them; the same at ``synchronous=NORMAL``,
  where no fsync hides the CPU cost, with the WAL bytes each side writes per append (every
  page a commit changes is written whole: a message's row, its event id and session index
  entries and its session's row, against the raw row and the same two indexes);
- bulk append: raw apsw ``executemany`` of pre-built rows in one transaction, and the OpenAI
  Agents SDK's ``SQLiteSession.add_items`` of the same dicts in one batch (when
  ``openai-agents`` is installed), against ``Store.append_many`` of the dicts (validation,
  hashing, triggers included) and against the ``event import`` path (JSONL text decoded line
  by line, then ``append_many``);
- session read: raw apsw rows of one session plus ``msgspec.json.decode`` of each payload,
  against ``Store.events(session_id=...)`` returning typed, validated structs;
- start-up: ``python -c "import cyclopts, apsw, msgspec"`` against ``agentmem status``.
"""

from __future__ import annotations

import argparse
import asyncio
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
from agentmem.config import Settings, StorageSettings  # noqa: E402
from agentmem.events import decode_client_event  # noqa: E402
from agentmem.store import Store  # noqa: E402

RAW_SCHEMA = """
CREATE TABLE events (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
  session_id TEXT, run_id TEXT, principal TEXT NOT NULL, payload TEXT NOT NULL,
  content_hash TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX events_by_session ON events (session_id, seq);
"""


def raw_connection(path: Path, synchronous: str = "FULL") -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.pragma("journal_mode", "wal")
    conn.pragma("synchronous", synchronous)
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


def medians(*timers, repeats: int) -> list[float]:
    """The median of each timer's results over ``repeats`` interleaved rounds."""
    samples: list[list[float]] = [[] for _ in timers]
    for _ in range(repeats):
        for timer, times in zip(timers, samples, strict=True):
            times.append(timer())
    return [statistics.median(times) for times in samples]


def wal_size(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0


def bench_single_appends(
    tmp: Path, n: int, synchronous: str = "FULL"
) -> tuple[float, float, float, float]:
    """Appends per second of ``Store.append(dict)`` and of raw autocommit INSERTs at
    ``synchronous``, and the WAL bytes each writes per append.

    Appends are timed as they run for a user: SQLite's automatic checkpoints on, on both
    sides, so each pays for copying what it wrote back into the file. The WAL bytes come from
    a separate, untimed pass with automatic checkpoints off (the WAL then only grows). Timing
    that pass instead made every append slower the longer it ran, on both sides but more on
    the side that reads more pages: SQLite looks a page up in every block of the WAL index,
    and an ever-growing WAL (180 MB after 10,000 of our appends) has ever more blocks.
    """
    wal_per_append: tuple[list[float], list[float]] = ([], [])
    wal_sample = min(n, 1_000)

    def ours(timed: bool = True) -> float:
        path = tmp / f"single-{time.perf_counter_ns()}.db"
        settings = Settings(db=str(path), storage=StorageSettings(synchronous=synchronous))
        with Store.open(settings=settings) as store:
            store.append(
                {"type": "run.started", "session_id": "s1", "run_id": "r1", "principal": "alice"}
            )
            if not timed:
                store.conn.pragma("wal_autocheckpoint", 0)
                before = wal_size(path)
                for ev in [message(i) for i in range(wal_sample)]:
                    store.append(ev)
                wal_per_append[0].append((wal_size(path) - before) / wal_sample)
                return 0.0
            events = [message(i) for i in range(n)]
            start = time.perf_counter()
            for ev in events:
                store.append(ev)
            return time.perf_counter() - start

    def raw(timed: bool = True) -> float:
        path = tmp / f"raw-single-{time.perf_counter_ns()}.db"
        conn = raw_connection(path, synchronous)
        if not timed:
            conn.pragma("wal_autocheckpoint", 0)
            before = wal_size(path)
            for row in [raw_row(i) for i in range(wal_sample)]:
                conn.execute(RAW_INSERT, row)
            wal_per_append[1].append((wal_size(path) - before) / wal_sample)
            conn.close()
            return 0.0
        rows = [raw_row(i) for i in range(n)]
        start = time.perf_counter()
        for row in rows:
            conn.execute(RAW_INSERT, row)
        elapsed = time.perf_counter() - start
        conn.close()
        return elapsed

    ours_time, raw_time = medians(ours, raw, repeats=3)
    ours(timed=False)
    raw(timed=False)
    ours_wal, raw_wal = (statistics.median(sizes) for sizes in wal_per_append)
    return n / ours_time, n / raw_time, ours_wal, raw_wal


def bench_bulk_import(tmp: Path, n: int) -> tuple[float, float, float, float | None]:
    """Events per second: append_many of dicts, the import path, raw executemany, and the
    SDK's SQLiteSession (``None`` without openai-agents)."""
    lines = [
        msgspec.json.encode(
            {"type": "run.started", "session_id": "s1", "run_id": "r1", "principal": "alice"}
        )
    ]
    lines += [msgspec.json.encode(message(i)) for i in range(n - 1)]

    dicts = [msgspec.json.decode(line) for line in lines]

    def ours() -> float:
        path = tmp / f"bulk-{time.perf_counter_ns()}.db"
        with agentmem.open(str(path)) as store:
            start = time.perf_counter()
            store.append_many(dicts)
            return time.perf_counter() - start

    def imported() -> float:
        path = tmp / f"import-{time.perf_counter_ns()}.db"
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

    timers = [ours, imported, raw]
    try:
        from agents import SQLiteSession
    except ImportError:
        SQLiteSession = None
    if SQLiteSession is not None:

        def sdk() -> float:
            session = SQLiteSession("s1", tmp / f"sdk-{time.perf_counter_ns()}.db")
            start = time.perf_counter()
            asyncio.run(session.add_items(dicts))
            elapsed = time.perf_counter() - start
            session.close()
            return elapsed

        timers.append(sdk)
    times = medians(*timers, repeats=3)
    rates = [n / t for t in times]
    return rates[0], rates[1], rates[2], rates[3] if len(rates) > 3 else None


def bench_session_read(tmp: Path, n: int) -> tuple[float, float]:
    path = tmp / "read.db"
    with agentmem.open(str(path), principal="alice") as store:
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

        ours_time, raw_time = medians(ours, raw, repeats=5)
        return n / ours_time, n / raw_time


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
    singles, normal, bulk, read, starts = (
        (300, 2_000, 20_000, 10_000, 5) if args.quick else (2_000, 10_000, 100_000, 10_000, 15)
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ours, raw, _, _ = bench_single_appends(tmp, singles)
        rows.append(
            (
                f"durable single appends ({singles:,}, synchronous=FULL)",
                f"{ours:,.0f} ev/s",
                f"{raw:,.0f} ev/s",
                ours / raw,
                ">= 0.8x",
            )
        )
        ours, raw, ours_wal, raw_wal = bench_single_appends(tmp, normal, "NORMAL")
        rows.append(
            (
                f"single appends ({normal:,}, synchronous=NORMAL)",
                f"{ours:,.0f} ev/s",
                f"{raw:,.0f} ev/s",
                ours / raw,
                ">= 0.5x",
            )
        )
        rows.append(
            (
                "WAL bytes per single append, same run (lower is better)",
                f"{ours_wal / 1024:.1f} KiB",
                f"{raw_wal / 1024:.1f} KiB",
                ours_wal / raw_wal,
                "report",
            )
        )
        ours, imported, raw, sdk = bench_bulk_import(tmp, bulk)
        name = f"`append_many` of {bulk:,} dict events, one transaction"
        rows.append((name, f"{ours:,.0f} ev/s", f"raw {raw:,.0f} ev/s", ours / raw, ">= 0.5x"))
        if sdk is not None:
            rows.append(
                (name, f"{ours:,.0f} ev/s", f"SQLiteSession {sdk:,.0f} ev/s", ours / sdk, ">= 1x")
            )
        rows.append(
            (
                f"`event import` path ({bulk:,} JSONL lines decoded, then `append_many`)",
                f"{imported:,.0f} ev/s",
                f"raw {raw:,.0f} ev/s",
                imported / raw,
                ">= 0.5x",
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
