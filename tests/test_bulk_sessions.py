"""The bulk path for Agents SDK batches: ``AgentmemSession.add_items`` of many items goes through
``agentmem.bulk`` (its conversation events and its ``agents.item.added`` items together), and
must leave exactly what appending event by event leaves: the same log rows, the same
projections (``agents_items`` included), the same items read back, and a file whose
projections equal a rebuild from the log (``check()``).
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("agents")

import agentmem
from agentmem import bulk
from agentmem import db as dbmod
from agentmem.integrations.openai_agents import AgentmemSession


def _item(kind: str, n: int) -> dict[str, Any]:
    """One SDK item of each shape the session maps differently."""
    if kind == "user":
        return {"role": "user", "content": f"message {n}"}
    if kind == "assistant":
        return {
            "id": f"msg-{n}",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": f"answer {n}", "annotations": []}],
        }
    if kind == "call":
        return {
            "type": "function_call",
            "call_id": f"c{n}",
            "name": "weather",
            "arguments": '{"city": "Porto"}',
        }
    if kind == "output":
        return {"type": "function_call_output", "call_id": f"c{n}", "output": "sunny"}
    if kind == "system":
        return {"role": "system", "content": "be brief"}
    if kind == "reasoning":
        return {"type": "reasoning", "id": f"rs-{n}", "summary": []}
    return {"type": "item_reference", "id": f"ref-{n}"}  # kept verbatim only


KINDS = ["user", "assistant", "call", "output", "system", "reasoning", "other"]
#: A session's life: batches of items, with pops, clears and run completions between them.
step = st.one_of(
    st.lists(st.sampled_from(KINDS), min_size=1, max_size=30).map(lambda kinds: ("add", kinds)),
    st.sampled_from([("pop",), ("clear",), ("complete",)]),
)


async def _play(session: AgentmemSession, steps: list[tuple]) -> list[object]:
    seen: list[object] = []
    count = itertools.count()
    for op in steps:
        if op[0] == "add":
            await session.add_items([_item(kind, next(count)) for kind in op[1]])
        elif op[0] == "pop":
            seen.append(await session.pop_item())
        elif op[0] == "clear":
            await session.clear_session()
        else:
            await session.complete_run("succeeded")
        seen.append(await session.get_items())
    return seen


def _outcome(path: Path, steps: list[tuple], *, bulk_path: bool) -> tuple:
    """Play ``steps`` on a fresh file, through the bulk path or event by event (ids and clock
    made deterministic so the two files can be compared row by row)."""
    ids = itertools.count()
    limit = 1 if bulk_path else 10**9
    with (
        mock.patch.object(bulk, "MIN_CHUNK", limit),
        mock.patch.object(bulk, "CHUNK", 7),
        mock.patch("secrets.token_hex", lambda n=16: f"{next(ids):0{2 * n}d}"),
        mock.patch("agentmem.log.new_event_id", lambda: f"ev-{next(ids)}"),
        mock.patch("agentmem.integrations.openai_agents.new_event_id", lambda: f"ev-{next(ids)}"),
        mock.patch("agentmem.log.now_text", lambda: "2026-12-01T00:00:00.000Z"),
        agentmem.open(str(path), principal="alice") as store,
    ):
        session = AgentmemSession("s1", store=store)
        seen = asyncio.run(_play(session, steps))
        assert store.check() == []
        rows = list(store.conn.execute("SELECT * FROM events ORDER BY seq"))
        return seen, rows, dbmod.projection_snapshot(store.conn)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=6))
def test_add_items_through_the_bulk_path_equals_event_by_event(steps: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bulk_result = _outcome(Path(tmp) / "bulk.db", steps, bulk_path=True)
        assert bulk_result == _outcome(Path(tmp) / "rows.db", steps, bulk_path=False)


def test_a_large_add_items_batch_takes_the_bulk_path(tmp_path: Path) -> None:
    """One batch of many items is inserted by ``bulk.insert_chunk`` (a later change that sent
    it back event by event would be slower without any test noticing)."""
    items = [_item(KINDS[n % 4], n) for n in range(600)]
    with agentmem.open(str(tmp_path / "a.db"), principal="alice") as store:
        session = AgentmemSession("s1", store=store)
        with mock.patch.object(bulk, "insert_chunk", wraps=bulk.insert_chunk) as spy:
            asyncio.run(session.add_items(items))
        assert spy.call_count >= 1
        assert asyncio.run(session.get_items()) == items
        assert store.session("s1").user_message_count == 150
        assert store.check() == []


def test_a_chunk_with_another_process_type_goes_event_by_event(tmp_path: Path) -> None:
    """Only the types whose triggers bulk.py replaces take the bulk path."""
    assert bulk.takes(["user.message.created", "agents.item.added"])
    assert not bulk.takes(["user.message.created", "agents.item.popped"])
    assert not bulk.takes(["consent.granted"])
