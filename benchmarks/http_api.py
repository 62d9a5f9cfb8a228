"""HTTP API benchmark: appends over loopback HTTP, concurrent writers, slow clients.

Run from a checkout: ``python benchmarks/http_api.py [--events N] [--rounds R] [--quick]``. The
question it answers is what the HTTP adapter costs an agent that records every turn through
it, so both sides append the same events one at a time, durably, to a fresh database with the
same ``synchronous`` level:

- baseline: ``Store.append(dict)`` in this process (validation, hashing, triggers, commit);
- HTTP: ``agentmem serve`` as a real subprocess (as an agent in another process would meet it),
  one client thread, one keep-alive ``http.client.HTTPConnection``, one ``POST /v1/events`` per
  event, each answered 201 before the next is sent.

Rounds alternate baseline and HTTP and the median of each is reported, so a noisy neighbour
hurts both sides alike. The ratio is HTTP throughput over in-process throughput (higher is
better; the target is >= 0.3x). Server start-up is not timed.

Then, in the same run: 1 and 8 concurrent keep-alive clients, sending single events and
100-event batches, each client to its own session; events/s and p50/p99 request latency, with
the 8-client figures as ratios of the 1-client ones (targets: throughput >= 1x, p99 <= 5x).
Last, a slow-client run: 20 idle sockets and 20 slow-loris senders stay open while a client
makes ordinary requests, whose worst latency must stay under 1 s.
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
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from agentmem.config import Settings, StorageSettings  # noqa: E402
from agentmem.store import Store  # noqa: E402

TARGET = 0.3
#: 8 clients' p99 may be at most this many times the 1-client p99 (issue 14, item 4).
P99_LIMIT = 5.0
#: A legitimate request's latency while slow clients hold sockets open (issue 13).
SLOW_LIMIT = 1.0


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


class Served:
    """``agentmem serve`` as a real subprocess (an agent in another process meets it so)."""

    def __init__(self, workdir: Path, synchronous: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMEM_")}
        env.update(
            AGENTMEM_CONFIG_DIR=str(workdir / "config"),
            AGENTMEM_CONFIG=str(workdir / "no-config.toml"),
            AGENTMEM_SYNCHRONOUS=synchronous,
            PYTHONPATH=str(REPO),
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agentmem", "serve", "--port", "0", "--db", workdir / "h.db"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=REPO,
            text=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.close()
            raise SystemExit(f"agentmem serve did not start: {line!r}")
        self.port = int(match.group(1))
        token = (workdir / "config" / "api-token").read_text().strip()
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def close(self) -> None:
        self.process.send_signal(signal.SIGINT if os.name == "posix" else signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def post_all(served: Served, bodies: list[bytes]) -> list[float]:
    """POST each body on one keep-alive connection, in order; the latency of each, in s."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    latencies = []
    try:
        for body in bodies:
            started = time.perf_counter()
            conn.request("POST", "/v1/events", body=body, headers=served.headers)
            response = conn.getresponse()
            response.read()
            latencies.append(time.perf_counter() - started)
            if response.status != 201:
                raise SystemExit(f"unexpected status {response.status}")
    finally:
        conn.close()
    return latencies


def over_http(workdir: Path, synchronous: str, events: list[dict]) -> float:
    """Events per second through ``agentmem serve`` with one keep-alive client."""
    served = Served(workdir, synchronous)
    try:
        bodies = [json.dumps(event).encode() for event in events]
        started = time.perf_counter()
        post_all(served, bodies)
        return len(events) / (time.perf_counter() - started)
    finally:
        served.close()


def concurrent_clients(
    workdir: Path, clients: int, requests: int, batch: int
) -> tuple[float, float, float]:
    """Events/s, p50 and p99 request latency (s) for ``clients`` keep-alive clients at once.

    Each client sends ``requests`` POSTs of ``batch`` events (one event as an object, more as
    an array) to its own session, at the default ``synchronous=FULL``.
    """
    served = Served(workdir, "FULL")
    try:
        work = []
        for c in range(clients):
            bodies = []
            for r in range(requests):
                items = [message(i) for i in range(r * batch, (r + 1) * batch)]
                for item in items:
                    item["session_id"] = f"s{c}"
                    item["event_id"] = f"c{c}-{item['event_id']}"
                bodies.append(json.dumps(items[0] if batch == 1 else items).encode())
            work.append(bodies)
        results: list[list[float]] = [[] for _ in range(clients)]
        barrier = threading.Barrier(clients + 1)

        def run(index: int) -> None:
            barrier.wait()
            results[index] = post_all(served, work[index])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
        for t in threads:
            t.start()
        barrier.wait()
        started = time.perf_counter()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        latencies = sorted(x for r in results for x in r)
        if len(latencies) != clients * requests:
            raise SystemExit("a client failed")
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        return clients * requests * batch / elapsed, p50, p99
    finally:
        served.close()


def slow_clients(workdir: Path, idle: int, probes: int) -> float:
    """The worst latency (s) of ``probes`` legitimate requests while ``idle`` sockets sit open
    and as many slow-loris clients trickle a request header one byte at a time."""
    served = Served(workdir, "FULL")
    socks = []
    try:
        for n in range(2 * idle):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            if n >= idle:
                sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(sock)
        worst = 0.0
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        for _ in range(probes):
            for sock in socks[idle:]:
                sock.sendall(b"a")
            started = time.perf_counter()
            conn.request("GET", "/v1/beliefs", headers=served.headers)
            response = conn.getresponse()
            response.read()
            worst = max(worst, time.perf_counter() - started)
            if response.status != 200:
                raise SystemExit(f"unexpected status {response.status}")
            time.sleep(0.05)
        conn.close()
        return worst
    finally:
        for sock in socks:
            sock.close()
        served.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000, help="events per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per level")
    parser.add_argument("--quick", action="store_true", help="fewer events, one round")
    args = parser.parse_args()
    if args.quick:
        args.events, args.rounds = 300, 1
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
    concurrency(args)
    with tempfile.TemporaryDirectory(prefix="agentmem-bench-") as tmp:
        worst = slow_clients(Path(tmp), idle=20, probes=10 if args.quick else 40)
    verdict = "met" if worst < SLOW_LIMIT else "MISSED"
    print(
        f"\nslow clients: 20 idle sockets + 20 slow-loris senders; worst latency of a "
        f"legitimate request {worst * 1000:,.0f} ms (target < {SLOW_LIMIT:.0f} s {verdict})"
    )


def concurrency(args: argparse.Namespace) -> None:
    """1 vs 8 concurrent keep-alive clients, same run: throughput ratio and p99 ratio."""
    requests = 40 if args.quick else 150
    print(
        f"\n1 vs 8 concurrent keep-alive clients ({requests} requests per client), "
        f"synchronous=FULL, median of {args.rounds} rounds\n"
    )
    print(
        "| body | clients | events/s | p50 ms | p99 ms | throughput vs 1 client "
        "| p99 vs 1 client | target |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for batch in (1, 100):
        n = requests if batch == 1 else max(10, requests // 5)
        runs: dict[int, list[tuple[float, float, float]]] = {1: [], 8: []}
        for _ in range(args.rounds):
            for clients in (1, 8):
                with tempfile.TemporaryDirectory(prefix="agentmem-bench-") as tmp:
                    runs[clients].append(concurrent_clients(Path(tmp), clients, n, batch))
        medians = {
            c: tuple(statistics.median(r[k] for r in rs) for k in range(3))
            for c, rs in runs.items()
        }
        one = medians[1]
        for clients in (1, 8):
            rate, p50, p99 = medians[clients]
            ratio, tail = rate / one[0], p99 / one[2]
            verdict = ""
            if clients == 8:
                ok = ratio >= 1 and tail <= P99_LIMIT
                verdict = f">= 1x and <= {P99_LIMIT:.0f}x {'met' if ok else 'MISSED'}"
            body = "1 event" if batch == 1 else f"{batch}-event batch"
            print(
                f"| {body} | {clients} | {rate:,.0f} | {p50 * 1000:.1f} | {p99 * 1000:.1f} "
                f"| {ratio:.2f}x | {tail:.2f}x | {verdict} |"
            )


if __name__ == "__main__":
    main()
