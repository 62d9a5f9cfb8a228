"""``agentmem event import`` memory: peak RSS importing a large JSONL file against a small one.

Run from a checkout: ``python benchmarks/import_memory.py [--quick]``. Each import is a real
``agentmem event import FILE`` subprocess on a fresh database, and its peak resident set size
is read from the kernel (``os.wait4``). The baseline is the same import of a 10,000-event file
in the same run, so the ratio says how memory grows with the file (target: flat, <= 1.2x;
issue 14 row 6, where a list of every line number held 69 MB at a million events). The events
are user messages, 100 to a session; a blank line after every 50th, as hand-edited files have.

Full run: 1,000,000 events (about a minute); ``--quick``: 100,000.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import table  # benchmarks/table.py

REPO = Path(__file__).resolve().parent.parent
TARGET = 1.2


def _write(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            text = f"message {i}: the build is green again after the cache fix"
            event = {"type": "user.message.created", "session_id": f"s{i // 100}", "text": text}
            out.write(json.dumps(event) + ("\n\n" if i % 50 == 49 else "\n"))


def _import(path: Path, db: Path) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one ``agentmem event import``."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "agentmem", "event", "import", str(path)]
    start = time.perf_counter()
    child = subprocess.Popen([*command, "--db", str(db), "--json"], env=env, stdout=subprocess.PIPE)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"event import failed with exit {child.returncode}")
    assert json.loads(output)["imported"] > 0
    return usage.ru_maxrss / 1024, elapsed  # ru_maxrss is in KiB on Linux


def measure(large: int, small: int = 10_000) -> dict[int, tuple[float, float]]:
    """Peak RSS (MB) and seconds per file size."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in (small, large):
            path = Path(tmp) / f"{count}.jsonl"
            _write(path, count)
            results[count] = _import(path, Path(tmp) / f"{count}.db")
            path.unlink()
    return results


def rows(quick: bool = False) -> list[table.Row]:
    """(benchmark, agentmem, baseline, ratio, target), for run_all."""
    large = 100_000 if quick else 1_000_000
    results = measure(large)
    (small, (small_rss, _)), (_, (large_rss, seconds)) = results.items()
    return [
        (
            f"`event import` peak RSS, {large:,} events ({large / seconds:,.0f} ev/s)",
            f"{large_rss:.0f} MB",
            f"the same import of {small:,} events {small_rss:.0f} MB",
            f"{large_rss / small_rss:.2f}x",
            f"<= {TARGET}x (flat)",
        )
    ]


if __name__ == "__main__":
    table.main(__doc__, rows, "100,000 events instead")
