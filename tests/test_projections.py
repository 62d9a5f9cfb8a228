"""Rebuilt projections equal incremental ones after randomized histories (hypothesis)."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentmem
from agentmem import db as dbmod

SESSIONS = ["s1", "s2", "s3"]
RUNS = ["r1", "r2", "r3", "r4"]
PRINCIPALS = ["alice", "bob"]

step = st.one_of(
    st.tuples(
        st.just("start"),
        st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(PRINCIPALS),
        st.none() | st.sampled_from(RUNS),
        st.lists(st.sampled_from(["search", "calc", "mail"]), unique=True, max_size=3),
    ),
    st.tuples(
        st.just("user"),
        st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(PRINCIPALS),
        st.text(min_size=1, max_size=20),
    ),
    st.tuples(
        st.just("assistant"),
        st.none() | st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(PRINCIPALS),
        st.text(max_size=20),
    ),
    st.tuples(
        st.just("complete"),
        st.sampled_from(RUNS),
        st.sampled_from(SESSIONS),
        st.sampled_from(["succeeded", "failed", "cancelled"]),
    ),
    st.tuples(st.just("close"), st.sampled_from(SESSIONS)),
    st.tuples(st.just("grant"), st.sampled_from(PRINCIPALS)),
    st.tuples(st.just("withdraw"), st.sampled_from(PRINCIPALS)),
)


def _event(op: tuple) -> dict | None:
    kind = op[0]
    if kind == "start":
        _, run, session, principal, parent, tools = op
        ev = {
            "type": "run.started",
            "run_id": run,
            "session_id": session,
            "principal": principal,
            "tools": [{"name": t, "schema": {"title": t}} for t in tools],
        }
        if parent:
            ev["parent_run_id"] = parent
        return ev
    if kind == "user":
        _, run, session, principal, text = op
        return {
            "type": "user.message.created",
            "run_id": run,
            "session_id": session,
            "principal": principal,
            "text": text,
        }
    if kind == "assistant":
        _, run, session, principal, text = op
        ev = {
            "type": "assistant.message.created",
            "session_id": session,
            "principal": principal,
            "text": text,
        }
        if run:
            ev["run_id"] = run
        return ev
    if kind == "complete":
        _, run, session, outcome = op
        return {
            "type": "run.completed",
            "run_id": run,
            "session_id": session,
            "principal": "alice",
            "outcome": outcome,
            "failure_class": None if outcome == "succeeded" else "tool_error",
        }
    if kind == "close":
        return {"type": "session.closed", "session_id": op[1], "principal": "alice"}
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=40))
def test_rebuilt_projections_equal_incremental(ops: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp, agentmem.open(str(Path(tmp) / "a.db")) as store:
        from agentmem.consent import grant, withdraw

        for op in ops:
            if op[0] == "grant":
                grant(store, op[1])
                continue
            if op[0] == "withdraw":
                withdraw(store, op[1])
                continue
            # refused events are part of a realistic history; they write nothing
            with contextlib.suppress(agentmem.EventRejected):
                store.append(_event(op))
        incremental = dbmod.projection_snapshot(store.conn)
        assert store.check() == []
        store.rebuild_projections()
        assert dbmod.projection_snapshot(store.conn) == incremental
