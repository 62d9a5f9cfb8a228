"""Start-up of every read command against a bare import of its dependencies (issues 11, 14).

Each read command (``status``, ``event list --limit 10``, ``session list``, ``beliefs list``,
``run list``, ``consent status``, ``artifacts list``, ...) against
``python -c "import cyclopts, apsw, msgspec"``: each run in a fresh interpreter with its output
into a pipe, all of them interleaved round by round so a change in load hits every one, median
wall and CPU time of N rounds (default 15). The database is a small one made here (three
beliefs, a run, an export), so what is measured is start-up, not rendering. Target: every
command within 1.3x of the bare import.

Bytecode is compiled once into a private cache first (``PYTHONPYCACHEPREFIX``), for agentmem
and the baseline alike: an installed package has compiled bytecode, but a checkout whose
``__pycache__`` is stale and whose environment sets ``PYTHONDONTWRITEBYTECODE`` (this CI
machine's does) recompiles every changed module on every start, which measured the editor's
last save rather than agentmem.

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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TARGET = 1.3

#: The read commands, as a user types them after ``agentmem``.
READ_COMMANDS: dict[str, list[str]] = {
    "status": ["status"],
    "event list --limit 10": ["event", "list", "--limit", "10"],
    "session list": ["session", "list"],
    "session show": ["session", "show", "s1"],
    "beliefs list": ["beliefs", "list"],
    "beliefs show": ["beliefs", "show", "BELIEF"],
    "beliefs search": ["beliefs", "search", "jazz"],
    "run list": ["run", "list"],
    "run show": ["run", "show", "r1"],
    "consent status": ["consent", "status"],
    "artifacts list": ["artifacts", "list"],
    "gates list": ["gates", "list"],
}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _database(path: str) -> str:
    """A small database with something for every read command; returns a belief id."""
    import agentmem

    with agentmem.open(path, principal="alice") as store:
        store.grant_consent()
        store.append_many(
            {"type": "user.message.created", "session_id": "s1", "text": text}
            for text in ("I live in Lisbon.", "I love jazz.", "I am allergic to peanuts.")
        )
        store.close_session("s1")
        store.append_many(
            [
                {"type": "run.started", "session_id": "s2", "run_id": "r1"},
                {"type": "user.message.created", "session_id": "s2", "run_id": "r1", "text": "hi"},
                {
                    "type": "run.completed",
                    "session_id": "s2",
                    "run_id": "r1",
                    "outcome": "succeeded",
                },
            ]
        )
        store.export_run("r1")
        return next(iter(store.beliefs())).belief_id


def measure(rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, cpu) seconds per command, the bare import under ``"bare import"``."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "startup.db")
        belief = _database(db)
        env = {
            **os.environ,
            "AGENTMEM_DB": db,
            "AGENTMEM_PRINCIPAL": "alice",
            "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache"),
            "PYTHONPATH": str(REPO),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        commands = {"bare import": [sys.executable, "-c", "import cyclopts, apsw, msgspec"]}
        for name, args in READ_COMMANDS.items():
            args = [belief if arg == "BELIEF" else arg for arg in args]
            commands[name] = [sys.executable, "-m", "agentmem", *args]
        for command in commands.values():  # compile the bytecode; checks every command works
            subprocess.run(command, env=env, capture_output=True, check=True)
        wall: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                before, start = _child_cpu(), time.perf_counter()
                subprocess.run(command, env=env, capture_output=True, check=True)
                wall[name].append(time.perf_counter() - start)
                cpu[name].append(_child_cpu() - before)
    return {name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in wall}


def rows(quick: bool = False) -> list[tuple[str, str, str, str, str]]:
    """(benchmark, agentmem, baseline, ratio, target) per read command, for run_all."""
    medians = measure(5 if quick else 15)
    base_wall, base_cpu = medians.pop("bare import")
    return [
        (
            f"`agentmem {name}` start-up (lower is better)",
            f"{wall * 1000:.0f} ms",
            f"bare import {base_wall * 1000:.0f} ms",
            f"{wall / base_wall:.2f}x (cpu {cpu / base_cpu:.2f}x)",
            f"<= {TARGET}x",
        )
        for name, (wall, cpu) in medians.items()
    ]


def main(rounds: int) -> None:
    medians = measure(rounds)
    base_wall, base_cpu = medians["bare import"]
    worst = max(wall / base_wall for name, (wall, _) in medians.items())
    for name, (w, c) in medians.items():
        print(
            f"{name:22} wall {w * 1000:6.1f} ms ({w / base_wall:.2f}x)  "
            f"cpu {c * 1000:6.1f} ms ({c / base_cpu:.2f}x)"
        )
    print(f"slowest read command: {worst:.2f}x the bare import (target <= {TARGET}x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
