"""Export benchmark: a 10,000-message run, against reading that run from the log.

Run from a checkout: ``python benchmarks/export.py [--quick]``. The export does everything a
real one does (consent check, the builder, pattern replacement over every string, the
verification scan of the finished document, the keyed blob write); the baseline reads the same
run's events into structs in the same run. The ratio is a time ratio (lower is better).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 messages instead")
    args = parser.parse_args()
    messages = 1_000 if args.quick else 10_000
    rng = random.Random(32)
    with (
        tempfile.TemporaryDirectory() as name,
        agentmem.open(str(Path(name) / "export.db"), principal="alice") as store,
    ):
        store.grant_consent()
        for run in ("r0", "r1", "r2"):
            _run(store, run, messages, rng)

        reads = []
        for run in ("r0", "r1", "r2"):
            start = time.perf_counter()
            list(store.events(run_id=run))
            reads.append(time.perf_counter() - start)
        exports = []
        for run in ("r0", "r1", "r2"):
            start = time.perf_counter()
            result = store.export_run(run)
            exports.append(time.perf_counter() - start)
            assert result.created and result.replacements >= messages // 500
    read, export = min(reads), min(exports)
    print("| benchmark | agentmem | baseline | ratio | target |")
    print("|---|---|---|---|---|")
    print(
        f"| export a {messages:,}-message run (lower is better) | {export * 1000:.0f} ms | "
        f"{read * 1000:.0f} ms read | {export / read:.1f}x | report |"
    )


if __name__ == "__main__":
    main()
