"""``agentmem mcp``: the MCP server, driven over stdio by the official SDK's client.

Each test starts ``python -m agentmem mcp --db <tmp>`` as a real subprocess, exactly as a
desktop client would, and talks to it with ``ClientSession`` + ``stdio_client``.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

import agentmem

T = TypeVar("T")
Script = Callable[[ClientSession], Awaitable[T]]
CONVERSATION_TYPES = ("user.message.created", "assistant.message.created", "session.closed")


@pytest.fixture
def drive(db_path: Path, cli_env: dict[str, str], tmp_path: Path) -> Callable[..., Any]:
    """Run ``script(session)`` against a fresh ``agentmem mcp`` subprocess; return its result."""

    @asynccontextmanager
    async def connect(extra: tuple[str, ...]) -> AsyncIterator[ClientSession]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "agentmem", "mcp", "--db", str(db_path), *extra],
            env=cli_env,
        )
        with (tmp_path / "mcp-stderr.log").open("a", encoding="utf-8") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                yield session

    def run(script: Script[T], *extra: str) -> T:
        async def main() -> T:
            async with connect(extra) as session:
                return await script(session)

        try:
            return asyncio.run(asyncio.wait_for(main(), timeout=60))
        except BaseException:
            log = tmp_path / "mcp-stderr.log"
            if log.exists():
                print("server stderr:\n" + log.read_text(encoding="utf-8"))  # pytest shows it
            raise

    return run


def conversation(store: agentmem.Store) -> list[agentmem.Event]:
    return list(store.events(types=CONVERSATION_TYPES))


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error(result: CallToolResult) -> str:
    assert result.is_error
    return result.content[0].text  # type: ignore[union-attr]


def test_exactly_three_tools_and_the_beliefs_resource(drive: Callable[..., Any]) -> None:
    async def script(session: ClientSession) -> tuple[Any, Any]:
        return await session.list_tools(), await session.list_resources()

    tools, resources = drive(script)
    by_name = {tool.name: tool for tool in tools.tools}
    assert set(by_name) == {"recall", "record_message", "close_session"}
    assert by_name["recall"].annotations.read_only_hint is True
    assert set(by_name["record_message"].input_schema["properties"]["role"]["enum"]) == {
        "user",
        "assistant",
    }
    assert set(by_name["record_message"].input_schema["required"]) == {
        "session_id",
        "role",
        "text",
    }
    assert [(str(r.uri), r.mime_type) for r in resources.resources] == [
        ("agentmem://beliefs", "application/json")
    ]


def test_memory_forms_from_what_the_user_said_only(
    drive: Callable[..., Any], db_path: Path
) -> None:
    async def script(session: ClientSession) -> dict[str, Any]:
        said = ok(
            await session.call_tool(
                "record_message",
                {
                    "session_id": "c1",
                    "role": "user",
                    "text": "My name is Ada and I live in Lisbon.",
                },
            )
        )
        ok(
            await session.call_tool(
                "record_message",
                {"session_id": "c1", "role": "assistant", "text": "I live in Paris, Ada."},
            )
        )
        closed = ok(await session.call_tool("close_session", {"session_id": "c1"}))
        lisbon = ok(await session.call_tool("recall", {"query": "Lisbon", "limit": 5}))
        paris = ok(await session.call_tool("recall", {"query": "Paris"}))
        resource = await session.read_resource("agentmem://beliefs")
        return {
            "said": said,
            "closed": closed,
            "lisbon": lisbon,
            "paris": paris,
            "resource": json.loads(resource.contents[0].text),  # type: ignore[union-attr]
        }

    out = drive(script)
    seq = out["said"]["seq"]
    assert out["closed"]["counts"] == {"formed": 2}
    assert len(out["closed"]["belief_ids"]) == 2
    (found,) = out["lisbon"]["beliefs"]
    assert found["statement"] == "User lives in Lisbon"
    assert found["evidence"] == [{"seq": seq, "quote": "I live in Lisbon"}]
    assert found["belief_id"] in out["closed"]["belief_ids"]
    assert out["paris"]["beliefs"] == []  # the assistant's words never become memory
    listed = out["resource"]
    assert listed["principal"] == "local"
    assert {b["statement"] for b in listed["beliefs"]} == {
        "User's name is Ada",
        "User lives in Lisbon",
    }

    with agentmem.open(str(db_path)) as store:
        kinds = [(type(e).__name__, getattr(e, "text", None)) for e in conversation(store)]
        assert kinds == [
            ("UserMessageCreated", "My name is Ada and I live in Lisbon."),
            ("AssistantMessageCreated", "I live in Paris, Ada."),
            ("SessionClosed", None),
        ]


def test_store_errors_are_tool_errors_and_change_nothing(
    drive: Callable[..., Any], db_path: Path
) -> None:
    async def script(session: ClientSession) -> list[str]:
        record = "record_message"
        errors = [
            error(
                await session.call_tool(record, {"session_id": "c", "role": "system", "text": "x"})
            ),
            error(
                await session.call_tool(record, {"session_id": "c", "role": "tool", "text": "x"})
            ),
            error(await session.call_tool(record, {"session_id": "c", "role": "user", "text": ""})),
            error(await session.call_tool(record, {"session_id": "", "role": "user", "text": "x"})),
            error(await session.call_tool("close_session", {"session_id": "nope"})),
            error(await session.call_tool("recall", {"query": "x", "limit": 0})),
        ]
        ok(await session.call_tool(record, {"session_id": "c", "role": "user", "text": "hi"}))
        ok(await session.call_tool("close_session", {"session_id": "c"}))
        errors.append(
            error(await session.call_tool(record, {"session_id": "c", "role": "user", "text": "x"}))
        )
        return errors

    bad_role, tool_role, empty, bad_id, unknown, limit, closed = drive(script)
    assert "role must be 'user' or 'assistant', got 'system'" in bad_role
    assert "got 'tool'" in tool_role
    assert empty.endswith("text must not be empty")
    assert bad_id.endswith("session_id must not be empty")
    assert "no session 'nope'" in unknown
    assert limit.endswith("limit must be at least 1")
    assert "session 'c' is closed" in closed
    for message in (bad_role, tool_role, empty, bad_id, unknown, limit, closed):
        assert "Traceback" not in message and "\n" not in message

    with agentmem.open(str(db_path)) as store:
        assert [type(e).__name__ for e in conversation(store)] == [
            "UserMessageCreated",
            "SessionClosed",
        ]


def test_the_server_acts_for_one_principal(drive: Callable[..., Any], db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(
            {
                "type": "user.message.created",
                "session_id": "alice-chat",
                "principal": "alice",
                "text": "I live in Lisbon.",
            }
        )
        store.close_session("alice-chat", principal="alice")
        store.append(
            {
                "type": "user.message.created",
                "session_id": "alice-open",
                "principal": "alice",
                "text": "My name is Alice.",
            }
        )

    async def script(session: ClientSession) -> list[Any]:
        return [
            ok(await session.call_tool("recall", {"query": "Lisbon"})),
            error(
                await session.call_tool(
                    "record_message", {"session_id": "alice-open", "role": "user", "text": "x"}
                )
            ),
            error(await session.call_tool("close_session", {"session_id": "alice-open"})),
            json.loads((await session.read_resource("agentmem://beliefs")).contents[0].text),  # type: ignore[union-attr]
        ]

    recalled, recorded, closed, listed = drive(script, "--principal", "bob")
    assert recalled == {"beliefs": []}
    assert "no session 'alice-open'" in recorded
    assert "no session 'alice-open'" in closed
    assert listed == {"principal": "bob", "beliefs": []}
    with agentmem.open(str(db_path)) as store:
        assert store.session("alice-open", principal="alice").status == "open"
        assert store.session("alice-open", principal="alice").event_count == 1


def test_missing_sdk_is_one_line_naming_the_extra(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, db_path: Path
) -> None:
    fake = tmp_path / "no-mcp" / "mcp"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        'raise ModuleNotFoundError("No module named \'mcp\'", name="mcp")\n', encoding="utf-8"
    )
    result = run_cli("mcp", "--db", str(db_path), env={"PYTHONPATH": str(fake.parent)})
    assert result.returncode == 2
    assert result.stdout == ""
    assert "pip install 'agentmem[mcp]'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not db_path.exists()


def test_help_does_not_import_the_sdk(cli_env: dict[str, str]) -> None:
    code = (
        "import sys\n"
        "from agentmem.cli import main\n"
        "main(['--help'])\n"
        "main(['mcp', '--help'])\n"
        "assert 'mcp' not in sys.modules, 'agentmem --help imported the MCP SDK'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=cli_env, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "agentmem mcp" in result.stdout


def test_tilde_in_db_is_expanded_without_a_shell(cli_env: dict[str, str], tmp_path: Path) -> None:
    """Claude Desktop passes ``--db ~/agentmem.db`` as it is: no shell expands the ``~``."""
    home = Path(cli_env["HOME"])
    home.mkdir(parents=True, exist_ok=True)
    workdir = tmp_path / "client-cwd"
    workdir.mkdir()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "agentmem", "mcp", "--db", "~/agentmem.db"],
        env=cli_env,
        cwd=str(workdir),
    )

    async def main() -> None:
        with (tmp_path / "mcp-stderr.log").open("a", encoding="utf-8") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                result = await session.call_tool(
                    "record_message", {"session_id": "s", "role": "user", "text": "hello"}
                )
                assert not result.is_error, result.content

    asyncio.run(asyncio.wait_for(main(), timeout=60))
    assert (home / "agentmem.db").exists()
    assert list(workdir.iterdir()) == []  # no literal '~' directory
    with agentmem.open(str(home / "agentmem.db")) as store:
        assert store.session("s").user_message_count == 1


@pytest.mark.parametrize("relative", ["agentmem.db", "data/agentmem.db", "./agentmem.db"])
def test_a_relative_db_is_refused(cli_env: dict[str, str], tmp_path: Path, relative: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "agentmem", "mcp", "--db", relative],
        input="",
        capture_output=True,
        text=True,
        env=cli_env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "absolute database path" in result.stderr
    assert "agentmem.db" in result.stderr
    assert not (tmp_path / "agentmem.db").exists()


def test_schemas_declare_the_limits_and_the_results(drive: Callable[..., Any]) -> None:
    async def script(session: ClientSession) -> Any:
        return await session.list_tools()

    tools = {tool.name: tool for tool in drive(script).tools}
    session_id = tools["close_session"].input_schema["properties"]["session_id"]
    assert (session_id["minLength"], session_id["maxLength"]) == (1, 128)
    assert re.compile(session_id["pattern"]).search("chat-1")
    assert not re.compile(session_id["pattern"]).search("a\u202eb")
    text = tools["record_message"].input_schema["properties"]["text"]
    assert text["minLength"] == 1
    limit = tools["recall"].input_schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 50)
    for tool in tools.values():
        assert tool.input_schema["additionalProperties"] is False
        output = tool.output_schema
        assert output["type"] == "object" and output["properties"], tool.name
        assert output.get("additionalProperties") is not True, tool.name
    assert set(tools["recall"].output_schema["properties"]) == {"beliefs"}
    assert set(tools["record_message"].output_schema["required"]) == {"session_id", "role", "seq"}


def test_argument_mistakes_are_one_plain_line(drive: Callable[..., Any]) -> None:
    async def script(session: ClientSession) -> list[str]:
        calls = [
            ("recall", {"query": "x", "limit": "ten"}),
            ("recall", {"query": "x", "limit": 51}),
            ("recall", {"limit": 5}),
            ("recall", {"query": "x", "bogus": 1}),
            ("record_message", {"session_id": "c\nd", "role": "user", "text": "x"}),
            ("record_message", {"session_id": "c", "role": "user", "text": 42}),
        ]
        return [error(await session.call_tool(name, args)) for name, args in calls]

    messages = drive(script)
    assert [m.split(": ", 1)[1] for m in messages] == [
        "limit must be a whole number, not a string",
        "limit must be at most 50",
        "query is required",
        "unknown argument 'bogus'",
        "session_id must be printable (no control, bidi, zero-width or line-break characters)",
        "text must be a string, not a whole number",
    ]
    assert all("\n" not in m and "Expected" not in m and "$." not in m for m in messages)


def test_the_prompt_is_real_and_advertised(drive: Callable[..., Any], db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append({"type": "user.message.created", "session_id": "p", "text": "I live in Oslo."})
        store.close_session("p")

    async def script(session: ClientSession) -> Any:
        prompts = await session.list_prompts()
        found = await session.get_prompt("what_you_remember", {"topic": "Oslo"})
        nothing = await session.get_prompt("what_you_remember", {"topic": "Lima"})
        return prompts, found, nothing

    prompts, found, nothing = drive(script)
    assert [p.name for p in prompts.prompts] == ["what_you_remember"]
    text = found.messages[0].content.text
    assert "User lives in Oslo" in text and '"I live in Oslo"' in text
    assert "nothing" in nothing.messages[0].content.text
