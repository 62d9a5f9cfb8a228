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
- reasoning items are dropped and never stored (ADR-0006); an item carrying raw reasoning in a
  field of its own (``reasoning_content``, ``thinking``, ...) is refused rather than stored.
  The Responses API refuses an output item sent back by its ``id`` without the reasoning item
  that preceded it ("provided without its required 'reasoning' item"), so the assistant
  messages and function/custom tool calls that followed a dropped reasoning item (up to the
  next user, system or tool-output item, across ``add_items`` calls of this object) are stored
  without their ``id``: the API then takes them as plain input, as the SDK itself does for
  compacted output without reasoning. The round-trip is exact for every other item; the
  session sets ``_ignore_ids_for_matching`` so the SDK matches its items by content.

``pop_item`` and ``clear_session`` never delete anything: they append ``agents.item.popped`` and
``agents.session.cleared``, which ``get_items`` honours. The conversation events stay in the log,
but consolidation leaves them out: what the user took back is never evidence for memory. Which
items are live is the ``agents_items`` projection, kept by triggers like every projection, so
reading the latest items is one indexed query whatever the length of the session's history.

Compaction (the SDK's ``OpenAIResponsesCompactionSession``) rewrites history: it replaces a
suffix, or the whole history, by the compacted output, which repeats the user messages it
keeps. The session implements the two hooks the SDK calls for that, ``_get_compaction_snapshot``
(an atomic suffix replacement) and ``_atomic_replace_items`` (whole history); each rewrite is one
transaction of ``agents.item.popped`` / ``agents.session.cleared`` and ``agents.item.added``
events marked ``compacted``, which become no conversation event: the log keeps what the user said
once, and the replaced items stay evidence (the user did not take them back).

Runs: the Session protocol has no run boundaries, so each :class:`AgentmemSession` object starts
one agentmem run lazily with the first item it stores and keeps it until :meth:`complete_run`
(or :meth:`close_session`); the next item after that starts a new run. A run is what consent is
stamped on and what ``agentmem run export`` exports.

Store calls run directly on the calling thread: appends and reads take well under a
millisecond. Every call holds the Store's lock while it reads or writes, so one session (or one
Store shared by several sessions) may be used from several threads; after :meth:`close` every
call raises ``RuntimeError``, as the SDK's sessions do.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

import msgspec

from agentmem.errors import EventRejected, InvalidInput, NotFound, Refused
from agentmem.events import REASONING_FIELDS, Event, Id, new_event_id, register_process_event
from agentmem.memory.events import audit_event_id
from agentmem.store import Store

if TYPE_CHECKING:
    from agents.items import TResponseInputItem
    from agents.memory import SessionSettings
    from agents.memory.session import _CompactionSnapshot

    from agentmem.memory.service import ConsolidationReport

__all__ = ["AgentmemSession", "AgentsItemAdded", "AgentsItemPopped", "AgentsSessionCleared"]


class AgentsItemAdded(Event, frozen=True, kw_only=True, tag="agents.item.added"):
    """Process event: one SDK session item, verbatim.

    ``event_ref`` is the event_id of the conversation event the item also became, if any;
    ``compacted`` items were written by a compaction and never become conversation events.
    """

    session_id: Id
    item: dict[str, Any]
    event_ref: Id | None = None
    compacted: bool = False


class AgentsItemPopped(Event, frozen=True, kw_only=True, tag="agents.item.popped"):
    """Process event: the item stored at ``item_seq`` was popped from the SDK session.

    ``compacted``: removed by a compaction (a history rewrite), not taken back by the user.
    """

    session_id: Id
    item_seq: int
    compacted: bool = False


class AgentsSessionCleared(Event, frozen=True, kw_only=True, tag="agents.session.cleared"):
    """Process event: every item stored at or before ``through_seq`` was cleared.

    ``compacted``: replaced by a compaction (a history rewrite), not taken back by the user.
    """

    session_id: Id
    through_seq: int
    compacted: bool = False


register_process_event(AgentsItemAdded)
register_process_event(AgentsItemPopped)
register_process_event(AgentsSessionCleared)

# The live items come from the agents_items projection (kept by triggers on the three event
# types above): the newest first, so a limit is a LIMIT and costs the same at any history length.
_LIVE_SQL = (
    "SELECT a.item_seq, e.payload FROM agents_items AS a JOIN events AS e ON e.seq = a.item_seq "
    "WHERE a.session_id = ? AND a.principal = ? ORDER BY a.item_seq DESC LIMIT ?"
)
_TEXT_PARTS = frozenset({"input_text", "output_text", "text"})
_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
_CALL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
# Model output whose ``id`` may go: the API then takes the item as input, not as a reference
# to an output that needs its reasoning item (hosted tool calls need theirs, so keep it).
_ID_OPTIONAL = frozenset({"function_call", "custom_tool_call"})


class _ItemPayload(msgspec.Struct):
    item: dict[str, Any]


_payload_decoder = msgspec.json.Decoder(_ItemPayload)


class AgentmemSession:
    """An OpenAI Agents SDK session whose history is an agentmem session.

    Pass it as ``Runner.run(agent, input, session=AgentmemSession("chat-1", db="..."))``.
    Give either ``store`` (an open :class:`~agentmem.Store`, left open) or ``db`` (a path, or
    the configured default when both are omitted; the store is opened here and closed by
    :meth:`close`). ``principal`` is the user the conversation belongs to (default: the store's).
    ``session_settings`` is the SDK's ``SessionSettings`` or a dict of its fields (default
    ``SessionSettings()``, as the SDK's sessions); its ``limit`` applies when ``get_items`` is
    called without one.
    """

    session_settings: SessionSettings | None = None
    #: Items that followed a dropped reasoning item come back without their ``id``; the SDK
    #: matches stored items to what it sent by content (as for server-side sessions).
    _ignore_ids_for_matching = True

    def __init__(
        self,
        session_id: str,
        *,
        db: str | os.PathLike[str] | None = None,
        principal: str | None = None,
        store: Store | None = None,
        session_settings: SessionSettings | Mapping[str, Any] | None = None,
    ) -> None:
        if store is not None and db is not None:
            raise TypeError("pass either store or db, not both")
        try:
            msgspec.convert(session_id, Id)
        except msgspec.ValidationError as exc:
            raise InvalidInput(
                f"session_id must be 1 to 128 printable characters, got {session_id!r}"
            ) from exc
        settings_value = _session_settings(session_settings)
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
        self.session_settings = settings_value
        self._run_id: str | None = None
        self._after_reasoning = False  # the last item this object handled was dropped reasoning
        self._closed = False

    @property
    def run_id(self) -> str | None:
        """The agentmem run this object is recording into, or ``None`` between runs."""
        return self._run_id

    # -- the SDK's Session protocol ------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items in order; only the latest ``limit`` when given (a negative
        ``limit`` means all of them, as in the SDK's SQLite session)."""
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        if limit is not None and limit < 0:
            limit = None
        if limit == 0:
            return []
        with self._locked():
            self._owned_status()
            live = self._live(limit)
        return [_decoded(payload) for _, payload in live]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Store items (all or none), each verbatim and as its conversation event."""
        with self._locked():
            run_id = self._run_id or f"run-{secrets.token_hex(8)}"
            events, labels, after_reasoning = self._events_for(items, run_id=run_id)
            if events:
                if self._run_id is None:
                    events.insert(0, self._envelope({"type": "run.started"}, run_id))
                    labels.insert(0, "run.started")
                with self.store.transaction():
                    self._check_writable()
                    self.store.append_process_many(events, where=lambda index: labels[index - 1])
                self._run_id = run_id
            self._after_reasoning = after_reasoning

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the most recent item (recorded as ``agents.item.popped``)."""
        with self._locked(), self.store.transaction():
            self._check_writable()
            live = self._live(1)
            if not live:
                return None
            seq, payload = live[-1]
            self.store.append_process(self._popped(seq))
        return _decoded(payload)

    async def clear_session(self) -> None:
        """Forget every item (recorded as ``agents.session.cleared``); the session stays open."""
        with self._locked(), self.store.transaction():
            self._check_writable()
            live = self._live(1)
            if live:
                self.store.append_process(self._cleared(live[-1][0]))

    # -- the SDK's compaction hooks (OpenAIResponsesCompactionSession) -------------------------

    async def _get_compaction_snapshot(
        self,
        limit: int,
        *,
        prune_prefix: Callable[[TResponseInputItem], bool] | None = None,
    ) -> _CompactionSnapshot:
        """The latest ``limit`` items, and an atomic replacement of a suffix of them.

        ``replace_suffix(start, output)`` replaces the snapshot's items from ``start`` on by
        ``output`` if they are still the session's latest items (``False`` otherwise), after
        dropping the oldest items ``prune_prefix`` accepts; one transaction, no conversation
        events (see the module docstring).
        """
        from agents.memory.session import _CompactionSnapshot

        with self._locked():
            self._owned_status()
            live = self._live(max(limit, 0) + 1)  # one more than asked: is the snapshot whole?
        rows = live[-limit:] if limit > 0 else []
        items = [_decoded(payload) for _, payload in rows]

        async def replace_suffix(start: int, output: list[TResponseInputItem]) -> bool:
            expected = rows[start:]
            if not expected:
                return False
            with self._locked(), self.store.transaction():
                self._check_writable()
                current = self._live(None if prune_prefix is not None else len(expected))
                if current[-len(expected) :] != expected:
                    return False
                dropped = [seq for seq, _ in expected]
                if prune_prefix is not None:
                    for seq, payload in current[: -len(expected)]:
                        if not prune_prefix(_decoded(payload)):
                            break
                        dropped.append(seq)
                events: list[Event | dict[str, Any]] = [
                    self._popped(seq, compacted=True) for seq in sorted(dropped)
                ]
                self._append_compacted(events, output)
            return True

        return _CompactionSnapshot(items, len(rows) == len(live), replace_suffix)

    async def _atomic_replace_items(self, items: list[TResponseInputItem]) -> bool:
        """Replace the whole history by ``items`` (a compaction's output), in one transaction."""
        with self._locked(), self.store.transaction():
            self._check_writable()
            live = self._live(1)
            events: list[Event | dict[str, Any]] = []
            if live:
                events.append(self._cleared(live[-1][0], compacted=True))
            self._append_compacted(events, items)
        return True

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
        with self._locked():
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
        with self._locked():
            return self.store.close_session(self.session_id, principal=self.principal)

    def close(self) -> None:
        """Close this object: every later call raises ``RuntimeError``. The store is closed if
        this object opened it; the agentmem session and its run stay as they are."""
        with self.store.lock:
            self._closed = True
            if self._owns_store:
                self.store.close()

    def __enter__(self) -> AgentmemSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The Store's lock, held for a whole read or read-check-write (refused once closed)."""
        with self.store.lock:
            if self._closed:
                raise RuntimeError(f"{type(self).__name__} is closed")
            yield

    def _envelope(self, event: dict[str, Any], run_id: str | None) -> dict[str, Any]:
        event["session_id"] = self.session_id
        event["principal"] = self.principal
        if run_id is not None:
            event["run_id"] = run_id
        return event

    def _popped(self, seq: int, *, compacted: bool = False) -> AgentsItemPopped:
        event = AgentsItemPopped(
            session_id=self.session_id, principal=self.principal, item_seq=seq, compacted=compacted
        )
        return msgspec.structs.replace(event, event_id=audit_event_id(event))

    def _cleared(self, through: int, *, compacted: bool = False) -> AgentsSessionCleared:
        event = AgentsSessionCleared(
            session_id=self.session_id,
            principal=self.principal,
            through_seq=through,
            compacted=compacted,
        )
        return msgspec.structs.replace(event, event_id=audit_event_id(event))

    def _append_compacted(
        self, events: list[Event | dict[str, Any]], output: list[TResponseInputItem]
    ) -> None:
        """Append ``events`` and then ``output`` as compacted items (inside a transaction)."""
        added, labels, _ = self._events_for(output, run_id=None)
        labels = ["compaction"] * len(events) + labels
        self.store.append_process_many([*events, *added], where=lambda index: labels[index - 1])

    def _events_for(
        self, items: list[TResponseInputItem], *, run_id: str | None
    ) -> tuple[list[Event | dict[str, Any]], list[str], bool]:
        """The batch to append for ``items``, the item each event came from (for errors), and
        whether the batch ended after a dropped reasoning item.

        ``run_id=None`` is a compaction's output: the items are kept verbatim only.
        """
        events: list[Event | dict[str, Any]] = []
        labels: list[str] = []
        turn: dict[str, Any] | None = None  # the assistant event later calls may still join
        after_reasoning = self._after_reasoning
        for index, raw in enumerate(items, start=1):
            label = f"item {index}"
            item = _checked_item(raw, label)
            if item.get("type") == "reasoning":
                after_reasoning = True
                continue  # ADR-0006: raw reasoning is never stored
            if after_reasoning:
                if _follows_reasoning(item):
                    item.pop("id", None)
                elif not _is_model_output(item):
                    after_reasoning = False
            conversation = _conversation_event(item) if run_id is not None else None
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
                    compacted=run_id is None,
                )
            )
            labels.append(label)
        for event in events:
            if isinstance(event, dict) and event.get("tool_calls") == []:
                del event["tool_calls"]
        return events, labels, after_reasoning

    def _live(self, limit: int | None = None) -> list[tuple[int, str]]:
        """(seq, payload) of the latest ``limit`` items (all when ``None``) neither popped nor
        cleared, oldest first (lock held)."""
        rows = self.store.conn.execute(
            _LIVE_SQL, (self.session_id, self.principal, -1 if limit is None else limit)
        ).fetchall()
        rows.reverse()
        return cast("list[tuple[int, str]]", rows)  # events.seq and events.payload (STRICT)

    def _owned_status(self) -> str | None:
        """The session's status; refused if it belongs to another principal."""
        try:
            info = self.store.session(self.session_id, all_principals=True)
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


def _session_settings(value: Any) -> SessionSettings | None:
    """``value`` as the SDK's ``SessionSettings`` (a dict is coerced; default: the SDK's)."""
    try:
        from agents.memory.session_settings import SessionSettings, coerce_session_settings
    except ImportError:
        if value is None:
            return None
        raise TypeError("session_settings needs the openai-agents SDK") from None
    if value is None:
        return SessionSettings()
    try:
        return coerce_session_settings(value)
    except TypeError as exc:
        if str(exc).startswith("Unknown session settings"):
            known = ", ".join(f.name for f in dataclasses.fields(SessionSettings))
            raise TypeError(f"{exc} (SessionSettings takes: {known})") from None
        raise


def _decoded(payload: str) -> TResponseInputItem:
    return cast("TResponseInputItem", _payload_decoder.decode(payload).item)


def _is_model_output(item: dict[str, Any]) -> bool:
    """Output of the model (a call, a message of the assistant), not input or a tool's result."""
    kind = item.get("type", "message")
    if kind == "message":
        return item.get("role") == "assistant"
    return not kind.endswith("_output") if isinstance(kind, str) else False


def _follows_reasoning(item: dict[str, Any]) -> bool:
    """An item that refers to its reasoning item by ``id`` and may be sent without one."""
    if item.get("type", "message") == "message":
        return item.get("role") == "assistant"
    return item.get("type") in _ID_OPTIONAL


def _path(db: str | os.PathLike[str] | None) -> str | None:
    return os.fspath(db) if db is not None else None


def _checked_item(raw: object, label: str) -> dict[str, Any]:
    """The item as plain JSON: a ``TypeError`` unless it survives encoding unchanged (the
    SDK's sessions raise ``TypeError`` for an item that is not JSON, too)."""
    if not isinstance(raw, Mapping):
        raise TypeError(f"{label}: expected an item object (dict), got {type(raw).__name__}")
    found = REASONING_FIELDS.intersection(raw)
    if found:
        raise InvalidInput(
            f"{label}: field `{min(found)}` carries raw model reasoning, which agentmem never "
            "stores; drop it from the item"
        )
    try:
        item = msgspec.json.decode(msgspec.json.encode(raw))
    except (TypeError, msgspec.EncodeError) as exc:
        raise TypeError(f"{label}: not plain JSON ({exc})") from exc
    if item != raw:
        raise TypeError(
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
