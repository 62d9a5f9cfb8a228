"""The OpenAI Agents SDK ``Session`` protocol on agentmem's event log.

An agent built with the SDK keeps its conversation in a ``Session``; swapping the SDK's SQLite
session for :class:`AgentmemSession` puts that conversation in the append-only log, where memory
forms from what the user said (at ``store.close_session``) and runs can be exported under
consent. Nothing here imports the SDK: the protocol is structural, so this module stays
importable (and its process event types readable) whether or not the ``openai-agents`` extra
is installed.

How SDK items land in the log, in one ``append_many`` transaction per ``add_items`` call:

- every item is kept verbatim in an ``agents.item.added`` process event (canonical JSON), so
  ``get_items`` returns items equal to what was added, whatever their type;
- items that are conversation also become the matching conversation event: user messages
  ``user.message.created`` (the string content, or the text parts joined by newlines),
  assistant messages and function/custom tool calls ``assistant.message.created`` (calls that
  follow an assistant message in the same batch join it, as one chat turn), function/custom
  tool call outputs ``tool.result.created``, system/developer messages ``system.prompt.set``.
  Other items (hosted tool calls, item references, ...) are kept only verbatim;
- reasoning items are dropped and never stored (ADR-0006), so the round-trip is exact for every
  item type except ``reasoning``; an item carrying raw reasoning in a field of its own
  (``reasoning_content``, ``thinking``, ...) is refused rather than stored.

``pop_item`` and ``clear_session`` never delete anything: they append ``agents.item.popped`` and
``agents.session.cleared``, which ``get_items`` honours. The conversation events stay in the log,
but consolidation leaves them out: what the user took back is never evidence for memory.

Runs: the Session protocol has no run boundaries, so each :class:`AgentmemSession` object starts
one agentmem run lazily with the first item it stores and keeps it until :meth:`complete_run`
(or :meth:`close_session`); the next item after that starts a new run. A run is what consent is
stamped on and what ``agentmem run export`` exports.

Store calls run directly on the event loop thread: appends and reads take well under a
millisecond, and one thread keeps the single apsw connection's transactions from interleaving.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import msgspec

from agentmem.errors import EventRejected, InvalidInput, NotFound, Refused
from agentmem.events import REASONING_FIELDS, Event, Id, new_event_id, register_process_event
from agentmem.memory.events import audit_event_id
from agentmem.store import Store

if TYPE_CHECKING:
    from agents.items import TResponseInputItem
    from agents.memory import SessionSettings

    from agentmem.memory.service import ConsolidationReport

__all__ = ["AgentmemSession", "AgentsItemAdded", "AgentsItemPopped", "AgentsSessionCleared"]


class AgentsItemAdded(Event, frozen=True, kw_only=True, tag="agents.item.added"):
    """Process event: one SDK session item, verbatim.

    ``event_ref`` is the event_id of the conversation event the item also became, if any.
    """

    session_id: Id
    item: dict[str, Any]
    event_ref: Id | None = None


class AgentsItemPopped(Event, frozen=True, kw_only=True, tag="agents.item.popped"):
    """Process event: the item stored at ``item_seq`` was popped from the SDK session."""

    session_id: Id
    item_seq: int


class AgentsSessionCleared(Event, frozen=True, kw_only=True, tag="agents.session.cleared"):
    """Process event: every item stored at or before ``through_seq`` was cleared."""

    session_id: Id
    through_seq: int


register_process_event(AgentsItemAdded)
register_process_event(AgentsItemPopped)
register_process_event(AgentsSessionCleared)

_ADDED, _POPPED, _CLEARED = "agents.item.added", "agents.item.popped", "agents.session.cleared"
_HISTORY_SQL = (
    "SELECT seq, type, CASE type WHEN 'agents.item.added' THEN payload END, "
    "CASE type WHEN 'agents.item.popped' THEN json_extract(payload, '$.item_seq') "
    "WHEN 'agents.session.cleared' THEN json_extract(payload, '$.through_seq') END "
    "FROM events WHERE session_id = ? AND principal = ? AND type IN (?, ?, ?) ORDER BY seq"
)
_TEXT_PARTS = frozenset({"input_text", "output_text", "text"})
_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
_CALL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


class _ItemPayload(msgspec.Struct):
    item: dict[str, Any]


_payload_decoder = msgspec.json.Decoder(_ItemPayload)


class AgentmemSession:
    """An OpenAI Agents SDK session whose history is an agentmem session.

    Pass it as ``Runner.run(agent, input, session=AgentmemSession("chat-1", db="..."))``.
    Give either ``store`` (an open :class:`~agentmem.Store`, left open) or ``db`` (a path, or
    the configured default when both are omitted; the store is opened here and closed by
    :meth:`close`). ``principal`` is the user the conversation belongs to (default: the store's).
    ``session_settings`` is the SDK's ``SessionSettings``; its ``limit`` applies when
    ``get_items`` is called without one.
    """

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        *,
        db: str | os.PathLike[str] | None = None,
        principal: str | None = None,
        store: Store | None = None,
        session_settings: SessionSettings | None = None,
    ) -> None:
        if store is not None and db is not None:
            raise TypeError("pass either store or db, not both")
        try:
            msgspec.convert(session_id, Id)
        except msgspec.ValidationError as exc:
            raise InvalidInput(
                f"session_id must be 1 to 128 printable characters, got {session_id!r}"
            ) from exc
        from agentmem.config import load_settings
        from agentmem.memory.composition import resolve_settings

        # close_session consolidates: a refused formation policy (required without matching
        # evidence) stops the session here, before anything is written or even created.
        if store is not None:
            settings = store.settings
        else:
            settings = load_settings(db=_path(db), principal=principal)
        resolve_settings(settings)
        self.session_id = session_id
        self._owns_store = store is None
        self.store = store if store is not None else Store.open(settings=settings)
        self.principal = principal if principal is not None else self.store.principal
        self.session_settings = session_settings
        self._run_id: str | None = None

    @property
    def run_id(self) -> str | None:
        """The agentmem run this object is recording into, or ``None`` between runs."""
        return self._run_id

    # -- the SDK's Session protocol ------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items in order; only the latest ``limit`` when given."""
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        self._owned_status()
        live = self._live()
        if limit is not None:
            live = live[-limit:] if limit > 0 else []
        return [cast("TResponseInputItem", _payload_decoder.decode(p).item) for _, p in live]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Store items (all or none), each verbatim and as its conversation event."""
        run_id = self._run_id or f"run-{secrets.token_hex(8)}"
        events, labels = self._events_for(items, run_id)
        if not events:
            return
        if self._run_id is None:
            events.insert(0, self._envelope({"type": "run.started"}, run_id))
            labels.insert(0, "run.started")
        with self.store.transaction():
            self._check_writable()
            self.store._append_process_many(events, where=lambda index: labels[index - 1])
        self._run_id = run_id

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the most recent item (recorded as ``agents.item.popped``)."""
        with self.store.transaction():
            self._check_writable()
            live = self._live()
            if not live:
                return None
            seq, payload = live[-1]
            popped = AgentsItemPopped(
                session_id=self.session_id, principal=self.principal, item_seq=seq
            )
            self.store._append_process(
                msgspec.structs.replace(popped, event_id=audit_event_id(popped))
            )
        return cast("TResponseInputItem", _payload_decoder.decode(payload).item)

    async def clear_session(self) -> None:
        """Forget every item (recorded as ``agents.session.cleared``); the session stays open."""
        with self.store.transaction():
            self._check_writable()
            live = self._live()
            if not live:
                return
            through = live[-1][0]
            cleared = AgentsSessionCleared(
                session_id=self.session_id, principal=self.principal, through_seq=through
            )
            self.store._append_process(
                msgspec.structs.replace(cleared, event_id=audit_event_id(cleared))
            )

    # -- agentmem's additions ------------------------------------------------------------------

    async def complete_run(
        self,
        outcome: str = "succeeded",
        *,
        failure_class: str | None = None,
        error: str | None = None,
    ) -> str | None:
        """End the current run (``run.completed``); returns its id, ``None`` if none was open.

        ``error`` stays local and is never exported. The next item stored starts a new run.
        """
        if self._run_id is None:
            return None
        event: dict[str, Any] = {"type": "run.completed", "outcome": outcome}
        if failure_class is not None:
            event["failure_class"] = failure_class
        if error is not None:
            event["error"] = error
        self.store.append(self._envelope(event, self._run_id))
        run_id, self._run_id = self._run_id, None
        return run_id

    async def close_session(self) -> ConsolidationReport:
        """Complete the open run, close the agentmem session and form memory from it.

        Consolidation runs here, on the calling thread: it is the end of the conversation,
        not the interactive path. Nothing more can be added to a closed session.
        """
        await self.complete_run()
        return self.store.close_session(self.session_id)

    def close(self) -> None:
        """Close the store if this object opened it (the session and its run stay as they are)."""
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> AgentmemSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------------------

    def _envelope(self, event: dict[str, Any], run_id: str | None) -> dict[str, Any]:
        event["session_id"] = self.session_id
        event["principal"] = self.principal
        if run_id is not None:
            event["run_id"] = run_id
        return event

    def _events_for(
        self, items: list[TResponseInputItem], run_id: str
    ) -> tuple[list[Event | dict[str, Any]], list[str]]:
        """The batch to append for ``items``, and the item each event came from (for errors)."""
        events: list[Event | dict[str, Any]] = []
        labels: list[str] = []
        turn: dict[str, Any] | None = None  # the assistant event later calls may still join
        for index, raw in enumerate(items, start=1):
            label = f"item {index}"
            item = _checked_item(raw, label)
            if item.get("type") == "reasoning":
                continue  # ADR-0006: raw reasoning is never stored
            conversation = _conversation_event(item)
            kind = conversation["type"] if conversation is not None else None
            calls = conversation.get("tool_calls") if conversation is not None else None
            if calls and turn is not None:
                turn["tool_calls"].extend(calls)
                ref = turn["event_id"]
            elif conversation is not None:
                ref = new_event_id()
                conversation["event_id"] = ref
                events.append(self._envelope(conversation, run_id))
                labels.append(label)
                if kind == "assistant.message.created":
                    conversation.setdefault("tool_calls", [])
                    turn = conversation
                else:
                    turn = None
            else:
                ref = None
            events.append(
                AgentsItemAdded(
                    session_id=self.session_id,
                    principal=self.principal,
                    run_id=run_id,
                    item=item,
                    event_ref=ref,
                )
            )
            labels.append(label)
        for event in events:
            if isinstance(event, dict) and event.get("tool_calls") == []:
                del event["tool_calls"]
        return events, labels

    def _live(self) -> list[tuple[int, str]]:
        """(seq, payload) of the items neither popped nor cleared, in order."""
        live: dict[int, str] = {}
        rows = self.store.conn.execute(
            _HISTORY_SQL, (self.session_id, self.principal, _ADDED, _POPPED, _CLEARED)
        )
        for seq, kind, payload, target in rows:
            if kind == _ADDED:
                live[seq] = payload
            elif kind == _POPPED:
                live.pop(target, None)
            else:
                live = {s: p for s, p in live.items() if s > target}
        return list(live.items())

    def _owned_status(self) -> str | None:
        """The session's status; refused if it belongs to another principal."""
        try:
            info = self.store.session(self.session_id)
        except NotFound:
            return None
        if info.principal != self.principal:
            raise Refused(
                f"session {self.session_id!r} belongs to another principal than {self.principal!r}"
            )
        return info.status

    def _check_writable(self) -> None:
        if self._owned_status() == "closed":
            raise EventRejected(
                f"session {self.session_id!r} is closed; nothing more can be recorded in it "
                "(start a new session id)"
            )


def _path(db: str | os.PathLike[str] | None) -> str | None:
    return os.fspath(db) if db is not None else None


def _checked_item(raw: object, label: str) -> dict[str, Any]:
    """The item as plain JSON, refused unless it survives encoding unchanged."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{label}: expected an item object (dict), got {type(raw).__name__}")
    found = REASONING_FIELDS.intersection(raw)
    if found:
        raise InvalidInput(
            f"{label}: field `{min(found)}` carries raw model reasoning, which agentmem never "
            "stores; drop it from the item"
        )
    try:
        item = msgspec.json.decode(msgspec.json.encode(raw))
    except (TypeError, msgspec.EncodeError) as exc:
        raise InvalidInput(f"{label}: not plain JSON ({exc})") from exc
    if item != raw:
        raise InvalidInput(
            f"{label}: does not survive JSON encoding unchanged (tuples, non-string keys or "
            "non-finite numbers); pass plain JSON values"
        )
    return item


def _text(content: object) -> str:
    """A message's text: the string itself, or its text (and refusal) parts joined."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, Mapping):
                continue
            kind = part.get("type")
            if kind in _TEXT_PARTS and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif kind == "refusal" and isinstance(part.get("refusal"), str):
                parts.append(part["refusal"])
    return "\n".join(parts)


def _conversation_event(item: dict[str, Any]) -> dict[str, Any] | None:
    """The conversation event an item also becomes (envelope still missing), if any."""
    kind = item.get("type", "message")
    if kind == "message":
        role = item.get("role")
        text = _text(item.get("content"))
        if role == "user":
            return {"type": "user.message.created", "text": text} if text else None
        if role == "assistant":
            return {"type": "assistant.message.created", "text": text}
        if role in ("system", "developer") and text:
            return {"type": "system.prompt.set", "text": text}
        return None
    if kind in _CALLS:
        arguments = item.get(_CALLS[kind])
        return {
            "type": "assistant.message.created",
            "text": "",
            "tool_calls": [
                {
                    "id": item.get("call_id"),
                    "name": item.get("name"),
                    "arguments": arguments if isinstance(arguments, str) else "",
                }
            ],
        }
    if kind in _CALL_OUTPUTS:
        return {
            "type": "tool.result.created",
            "tool_call_id": item.get("call_id"),
            "content": _text(item.get("output")),
        }
    return None
