"""AgentmemSession: the OpenAI Agents SDK Session protocol on the event log.

A real SDK agent loop (``Runner.run`` with the SDK's own scripted model, no network) runs
against agentmem and against the SDK's SQLiteSession, and both must hold the same history.
The Session behaviours the SDK relies on (order, limit, pop, clear, several sessions in one
file) are checked here, and so is what agentmem adds: exact item round-trips, no reasoning,
memory from what the user said, runs that consent-gated export can read.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import apsw
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("agents")

from agents import Agent, Runner, SQLiteSession, function_tool, set_tracing_disabled
from agents.memory import SessionSettings
from agents.testing import ScriptedModel, assistant_message, function_call

import agentmem
from agentmem import db as dbmod
from agentmem.errors import EventRejected, InvalidInput, Refused
from agentmem.integrations.openai_agents import AgentmemSession

set_tracing_disabled(True)

T = TypeVar("T")
CONVERSATION = (
    "run.started",
    "run.completed",
    "user.message.created",
    "assistant.message.created",
    "tool.result.created",
    "system.prompt.set",
)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


@function_tool
def weather(city: str) -> str:
    """Today's weather in a city."""
    return f"sunny in {city}"


def scripted() -> ScriptedModel:
    """Two turns: the first calls the weather tool twice, the second only answers."""
    return ScriptedModel(
        [
            [
                assistant_message("Let me check.", item_id="msg-1"),
                function_call("weather", {"city": "Lisbon"}, call_id="call-1"),
                function_call("weather", {"city": "Porto"}, call_id="call-2"),
            ],
            [assistant_message("Sunny in Lisbon and in Porto.", item_id="msg-2")],
            [assistant_message("Nice to meet you, Ada. I live in Paris myself.", item_id="msg-3")],
        ]
    )


async def two_turns(session: Any) -> tuple[list[str], ScriptedModel]:
    model = scripted()
    agent = Agent(name="assistant", instructions="Be brief.", model=model, tools=[weather])
    first = await Runner.run(agent, "What's the weather in Lisbon and Porto?", session=session)
    second = await Runner.run(agent, "My name is Ada and I live in Lisbon.", session=session)
    model.assert_complete()
    return [first.final_output, second.final_output], model


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def without_id(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k != "id"}


def said(text: str, item_id: str = "msg") -> dict[str, Any]:
    return {
        "id": item_id,
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }


def types_of(store: agentmem.Store, session_id: str) -> list[str]:
    return [
        row[0]
        for row in store.conn.execute(
            "SELECT type FROM events WHERE session_id = ? ORDER BY seq", (session_id,)
        )
    ]


def event_count(store: agentmem.Store) -> int:
    return store.conn.execute("SELECT count(*) FROM events").get


def test_agent_loop_with_a_tool_call_over_two_turns(store: agentmem.Store) -> None:
    session = AgentmemSession("chat-1", store=store)
    outputs, model = run(two_turns(session))
    items = run(session.get_items())

    assert outputs == [
        "Sunny in Lisbon and in Porto.",
        "Nice to meet you, Ada. I live in Paris myself.",
    ]
    # The second turn's model call saw the whole first turn, read back from agentmem.
    assert model.last_call is not None
    assert model.last_call.input == [*items[:-1]]
    assert [i.get("type") for i in items] == [
        None,
        "message",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
        "message",
        None,
        "message",
    ]
    conversation = [t for t in types_of(store, "chat-1") if t in CONVERSATION]
    assert conversation == [
        "run.started",
        "user.message.created",
        "assistant.message.created",  # the text and both calls: one chat turn
        "tool.result.created",
        "tool.result.created",
        "assistant.message.created",
        "user.message.created",
        "assistant.message.created",
    ]
    turn = next(
        e
        for e in store.events(session_id="chat-1", types=CONVERSATION)
        if getattr(e, "tool_calls", None)
    )
    assert turn.text == "Let me check."  # type: ignore[attr-defined]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls] == [  # type: ignore[attr-defined]
        ("call-1", "weather", {"city": "Lisbon"}),
        ("call-2", "weather", {"city": "Porto"}),
    ]


def test_same_items_as_sqlite_session_for_the_same_script(store: agentmem.Store) -> None:
    async def both() -> tuple[list[Any], list[Any]]:
        ours = AgentmemSession("chat-1", store=store)
        theirs = SQLiteSession("chat-1")
        await two_turns(ours)
        await two_turns(theirs)
        return await ours.get_items(), await theirs.get_items()

    ours, theirs = run(both())
    assert ours == theirs
    assert len(ours) == 9


def test_beliefs_form_from_what_the_user_said_after_close(store: agentmem.Store) -> None:
    run(two_turns(AgentmemSession("chat-1", store=store)))
    report = store.close_session("chat-1")

    statements = {b.statement for b in store.beliefs(principal=store.principal)}
    assert statements == {"User's name is Ada", "User lives in Lisbon"}  # not Paris
    assert report.counts.get("formed") == 2
    for belief in store.beliefs(principal=store.principal):
        for seq, _quote in belief.evidence:
            (kind,) = store.conn.execute("SELECT type FROM events WHERE seq = ?", (seq,)).fetchone()
            assert kind == "user.message.created"
    assert [b.statement for b in store.search_beliefs("Lisbon", principal="local")] == [
        "User lives in Lisbon"
    ]


def test_order_and_limit(store: agentmem.Store) -> None:
    items = [user("one"), said("two"), user("three"), said("four")]
    session = AgentmemSession("s", store=store)
    run(session.add_items(items[:1]))
    run(session.add_items(items[1:]))

    assert run(session.get_items()) == items
    assert run(session.get_items(limit=2)) == items[-2:]
    assert run(session.get_items(limit=10)) == items
    assert run(session.get_items(limit=0)) == []
    limited = AgentmemSession("s", store=store, session_settings=SessionSettings(limit=1))
    assert run(limited.get_items()) == items[-1:]
    assert run(limited.get_items(limit=3)) == items[-3:]


def test_pop_item_is_recorded_and_honoured(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    assert run(session.pop_item()) is None
    run(session.add_items([user("one"), said("two"), user("three")]))
    before = event_count(store)

    assert run(session.pop_item()) == user("three")
    assert run(session.pop_item()) == said("two")
    assert run(session.get_items()) == [user("one")]
    run(session.add_items([user("again")]))
    assert run(session.get_items()) == [user("one"), user("again")]
    # Append-only: popping added events, it removed none.
    assert event_count(store) > before
    assert types_of(store, "s").count("agents.item.popped") == 2
    assert store.session("s").user_message_count == 3


def test_clear_session_is_recorded_and_leaves_the_session_open(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    run(session.clear_session())  # nothing to clear: nothing recorded
    assert types_of(store, "s") == []
    run(session.add_items([user("one"), said("two")]))
    run(session.clear_session())

    assert run(session.get_items()) == []
    assert run(session.pop_item()) is None
    assert store.session("s").status == "open"
    run(session.add_items([user("after")]))
    assert run(session.get_items()) == [user("after")]
    assert types_of(store, "s").count("agents.session.cleared") == 1


def test_popped_and_cleared_items_are_never_evidence(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("I live in Lisbon."), said("Noted.")]))
    run(session.clear_session())
    run(session.add_items([user("I have a dog named Rex."), user("I am allergic to peanuts.")]))
    assert run(session.pop_item()) == user("I am allergic to peanuts.")
    run(session.add_items([user("My name is Ada.")]))

    run(session.close_session())
    statements = {b.statement for b in store.beliefs()}
    assert statements == {"User has a dog named Rex", "User's name is Ada"}
    # The log still holds every word; only the evidence left them out.
    assert store.session("s").user_message_count == 4


def test_several_sessions_in_one_file(db_path: Path, store: agentmem.Store) -> None:
    first = AgentmemSession("a", store=store)
    second = AgentmemSession("b", store=store)
    run(first.add_items([user("for a")]))
    run(second.add_items([user("for b"), said("b says")]))
    run(first.add_items([said("a says")]))
    run(second.pop_item())

    assert run(first.get_items()) == [user("for a"), said("a says")]
    assert run(second.get_items()) == [user("for b")]
    # Another object (another process, later) on the same file sees the same history.
    with AgentmemSession("a", db=db_path) as reopened:
        assert run(reopened.get_items()) == [user("for a"), said("a says")]
        run(reopened.add_items([user("later")]))
    assert run(first.get_items())[-1] == user("later")


ROUND_TRIP: list[dict[str, Any]] = [
    user("Grüße aus Lisboa 🌞"),
    {
        "type": "message",
        "role": "user",
        "content": [
            {"type": "input_text", "text": "Look at this"},
            {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "auto"},
            {"type": "input_text", "text": "and this"},
        ],
    },
    {"role": "developer", "content": "Answer in one sentence."},
    said("Here you go.", "msg-a"),
    {
        "id": "fc-1",
        "type": "function_call",
        "call_id": "call-9",
        "name": "lookup",
        "arguments": '{"q": "x", "n": 2}',
        "status": "completed",
    },
    {
        "type": "function_call_output",
        "call_id": "call-9",
        "output": [{"type": "input_text", "text": "found 2"}],
    },
    {"type": "custom_tool_call", "call_id": "call-10", "name": "patch", "input": "*** diff"},
    {"type": "custom_tool_call_output", "call_id": "call-10", "output": "applied"},
    {
        "id": "ws-1",
        "type": "web_search_call",
        "status": "completed",
        "action": {"type": "search", "query": "weather", "sources": None},
    },
    {"type": "item_reference", "id": "msg-zzz"},
    {"role": "user", "content": [{"type": "input_image", "image_url": "https://x/y.png"}]},
    {"role": "assistant", "content": "plain", "extra": {"n": 1.5, "big": 2**62, "ok": True}},
]


def test_items_round_trip_exactly(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items(ROUND_TRIP[:5]))
    run(session.add_items(ROUND_TRIP[5:]))

    assert run(session.get_items()) == ROUND_TRIP
    for limit in range(1, len(ROUND_TRIP) + 1):
        assert run(session.get_items(limit=limit)) == ROUND_TRIP[-limit:]
    events = list(store.events(session_id="s", types=CONVERSATION))
    texts = [
        (type(e).__name__, getattr(e, "text", None) or getattr(e, "content", None)) for e in events
    ]
    assert texts == [
        ("RunStarted", None),
        ("UserMessageCreated", "Grüße aus Lisboa 🌞"),
        ("UserMessageCreated", "Look at this\nand this"),
        ("SystemPromptSet", "Answer in one sentence."),
        ("AssistantMessageCreated", "Here you go."),  # and call-9
        ("ToolResultCreated", "found 2"),
        ("AssistantMessageCreated", None),  # call-10 (the tool result broke the turn)
        ("ToolResultCreated", "applied"),
        ("AssistantMessageCreated", "plain"),
    ]
    assert [c.id for c in events[4].tool_calls] == ["call-9"]  # type: ignore[attr-defined]
    assert [(c.name, c.arguments) for c in events[6].tool_calls] == [("patch", "*** diff")]  # type: ignore[attr-defined]


def test_reasoning_items_are_dropped_and_never_stored(store: agentmem.Store) -> None:
    reasoning = {
        "id": "rs-1",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "PRIVATE-CHAIN-OF-THOUGHT"}],
        "content": [{"type": "reasoning_text", "text": "PRIVATE-CHAIN-OF-THOUGHT"}],
        "encrypted_content": "gAAAA-opaque",
    }
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("hi"), reasoning, said("hello")]))
    run(session.add_items([reasoning]))  # a batch of reasoning only stores nothing

    # The reply followed a reasoning item that is gone: it comes back without its id.
    assert run(session.get_items()) == [user("hi"), without_id(said("hello"))]
    hits = store.conn.execute(
        "SELECT count(*) FROM events WHERE payload LIKE '%PRIVATE-CHAIN%' "
        "OR payload LIKE '%gAAAA-opaque%'"
    ).get
    assert hits == 0


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (
            [user("ok"), {"role": "assistant", "content": "x", "reasoning_content": "hmm"}],
            "item 2: field `reasoning_content` carries raw model reasoning",
        ),
        (
            [user("ok"), {"type": "function_call", "name": "f", "arguments": "{}"}],
            "item 2: ",
        ),
    ],
)
def test_bad_items_are_refused_and_nothing_is_written(
    store: agentmem.Store, items: list[Any], message: str
) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("first")]))
    before = event_count(store)
    with pytest.raises(InvalidInput) as caught:
        run(session.add_items(items))
    assert caught.value.message.startswith(message)
    assert event_count(store) == before
    assert run(session.get_items()) == [user("first")]


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([user("ok"), "not an item"], "item 2: expected an item object"),
        ([{"role": "user", "content": "x", "t": (1, 2)}], "item 1: does not survive JSON"),
        ([{"role": "user", "content": "x", "n": float("nan")}], "item 1: does not survive JSON"),
        ([{"role": "user", "content": "x", "o": object()}], "item 1: not plain JSON"),
    ],
)
def test_items_that_are_not_json_are_a_type_error_as_in_the_sdk(
    store: agentmem.Store, items: list[Any], message: str
) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("first")]))
    before = event_count(store)
    with pytest.raises(TypeError, match=message):
        run(session.add_items(items))
    assert event_count(store) == before


def test_a_negative_limit_returns_everything_as_in_the_sdk(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("one"), said("two")]))
    assert run(session.get_items(limit=-1)) == [user("one"), said("two")]
    limited = AgentmemSession("s", store=store, session_settings={"limit": -1})
    assert run(limited.get_items()) == [user("one"), said("two")]


def test_a_closed_object_raises_runtime_error_as_in_the_sdk(db_path: Path) -> None:
    session = AgentmemSession("s", db=db_path)
    run(session.add_items([user("one")]))
    session.close()
    for attempt in (
        session.add_items([user("more")]),
        session.add_items([]),
        session.get_items(),
        session.pop_item(),
        session.clear_session(),
    ):
        with pytest.raises(RuntimeError, match="AgentmemSession is closed"):
            run(attempt)


def test_session_settings_are_the_sdks(store: agentmem.Store) -> None:
    assert AgentmemSession("s", store=store).session_settings == SessionSettings()
    coerced = AgentmemSession("s", store=store, session_settings={"limit": 2})
    assert coerced.session_settings == SessionSettings(limit=2)
    run(coerced.add_items([user("one"), user("two"), user("three")]))
    assert run(coerced.get_items()) == [user("two"), user("three")]
    with pytest.raises(TypeError, match=r"Unknown session settings: limitt .*takes: limit"):
        AgentmemSession("s", store=store, session_settings={"limitt": 1})


def test_one_session_shared_by_threads(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                run(session.add_items([user(f"thread {n} says {i}")]))
                run(session.get_items(limit=3))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(run(session.get_items())) == 50
    assert len(store.runs(session_id="s")) == 1  # one object, one run


def test_a_closed_session_refuses_more_but_stays_readable(store: agentmem.Store) -> None:
    session = AgentmemSession("s", store=store)
    run(session.add_items([user("My name is Ada.")]))
    store.close_session("s")
    before = event_count(store)

    for attempt in (
        session.add_items([user("more")]),
        session.add_items([{"type": "item_reference", "id": "x"}]),
        session.pop_item(),
        session.clear_session(),
    ):
        with pytest.raises(EventRejected, match="is closed"):
            run(attempt)
    assert event_count(store) == before
    assert run(session.get_items()) == [user("My name is Ada.")]


def test_runs_are_recorded_and_exportable_under_consent(store: agentmem.Store) -> None:
    store.grant_consent()
    session = AgentmemSession("chat-1", store=store)
    assert session.run_id is None
    run(two_turns(session))
    run_id = session.run_id
    assert run_id is not None
    assert run(session.complete_run()) == run_id
    assert run(session.complete_run()) is None

    info = store.run(run_id)
    assert (info.status, info.outcome, info.consent_seq is not None) == (
        "completed",
        "succeeded",
        True,
    )
    export = store.export_run(run_id)
    _, data = store.read_artifact(export.artifact_id)
    document = json.loads(data)
    assert [m["role"] for m in document["messages"]] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
        "assistant",
    ]
    assert [c["id"] for c in document["messages"][1]["tool_calls"]] == ["call-1", "call-2"]

    run(session.add_items([user("next run")]))
    assert session.run_id not in (None, run_id)
    report = run(session.close_session())
    assert session.run_id is None
    assert store.session("chat-1").status == "closed"
    assert report.session_id == "chat-1"
    assert [r.status for r in store.runs(session_id="chat-1")] == ["completed", "completed"]


def test_another_principals_session_is_refused(store: agentmem.Store) -> None:
    run(AgentmemSession("s", store=store, principal="alice").add_items([user("mine")]))
    intruder = AgentmemSession("s", store=store, principal="bob")
    with pytest.raises(Refused, match="another principal"):
        run(intruder.get_items())
    with pytest.raises(Refused):
        run(intruder.add_items([user("theirs")]))


def test_constructor_checks(store: agentmem.Store, db_path: Path) -> None:
    with pytest.raises(InvalidInput, match="session_id"):
        AgentmemSession("", store=store)
    with pytest.raises(InvalidInput, match="session_id"):
        AgentmemSession("x" * 129, store=store)
    with pytest.raises(TypeError, match="either store or db"):
        AgentmemSession("s", store=store, db=db_path)


def test_the_module_imports_without_the_sdk() -> None:
    # The log's history decoder imports this module for its process event types, so reading
    # a database must never need the SDK.
    code = (
        "import sys\n"
        "sys.modules['agents'] = None\n"
        "import agentmem.integrations.openai_agents as m\n"
        "from agentmem.events import EVENT_TYPES\n"
        "assert 'agents.item.added' in EVENT_TYPES\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _response(response_id: str, output: list[dict[str, Any]]) -> str:
    from openai.types.responses import Response

    return Response.model_validate(
        {
            "id": response_id,
            "object": "response",
            "created_at": 1,
            "model": "gpt-5",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "status": "completed",
        }
    ).model_dump_json()


def _reasoning(item_id: str) -> dict[str, Any]:
    return {
        "id": item_id,
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "PRIVATE"}],
        "encrypted_content": "gAAAA-opaque",
    }


def _without_their_reasoning(request_input: list[dict[str, Any]], owners: dict[str, str]) -> list:
    """The Responses API's rule: an output item sent back by its id needs the reasoning item
    that produced it (``owners``: item id -> reasoning id) somewhere before it."""
    seen: set[str] = set()
    missing = []
    for item in request_input:
        if item.get("type") == "reasoning":
            seen.add(item["id"])
        elif item.get("id") in owners and owners[item["id"]] not in seen:
            missing.append(item["id"])
    return missing


@pytest.mark.parametrize("backend", ["agentmem", "sqlite"])
def test_reasoning_model_history_is_valid_for_the_responses_api(
    store: agentmem.Store, backend: str
) -> None:
    """The SDK's own request builder (OpenAIResponsesModel) sends what the session returns; the
    second turn's request must hold no output item without the reasoning item it needs."""
    httpx2 = pytest.importorskip("httpx2")
    from agents import OpenAIResponsesModel
    from openai import AsyncOpenAI

    turns = [
        [
            _reasoning("rs_1"),
            {
                "id": "fc_1",
                "type": "function_call",
                "call_id": "call_1",
                "name": "weather",
                "arguments": '{"city": "Lisbon"}',
                "status": "completed",
            },
        ],
        [
            _reasoning("rs_2"),
            {
                **said("Sunny.", "msg_2"),
                "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
            },
        ],
        [said("Hello Ada.", "msg_3")],
    ]
    owners = {"fc_1": "rs_1", "msg_2": "rs_2"}
    requests: list[list[dict[str, Any]]] = []

    async def handler(request: Any) -> Any:
        requests.append(json.loads(request.content)["input"])
        return httpx2.Response(200, content=_response(f"resp_{len(requests)}", turns.pop(0)))

    async def conversation() -> None:
        session = (
            AgentmemSession("chat-r", store=store) if backend == "agentmem" else SQLiteSession("r")
        )
        async with AsyncOpenAI(
            api_key="synthetic",
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)),
        ) as client:
            agent = Agent(
                name="a", model=OpenAIResponsesModel("gpt-5", openai_client=client), tools=[weather]
            )
            await Runner.run(agent, "Weather in Lisbon?", session=session)
            await Runner.run(agent, "I am Ada.", session=session)

    run(conversation())
    assert len(requests) == 3
    assert _without_their_reasoning(requests[-1], owners) == []
    if backend == "agentmem":
        assert not any(i.get("type") == "reasoning" for i in requests[-1])  # never stored
        calls = [i for i in requests[-1] if i.get("type") == "function_call"]
        assert [c["call_id"] for c in calls] == ["call_1"]  # the call itself is still there


class _Compactor:
    """A stand-in for ``client.responses.compact``: keeps the user messages, summarises the
    rest into one opaque compaction item (what the real endpoint returns)."""

    def __init__(self) -> None:
        self.calls = 0

    async def compact(self, **kwargs: Any) -> Any:
        from types import SimpleNamespace

        self.calls += 1
        kept = [dict(i) for i in kwargs.get("input", []) if i.get("role") == "user"]
        summary = {"type": "compaction", "id": f"cmp_{self.calls}", "encrypted_content": "x"}
        return SimpleNamespace(output=[*kept, summary], usage=None)


def _compacting(session: AgentmemSession) -> tuple[Any, _Compactor]:
    from types import SimpleNamespace

    from agents.memory import OpenAIResponsesCompactionSession

    compactor = _Compactor()
    client = SimpleNamespace(responses=compactor)
    wrapper = OpenAIResponsesCompactionSession(
        session.session_id,
        session,
        client=client,  # type: ignore[arg-type]
        compaction_mode="input",
        should_trigger_compaction=lambda context: bool(context["compaction_candidate_items"]),
    )
    return wrapper, compactor


def test_compaction_rewrites_history_without_repeating_what_the_user_said(
    store: agentmem.Store,
) -> None:
    session = AgentmemSession("chat-c", store=store)
    wrapper, compactor = _compacting(session)

    async def turns() -> None:
        model = ScriptedModel(
            [[assistant_message("Noted.", item_id="m1")], [assistant_message("Hi Ada.")]]
        )
        agent = Agent(name="a", model=model)
        await Runner.run(agent, "I live in Lisbon.", session=wrapper)
        await Runner.run(agent, "My name is Ada.", session=wrapper)
        await wrapper.run_compaction({"force": True})  # the manual, whole-history path

    run(turns())
    assert compactor.calls >= 3  # automatic after each turn, then the manual one
    items = run(session.get_items())
    assert [i.get("content") for i in items if i.get("role") == "user"] == [
        "I live in Lisbon.",
        "My name is Ada.",
    ]
    assert items[-1]["type"] == "compaction"
    said_by_user = [
        e.text  # type: ignore[attr-defined]
        for e in store.events(session_id="chat-c", types=("user.message.created",))
    ]
    assert said_by_user == ["I live in Lisbon.", "My name is Ada."]

    # What a compaction replaced was not taken back: it is still evidence.
    run(session.close_session())
    assert {b.statement for b in store.beliefs()} == {
        "User lives in Lisbon",
        "User's name is Ada",
    }


# -- the live items are a projection: reads cost the same at any history length ----------------

item_ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from(["a", "b"]), st.integers(1, 3)),
        st.tuples(st.just("pop"), st.sampled_from(["a", "b"])),
        st.tuples(st.just("clear"), st.sampled_from(["a", "b"])),
        st.tuples(st.just("compact"), st.sampled_from(["a", "b"]), st.integers(0, 3)),
    ),
    max_size=25,
)


def _projection_dropped_and_migrated(path: Path) -> None:
    """Drop the agents_items projection and run the migration step that introduced it: the
    file then holds what upgrading a version-3 file with the same log would give."""
    conn = apsw.Connection(str(path))
    with conn:
        for trigger in ("item_added", "item_popped", "session_cleared"):
            conn.execute(f"DROP TRIGGER events_proj_agents_{trigger}")
        conn.execute("DROP TABLE agents_items")
        conn.execute(dbmod.MIGRATIONS[3])
    conn.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item_ops)
def test_live_items_follow_adds_pops_clears_and_compactions(ops: list[tuple]) -> None:
    """Whatever the history, every limit reads what a list would hold, the projection equals a
    replay of the log, and the migration that builds it from an older file's log agrees."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.db"
        expected: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
        with agentmem.open(str(path)) as store:
            sessions = {
                "a": AgentmemSession("a", store=store),
                "b": AgentmemSession("b", store=store, principal="bob"),
            }
            for number, (op, name, *arg) in enumerate(ops):
                session, live = sessions[name], expected[name]
                if op == "add":
                    batch = [user(f"{name} {number}.{k}") for k in range(arg[0])]
                    run(session.add_items(batch))
                    live += batch
                elif op == "pop":
                    assert run(session.pop_item()) == (live.pop() if live else None)
                elif op == "clear":
                    run(session.clear_session())
                    live.clear()
                else:
                    snapshot = run(session._get_compaction_snapshot(arg[0]))
                    assert snapshot.items == (live[-arg[0] :] if arg[0] else [])
                    output = [said(f"summary {number}")]
                    if snapshot.items and run(snapshot.replace_suffix(0, output)):
                        del live[-len(snapshot.items) :]
                        live += output
            for name, session in sessions.items():
                for limit in (None, -1, 1, 2, 5):
                    want = expected[name] if limit is None or limit < 0 else expected[name][-limit:]
                    assert run(session.get_items(limit=limit)) == want
            assert store.check() == []
        _projection_dropped_and_migrated(path)
        with agentmem.open(str(path)) as store:
            assert store.check() == []
            for name, principal in (("a", None), ("b", "bob")):
                session = AgentmemSession(name, store=store, principal=principal)
                assert run(session.get_items()) == expected[name]


def _steps(store: agentmem.Store, call: Coroutine[Any, Any, T]) -> tuple[T, int]:
    """``call``'s result and how many SQLite virtual-machine steps it took (in 10s)."""
    steps = 0

    def count() -> bool:
        nonlocal steps
        steps += 1
        return False

    store.conn.set_progress_handler(count, 10)
    try:
        return run(call), steps
    finally:
        store.conn.set_progress_handler(None)


def test_reading_the_latest_items_does_not_grow_with_the_history(store: agentmem.Store) -> None:
    short, long = AgentmemSession("short", store=store), AgentmemSession("long", store=store)
    run(short.add_items([user(f"short {i}") for i in range(20)]))
    for start in range(0, 2_000, 500):
        run(long.add_items([user(f"long {i}") for i in range(start, start + 500)]))
    run(long.pop_item())
    run(long.add_items([user("long last")]))

    few, few_steps = _steps(store, short.get_items(limit=10))
    many, many_steps = _steps(store, long.get_items(limit=10))
    assert few == [user(f"short {i}") for i in range(10, 20)]
    assert many == [*(user(f"long {i}") for i in range(1_990, 1_999)), user("long last")]
    # SQLite does the same work for 2,000 items as for 20 (a replay would do 100x more).
    assert many_steps <= few_steps * 1.5
    _, pop_steps = _steps(store, long.pop_item())
    assert pop_steps <= few_steps * 3
