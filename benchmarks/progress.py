"""What a progress callback costs the long library calls that report one.

    python benchmarks/progress.py            # db check of a 100,000-event file
    python benchmarks/progress.py --quick    # 20,000 events

``EventLog.check()`` with ``progress=`` (the CLI's bar on a terminal) against the same call
without it, on the same file in the same run, interleaved, median of five: the callback is
called every 256 events verified, and the events are counted once more for the total.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import table  # benchmarks/table.py

import agentmem


def _timed(store: agentmem.Store, progress: Callable[[int, int], None] | None) -> float:
    started = time.perf_counter()
    store.check(progress=progress)
    return time.perf_counter() - started


def rows(quick: bool) -> list[table.Row]:
    count = 20_000 if quick else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "check.db")
        with agentmem.open(path, principal="alice") as store:
            store.append_many(
                {"type": "user.message.created", "session_id": f"s{i % 50}", "text": f"note {i}"}
                for i in range(count)
            )
        calls: list[int] = []
        plain, counted = [], []
        with agentmem.open(path, readonly=True) as store:
            for _ in range(5):
                plain.append(_timed(store, None))
                counted.append(_timed(store, lambda done, total: calls.append(done)))
    ours, base = statistics.median(counted), statistics.median(plain)
    return [
        (
            f"db check of {count:,} events with a progress callback "
            f"({len(calls) // 5} calls; lower is better)",
            f"{ours:.2f} s",
            f"without one {base:.2f} s",
            f"{ours / base:.2f}x",
            "<= 1.1x",
        )
    ]


if __name__ == "__main__":
    sys.exit(table.main(__doc__ or "", rows, "20,000 events instead of 100,000"))
