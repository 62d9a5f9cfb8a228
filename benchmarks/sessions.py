"""Agents SDK session benchmarks: AgentmemSession against the SDK's own SQLiteSession.

Run from a checkout: ``python benchmarks/sessions.py [--quick]`` (needs ``openai-agents``, as
the test extra installs it). Both sessions get the same items in the same run, on the same
disk, at the same durability (agentmem's default ``synchronous=FULL``; ``sqlite3``'s default
is FULL too). Every figure is the median of several interleaved repeats and every ratio is
SQLiteSession's time over agentmem's, so above 1x agentmem is faster.

Rows:
- ``get_items(limit=10)`` on a short session and on a long one (the ratio should not fall as
  the session grows: the live items are a projection, the limit is in SQL);
- ``add_items`` of a batch of 20 items (each becomes the verbatim item plus its conversation
  event, validated and hashed), and of one batch of many items.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from agents import SQLiteSession  # noqa: E402

from agentmem.integrations.openai_agents import AgentmemSession  # noqa: E402


def item(i: int) -> dict[str, Any]:
    """A user message or an assistant message, alternately: what a chat session holds."""
    if i % 2 == 0:
        return {"role": "user", "content": f"message {i}: the quick brown fox jumps over"}
    return {
        "id": f"msg-{i}",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": f"answer {i}: lazy dog", "annotations": []}],
    }


async def compare(
    ours: Callable[[], Awaitable[object]],
    peer: Callable[[], Awaitable[object]],
    calls: int,
    repeats: int,
) -> tuple[float, float]:
    """Median seconds per call of ``ours`` and of ``peer`` over ``repeats`` rounds of
    ``calls`` calls each, the two interleaved so a change in the machine's load hits both."""
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for call, times in ((ours, samples[0]), (peer, samples[1])):
            start = time.perf_counter()
            for _ in range(calls):
                await call()
            times.append((time.perf_counter() - start) / calls)
    return statistics.median(samples[0]), statistics.median(samples[1])


def pair(tmp: Path, name: str) -> tuple[AgentmemSession, SQLiteSession]:
    return (
        AgentmemSession(name, db=tmp / f"agentmem-{name}.db"),
        SQLiteSession(name, tmp / f"sqlite-{name}.db"),
    )


async def fill(sessions: tuple[Any, ...], length: int) -> None:
    for start in range(0, length, 500):
        batch = [item(i) for i in range(start, min(start + 500, length))]
        for session in sessions:
            await session.add_items(batch)


async def bench_get_items(tmp: Path, length: int, repeats: int) -> tuple[float, float]:
    ours, peer = pair(tmp, f"read-{length}")
    await fill((ours, peer), length)
    assert await ours.get_items(limit=10) == await peer.get_items(limit=10)
    ours_time, peer_time = await compare(
        lambda: ours.get_items(limit=10), lambda: peer.get_items(limit=10), 50, repeats
    )
    ours.close()
    peer.close()
    return ours_time, peer_time


async def bench_add_items(tmp: Path, batch: int, calls: int, repeats: int) -> tuple[float, float]:
    ours, peer = pair(tmp, f"write-{batch}")
    items = [item(i) for i in range(batch)]
    ours_time, peer_time = await compare(
        lambda: ours.add_items(items), lambda: peer.add_items(items), calls, repeats
    )
    assert await ours.get_items(limit=batch) == await peer.get_items(limit=batch)
    ours.close()
    peer.close()
    return ours_time, peer_time


async def measure(quick: bool) -> list[tuple[str, str, str, float, str]]:
    short, long, big, repeats = (100, 2_000, 2_000, 3) if quick else (100, 10_000, 10_000, 5)
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for length in (short, long):
            ours, peer = await bench_get_items(tmp, length, repeats)
            rows.append(
                (
                    f"`get_items(limit=10)`, {length:,}-item session",
                    f"{ours * 1e6:,.0f} µs",
                    f"{peer * 1e6:,.0f} µs",
                    peer / ours,
                    ">= 1x, flat in length",
                )
            )
        ours, peer = await bench_add_items(tmp, 20, 10, repeats)
        rows.append(
            (
                "`add_items`, batches of 20 items",
                f"{20 / ours:,.0f} items/s",
                f"{20 / peer:,.0f} items/s",
                peer / ours,
                ">= 0.8x",
            )
        )
        ours, peer = await bench_add_items(tmp, big, 1, repeats)
        rows.append(
            (
                f"`add_items`, one batch of {big:,} items",
                f"{big / ours:,.0f} items/s",
                f"{big / peer:,.0f} items/s",
                peer / ours,
                "report",
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a smoke run")
    args = parser.parse_args()
    rows = asyncio.run(measure(args.quick))
    print("| benchmark | AgentmemSession | SQLiteSession (same run) | ratio | target |")
    print("|---|---|---|---|---|")
    for name, ours, peer, ratio, target in rows:
        print(f"| {name} | {ours} | {peer} | {ratio:.2f}x | {target} |")


if __name__ == "__main__":
    main()
