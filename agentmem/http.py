"""The loopback HTTP API: a thin adapter that lets agents in any language drive the Store.

The API adds no behaviour of its own. Each route parses a request, calls one Store method and
renders its result; statuses come from the errors' ``http_status`` and bodies of failures are
``{"error": {"code": ..., "message": ...}}`` (``agentmem/openapi.json`` documents every route).
The same process serves MCP over streamable HTTP at ``/mcp`` under the same rules.

Sockets, HTTP/1.1 framing, keep-alive and ``Expect: 100-continue`` belong to uvicorn (h11);
an asyncio server holds an idle or slow connection for the price of a small object, so slow
clients cannot starve the others. What this module owns is keeping a local port safe to leave
running on a desktop:

- it binds a loopback address unless the operator explicitly allows a remote one;
- every route but ``/v1/health`` and ``/v1/openapi.json`` needs a bearer token
  (:mod:`agentmem.api_tokens`): no or a malformed ``Authorization`` is 401, an unknown token 401
  with ``error="invalid_token"``, and a principal token acting for another principal 403;
- a ``Host`` header that is not a loopback name is refused with 421 (DNS rebinding); no CORS
  header is ever sent;
- request bodies are bounded by ``Content-Length`` before they are read (413), chunked bodies
  are refused (411); host, token and size are checked before ``100 Continue`` is sent.

Writes go through one writer thread with one Store and a FIFO queue: event appends that wait
together are committed in one transaction (each in its own savepoint, so one bad event fails
alone), and requests are validated before they join the queue. Reads run on worker threads
with read-only Stores, so they never wait for a writer.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import ipaddress
import logging
import os
import queue
import re
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, unquote

import anyio
import anyio.abc
import anyio.to_thread
import h11
import msgspec
import uvicorn
from starlette.requests import Request as StarletteRequest
from starlette.responses import Response
from uvicorn.protocols.http.h11_impl import H11Protocol

from agentmem.api_tokens import (
    CONFIG_DIR_ENV,
    TOKEN_FILE_NAME,
    Caller,
    TokenRing,
    default_token_path,
    ensure_token,
    read_token,
    rotate_token,
)
from agentmem.config import Principal, Settings, load_settings
from agentmem.errors import (
    AgentmemError,
    InvalidInput,
    NotFound,
    PolicyRefused,
    Refused,
    UsageError,
)
from agentmem.events import Event, decode_client_event, decode_client_object, json_problem, now_text
from agentmem.log import PreparedEvent, prepare_event
from agentmem.memory.service import Belief
from agentmem.net import is_loopback
from agentmem.store import Store

__all__ = [
    "CONFIG_DIR_ENV",
    "DEFAULT_PORT",
    "MAX_BODY_BYTES",
    "PRINCIPAL_HEADER",
    "ROUTES",
    "TOKEN_FILE_NAME",
    "AgentmemServer",
    "BeliefList",
    "ErrorBody",
    "ExportReply",
    "Health",
    "Route",
    "check_bind_host",
    "default_token_path",
    "ensure_token",
    "match_route",
    "openapi_bytes",
    "read_token",
    "rotate_token",
]

DEFAULT_PORT = 8765
#: Largest request body accepted; the Content-Length is checked before anything is read.
MAX_BODY_BYTES = 8 * 1024 * 1024
PRINCIPAL_HEADER = "X-Agentmem-Principal"
#: Where MCP over streamable HTTP is served.
MCP_PATH = "/mcp"

_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
_CONTENT_LENGTH = re.compile(r"[0-9]{1,18}")
_JSON = "application/json"
_INLINE_BODY = 16 * 1024
_encoder = msgspec.json.Encoder()
log = logging.getLogger("agentmem.http")


# -- response shapes that are not library structs ----------------------------------------------


class Health(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The server and its database are up; ``schema_version`` is the file's user_version."""

    status: Literal["ok"]
    schema_version: int


class BeliefList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Beliefs of the request principal, best match (or newest) first."""

    beliefs: list[Belief]


class ExportReply(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The live export artifact of a run; ``created`` is false on an idempotent repeat."""

    artifact_id: str
    created: bool


class ErrorDetail(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A stable machine-readable ``code`` and one human line (never a traceback or a token)."""

    code: str
    message: str


class ErrorBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every failure of the API."""

    error: ErrorDetail


# -- binding ----------------------------------------------------------------------------------


def check_bind_host(host: str, *, allow_remote: bool = False) -> None:
    """Refuse a non-loopback address unless the operator explicitly allows it."""
    if not host:
        raise UsageError("the host to listen on must not be empty (use 127.0.0.1)")
    if not allow_remote and not is_loopback(host):
        raise UsageError(
            f"refusing to listen on {host!r}: it is not a loopback address, so other machines "
            "could reach the API; use 127.0.0.1, or allow remote clients explicitly"
        )


# -- routes -----------------------------------------------------------------------------------


class _Reply(Exception):
    """A refusal decided by the HTTP layer itself (host, auth, routing, framing)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


@dataclass(frozen=True)
class Request:
    """What a route handler gets: authenticated, bounded and decoded where it can be."""

    principal: str
    caller: Caller
    params: dict[str, str]
    query: dict[str, str]
    body: bytes
    prepared: Any = None


@dataclass(frozen=True)
class Reply:
    """A route's answer: a JSON-encodable value, or raw bytes with their media type."""

    status: int
    value: Any
    media_type: str = _JSON


Handler = Callable[[Store, Request], Reply]


@dataclass(frozen=True)
class Route:
    """One operation: ``method`` on a path ``template`` with ``{name}`` segments.

    ``writes`` sends the handler to the writer queue; ``batched`` lets it share a transaction
    with other queued appends. ``prepare`` runs before the queue (parsing, validation), so the
    writer's transaction holds only the insert.
    """

    method: str
    template: str
    handler: Handler
    auth: bool = True
    query: tuple[str, ...] = ()
    json_body: bool = False
    writes: bool = False
    batched: bool = False
    prepare: Callable[[Request], Any] | None = None
    segments: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "segments", tuple(self.template.split("/")[1:]))


def _principal(value: str, what: str) -> str:
    try:
        return msgspec.convert(value, Principal)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{what} must be 1 to 128 printable characters") from exc


def _acting_for(request: Request, principal: str) -> str:
    """``principal`` if the caller may act for it; a principal token may act only as itself."""
    bound = request.caller.bound_principal
    if bound is not None and principal != bound:
        raise Refused(f"this token acts only for principal {bound!r}, not for {principal!r}")
    return principal


def _own_session(store: Store, request: Request, session_id: str) -> None:
    """A principal token sees only its principal's sessions; another's is reported missing."""
    bound = request.caller.bound_principal
    if bound is not None and store.session(session_id, all_principals=True).principal != bound:
        raise NotFound(f"no session {session_id!r}")


def _health(store: Store, request: Request) -> Reply:
    return Reply(200, Health("ok", store.conn.pragma("user_version")))


def _openapi(store: Store, request: Request) -> Reply:
    return Reply(200, openapi_bytes())


def _with_principal(event: Event, request: Request) -> Event:
    if event.principal is None:
        return decode_client_object({**msgspec.to_builtins(event), "principal": request.principal})
    _acting_for(request, event.principal)
    return event


def _parse_events(request: Request) -> PreparedEvent | list[PreparedEvent]:
    """Decode, validate and hash the body before it joins the writer queue (no lock held):
    the writer's transaction then holds only the inserts."""
    body = request.body.lstrip()
    now = now_text()  # one arrival time for the request's events without their own
    if body[:1] != b"[":
        event = _with_principal(decode_client_event(request.body), request)
        return prepare_event(event, principal=request.principal, now=now)
    try:
        items = msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise InvalidInput(f"malformed JSON: {json_problem(exc)}") from exc
    except RecursionError as exc:
        raise InvalidInput("the batch nests too deeply to be events") from exc
    events = []
    for index, item in enumerate(items, start=1):
        try:
            if isinstance(item, dict) and item.get("principal") is None:
                item["principal"] = request.principal
            event = decode_client_object(item)
            _acting_for(request, event.principal or request.principal)
            events.append(prepare_event(event, principal=request.principal, now=now))
        except AgentmemError as exc:
            exc.message = f"event {index}: {exc.message}"
            exc.args = (exc.message,)
            raise
    return events


def _append_events(store: Store, request: Request) -> Reply:
    prepared = request.prepared
    events = prepared if isinstance(prepared, list) else [prepared]
    if request.caller.bound_principal is not None:
        for session_id in {e.session_id for e in events}:
            with contextlib.suppress(NotFound):
                if (
                    store.session(session_id, all_principals=True).principal
                    != request.caller.bound_principal
                ):
                    raise Refused(f"session {session_id!r} belongs to another principal")
    if not isinstance(prepared, list):
        result = store.append_event(prepared)
        return Reply(200 if result.duplicate else 201, result)
    batch = store.append_many(prepared)
    return Reply(201 if batch.imported else 200, batch)


def _session(store: Store, request: Request) -> Reply:
    session_id = request.params["session_id"]
    info = store.session(session_id, all_principals=True)
    _own_session(store, request, session_id)
    runs = store.runs(session_id=session_id, principal=info.principal)
    return Reply(200, {**msgspec.to_builtins(info), "runs": msgspec.to_builtins(runs)})


def _close_session(store: Store, request: Request) -> Reply:
    session_id = request.params["session_id"]
    _own_session(store, request, session_id)
    return Reply(200, store.close_session(session_id, all_principals=True))


def _export_run(store: Store, request: Request) -> Reply:
    result = store.export_run(request.params["run_id"], principal=request.principal)
    return Reply(201 if result.created else 200, ExportReply(result.artifact_id, result.created))


def _artifact(store: Store, request: Request) -> Reply:
    info, data = store.read_artifact(request.params["artifact_id"], principal=request.principal)
    return Reply(200, data, info.media_type)


def _path_principal(request: Request) -> str:
    principal = _principal(request.params["principal"], "the principal in the path")
    return _acting_for(request, principal)


def _consent_status(store: Store, request: Request) -> Reply:
    return Reply(200, store.consent_status(_path_principal(request)))


def _grant(store: Store, request: Request) -> Reply:
    return Reply(200, store.grant_consent(_path_principal(request)))


def _withdraw(store: Store, request: Request) -> Reply:
    return Reply(200, store.withdraw_consent(_path_principal(request)))


def _dry_run(request: Request) -> bool:
    value = request.query.get("dry_run", "false")
    if value not in ("true", "false"):
        raise UsageError("dry_run must be true or false")
    return value == "true"


def _erase_session(store: Store, request: Request) -> Reply:
    session_id = request.params["session_id"]
    bound = request.caller.bound_principal
    if bound is not None:
        # A principal token erases only its own session; another's does not exist for it.
        first = store.events(session_id=session_id, all_principals=True, limit=1)
        owners = {e.principal for e in first}
        with contextlib.suppress(NotFound):
            owners = {store.session(session_id, all_principals=True).principal}
        if owners and owners != {bound}:
            raise NotFound(f"no session {session_id!r}")
    return Reply(200, store.erase_session(session_id, dry_run=_dry_run(request)))


def _erase_principal(store: Store, request: Request) -> Reply:
    principal = _path_principal(request)
    return Reply(200, store.erase_principal(principal, dry_run=_dry_run(request)))


_MAX_LIMIT = 1000
_LIMIT = re.compile(r"[0-9]{1,4}")


def _beliefs(store: Store, request: Request) -> Reply:
    raw_limit = request.query.get("limit", "20")
    if not _LIMIT.fullmatch(raw_limit) or not 1 <= int(raw_limit) <= _MAX_LIMIT:
        raise UsageError(f"limit must be an integer from 1 to {_MAX_LIMIT}")
    limit = int(raw_limit)
    query = request.query.get("q")
    if query is None:
        found = store.beliefs(principal=request.principal)[:limit]
    else:
        found = store.search_beliefs(query, principal=request.principal, limit=limit)
    return Reply(200, BeliefList(found))


#: Every operation the server implements; ``agentmem/openapi.json`` documents exactly these.
ROUTES: tuple[Route, ...] = (
    Route("GET", "/v1/health", _health, auth=False),
    Route("GET", "/v1/openapi.json", _openapi, auth=False),
    Route(
        "POST",
        "/v1/events",
        _append_events,
        json_body=True,
        writes=True,
        batched=True,
        prepare=_parse_events,
    ),
    Route("GET", "/v1/sessions/{session_id}", _session),
    Route("POST", "/v1/sessions/{session_id}/close", _close_session, writes=True),
    Route("POST", "/v1/runs/{run_id}/export", _export_run, writes=True),
    Route("GET", "/v1/artifacts/{artifact_id}", _artifact),
    Route("GET", "/v1/consent/{principal}", _consent_status),
    Route("POST", "/v1/consent/{principal}", _grant, writes=True),
    Route("DELETE", "/v1/consent/{principal}", _withdraw, writes=True),
    Route("GET", "/v1/beliefs", _beliefs, query=("q", "limit")),
    Route("DELETE", "/v1/sessions/{session_id}", _erase_session, query=("dry_run",), writes=True),
    Route(
        "DELETE", "/v1/principals/{principal}", _erase_principal, query=("dry_run",), writes=True
    ),
)


def match_route(path: str) -> tuple[str, dict[str, Route], dict[str, str]] | None:
    """The template a request path matches, its routes by method, and the decoded parameters.

    Parameters are percent-decoded per segment, so an id may contain ``/`` as ``%2F``.
    """
    parts = path.split("/")[1:] if path.startswith("/") else None
    if parts is None:
        return None
    found: dict[str, Route] = {}
    template = ""
    params: dict[str, str] = {}
    for route in ROUTES:
        if len(route.segments) != len(parts):
            continue
        candidate: dict[str, str] = {}
        for expected, actual in zip(route.segments, parts, strict=True):
            if expected.startswith("{"):
                if not actual:
                    break
                candidate[expected[1:-1]] = actual
            elif expected != actual:
                break
        else:
            template, params = route.template, candidate
            found[route.method] = route
    if not found:
        return None
    try:
        decoded = {k: unquote(v, errors="strict") for k, v in params.items()}
    except UnicodeDecodeError as exc:
        raise UsageError("a path parameter is not valid percent-encoded UTF-8") from exc
    return template, found, decoded


_openapi_cache: list[bytes] = []


def openapi_bytes() -> bytes:
    """The OpenAPI 3.1 document shipped in the package, exactly as stored."""
    if not _openapi_cache:
        _openapi_cache.append(resources.files("agentmem").joinpath("openapi.json").read_bytes())
    return _openapi_cache[0]


# -- the writer queue -------------------------------------------------------------------------


@dataclass
class _Job:
    run: Callable[[Store], Any]
    batched: bool
    events: int = 1
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


class _Writer:
    """One thread, one Store, one FIFO queue: every write of the server, in arrival order.

    Appends that are waiting together share one transaction (group commit), each inside its
    own savepoint, so a refused event fails alone; they are acknowledged only after the
    commit. A group holds at most :attr:`_GROUP_EVENTS` events: eight clients' 100-event
    batches share one commit (and its fsync) rather than queueing for eight (with groups of
    100 events, eight batch clients got 0.67-0.80x one client's throughput; with 1,000,
    1.05-1.18x in the same run), while a larger batch commits alone so the requests behind it
    wait for no more than it. Any other write (closing a session
    consolidates, exports redact) runs alone. One writer means the server's own requests
    never wait in SQLite's busy handler.
    """

    _GROUP_EVENTS = 1000

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._jobs: collections.deque[_Job | None] = collections.deque()
        self._ready = threading.Condition()
        self._thread = threading.Thread(target=self._work, name="agentmem-http-writer")
        self._opened: concurrent.futures.Future[None] = concurrent.futures.Future()

    def start(self) -> None:
        self._thread.start()
        self._opened.result()

    def submit(
        self, run: Callable[[Store], Any], *, batched: bool, events: int = 1
    ) -> concurrent.futures.Future:
        job = _Job(run, batched, events)
        with self._ready:
            self._jobs.append(job)
            self._ready.notify()
        return job.future

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        with self._ready:
            self._jobs.append(None)
            self._ready.notify()
        self._thread.join()

    def _next(self) -> list[_Job] | None:
        with self._ready:
            while not self._jobs:
                self._ready.wait()
            first = self._jobs.popleft()
            if first is None:
                return None
            taken, events = [first], first.events
            while first.batched and self._jobs:
                following = self._jobs[0]
                if following is None or not following.batched:
                    break
                events += following.events
                if events > self._GROUP_EVENTS:
                    break
                taken.append(following)
                self._jobs.popleft()
            return taken

    def _work(self) -> None:
        try:
            store = Store.open(settings=self._settings)
        except BaseException as exc:
            self._opened.set_exception(exc)
            return
        self._opened.set_result(None)
        try:
            while (jobs := self._next()) is not None:
                if len(jobs) == 1:
                    self._run_alone(store, jobs[0])
                else:
                    self._run_group(store, jobs)
        finally:
            store.close()

    @staticmethod
    def _run_alone(store: Store, job: _Job) -> None:
        try:
            job.future.set_result(job.run(store))
        except BaseException as exc:
            job.future.set_exception(exc)

    @staticmethod
    def _run_group(store: Store, jobs: list[_Job]) -> None:
        outcomes: list[tuple[bool, Any]] = []
        try:
            with store.transaction():
                for job in jobs:
                    try:
                        with store.transaction():  # a savepoint: a refused event fails alone
                            outcomes.append((True, job.run(store)))
                    except Exception as exc:
                        outcomes.append((False, exc))
        except BaseException as exc:  # the commit itself failed: nothing was acknowledged
            for job in jobs:
                job.future.set_exception(exc)
            return
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)


class _Readers:
    """Read-only Stores lent to worker threads, one per concurrent read."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._idle: queue.LifoQueue[Store] = queue.LifoQueue()
        self._all: list[Store] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def borrow(self) -> Iterator[Store]:
        try:
            store = self._idle.get_nowait()
        except queue.Empty:
            store = Store.open(settings=self._settings, readonly=True)
            with self._lock:
                self._all.append(store)
        try:
            yield store
        finally:
            self._idle.put(store)

    def close(self) -> None:
        with self._lock:
            stores, self._all = self._all, []
        for store in stores:
            with contextlib.suppress(Exception):
                store.close()


# -- the ASGI application ---------------------------------------------------------------------


def _error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> Response:
    body = _encoder.encode(ErrorBody(ErrorDetail(code, message)))
    return _response(status, body, _JSON, headers)


def _response(
    status: int, body: bytes, media_type: str, headers: dict[str, str] | None = None
) -> Response:
    sent = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Server": "agentmem"}
    sent.update(headers or {})
    return Response(body, status_code=status, media_type=media_type, headers=sent)


class _Api:
    """The ASGI app: Host check, routing, auth, size checks, then the Store through a thread."""

    def __init__(self, server: AgentmemServer, mcp: Callable[[str], Any] | None) -> None:
        self.server = server
        self.mcp = mcp
        self._mcp_servers: dict[str, tuple[Any, anyio.Event]] = {}
        self._tasks: anyio.abc.TaskGroup | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":  # websockets are not spoken here
            return
        request = StarletteRequest(scope, receive)
        raw_path = scope.get("raw_path") or scope["path"].encode()
        path = raw_path.decode("latin-1").partition("?")[0]
        try:
            self._check_host(request)
            if path == MCP_PATH and self.mcp is not None:
                await self._mcp(request, scope, receive, send)
                return
            response = await self._answer(request, path)
        except _Reply as refusal:
            if refusal.status in (401, 403, 421):
                client = scope.get("client") or ("?",)
                log.warning(
                    "refused %s %s from %s: %s", request.method, path, client[0], refusal.code
                )
            response = _error_response(
                refusal.status, refusal.code, refusal.message, refusal.headers
            )
        await response(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        await receive()  # lifespan.startup
        async with anyio.create_task_group() as tasks:
            self._tasks = tasks
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
            tasks.cancel_scope.cancel()
        await send({"type": "lifespan.shutdown.complete"})

    async def _mcp(self, request: StarletteRequest, scope: Any, receive: Any, send: Any) -> None:
        """MCP over streamable HTTP, with the REST API's token rules.

        Each principal gets its own MCP server, bound to it as ``agentmem mcp`` is: the token
        (and, for the operator, ``X-Agentmem-Principal``) picks the server, and nothing in the
        MCP session can switch it.
        """
        if self.server.refusal is not None:
            raise _Reply(503, self.server.refusal.code, self.server.refusal.message)
        principal = self._request_principal(request, self._authenticate(request))
        mcp = await self._mcp_server(principal)
        await mcp.session_manager.handle_request(scope, receive, send)

    async def _mcp_server(self, principal: str) -> Any:
        entry = self._mcp_servers.get(principal)
        if entry is None:
            assert self.mcp is not None and self._tasks is not None
            entry = (self.mcp(principal), anyio.Event())
            self._mcp_servers[principal] = entry
            self._tasks.start_soon(self._run_mcp, *entry)
        await entry[1].wait()
        return entry[0]

    @staticmethod
    async def _run_mcp(mcp: Any, ready: anyio.Event) -> None:
        async with mcp.session_manager.run():
            ready.set()
            await anyio.sleep_forever()

    async def _answer(self, request: StarletteRequest, path: str) -> Response:
        method = request.method
        try:
            matched = match_route(path)
            if matched is None:
                raise _Reply(404, "not_found", f"no route for {path!r}")
            template, by_method, params = matched
            route = by_method.get(method)
            if route is None:
                allow = ", ".join(sorted(by_method))
                raise _Reply(
                    405,
                    "method_not_allowed",
                    f"{method} is not allowed on {template}; allowed: {allow}",
                    {"Allow": allow},
                )
            refusal = self.server.refusal
            if refusal is not None:  # decided at start-up; no database is opened for it
                if route.handler is _openapi:
                    return _response(200, openapi_bytes(), _JSON)
                raise _Reply(503, refusal.code, refusal.message)
            query = self._query(request.scope.get("query_string", b""), route)
            caller = Caller()
            principal = self.server.settings.principal
            if route.auth:
                caller = self._authenticate(request)
                principal = self._request_principal(request, caller)
            if route.json_body:
                self._check_json_content_type(request)
            body = await self._read_body(request, route)
            reply = await self._run(route, Request(principal, caller, params, query, body))
        except _Reply:
            raise
        except AgentmemError as exc:
            raise _Reply(exc.http_status, exc.code, exc.message) from exc
        except Exception as exc:
            log.exception("internal error on %s %s", method, path)
            raise _Reply(
                500, "internal", "internal error; the details are in the server's log"
            ) from exc
        value = reply.value
        body = value if isinstance(value, bytes) else _encoder.encode(value)
        return _response(reply.status, body, reply.media_type)

    async def _run(self, route: Route, request: Request) -> Reply:
        if route.prepare is not None:
            # A small body is decoded on the event loop (cheaper than a thread hop); a large
            # one on a worker thread, so it never stalls other connections.
            if len(request.body) <= _INLINE_BODY:
                prepared = route.prepare(request)
            else:
                prepared = await anyio.to_thread.run_sync(route.prepare, request)
            request = Request(
                request.principal,
                request.caller,
                request.params,
                request.query,
                request.body,
                prepared,
            )
        if route.writes:
            prepared = request.prepared
            future = self.server.writer.submit(
                lambda store: route.handler(store, request),
                batched=route.batched,
                events=len(prepared) if isinstance(prepared, list) else 1,
            )
            return await asyncio.wrap_future(future)
        return await anyio.to_thread.run_sync(self._read, route, request)

    def _read(self, route: Route, request: Request) -> Reply:
        with self.server.readers.borrow() as store:
            return route.handler(store, request)

    # -- checks -------------------------------------------------------------------------------

    def _check_host(self, request: StarletteRequest) -> None:
        values = request.headers.getlist("host")
        if len(values) != 1 or not self.server.host_allowed(values[0]):
            raise _Reply(
                421,
                "misdirected_request",
                "the Host header must name this server by a loopback name "
                "(localhost, 127.0.0.1 or [::1]) and its port",
            )

    def _authenticate(self, request: StarletteRequest) -> Caller:
        header = request.headers.get("authorization")
        realm = 'Bearer realm="agentmem"'
        if header is None:
            raise _Reply(
                401,
                "unauthorized",
                "missing 'Authorization: Bearer <token>'; the operator token is in the file "
                "'agentmem serve' printed at start-up",
                {"WWW-Authenticate": realm},
            )
        scheme, _, value = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise _Reply(
                401,
                "unauthorized",
                "the Authorization header must be 'Bearer <token>'",
                {"WWW-Authenticate": realm},
            )
        caller = self.server.tokens.identify(value.strip())
        if caller is None:
            raise _Reply(
                401,
                "invalid_token",
                "the bearer token is not one this server accepts (rotated or revoked?)",
                {"WWW-Authenticate": f'{realm}, error="invalid_token"'},
            )
        return caller

    def _request_principal(self, request: StarletteRequest, caller: Caller) -> str:
        header = request.headers.get(PRINCIPAL_HEADER)
        if caller.bound_principal is not None:
            if header is not None and header != caller.bound_principal:
                raise _Reply(
                    403,
                    Refused.code,
                    f"this token acts only for principal {caller.bound_principal!r}",
                )
            return caller.bound_principal
        if header is not None:
            return _principal(header, f"the {PRINCIPAL_HEADER} header")
        return self.server.settings.principal

    @staticmethod
    def _query(raw: bytes, route: Route) -> dict[str, str]:
        text = raw.decode("latin-1")
        if not text:
            return {}
        try:
            pairs = parse_qsl(
                text, keep_blank_values=True, errors="strict", max_num_fields=len(route.query) + 1
            )
        except (ValueError, UnicodeDecodeError) as exc:
            raise UsageError(f"malformed query string: {exc}") from exc
        query: dict[str, str] = {}
        for name, value in pairs:
            if name not in route.query:
                allowed = ", ".join(route.query) or "none"
                raise UsageError(f"unknown query parameter {name!r} (allowed: {allowed})")
            if name in query:
                raise UsageError(f"query parameter {name!r} is given twice")
            query[name] = value
        return query

    @staticmethod
    def _check_json_content_type(request: StarletteRequest) -> None:
        media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != _JSON:
            raise _Reply(
                415, "unsupported_media_type", "send the body with 'Content-Type: application/json'"
            )

    async def _read_body(self, request: StarletteRequest, route: Route) -> bytes:
        lengths = request.headers.getlist("content-length")
        close = {"Connection": "close"}
        if "transfer-encoding" in request.headers:
            if lengths:
                raise _Reply(
                    400,
                    "bad_request",
                    "a request must not have both Transfer-Encoding and Content-Length",
                    close,
                )
            raise _Reply(
                411,
                "length_required",
                "chunked request bodies are refused; send Content-Length",
                close,
            )
        if not lengths:
            if route.json_body:
                raise _Reply(411, "length_required", "send the JSON body with a Content-Length")
            return b""
        distinct = {value.strip() for value in lengths}
        text = distinct.pop()
        if distinct or not _CONTENT_LENGTH.fullmatch(text):
            raise _Reply(400, "bad_request", "Content-Length must be one decimal number", close)
        length = int(text)
        limit = self.server.max_body
        if length > limit:
            raise _Reply(
                413,
                "payload_too_large",
                f"the body is {length:,} bytes; the limit is {limit:,} bytes "
                "(split a batch into several requests)",
                close,
            )
        return await request.body() if length else b""


def _bad_request_bytes() -> tuple[list[tuple[bytes, bytes]], bytes]:
    """Headers and body of the 400 for unparseable HTTP, in the API's JSON error shape."""
    body = _encoder.encode(ErrorBody(ErrorDetail("bad_request", "malformed HTTP request")))
    headers = [
        (b"content-type", _JSON.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
    ]
    return headers, body


class _H11(H11Protocol):
    """uvicorn's h11 protocol, answering unparseable HTTP in the API's JSON error shape (used
    when httptools is not installed)."""

    def send_400_response(self, msg: str) -> None:
        del msg  # uvicorn's plain-text reason: the JSON body below replaces it
        headers, body = _bad_request_bytes()
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()


def _protocol() -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol when httptools is installed (the 'server' extra has it),
    else its h11 one, each answering unparseable HTTP in the API's JSON error shape.

    httptools (llhttp, in C) parses a request in a fraction of h11's time: about 150 µs less
    per request for one keep-alive client (``benchmarks/http_api.py``).
    """
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # uvicorn imports httptools there; without it, the pure-Python parser
        return _H11

    class _HttpTools(HttpToolsProtocol):
        def send_400_response(self, msg: str) -> None:
            del msg  # as in _H11
            headers, body = _bad_request_bytes()
            head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\n" + head + b"\r\n" + body)
            self.transport.close()

    return _HttpTools


# -- the server -------------------------------------------------------------------------------


class AgentmemServer:
    """The loopback HTTP API over one database file, usable in process and by ``agentmem serve``.

    ``with AgentmemServer(db_path, settings) as server: ... server.url ...`` binds an ephemeral
    port (``port=0``) on 127.0.0.1 and serves from a background thread. The operator token
    file is created on first start (0600) unless it exists; ``token_file`` defaults to
    :func:`default_token_path`, and principal tokens are listed next to it.
    ``max_connections`` bounds open connections (beyond it: 503).
    """

    def __init__(
        self,
        db_path: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        allow_remote: bool = False,
        token_file: str | os.PathLike[str] | None = None,
        max_connections: int = 256,
        keep_alive: float = 5.0,
        max_body: int = MAX_BODY_BYTES,
        mcp: bool = True,
    ) -> None:
        check_bind_host(host, allow_remote=allow_remote)
        if settings is None:
            settings = load_settings(db=os.fspath(db_path) if db_path is not None else None)
        elif db_path is not None:
            settings = msgspec.structs.replace(settings, db=os.fspath(db_path))
        if settings.db_path() == ":memory:" or settings.db_path().startswith("file::memory:"):
            raise UsageError(
                "the HTTP API needs a database file: with ':memory:' every connection "
                "would see its own empty database"
            )
        if max_connections < 1:
            raise UsageError("max_connections must be at least 1")
        if not 0 <= port <= 65535:
            raise UsageError(f"the port must be from 0 to 65535, not {port}")
        self.settings = settings
        self.db_path = settings.db_path()
        self.host = host
        self.allow_remote = allow_remote
        self.token_file = Path(token_file) if token_file is not None else default_token_path()
        self.max_connections = max_connections
        self.keep_alive = keep_alive
        self.max_body = max_body
        self.serve_mcp = mcp
        self.port = port
        self.created_token = False
        self.tokens = TokenRing(self.token_file)
        self._requested_port = port
        self._allowed_hosts: frozenset[str] = frozenset()
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._mcp_store: Store | None = None
        self.writer: _Writer = _Writer(settings)
        self.readers = _Readers(settings)
        #: Why the server refuses every request (decided at start-up), or ``None``.
        self.refusal: PolicyRefused | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (the real port once started)."""
        name = f"[{self.host.strip('[]')}]" if ":" in self.host else self.host
        return f"http://{name}:{self.port}"

    def start(self) -> AgentmemServer:
        """Create the token if needed, check the database, bind and start serving.

        The formation policy is resolved first. When it refuses (``required`` without matching
        evidence; closing a session would consolidate), the server still binds, so clients
        learn why, but writes nothing, not even the token or the database, and answers every
        route except the OpenAPI document with 503 and the reason decided here.
        """
        if self._uvicorn is not None:
            return self
        from agentmem.memory.composition import resolve_settings

        self.refusal = None
        try:
            resolve_settings(self.settings)
        except PolicyRefused as exc:
            self.refusal = exc
            log.error("refusing every request: %s", exc.message)
        mcp = None
        if self.refusal is None:
            self.created_token = ensure_token(self.token_file)
            read_token(self.token_file)  # refuses a token file others can read, before binding
            self.writer = _Writer(self.settings)
            self.writer.start()  # creates the file or refuses it (not agentmem, too new)
            self.readers = _Readers(self.settings)
            if self.serve_mcp:
                mcp = self._mcp_factory()
        sock = self._bind()
        self.port = sock.getsockname()[1]
        names = {f"{name}:{self.port}" for name in _LOOPBACK_NAMES}
        if self.port == 80:
            names |= _LOOPBACK_NAMES
        self._allowed_hosts = frozenset(names)
        config = uvicorn.Config(
            _Api(self, mcp),
            http=_protocol(),
            ws="none",
            lifespan="on",
            log_config=None,
            access_log=False,
            server_header=False,
            limit_concurrency=self.max_connections,
            timeout_keep_alive=max(1, round(self.keep_alive)),
            timeout_graceful_shutdown=2,
            proxy_headers=False,
        )
        server = uvicorn.Server(config)
        self._uvicorn = server
        self._thread = threading.Thread(
            target=lambda: asyncio.run(server.serve(sockets=[sock])),
            name="agentmem-http",
            daemon=True,
        )
        self._thread.start()
        while not server.started:
            if not self._thread.is_alive():
                self._uvicorn = None
                self._close_stores()
                raise UsageError(f"the HTTP server on {self.host}:{self.port} failed to start")
            self._thread.join(0.01)
        return self

    def _mcp_factory(self) -> Callable[[str], Any]:
        """Check the MCP SDK is there and return what makes one MCP server per principal."""
        try:
            from agentmem.integrations.mcp_server import create_server
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "mcp":
                raise
            raise UsageError(
                "serving MCP at /mcp needs the MCP Python SDK: install the 'server' extra "
                "(pip install 'agentmem[server]')"
            ) from exc
        store = self._mcp_store = Store.open(settings=self.settings)

        def make(principal: str) -> Any:
            mcp = create_server(store, principal=principal)
            mcp.streamable_http_app(stateless_http=True, json_response=True)  # its manager
            return mcp

        return make

    def _bind(self) -> socket.socket:
        family, address = self._address()
        # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted sockets only when the
        # protocol says TCP, and without it Nagle meets delayed ACKs (40 ms per response).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(128)
        except OSError as exc:
            sock.close()
            self._close_stores()
            raise UsageError(
                f"cannot listen on {self.host}:{self._requested_port}: {exc.strerror or exc}"
            ) from exc
        return sock

    def _address(self) -> tuple[int, tuple[str, int]]:
        host = self.host.strip("[]")
        try:
            version = ipaddress.ip_address(host).version
        except ValueError:
            try:
                infos = socket.getaddrinfo(host, self._requested_port, type=socket.SOCK_STREAM)
            except socket.gaierror as exc:
                raise UsageError(f"cannot resolve the host {self.host!r}: {exc}") from exc
            family, _, _, _, sockaddr = infos[0]
            return family, (str(sockaddr[0]), self._requested_port)
        family = socket.AF_INET6 if version == 6 else socket.AF_INET
        return family, (host, self._requested_port)

    def stop(self) -> None:
        """Stop accepting, finish requests in flight, close every connection and Store."""
        server, thread = self._uvicorn, self._thread
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(timeout=10)
        self._uvicorn = self._thread = None
        self._close_stores()

    def _close_stores(self) -> None:
        # The writer closes last: the last connection to close checkpoints the WAL away.
        self.readers.close()
        if self._mcp_store is not None:
            self._mcp_store.close()
            self._mcp_store = None
        if self.writer.running:
            self.writer.stop()

    def __enter__(self) -> AgentmemServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- used by the app ----------------------------------------------------------------------

    def host_allowed(self, value: str) -> bool:
        """Whether a ``Host`` header names this server (DNS-rebinding defence)."""
        host = value.strip().lower()
        if host in self._allowed_hosts:
            return True
        if not self.allow_remote:
            return False
        name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if port and port != str(self.port):
            return False
        if not port and self.port != 80:
            return False
        if name == self.host.lower():
            return True
        try:
            ipaddress.ip_address(name.strip("[]"))
        except ValueError:
            return False
        return True  # an IP literal cannot be a rebinding attacker's domain name
