"""HTTP API benchmark: single-event appends over loopback HTTP against ``Store.append``.

Run from a checkout: ``python benchmarks/http_api.py [--events N] [--rounds R]``. The question it
answers is what the HTTP adapter costs an agent that records every turn through it, so both
sides append the same events one at a time, durably, to a fresh database with the same
``synchronous`` level:

- baseline: ``Store.append(dict)`` in this process (validation, hashing, triggers, commit);
- HTTP: ``agentmem serve`` as a real subprocess (as an agent in another process would meet it),
  one client thread, one keep-alive ``http.client.HTTPConnection``, one ``POST /v1/events`` per
  event, each answered 201 before the next is sent.

Rounds alternate baseline and HTTP and the median of each is reported, so a noisy neighbour
hurts both sides alike. The ratio is HTTP throughput over in-process throughput (higher is
better; the target is >= 0.3x). Server start-up is not timed.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# Scripts in this directory must never shadow the standard library (e.g. its http package).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from agentmem.config import Settings, StorageSettings  # noqa: E402
from agentmem.store import Store  # noqa: E402

TARGET = 0.3


def message(i: int) -> dict:
    """The same event stream on both sides: a conversation's turns, ids given by the client."""
    return {
        "type": "user.message.created" if i % 2 else "assistant.message.created",
        "session_id": "s1",
        "principal": "alice",
        "event_id": f"e{i:07d}",
        "text": f"message number {i}: the quick brown fox jumps over the lazy dog " * 2,
    }


def in_process(workdir: Path, synchronous: str, events: list[dict]) -> float:
    """Events per second through ``Store.append`` on a fresh database."""
    settings = Settings(
        db=str(workdir / "inproc.db"), storage=StorageSettings(synchronous=synchronous)
    )
    with Store.open(settings=settings) as store:
        started = time.perf_counter()
        for event in events:
            store.append(event)
        elapsed = time.perf_counter() - started
    return len(events) / elapsed


def over_http(workdir: Path, synchronous: str, events: list[dict]) -> float:
    """Events per second through ``agentmem serve`` with one keep-alive client."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMEM_")}
    env.update(
        AGENTMEM_CONFIG_DIR=str(workdir / "config"),
        AGENTMEM_CONFIG=str(workdir / "no-config.toml"),
        AGENTMEM_SYNCHRONOUS=synchronous,
        PYTHONPATH=str(REPO),
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "agentmem", "serve", "--port", "0", "--db", str(workdir / "h.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=REPO,
        text=True,
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise SystemExit(f"agentmem serve did not start: {line!r}")
        token = (workdir / "config" / "api-token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        bodies = [json.dumps(event).encode() for event in events]
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        started = time.perf_counter()
        for body in bodies:
            conn.request("POST", "/v1/events", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 201:
                raise SystemExit(f"unexpected status {response.status}")
        elapsed = time.perf_counter() - started
        conn.close()
        return len(events) / elapsed
    finally:
        server.send_signal(signal.SIGINT if os.name == "posix" else signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000, help="events per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per level")
    args = parser.parse_args()
    events = [message(i) for i in range(args.events)]
    rows = []
    for synchronous in ("FULL", "NORMAL"):
        base, http_rates = [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="agentmem-bench-") as tmp:
                base.append(in_process(Path(tmp), synchronous, events))
            with tempfile.TemporaryDirectory(prefix="agentmem-bench-") as tmp:
                http_rates.append(over_http(Path(tmp), synchronous, events))
        b, h = statistics.median(base), statistics.median(http_rates)
        rows.append((synchronous, b, h, h / b, 1e6 / h - 1e6 / b))
    print(f"\n{args.events} single-event appends per measurement, median of {args.rounds} rounds\n")
    print(
        "| synchronous | Store.append in process (ev/s) | POST /v1/events keep-alive (ev/s) "
        "| ratio | HTTP overhead per event | target |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for synchronous, b, h, ratio, overhead in rows:
        verdict = "met" if ratio >= TARGET else "MISSED"
        print(
            f"| {synchronous}{' (default)' if synchronous == 'FULL' else ''} | {b:,.0f} | "
            f"{h:,.0f} | {ratio:.2f}x | {overhead:,.0f} µs | >= {TARGET}x {verdict} |"
        )


if __name__ == "__main__":
    main()
