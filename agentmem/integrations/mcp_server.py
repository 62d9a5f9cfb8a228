"""The MCP server behind ``agentmem mcp``: a desktop agent's memory over stdio.

A desktop MCP client (Claude Desktop, an IDE, any host) launches ``agentmem mcp`` and gives its
model three tools and one resource, all acting for one principal:

- ``recall(query, limit)``: full-text search over the principal's beliefs, with evidence;
- ``record_message(session_id, role, text)``: the user's or the assistant's words, verbatim,
  into the session's log;
- ``close_session(session_id)``: close the session; memory forms from what the user said;
- resource ``agentmem://beliefs``: every active belief of the principal.

No tool writes a belief: beliefs form only at consolidation, from ``user.message.created``
events, behind the formation gates. The host is trusted to relay the user's words as the user
said them; agentmem cannot tell a relayed user message from an invented one.

Errors from the store become tool errors carrying the store's one-line message, so the model
reads why (closed session, empty text, unknown session) and can correct itself. Tool bodies
are coroutines that call the store on the server's one thread: the apsw connection and its
transactions are never shared across threads. This module needs the MCP Python SDK 2.x
(extra ``mcp``); the CLI imports it only when ``agentmem mcp`` runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import msgspec
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from agentmem import __version__
from agentmem.errors import AgentmemError, NotFound
from agentmem.store import Store

__all__ = ["BELIEFS_URI", "MAX_RECALL", "create_server", "serve_stdio"]

#: The resource listing the principal's active beliefs.
BELIEFS_URI = "agentmem://beliefs"
#: Most beliefs one ``recall`` returns.
MAX_RECALL = 50

_ROLES = {"user": "user.message.created", "assistant": "assistant.message.created"}

_INSTRUCTIONS = (
    "agentmem keeps this user's long-term memory on their own machine. Call recall before "
    "answering anything that may depend on what the user told you in earlier conversations. "
    "Call record_message for each user turn (role 'user', the user's exact words) and each "
    "of your replies (role 'assistant'), under one session_id per conversation. Call "
    "close_session when the conversation ends: memory forms only then, and only from what "
    "the user said. You cannot store a memory directly."
)

SessionIdArg = Annotated[
    str, Field(description="One id per conversation, 1 to 128 printable characters.")
]


@contextmanager
def _tool_errors() -> Iterator[None]:
    """Store errors become tool errors the model can read (one line, no traceback)."""
    try:
        yield
    except AgentmemError as exc:
        raise ToolError(exc.message) from exc


def _owned_session(store: Store, session_id: str, principal: str) -> str | None:
    """The session's status, or ``None`` if it has no events yet.

    A session of another principal is reported as missing: the server acts for one user and
    does not reveal that anyone else's session exists.
    """
    try:
        info = store.session(session_id)
    except NotFound:
        return None
    if info.principal != principal:
        raise NotFound(f"no session {session_id!r}")
    return info.status


def _described(fn: Any) -> str:
    """A tool's description for the model: its docstring on one line."""
    return " ".join((fn.__doc__ or "").split())


def _belief_json(belief: Any) -> dict[str, Any]:
    return {
        "belief_id": belief.belief_id,
        "statement": belief.statement,
        "kind": belief.kind,
        "created_at": belief.created_at,
        "evidence": [{"seq": seq, "quote": quote} for seq, quote in belief.evidence],
    }


def create_server(store: Store, *, principal: str | None = None) -> MCPServer:
    """An MCP server over ``store`` acting for ``principal`` (default: the store's).

    ``close_session`` consolidates, so the formation policy is resolved here, before any tool
    can write: ``required`` without matching evidence raises :class:`EvidenceMismatch`.
    """
    from agentmem.memory.composition import resolve_settings

    resolve_settings(store.settings)
    owner = principal if principal is not None else store.principal
    server: MCPServer = MCPServer(
        "agentmem", instructions=_INSTRUCTIONS, version=__version__, log_level="WARNING"
    )

    async def recall(
        query: Annotated[str, Field(description="Words to look for in what the user said.")],
        limit: Annotated[int, Field(description=f"At most this many, 1 to {MAX_RECALL}.")] = 10,
    ) -> dict[str, Any]:
        """Search the user's long-term memory: beliefs formed from what the user said in
        earlier conversations, best match first, each with its evidence (the user's own words
        and their event seq)."""
        if not 1 <= limit <= MAX_RECALL:
            raise ToolError(f"limit must be between 1 and {MAX_RECALL}, got {limit}")
        with _tool_errors():
            found = store.search_beliefs(query, principal=owner, limit=limit)
        return {"beliefs": [_belief_json(b) for b in found]}

    async def record_message(
        session_id: SessionIdArg,
        role: Annotated[
            str,
            Field(
                description="'user' for the user's words, 'assistant' for your reply.",
                json_schema_extra={"enum": list(_ROLES)},
            ),
        ],
        text: Annotated[str, Field(description="The message, verbatim.")],
    ) -> dict[str, Any]:
        """Record one message of the conversation in the user's local log. Only what the
        user said can ever become memory; record the user's words exactly as given."""
        kind = _ROLES.get(role)
        if kind is None:
            raise ToolError(
                f"role must be 'user' or 'assistant', got {role!r}; "
                "system prompts and tool output cannot be recorded through this tool"
            )
        with _tool_errors():
            _owned_session(store, session_id, owner)
            result = store.append_event(
                {"type": kind, "session_id": session_id, "principal": owner, "text": text}
            )
        return {"session_id": session_id, "role": role, "seq": result.seq}

    async def close_session(session_id: SessionIdArg) -> dict[str, Any]:
        """End a conversation: nothing more can be recorded in it, and long-term memory is
        formed from what the user said in it. Returns what the consolidation did."""
        with _tool_errors():
            if _owned_session(store, session_id, owner) is None:
                raise NotFound(f"no session {session_id!r}")
            report = store.close_session(session_id)
        return {
            "session_id": report.session_id,
            "through_seq": report.through_seq,
            "formation_policy": report.formation_policy,
            "skipped": report.skipped,
            "counts": report.counts,
            "rejected": report.rejected,
            "belief_ids": list(report.belief_ids),
        }

    server.add_tool(
        recall, description=_described(recall), annotations=ToolAnnotations(read_only_hint=True)
    )
    server.add_tool(record_message, description=_described(record_message))
    server.add_tool(close_session, description=_described(close_session))

    @server.resource(
        BELIEFS_URI,
        name="beliefs",
        description="Every active belief agentmem holds about the user, newest first.",
        mime_type="application/json",
    )
    async def beliefs() -> str:
        try:
            found = store.beliefs(principal=owner)
        except AgentmemError as exc:
            raise ResourceError(exc.message) from exc
        return msgspec.json.encode(
            {"principal": owner, "beliefs": [_belief_json(b) for b in found]}
        ).decode("utf-8")

    return server


def serve_stdio(store: Store, *, principal: str | None = None) -> None:
    """Serve ``store`` over stdin/stdout until the client closes the connection."""
    create_server(store, principal=principal).run("stdio")
