"""Drive ``agentmem mcp`` the way a desktop MCP client does: a subprocess over stdio.

The official MCP Python SDK's client launches ``agentmem mcp --db <temp file>``, lists what the
server offers, records one user turn and one assistant turn, closes the session (memory forms
from the user's words only), recalls, and reads the beliefs resource. Offline, a few seconds.

Needs the extra: ``pip install 'agentmem[mcp]'``; run ``python examples/mcp_client.py``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    from mcp import ClientSession, StdioServerParameters, stdio_client
except ImportError:
    sys.exit("this example needs the MCP Python SDK: pip install 'agentmem[mcp]'")


async def call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    """Call a tool; a tool error is printed, as a model would read it."""
    result = await session.call_tool(tool, arguments)
    if result.is_error:
        print(f"{tool} -> error: {result.content[0].text}")
        return None
    return result.structured_content


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = StdioServerParameters(
            command=sys.executable,
            args=["-m", "agentmem", "mcp", "--db", str(Path(tmp) / "agentmem.db")],
        )
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            info = await session.initialize()
            tools = await session.list_tools()
            resources = await session.list_resources()
            print(f"server: {info.server_info.name} {info.server_info.version}")
            print(f"tools: {', '.join(t.name for t in tools.tools)}")
            print(f"resources: {', '.join(str(r.uri) for r in resources.resources)}")

            user = "My name is Ada and I live in Lisbon."
            reply = "Nice to meet you, Ada. I live in Paris."
            await call(session, "record_message", session_id="chat-1", role="user", text=user)
            await call(session, "record_message", session_id="chat-1", role="assistant", text=reply)
            await call(session, "record_message", session_id="chat-1", role="system", text="x")

            report = await call(session, "close_session", session_id="chat-1")
            print(f"close_session -> {report['counts']}")
            for query in ("Lisbon", "Paris"):
                found = await call(session, "recall", query=query)
                statements = [b["statement"] for b in found["beliefs"]]
                print(f"recall {query!r} -> {statements}")

            listing = await session.read_resource("agentmem://beliefs")
            beliefs = json.loads(listing.contents[0].text)["beliefs"]
            for belief in beliefs:
                evidence = belief["evidence"][0]
                print(
                    f"belief: {belief['statement']} (seq {evidence['seq']}: {evidence['quote']!r})"
                )


if __name__ == "__main__":
    asyncio.run(main())
