"""Events prepared before the write lock (``agentmem.log.prepare_event``), as the HTTP server
prepares them on its request threads: the stored row, the hash and idempotency are those of an
ordinary append, and a bad event is refused before any database is involved."""

from __future__ import annotations

from pathlib import Path

import pytest

import agentmem
from agentmem.log import prepare_event

RUN = {"type": "run.started", "session_id": "s1", "run_id": "r1", "principal": "alice"}
TOOLS = {**RUN, "tools": [{"name": "search", "schema": {"type": "object"}}]}


def _rows(store: agentmem.Store) -> list[tuple[object, ...]]:
    return list(
        store.conn.execute(
            "SELECT seq, event_id, type, session_id, run_id, principal, payload, content_hash "
            "FROM events ORDER BY seq"
        )
    )


def test_a_prepared_event_is_stored_as_the_event_itself(tmp_path: Path) -> None:
    events = [
        {**TOOLS, "event_id": "e1"},
        {
            "type": "user.message.created",
            "session_id": "s1",
            "run_id": "r1",
            "event_id": "e2",
            "text": "hello",
        },
    ]
    with agentmem.open(str(tmp_path / "plain.db"), principal="alice") as plain:
        plain.append_many(events)
        expected = _rows(plain)
    with agentmem.open(str(tmp_path / "prepared.db"), principal="bob") as store:
        store.append_many([prepare_event(e, principal="alice") for e in events])
        assert _rows(store) == expected
        assert store.check() == []
        # the same event again, prepared or not, is a replay of the stored one
        again = store.append_event(prepare_event(events[1], principal="alice"))
        assert again.duplicate and again.seq == 2
        assert store.append_event(events[1] | {"principal": "alice"}).duplicate
        assert store.run("r1", principal="alice").tools[0].name == "search"


def test_a_bad_event_is_refused_when_prepared(tmp_path: Path) -> None:
    with pytest.raises(agentmem.InvalidInput, match="unknown event type"):
        prepare_event({"type": "user.message.deleted", "session_id": "s1"}, principal="alice")
    with pytest.raises(agentmem.InvalidInput, match="schema_sha256 does not match"):
        prepare_event(
            {**RUN, "tools": [{"name": "t", "schema": {}, "schema_sha256": "0" * 64}]},
            principal="alice",
        )
    assert not list(tmp_path.iterdir())  # no database was needed, none was made


def test_a_prepared_event_meets_the_same_guards(tmp_path: Path) -> None:
    orphan = {"type": "user.message.created", "session_id": "s1", "run_id": "r9", "text": "hi"}
    with agentmem.open(str(tmp_path / "a.db"), principal="alice") as store:
        with pytest.raises(agentmem.EventRejected, match="was never started"):
            store.append_event(prepare_event(orphan, principal="alice"))
        assert _rows(store) == []


def test_a_struct_at_a_dead_decoded_events_address_is_validated_again(tmp_path: Path) -> None:
    """Decoded events are remembered by address; a struct that later gets the address of a
    dead one is not taken for it (the remembered reference no longer returns it)."""
    import gc
    import json

    from agentmem import events

    decoded = events.decode_client_event(json.dumps({**RUN, "event_id": "e1"}))
    stale = events._validated[id(decoded)]
    del decoded
    gc.collect()
    bad = events.UserMessageCreated(session_id="s1", principal="alice", text="")
    events._validated[id(bad)] = stale  # as if bad had been allocated where decoded lived
    with agentmem.open(str(tmp_path / "a.db")) as store:
        with pytest.raises(agentmem.InvalidInput, match="length >= 1"):
            store.append(bad)
        assert _rows(store) == []
