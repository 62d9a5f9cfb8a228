"""Start-up of the read commands against a bare import of their dependencies (issue 11).

``agentmem event list --limit 10`` and ``agentmem beliefs list`` against
``python -c "import cyclopts, apsw, msgspec"``: each run in a fresh interpreter, the three
interleaved, median wall and CPU time of N rounds (default 15). The database is a small one made
here (three beliefs, a few events), so what is measured is start-up, not rendering.

    python benchmarks/startup.py [ROUNDS]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(rounds: int) -> None:
    import agentmem

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "startup.db")
        with agentmem.open(db, principal="alice") as store:
            store.append_many(
                {"type": "user.message.created", "session_id": "s1", "text": text}
                for text in ("I live in Lisbon.", "I love jazz.", "I am allergic to peanuts.")
            )
            store.close_session("s1")
        env = {**os.environ, "AGENTMEM_DB": db, "AGENTMEM_PRINCIPAL": "alice"}
        commands = {
            "bare import": [sys.executable, "-c", "import cyclopts, apsw, msgspec"],
            "event list": [sys.executable, "-m", "agentmem", "event", "list", "--limit", "10"],
            "beliefs list": [sys.executable, "-m", "agentmem", "beliefs", "list"],
        }
        wall: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                before, start = _child_cpu(), time.perf_counter()
                subprocess.run(command, env=env, capture_output=True, check=True)
                wall[name].append(time.perf_counter() - start)
                cpu[name].append(_child_cpu() - before)
    base_wall = statistics.median(wall["bare import"])
    base_cpu = statistics.median(cpu["bare import"])
    for name in commands:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(
            f"{name:13} wall {w * 1000:6.1f} ms ({w / base_wall:.2f}x)  "
            f"cpu {c * 1000:6.1f} ms ({c / base_cpu:.2f}x)"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
