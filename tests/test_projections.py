"""Rebuilt projections equal incremental ones after randomized histories (hypothesis)."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from unittest import mock

import apsw
import pytest
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
    # A close may carry a run id too: an event of a run that is not one of its members.
    st.tuples(st.just("close"), st.sampled_from(SESSIONS), st.none() | st.sampled_from(RUNS)),
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
        ev = {"type": "session.closed", "session_id": op[1], "principal": "alice"}
        if op[2]:
            ev["run_id"] = op[2]
        return ev
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=40))
def test_a_runs_events_and_count_are_what_its_run_id_tags(ops: list[tuple]) -> None:
    """Reads of a run go through its session's range and the partial run index (no index
    entry per message): they must find exactly the events a scan for the run id finds, and
    a run, running or completed, counts its start, members and completion."""
    with tempfile.TemporaryDirectory() as tmp, agentmem.open(str(Path(tmp) / "a.db")) as store:
        for op in ops:
            event = _event(op)
            if event is not None:
                with contextlib.suppress(agentmem.EventRejected):
                    store.append(event)
        counted = {"run.started", "run.completed", *dbmod.RUN_MEMBER_TYPES}
        for run in store.runs(all_principals=True):
            scanned = list(
                store.conn.execute(
                    "SELECT seq, type FROM events NOT INDEXED WHERE run_id = ? ORDER BY seq",
                    (run.run_id,),
                )
            )
            read = [e.seq for e in store.events(all_principals=True, run_id=run.run_id)]
            assert read == [seq for seq, _ in scanned]
            assert run.event_count == sum(kind in counted for _, kind in scanned)


# -- the bulk path (agentmem.bulk) equals appending event by event ------------------------------

batch_step = st.one_of(step, st.tuples(st.just("resend"), st.integers(0, 40)))


def _batch(ops: list[tuple]) -> list[dict]:
    """Client events with their own ids and times (so two appends of them are comparable);
    ``resend`` repeats an earlier event of the batch (a replay), or changes it (a conflict)."""
    events: list[dict] = []
    for number, op in enumerate(ops):
        if op[0] == "resend":
            if events:
                again = dict(events[op[1] % len(events)])
                if op[1] % 3 == 0:
                    again["session_id"] = "s-conflict"
                events.append(again)
            continue
        event = _event(op)
        if event is not None:
            event["event_id"] = f"b{number}"
            event["created_at"] = f"2026-01-01T00:00:{number:02d}.000Z"
            events.append(event)
    return events


def _outcome(path: Path, events: list[dict], *, bulk_path: bool) -> tuple:
    """Append ``events`` in one batch, through the bulk path or event by event: the result (or
    the error), then every row of the log and of the projections."""
    from agentmem import bulk

    limit = 1 if bulk_path else 10**9
    with (
        mock.patch.object(bulk, "MIN_CHUNK", limit),
        mock.patch.object(bulk, "CHUNK", 12),
        agentmem.open(str(path)) as store,
    ):
        try:
            result: object = store.append_many(events)
        except agentmem.AgentmemError as exc:
            result = (type(exc).__name__, str(exc))
        assert store.check() == []
        rows = list(store.conn.execute("SELECT * FROM events ORDER BY seq"))
        return result, rows, dbmod.projection_snapshot(store.conn)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=12), st.lists(batch_step, max_size=30))
def test_bulk_appends_equal_appending_event_by_event(before: list[tuple], ops: list[tuple]) -> None:
    """Same result or same error, same log, same projections: for any history already in the
    file and any batch, refused ones (closed sessions, unknown, foreign or completed runs,
    conflicts) included, chunk boundaries anywhere."""
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "first.db"
        with agentmem.open(str(first)) as store:
            from agentmem.consent import grant, withdraw

            for op in before:
                if op[0] in ("grant", "withdraw"):
                    (grant if op[0] == "grant" else withdraw)(store, op[1])
                    continue
                with contextlib.suppress(agentmem.EventRejected):
                    store.append(_event(op))
        second = Path(tmp) / "second.db"
        shutil.copyfile(first, second)
        events = _batch(ops)
        assert _outcome(first, events, bulk_path=True) == _outcome(second, events, bulk_path=False)


# Mostly valid traffic, so the bulk path's own statements (not only its refusal) are compared:
# runs that start (some under a parent, some with tools), take members and complete, sessions
# that close, all continuing what the file already holds; `any` mixes in a random step.
intent = st.tuples(
    st.sampled_from(["start", "user", "assistant", "tool", "system", "complete", "close"]),
    st.integers(0, 2),
    st.integers(0, 5),
    st.integers(0, 19),
    step,
).map(lambda drawn: ("any", drawn[4]) if drawn[3] == 0 else (*drawn[:3], drawn[3] == 1))


class _Traffic:
    def __init__(self) -> None:
        self.runs: dict[str, str] = {}  # open run -> its session
        self.closed: set[str] = set()
        self.count = 0

    def events(self, intents: list[tuple]) -> list[dict]:
        out = []
        for op in intents:
            self.count += 1
            event = self._event(op)
            if event is not None:
                event.setdefault("event_id", f"t{self.count}")
                event.setdefault(
                    "created_at", f"2026-01-01T00:{self.count // 60:02d}:{self.count % 60:02d}.000Z"
                )
                out.append(event)
        return out

    def _event(self, op: tuple) -> dict | None:
        kind = op[0]
        if kind == "any":
            return _event(op[1])
        session = f"t{op[1]}"
        rare = op[3]  # one intent in 20 is refused on purpose
        if session in self.closed and not rare:
            return None
        base = {"session_id": session, "principal": PRINCIPALS[op[1] % 2]}
        open_runs = [r for r, s in self.runs.items() if s == session]
        if kind == "start":
            run = f"tr{self.count}"
            event = {**base, "type": "run.started", "run_id": run}
            if self.runs and op[2] % 2:
                event["parent_run_id"] = sorted(self.runs)[op[2] % len(self.runs)]
            elif rare:
                event["parent_run_id"] = f"tr{self.count + 1}"  # started next, if at all
            if op[2] > 3:
                event["tools"] = [{"name": "search", "schema": {"n": op[2]}}]
            self.runs[run] = session
            return event
        if kind == "close":
            self.closed.add(session)
            for run in open_runs:
                del self.runs[run]
            return {**base, "type": "session.closed"}
        run = open_runs[op[2] % len(open_runs)] if open_runs else None
        if rare and self.runs:  # maybe a run of another session
            run = sorted(self.runs)[op[2] % len(self.runs)]
        if kind == "complete":
            if run is None:
                return None
            if not rare:  # else the run takes more events after it completed
                del self.runs[run]
            return {
                **base,
                "type": "run.completed",
                "run_id": run,
                "outcome": "failed",
                "failure_class": "tool_error",
            }
        event = {**base, "run_id": run} if run is not None and op[2] % 3 else dict(base)
        if kind == "user":
            return {**event, "type": "user.message.created", "text": f"hello {self.count}"}
        if kind == "assistant":
            return {**event, "type": "assistant.message.created", "text": "hi"}
        if kind == "tool":
            return {**event, "type": "tool.result.created", "tool_call_id": "c1", "content": "ok"}
        return {**event, "type": "system.prompt.set", "text": "be brief"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(intent, max_size=15), st.lists(intent, max_size=40), st.booleans())
def test_bulk_appends_of_mostly_valid_traffic_equal_event_by_event(
    before: list[tuple], ops: list[tuple], granted: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "first.db"
        traffic = _Traffic()
        with agentmem.open(str(first)) as store:
            from agentmem.consent import grant

            if granted:
                grant(store, "alice")
            for event in traffic.events(before):
                with contextlib.suppress(agentmem.EventRejected):
                    store.append(event)
        second = Path(tmp) / "second.db"
        shutil.copyfile(first, second)
        events = traffic.events(ops)
        assert _outcome(first, events, bulk_path=True) == _outcome(second, events, bulk_path=False)


def _in_run(kind: str, run: str, session: str = "s1", **fields: object) -> dict:
    return {"type": kind, "session_id": session, "run_id": run, "principal": "alice", **fields}


REFUSED_IN_ONE_CHUNK = {
    "a member after the run completed": [
        _in_run("run.started", "r1"),
        _in_run("run.completed", "r1", outcome="succeeded"),
        _in_run("user.message.created", "r1", text="late"),
    ],
    "a member of another session's run": [
        _in_run("run.started", "r1"),
        _in_run("user.message.created", "r1", session="s2", text="elsewhere"),
    ],
    "an event after the session closed": [
        _in_run("run.started", "r1"),
        {"type": "session.closed", "session_id": "s1", "principal": "alice"},
        {"type": "assistant.message.created", "session_id": "s1", "principal": "alice"},
    ],
    "a parent run started after its child": [
        _in_run("run.started", "r2", parent_run_id="r1"),
        _in_run("run.started", "r1"),
    ],
    "a run started twice": [_in_run("run.started", "r1"), _in_run("run.started", "r1")],
    "a member before its run started": [
        _in_run("user.message.created", "r1", text="early"),
        _in_run("run.started", "r1"),
    ],
}


@pytest.mark.parametrize("events", REFUSED_IN_ONE_CHUNK.values(), ids=REFUSED_IN_ONE_CHUNK)
def test_a_chunk_the_triggers_would_refuse_is_refused_alike(tmp_path: Path, events: list) -> None:
    bulk_result = _outcome(tmp_path / "bulk.db", events, bulk_path=True)
    assert bulk_result == _outcome(tmp_path / "rows.db", events, bulk_path=False)
    assert bulk_result[0][0] == "EventRejected" and bulk_result[1] == []


def test_the_bulk_statements_match_the_schemas_triggers() -> None:
    """bulk.py states the trigger bodies it replaces; a changed trigger must change it too
    (until then the bulk path refuses to run and imports fall back to event by event)."""
    from agentmem import bulk

    conn = apsw.Connection(":memory:")
    conn.execute(dbmod.data_path("schema.sql").read_text(encoding="utf-8"))
    assert bulk.supported(conn)
    conn.execute("DROP TRIGGER events_proj_run_member")
    assert not bulk.supported(conn)
