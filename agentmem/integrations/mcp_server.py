"""The MCP server: a desktop agent's memory, for one principal, over stdio or streamable HTTP.

A desktop MCP client (Claude Desktop, an IDE, any host) launches ``agentmem mcp`` (stdio) or
connects to ``agentmem serve`` at ``/mcp`` (streamable HTTP), and gives its model three tools,
one resource and one prompt, all acting for one principal that the session cannot change:

- ``recall(query, limit)``: full-text search over the principal's beliefs, with evidence;
- ``record_message(session_id, role, text)``: the user's or the assistant's words, verbatim,
  into the session's log;
- ``close_session(session_id)``: close the session; memory forms from what the user said;
- resource ``agentmem://beliefs``: every active belief of the principal;
- prompt ``what_you_remember(topic)``: those beliefs as a message the user can insert.

No tool writes a belief: beliefs form only at consolidation, from ``user.message.created``
events, behind the formation gates. The host is trusted to relay the user's words as the user
said them; agentmem cannot tell a relayed user message from an invented one.

Every tool declares typed input and output schemas generated from the structs below, and its
arguments are checked against them before the tool runs, so a mistake comes back as one plain
line the model can act on ("text must not be empty"), never a validator's dump. Store errors
become tool errors with the store's one-line message. Tool bodies are plain functions the SDK
runs on worker threads; the Store serialises its own use, so a long consolidation never stalls
the transport. This module needs the MCP Python SDK 2.x (extras ``mcp`` and ``server``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

import msgspec
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from agentmem import __version__
from agentmem.errors import AgentmemError, NotFound
from agentmem.events import MAX_EVENT_BYTES, Id
from agentmem.store import Store

__all__ = ["BELIEFS_URI", "MAX_QUERY", "MAX_RECALL", "create_server", "serve_stdio"]

#: The resource listing the principal's active beliefs.
BELIEFS_URI = "agentmem://beliefs"
#: Most beliefs one ``recall`` returns.
MAX_RECALL = 50
#: Longest ``recall`` query, in characters.
MAX_QUERY = 1000

_ROLES = {"user": "user.message.created", "assistant": "assistant.message.created"}

_INSTRUCTIONS = (
    "agentmem keeps this user's long-term memory on their own machine. Call recall before "
    "answering anything that may depend on what the user told you in earlier conversations. "
    "Call record_message for each user turn (role 'user', the user's exact words) and each "
    "of your replies (role 'assistant'), under one session_id per conversation. Call "
    "close_session when the conversation ends: memory forms only then, and only from what "
    "the user said. You cannot store a memory directly."
)

SessionId = Annotated[
    Id, msgspec.Meta(description="One id per conversation, 1 to 128 printable characters.")
]


# -- arguments: one struct per tool, the schema the client sees and the check that runs -------


class RecallArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    query: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=MAX_QUERY,
            description="Words to look for in what the user said.",
        ),
    ]
    limit: Annotated[
        int, msgspec.Meta(ge=1, le=MAX_RECALL, description=f"At most this many, 1 to {MAX_RECALL}.")
    ] = 10


class RecordMessageArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    session_id: SessionId
    role: Annotated[
        Literal["user", "assistant"],
        msgspec.Meta(description="'user' for the user's words, 'assistant' for your reply."),
    ]
    text: Annotated[
        str,
        msgspec.Meta(
            min_length=1, max_length=MAX_EVENT_BYTES, description="The message, verbatim."
        ),
    ]


class CloseSessionArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    session_id: SessionId


_ARGS: dict[str, type[msgspec.Struct]] = {
    "recall": RecallArgs,
    "record_message": RecordMessageArgs,
    "close_session": CloseSessionArgs,
}


def _input_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    (_,), components = msgspec.json.schema_components([cls])
    schema = dict(components[cls.__name__])
    schema.pop("title", None)
    return schema


_TYPE_WORDS = {"str": "a string", "int": "a whole number", "object": "an object", "array": "a list"}


def plain_error(exc: msgspec.ValidationError) -> str:
    """One plain line for a failed argument check (never the value, which may be private)."""
    message = str(exc)
    where = re.search(r"at `\$\.(\w+)", message)
    name = where.group(1) if where else "the arguments"
    if found := re.match(r"Object missing required field `(\w+)`", message):
        return f"{found.group(1)} is required"
    if found := re.match(r"Object contains unknown field `(\w+)`", message):
        return f"unknown argument {found.group(1)!r}"
    if re.match(r"Expected `str` of length >= 1", message):
        return f"{name} must not be empty"
    if found := re.match(r"Expected `str` of length <= (\d+)", message):
        return f"{name} must be at most {int(found.group(1)):,} characters"
    if re.match(r"Expected `str` matching regex", message):
        return f"{name} must be printable (no control, bidi, zero-width or line-break characters)"
    if found := re.match(r"Expected `int` >= (-?\d+)", message):
        return f"{name} must be at least {found.group(1)}"
    if found := re.match(r"Expected `int` <= (-?\d+)", message):
        return f"{name} must be at most {found.group(1)}"
    if found := re.match(r"Invalid enum value (.*) - at", message):
        return f"{name} must be 'user' or 'assistant', got {found.group(1)}"
    if found := re.match(r"Expected `(\w+)`, got `(\w+)`", message):
        wanted = _TYPE_WORDS.get(found.group(1), found.group(1))
        return f"{name} must be {wanted}, not {_TYPE_WORDS.get(found.group(2), found.group(2))}"
    return f"{name} is not valid"


class _CheckArguments:
    """Checks ``tools/call`` arguments against the tool's struct before the SDK sees them."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call" and isinstance(ctx.params, dict):
            cls = _ARGS.get(ctx.params.get("name", ""))
            if cls is not None:
                try:
                    msgspec.convert(ctx.params.get("arguments") or {}, cls)
                except msgspec.ValidationError as exc:
                    text = f"Error executing tool {ctx.params['name']}: {plain_error(exc)}"
                    return CallToolResult(
                        content=[TextContent(type="text", text=text)], is_error=True
                    )
        return await call_next(ctx)


# -- results: typed, so clients see an output schema -----------------------------------------


class EvidenceItem(TypedDict):
    seq: int
    quote: str


class BeliefItem(TypedDict):
    belief_id: str
    statement: str
    kind: str
    created_at: str
    evidence: list[EvidenceItem]


class RecallResult(TypedDict):
    beliefs: list[BeliefItem]


class RecordResult(TypedDict):
    session_id: str
    role: str
    seq: int


class CloseResult(TypedDict):
    session_id: str
    through_seq: int | None
    formation_policy: str
    skipped: bool
    counts: dict[str, int]
    rejected: dict[str, int]
    belief_ids: list[str]


@contextmanager
def _tool_errors() -> Iterator[None]:
    """Store errors become tool errors the model can read (one line, no traceback)."""
    try:
        yield
    except AgentmemError as exc:
        raise ToolError(" ".join(exc.message.split())) from exc


def _owned_session(store: Store, session_id: str, principal: str) -> str | None:
    """The session's status, or ``None`` if it has no events yet.

    A session of another principal is reported as missing: the server acts for one user and
    does not reveal that anyone else's session exists.
    """
    try:
        info = store.session(session_id, all_principals=True)
    except NotFound:
        return None
    if info.principal != principal:
        raise NotFound(f"no session {session_id!r}")
    return info.status


def _described(fn: Any) -> str:
    """A tool's description for the model: its docstring on one line."""
    return " ".join((fn.__doc__ or "").split())


def _belief_json(belief: Any) -> BeliefItem:
    return {
        "belief_id": belief.belief_id,
        "statement": belief.statement,
        "kind": belief.kind,
        "created_at": belief.created_at,
        "evidence": [{"seq": seq, "quote": quote} for seq, quote in belief.evidence],
    }


def create_server(store: Store, *, principal: str | None = None) -> MCPServer:
    """An MCP server over ``store`` acting for ``principal`` (default: the store's) only.

    ``close_session`` consolidates, so the formation policy is resolved here, before any tool
    can write: ``required`` without matching evidence raises :class:`EvidenceMismatch`.
    """
    from agentmem.memory.composition import resolve_settings

    resolve_settings(store.settings)
    owner = principal if principal is not None else store.principal

    def recall(query: str, limit: int = 10) -> RecallResult:
        """Search the user's long-term memory: beliefs formed from what the user said in
        earlier conversations, best match first, each with its evidence (the user's own words
        and their event seq)."""
        with _tool_errors():
            found = store.search_beliefs(query, principal=owner, limit=limit)
        return {"beliefs": [_belief_json(b) for b in found]}

    def record_message(session_id: str, role: str, text: str) -> RecordResult:
        """Record one message of the conversation in the user's local log. Only what the
        user said can ever become memory; record the user's words exactly as given."""
        with _tool_errors():
            _owned_session(store, session_id, owner)
            result = store.append_event(
                {"type": _ROLES[role], "session_id": session_id, "principal": owner, "text": text}
            )
        return {"session_id": session_id, "role": role, "seq": result.seq}

    def close_session(session_id: str) -> CloseResult:
        """End a conversation: nothing more can be recorded in it, and long-term memory is
        formed from what the user said in it. Returns what the consolidation did."""
        with _tool_errors():
            if _owned_session(store, session_id, owner) is None:
                raise NotFound(f"no session {session_id!r}")
            report = store.close_session(session_id, principal=owner)
        return {
            "session_id": report.session_id,
            "through_seq": report.through_seq,
            "formation_policy": report.formation_policy,
            "skipped": report.skipped,
            "counts": dict(report.counts),
            "rejected": dict(report.rejected),
            "belief_ids": list(report.belief_ids),
        }

    tools = []
    for fn, read_only in ((recall, True), (record_message, False), (close_session, False)):
        tool = Tool.from_function(
            fn,
            description=_described(fn),
            annotations=ToolAnnotations(read_only_hint=read_only),
            structured_output=True,
        )
        tools.append(tool.model_copy(update={"parameters": _input_schema(_ARGS[fn.__name__])}))
    server: MCPServer = MCPServer(
        "agentmem",
        instructions=_INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        tools=tools,
        middleware=[_CheckArguments()],
    )

    def listing() -> dict[str, Any]:
        try:
            found = store.beliefs(principal=owner)
        except AgentmemError as exc:
            raise ResourceError(exc.message) from exc
        return {"principal": owner, "beliefs": [_belief_json(b) for b in found]}

    @server.resource(
        BELIEFS_URI,
        name="beliefs",
        description="Every active belief agentmem holds about the user, newest first.",
        mime_type="application/json",
    )
    def beliefs() -> str:
        return msgspec.json.encode(listing()).decode("utf-8")

    def what_you_remember(topic: str = "") -> str:
        try:
            found = (
                store.search_beliefs(topic, principal=owner, limit=MAX_RECALL)
                if topic.strip()
                else store.beliefs(principal=owner)[:MAX_RECALL]
            )
        except AgentmemError as exc:
            raise ValueError(exc.message) from exc
        if not found:
            return "agentmem remembers nothing about me" + (f" about {topic}." if topic else ".")
        lines = ["What agentmem remembers about me (with what I said):"]
        for belief in found:
            quotes = "; ".join(f'"{quote}"' for _, quote in belief.evidence)
            lines.append(f"- {belief.statement} ({quotes})" if quotes else f"- {belief.statement}")
        return "\n".join(lines)

    server.prompt(
        name="what_you_remember",
        description="What agentmem remembers about the user (optionally about one topic), "
        "with the user's own words as evidence, ready to insert into a conversation.",
    )(what_you_remember)
    return server


def serve_stdio(store: Store, *, principal: str | None = None) -> None:
    """Serve ``store`` over stdin/stdout until the client closes the connection."""
    create_server(store, principal=principal).run("stdio")
