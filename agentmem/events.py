"""The closed set of event types, and the one codec between them and the log's rows.

Events are frozen msgspec structs in a tagged union (``tag_field="type"``). Input from users is
decoded strictly (unknown fields rejected, ids bounded, raw reasoning refused) on one path,
:func:`validate_client_event`, whether it arrives as JSON, a dict or a struct; stored history is
decoded leniently by subclasses that only relax ``forbid_unknown_fields``, so a log written by a
newer minor version stays readable. The interchange format is flat: the envelope fields, then
the type's own fields; rows keep the envelope in columns and the rest as JSON text in
``payload`` so triggers can read it with SQLite's JSON functions.

agentmem's own process types (memory audits, Agents SDK bookkeeping, ...) are defined by the
modules that write them, which register them here on import (:func:`register_process_event`).
This module names none of them: reading the log never imports memory, a provider or an
integration, and a stored row of a type whose module is not loaded reads as an
:class:`UnloadedEvent`.
"""

from __future__ import annotations

import functools
import re
import time
import types
import typing
import weakref
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Union

import msgspec

from agentmem.canonical import canonical_json
from agentmem.errors import InvalidInput
from agentmem.ids import ID_PATTERN
from agentmem.json_depth import MAX_JSON_DEPTH, json_depth, too_deep
from agentmem.resources import data_path

__all__ = [
    "CLIENT_EVENT_TYPES",
    "EVENT_TYPES",
    "MAX_EVENT_BYTES",
    "AssistantMessageCreated",
    "ConsentGranted",
    "ConsentWithdrawn",
    "Event",
    "RunCompleted",
    "RunStarted",
    "SessionClosed",
    "SystemPromptSet",
    "ToolCall",
    "ToolDef",
    "ToolResultCreated",
    "UnloadedEvent",
    "UserMessageCreated",
    "canonical_json",
    "closed_types",
    "decode_client_event",
    "decode_client_object",
    "format_time",
    "json_problem",
    "now_text",
    "validate_client_event",
]

#: Largest accepted serialized event (one JSONL line). Larger input is refused before it is
#: parsed, so a runaway line cannot exhaust memory.
MAX_EVENT_BYTES = 4 * 1024 * 1024

# ``$(?!\n)``: Python's ``$`` also matches before a final newline, which would let "x\n" in.
_LABEL_PATTERN = r"^[A-Za-z0-9_.:-]+$(?!\n)"
_SHA256_PATTERN = r"^[0-9a-f]{64}$(?!\n)"
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=ID_PATTERN)]
Label = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=_LABEL_PATTERN)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_EVENT_BYTES)]
Sha256 = Annotated[str, msgspec.Meta(pattern=_SHA256_PATTERN)]
# What a pattern means, for error messages (a regex is no explanation).
_PATTERN_WORDS = {
    ID_PATTERN: "must be printable (no control, bidi, zero-width or line-break characters)",
    _LABEL_PATTERN: "may hold only letters, digits and _ . : -",
    _SHA256_PATTERN: "must be 64 lowercase hex digits",
}
Timestamp = Annotated[datetime, msgspec.Meta(tz=True)]

# Field names that carry raw model reasoning. ADR-0006: it is never stored, so an event that
# carries one is refused with a message that says so, not with a generic "unknown field".
REASONING_FIELDS = frozenset(
    {"reasoning", "reasoning_content", "thinking", "thoughts", "chain_of_thought", "scratchpad"}
)


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class ToolDef(_Strict, frozen=True):
    """A tool offered to a run: its name and JSON schema (hashed canonically by the store)."""

    name: Id
    schema: dict[str, Any] = msgspec.field(default_factory=dict)
    schema_sha256: Sha256 | None = None


class ToolCall(_Strict, frozen=True):
    """One tool call made by the assistant; ``arguments`` is the model's JSON text."""

    id: Id
    name: Id
    arguments: Text = "{}"


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    weakref=True,
):
    """Envelope shared by every event.

    ``principal`` may be omitted on input: the store fills in its default principal (settings,
    ``local`` out of the box) before hashing and storing. ``seq`` is assigned by the store and
    ignored on input, so ``event list --json`` output can be imported again as it is.
    """

    principal: Id | None = None
    session_id: Id | None = None
    run_id: Id | None = None
    event_id: Id | None = None
    created_at: Timestamp | None = None
    seq: int | None = None


class _Conversation(Event, frozen=True, kw_only=True):
    session_id: Id


class _InRun(_Conversation, frozen=True, kw_only=True):
    run_id: Id


class SessionClosed(_Conversation, frozen=True, kw_only=True, tag="session.closed"):
    """The session ends; consolidation runs on it and nothing more may be appended."""

    reason: Label | None = None


class RunStarted(_InRun, frozen=True, kw_only=True, tag="run.started"):
    """A run begins; consent in force now is stamped on it (ADR-0032 decision 5)."""

    parent_run_id: Id | None = None
    tools: Annotated[
        tuple[ToolDef, ...],
        msgspec.Meta(description="The tools offered to the run, each name at most once (else 422)"),
    ] = ()


class RunCompleted(_InRun, frozen=True, kw_only=True, tag="run.completed"):
    """A run ends. ``error`` stays local: it is never exported."""

    outcome: Literal["succeeded", "failed", "cancelled"]
    failure_class: Label | None = None
    error: Text | None = None


class UserMessageCreated(_Conversation, frozen=True, kw_only=True, tag="user.message.created"):
    """What the user said: the only source memory may ever be formed from."""

    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_EVENT_BYTES)]


class AssistantMessageCreated(
    _Conversation, frozen=True, kw_only=True, tag="assistant.message.created"
):
    """What the assistant said, and the tool calls it made."""

    text: Text = ""
    tool_calls: tuple[ToolCall, ...] = ()


class ToolResultCreated(_Conversation, frozen=True, kw_only=True, tag="tool.result.created"):
    """A tool's answer to one call."""

    tool_call_id: Id
    content: Text
    is_error: bool = False


class SystemPromptSet(_Conversation, frozen=True, kw_only=True, tag="system.prompt.set"):
    """The system prompt in force; kept locally, never exported."""

    text: Text


class ConsentGranted(Event, frozen=True, kw_only=True, tag="consent.granted"):
    """Process event: the principal grants consent for ``purpose`` from now on."""

    purpose: Literal["trajectory_export"]


class ConsentWithdrawn(Event, frozen=True, kw_only=True, tag="consent.withdrawn"):
    """Process event: the principal withdraws consent; earlier exports expire."""

    purpose: Literal["trajectory_export"]


CLIENT_EVENT_CLASSES: tuple[type[Event], ...] = (
    SessionClosed,
    RunStarted,
    RunCompleted,
    UserMessageCreated,
    AssistantMessageCreated,
    ToolResultCreated,
    SystemPromptSet,
)
PROCESS_EVENT_CLASSES: list[type[Event]] = [ConsentGranted, ConsentWithdrawn]


def _tag(cls: type[Event]) -> str:
    return cls.__struct_config__.tag  # type: ignore[return-value]


CLIENT_EVENT_TYPES: tuple[str, ...] = tuple(_tag(c) for c in CLIENT_EVENT_CLASSES)
EVENT_TYPES: list[str] = [*CLIENT_EVENT_TYPES, *(_tag(c) for c in PROCESS_EVENT_CLASSES)]

_ENVELOPE = ("type", "session_id", "run_id", "principal", "event_id", "created_at", "seq")

#: SQL that renders a stored row in the interchange format (envelope first, then the type's
#: own fields), in SQLite's C code rather than Python: reading is on the hot path. Plain string
#: concatenation with ``json_quote`` measured 20% faster than ``json_object`` plus splicing.
ROW_JSON_SQL = (
    "'{\"seq\":' || seq || ',\"event_id\":' || json_quote(event_id) || ',\"type\":' || "
    "json_quote(type) || ',\"session_id\":' || json_quote(session_id) || ',\"run_id\":' || "
    "json_quote(run_id) || ',\"principal\":' || json_quote(principal) || ',\"created_at\":' || "
    "json_quote(created_at) || CASE payload WHEN '{}' THEN '}' ELSE ',' || substr(payload, 2) END"
)

_client_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Union[CLIENT_EVENT_CLASSES])  # noqa: UP007
# One decoder per client type, for input whose type is known before it is decoded (a dict's).
_client_decoders: dict[str, msgspec.json.Decoder[Any]] = {
    _tag(cls): msgspec.json.Decoder(cls) for cls in CLIENT_EVENT_CLASSES
}
_encoder = msgspec.json.Encoder(order="deterministic")
_stored_classes: dict[str, type[Event]] = {}
_stored_decoder: StoredDecoder | None = None


def register_process_event(cls: type[Event]) -> type[Event]:
    """Add a process event type (memory.*, artifact.*) defined by another module.

    Process events are written only by agentmem itself, never accepted as client input.
    """
    global _stored_decoder
    if cls not in PROCESS_EVENT_CLASSES:
        PROCESS_EVENT_CLASSES.append(cls)
        EVENT_TYPES.append(_tag(cls))
        _stored_decoder = None
    return cls


def _relaxed(cls: type, swap: dict[type, type]) -> type:
    """A subclass of ``cls`` for reading stored history: unknown fields tolerated, and every
    field re-declared with its plain type (no length or pattern constraints).

    History was validated when it was appended; re-checking every id pattern on every read
    cost four times the decoding itself. Being a subclass keeps ``isinstance`` checks working.
    Nested struct types are swapped for their relaxed versions (``swap``). The field types come
    from one ``msgspec.structs.fields`` call, not also from ``typing.get_type_hints``: evaluating
    every annotation twice was most of a read command's first decode.
    """
    fields = msgspec.structs.fields(cls)

    def plain(tp: Any) -> Any:
        if tp in swap:
            return swap[tp]
        args = typing.get_args(tp)
        origin = typing.get_origin(tp)
        if not args or origin is Literal:
            return tp
        if origin is Annotated:
            return plain(args[0])
        if origin in (Union, types.UnionType):
            return Union[tuple(plain(a) for a in args)]  # noqa: UP007
        return origin[tuple(plain(a) for a in args)]

    def body(namespace: dict[str, Any]) -> None:
        namespace["__module__"] = cls.__module__
        namespace["__qualname__"] = cls.__qualname__
        namespace["__annotations__"] = {info.name: plain(info.type) for info in fields}
        for info in fields:
            if info.default is not msgspec.NODEFAULT:
                namespace[info.name] = info.default
            elif info.default_factory is not msgspec.NODEFAULT:
                namespace[info.name] = msgspec.field(default_factory=info.default_factory)

    options = {"forbid_unknown_fields": False, "kw_only": True}
    return types.new_class(cls.__name__, (cls,), options, exec_body=body)


_NESTED: dict[type, type] = {}


def _lenient(cls: type[Event]) -> type[Event]:
    tag = _tag(cls)
    if tag not in _stored_classes:
        if not _NESTED:
            _NESTED[ToolDef] = _relaxed(ToolDef, {})
            _NESTED[ToolCall] = _relaxed(ToolCall, {})
        _stored_classes[tag] = _relaxed(cls, _NESTED)
    return _stored_classes[tag]


class UnloadedEvent(Event, frozen=True, kw_only=True, forbid_unknown_fields=False):
    """A stored event whose type is registered by a module not loaded in this process: its
    envelope, and its own fields as ``payload``.

    Reading the log does not import every module that may have written it (that cost the
    first read 0.77 s); code that needs a process type's own struct imports its module, which
    registers the type, and later reads decode it as that struct. Each such type gets its own
    subclass, so :func:`event_type` names it.
    """

    payload: dict[str, Any] = msgspec.field(default_factory=dict)


_unloaded_classes: dict[str, type[UnloadedEvent]] = {}


def _unloaded(kind: str, row: dict[str, Any]) -> Event:
    cls = _unloaded_classes.get(kind)
    if cls is None:
        # Relaxed like every stored type: the row was validated when it was appended.
        relaxed = _relaxed(UnloadedEvent, {})
        options = {"tag": kind, "frozen": True, "kw_only": True}
        cls = types.new_class(UnloadedEvent.__name__, (relaxed,), options)
        _unloaded_classes[kind] = cls
    envelope = {key: row.pop(key) for key in _ENVELOPE if key in row}
    return msgspec.convert({**envelope, "payload": row}, cls)


class StoredDecoder:
    """Decodes rows of the log (:data:`ROW_JSON_SQL`): every registered type as its lenient
    struct, any other type as an :class:`UnloadedEvent`."""

    def __init__(self, decoder: msgspec.json.Decoder[Event], known: frozenset[str]) -> None:
        self._decoder = decoder
        self._known = known

    def decode(self, text: str | bytes) -> Event:
        """One stored row as an event."""
        try:
            return self._decoder.decode(text)
        except msgspec.ValidationError:
            row = msgspec.json.decode(text)
            kind = row.get("type") if isinstance(row, dict) else None
            if not isinstance(kind, str) or kind in self._known:
                raise
            return _unloaded(kind, row)


@functools.cache
def closed_types() -> frozenset[str]:
    """Every event type the log admits, as the insert guard in ``schema.sql`` lists them: the
    client types and every process type, whether or not the module that defines it is loaded
    (only the schema names them all; this module names none of agentmem's own)."""
    sql = data_path("schema.sql").read_text(encoding="utf-8")
    guard = sql[sql.index("CREATE TRIGGER events_append_only_insert") :]
    return frozenset(re.findall(r"WHEN '([^']*)' THEN 0", guard[: guard.index("\nEND;")]))


def stored_decoder() -> StoredDecoder:
    """Lenient decoder for the log's own history (unknown fields tolerated, every type read)."""
    global _stored_decoder
    if _stored_decoder is None:
        registered = (*CLIENT_EVENT_CLASSES, *PROCESS_EVENT_CLASSES)
        classes = tuple(_lenient(c) for c in registered)
        union = msgspec.json.Decoder(Union[classes])  # noqa: UP007
        _stored_decoder = StoredDecoder(union, frozenset(_tag(c) for c in registered))
    return _stored_decoder


def format_time(moment: datetime) -> str:
    """UTC, millisecond text: the one timestamp format in the database (text order = time)."""
    # isoformat pads the year to four digits (strftime's %Y does not on every platform).
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


# (second, its text), replaced as one tuple so a thread never reads one second's text as another's.
_second_cache: tuple[int, str] = (-1, "")


def now_text() -> str:
    """The current time in the database's timestamp format.

    On the append path, so it avoids ``datetime``: the second part is formatted once per
    second and only the milliseconds change.
    """
    global _second_cache
    now = time.time()
    second = int(now)
    cached_second, text = _second_cache
    if second != cached_second:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second_cache = (second, text)
    return f"{text}.{int((now - second) * 1000):03d}Z"


def new_event_id() -> str:
    """A fresh event id for events that arrive without one: the time (16 ms steps), then 56
    random bits, 24 hex digits in all.

    Ids that grow with time land at the end of the log's ``event_id`` index; fully random
    ones landed on a random page of it, and once that index outgrew the page cache each
    insert read and dirtied another page (a 10,000-item ``add_items`` into a session of
    20,000 items ran 3x slower than into an empty one).
    """
    # imported here, as hashlib and hmac are across the package: loading them loads OpenSSL
    # (~2 ms), which a read command never needs
    import secrets

    return f"ev-{int(time.time() * 1000) >> 4:010x}{secrets.token_hex(7)}"


def schema_sha256(schema: dict[str, Any]) -> str:
    """SHA-256 of a tool's JSON schema in canonical encoding."""
    import hashlib

    return hashlib.sha256(canonical_json(schema)).hexdigest()


def _explain(exc: msgspec.ValidationError | msgspec.DecodeError, raw_type: object) -> str:
    text = str(exc)
    if text.startswith("Object contains unknown field `"):
        field = text.split("`")[1]
        if field in REASONING_FIELDS:
            return (
                f"field `{field}` carries raw model reasoning, which agentmem never stores; "
                "drop it and send only the message text"
            )
        return f"unknown field `{field}` for type {raw_type!r}" + text[text.index("`", 32) + 1 :]
    if text.startswith("Invalid value") and text.endswith("at `$.type`"):
        return _unknown_type_message(raw_type)
    if text == "Object missing required field `type`":
        return "missing required field `type` (one of: " + ", ".join(CLIENT_EVENT_TYPES) + ")"
    if text.startswith("Expected `object`") and "at `$" not in text.replace("at `$`", ""):
        return "an event must be a JSON object, " + text[0].lower() + text[1:]
    if text.startswith("Expected `str` matching regex"):
        where = text.rpartition(" - at ")[2] if " - at " in text else "`$`"
        for pattern, words in _PATTERN_WORDS.items():
            if repr(pattern) in text:
                return f"{where} {words}"
    return text


def _unknown_type_message(raw_type: object) -> str:
    if raw_type in closed_types():
        return (
            f"type {raw_type!r} is written by agentmem itself and cannot be appended "
            "(it is recorded by the matching action, e.g. granting consent)"
        )
    return f"unknown event type {raw_type!r}; known types: " + ", ".join(CLIENT_EVENT_TYPES)


# Structs that came out of the client decoder, by identity. Events are frozen, so one that
# passed validation stays valid; anything built another way (a constructor, ``replace``) is
# not in here and is validated when it is appended. A plain dict of weak references without
# callbacks (a WeakValueDictionary cost 2.5 µs per event, a tenth of an import): an entry
# counts only while its reference still returns that very struct, so a dead struct's id
# reused by another object is validated again, and the dict is emptied when it grows large.
_validated: dict[int, weakref.ref[Event]] = {}
_VALIDATED_MAX = 1 << 16


def _remember(event: Event) -> None:
    if len(_validated) >= _VALIDATED_MAX:
        _validated.clear()  # forgetting costs a second validation, never a wrong answer
    _validated[id(event)] = weakref.ref(event)


def _remembered(event: Event) -> bool:
    ref = _validated.get(id(event))
    return ref is not None and ref() is event


def json_problem(exc: msgspec.DecodeError) -> str:
    """The parser's complaint in a user's words: "Input data was truncated" says where the
    problem is no more than "the JSON ends before its last value is closed" does."""
    text = str(exc)
    if text.startswith("Input data was truncated"):
        return 'the JSON ends before its last value is closed (a missing } ] or ")'
    return text.removeprefix("JSON is malformed: ")


def validate_client_event(event: Event | dict[str, Any] | bytes | str) -> Event:
    """The one validation path for client events, whatever form they arrive in.

    JSON text is decoded strictly; a dict or a struct is encoded to JSON and decoded the same
    way, so every client (CLI, HTTP, MCP, the Python API) meets the same rules: the closed set
    of client types (process types are refused), field constraints, the size limit, a
    ``created_at`` that exists in UTC. Raises :class:`InvalidInput` with one line.

    The result is not remembered as validated (the log appends it at once; remembering cost
    a sixth of a bulk append): :func:`decode_client_event` and :func:`decode_client_object`,
    whose results travel on to an append, remember theirs.
    """
    if isinstance(event, dict):
        return _decode_strict(_encode_input(event), _decoder_for(event.get("type")))
    if isinstance(event, Event):
        if _remembered(event):
            return event
        return _decode_strict(_encode_input(event), _decoder_for(event_type(event)))
    if isinstance(event, (bytes, str)):
        return _decode_strict(event)
    raise InvalidInput(f"an event must be a JSON object, got {type(event).__name__}")


def _encode_input(value: Event | dict[str, Any]) -> bytes:
    try:
        return _encoder.encode(value)
    except (TypeError, ValueError, msgspec.EncodeError) as exc:  # e.g. a set, a lone surrogate
        raise InvalidInput(f"event is not representable as JSON: {exc}") from exc


def decode_client_event(data: bytes | str) -> Event:
    """Decode one client event from JSON text, strictly, with a one-line error.

    Raises :class:`InvalidInput` naming the field path; never echoes field values (a message
    text may hold a secret).
    """
    event = _decode_strict(data)
    _remember(event)
    return event


def _decode_strict(data: bytes | str, decoder: msgspec.json.Decoder[Any] | None = None) -> Event:
    """``data`` as a client event: with ``decoder``, the decoder of the type it names (known
    from a dict's ``type`` before encoding), else the union of every client type."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(f"event is not valid UTF-8 text: {exc.reason}") from exc
    if len(data) > MAX_EVENT_BYTES:
        raise InvalidInput(
            f"event is {len(data):,} bytes; the limit is {MAX_EVENT_BYTES:,} bytes per event"
        )
    opening = data.count(b"[") + data.count(b"{")
    if opening > MAX_JSON_DEPTH:
        depth = json_depth(data)
        if depth > MAX_JSON_DEPTH:
            raise InvalidInput(
                f"event JSON nests {depth} levels deep; the limit is {MAX_JSON_DEPTH}"
            )
    try:
        event: Event = (decoder or _client_decoder).decode(data)
    except msgspec.ValidationError as exc:
        raw_type = _peek_type(data)
        raise InvalidInput(_explain(exc, raw_type)) from exc
    except msgspec.DecodeError as exc:
        raise InvalidInput(f"malformed JSON: {json_problem(exc)}") from exc
    # A text field holds a bracket only where the JSON has one, or a \u escape: with neither
    # beyond the limit, no text can nest beyond it, and the walk over the texts is skipped.
    if opening > MAX_JSON_DEPTH or b"\\u" in data:
        _check_json_texts(event)
    if event.created_at is not None:
        try:
            event.created_at.astimezone(UTC)
        except (OverflowError, ValueError) as exc:
            raise InvalidInput(
                "`$.created_at` is out of range: in UTC it must fall in the years 1 to 9999"
            ) from exc
    return event


def _check_json_texts(event: Event) -> None:
    """Refuse text holding a JSON document nested beyond :data:`MAX_JSON_DEPTH` (export parses
    and walks tool arguments, tool results and messages that hold JSON)."""
    texts: list[tuple[str, str]] = []
    if isinstance(event, AssistantMessageCreated):
        texts.append(("text", event.text))
        texts += [
            (f"tool_calls[{i}].arguments", c.arguments) for i, c in enumerate(event.tool_calls)
        ]
    elif isinstance(event, ToolResultCreated):
        texts.append(("content", event.content))
    elif isinstance(event, UserMessageCreated):
        texts.append(("text", event.text))
    for path, text in texts:
        depth = too_deep(text)
        if depth is not None:
            raise InvalidInput(
                f"`$.{path}` holds JSON nested {depth} levels deep; the limit is {MAX_JSON_DEPTH}"
            )


def decode_client_object(obj: Any) -> Event:
    """Validate an already-parsed JSON value (HTTP batches, Python dicts) as a client event."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"an event must be a JSON object, got {type(obj).__name__}")
    event = _decode_strict(_encode_input(obj), _decoder_for(obj.get("type")))
    _remember(event)
    return event


def _decoder_for(kind: object) -> msgspec.json.Decoder[Any] | None:
    """The decoder of the client type ``kind`` names; ``None`` (the union, whose errors name
    the known types) for anything else."""
    return _client_decoders.get(kind) if isinstance(kind, str) else None


def _peek_type(data: bytes) -> object:
    try:
        obj = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    return obj.get("type") if isinstance(obj, dict) else None


def payload_of(event: Event) -> dict[str, Any]:
    """The type's own fields (everything but the envelope), as JSON-ready builtins."""
    if isinstance(event, UnloadedEvent):
        return dict(event.payload)
    out: dict[str, Any] = msgspec.to_builtins(event)
    for key in _ENVELOPE:
        out.pop(key, None)
    return out


def event_type(event: Event) -> str:
    """The event's ``type`` tag."""
    return _tag(type(event))
