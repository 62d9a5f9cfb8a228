"""Export benchmark: a 10,000-message run, against reading that run from the log.

Run from a checkout: ``python benchmarks/export.py [--quick]``. The export does everything a
real one does (consent check, the builder, pattern replacement over every string, the
verification scan of the finished document, the keyed blob write); the baseline reads the same
run's events into structs in the same run. The ratio is a time ratio (lower is better; target
<= 5x, issue 14 row 7).

Each run is read and then exported back to back, so a change in the machine's load hits both
sides of a pair; the row gives the median of the pairs' ratios, in wall time and in CPU time
(the process's own, which another process's load disturbs less).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import table  # noqa: E402  (benchmarks/table.py)

import agentmem  # noqa: E402
from agentmem.redaction import fakes  # noqa: E402

SENTENCE = (
    "the build is green again after the cache fix, so we can ship the release candidate "
    "tomorrow morning if the smoke tests on staging agree with what we saw locally"
)
WORDS = SENTENCE.split(" ")


def _run(store: agentmem.Store, run_id: str, messages: int, rng: random.Random) -> None:
    events: list[dict] = [
        {
            "type": "run.started",
            "session_id": f"s-{run_id}",
            "run_id": run_id,
            "tools": [{"name": "shell", "schema": {"type": "object"}}],
        }
    ]
    base = {"session_id": f"s-{run_id}", "run_id": run_id}
    for i in range(messages):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40)))
        if i % 500 == 0:  # a pasted credential now and then, as in real runs
            text += " pasted: " + fakes.generate("github_token", rng)
        kind = ("user.message.created", "assistant.message.created", "tool.result.created")[i % 3]
        if kind == "tool.result.created":
            events.append({"type": kind, **base, "tool_call_id": f"c{i}", "content": text})
        else:
            events.append({"type": kind, **base, "text": text})
    events.append({"type": "run.completed", **base, "outcome": "succeeded"})
    store.append_many(events)


def measure(messages: int, runs: int) -> list[tuple[float, float, float, float]]:
    """(read wall, export wall, read cpu, export cpu) seconds for each of ``runs`` runs."""
    rng = random.Random(32)
    pairs = []
    with (
        tempfile.TemporaryDirectory() as name,
        agentmem.open(str(Path(name) / "export.db"), principal="alice") as store,
    ):
        store.grant_consent()
        for i in range(runs):
            _run(store, f"r{i}", messages, rng)
        _run(store, "warm-up", 10, rng)
        store.export_run("warm-up")  # compiles the rule registry, which no export pays twice
        for i in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            list(store.events(run_id=f"r{i}"))
            read, read_cpu = time.perf_counter() - start, time.process_time() - cpu
            start, cpu = time.perf_counter(), time.process_time()
            result = store.export_run(f"r{i}")
            export, export_cpu = time.perf_counter() - start, time.process_time() - cpu
            assert result.created and result.replacements >= messages // 500
            pairs.append((read, export, read_cpu, export_cpu))
    return pairs


def rows(quick: bool = False) -> list[table.Row]:
    """(benchmark, agentmem, baseline, ratio, target), for run_all."""
    messages = 3_000 if quick else 10_000
    pairs = measure(messages, 3 if quick else 5)
    read = statistics.median(p[0] for p in pairs)
    export = statistics.median(p[1] for p in pairs)
    wall = statistics.median(p[1] / p[0] for p in pairs)
    cpu = statistics.median(p[3] / p[2] for p in pairs)
    return [
        (
            f"export a {messages:,}-message run (redact + verify + store; lower is better)",
            f"{export * 1000:.0f} ms",
            f"reading that run {read * 1000:.0f} ms",
            f"{wall:.1f}x (cpu {cpu:.1f}x)",
            "<= 5x",
        )
    ]


if __name__ == "__main__":
    table.main(__doc__, rows, "3,000 messages instead")
