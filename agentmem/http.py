"""The loopback HTTP API: a thin adapter that lets agents in any language drive the Store.

The API adds no behaviour of its own. Each route parses a request, calls one Store method and
renders its result; statuses come from the errors' ``http_status`` and bodies of failures are
``{"error": {"code": ..., "message": ...}}`` (``agentmem/openapi.json`` documents every route).

What this module does own is keeping a local HTTP port safe to leave running on a desktop:

- it binds a loopback address unless the operator explicitly allows a remote one;
- every route but ``/v1/health`` and ``/v1/openapi.json`` needs ``Authorization: Bearer``
  with the token from a 0600 file (:func:`default_token_path`), compared in constant time and
  re-read when the file changes, so a rotation takes effect without a restart;
- a ``Host`` header that is not a loopback name is refused with 421, which defeats DNS
  rebinding (a web page cannot make a browser send ``Host: 127.0.0.1``); no CORS header is
  ever sent, so browsers keep cross-origin pages out;
- request bodies are bounded before they are read, chunked bodies are refused, and a bounded
  pool of worker threads with socket timeouts plus a per-request deadline keeps slow or
  half-open clients from holding the server.

Each worker thread owns one Store connection (SQLite connections are cheapest used by one
thread; WAL and ``BEGIN IMMEDIATE`` serialise the writers), closed when the server stops.
Authentication, routing and size checks all happen before the Store is touched, so a refused
request never writes anything.
"""

from __future__ import annotations

import contextlib
import email.utils
import hmac
import http.server
import ipaddress
import logging
import os
import queue
import re
import secrets
import socket
import socketserver
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote

import msgspec

from agentmem._net import is_loopback
from agentmem.config import Principal, Settings, load_settings
from agentmem.errors import AgentmemError, InvalidInput, PolicyRefused, UsageError
from agentmem.events import decode_client_event
from agentmem.store import Store

__all__ = [
    "CONFIG_DIR_ENV",
    "DEFAULT_PORT",
    "MAX_BODY_BYTES",
    "PRINCIPAL_HEADER",
    "ROUTES",
    "TOKEN_FILE_NAME",
    "AgentmemServer",
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
TOKEN_FILE_NAME = "api-token"
#: Overrides the directory holding the API token file (tests, portable installs).
CONFIG_DIR_ENV = "AGENTMEM_CONFIG_DIR"

_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
_CONTENT_LENGTH = re.compile(r"[0-9]{1,18}")
_JSON = "application/json"
_encoder = msgspec.json.Encoder()
log = logging.getLogger("agentmem.http")


# -- the API token ----------------------------------------------------------------------------


def default_token_path() -> Path:
    """``$AGENTMEM_CONFIG_DIR/api-token``, else ``<user config dir>/agentmem/api-token``."""
    explicit = os.environ.get(CONFIG_DIR_ENV)
    if explicit:
        return Path(explicit) / TOKEN_FILE_NAME
    import platformdirs

    return platformdirs.user_config_path("agentmem") / TOKEN_FILE_NAME


def _unsafe_mode(st: os.stat_result) -> bool:
    """True when someone other than the owner may read the file (POSIX permission bits)."""
    return os.name == "posix" and bool(st.st_mode & (stat.S_IRWXG | stat.S_IRWXO))


def _write_token_file(path: Path, *, replace: bool) -> bool:
    """Write a fresh token to ``path`` atomically with mode 0600; False if it existed.

    The token is written to a private temporary file first (``mkstemp`` creates it 0600), then
    linked into place (create only if absent) or renamed over the old file, so no reader ever
    sees a half-written or world-readable token.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".api-token-", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write the API token file {path}: {exc.strerror}") from exc
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def ensure_token(path: Path) -> bool:
    """Create the token file if it is missing; True when a new token was created."""
    if path.exists():
        return False
    return _write_token_file(path, replace=False)


def rotate_token(path: Path) -> None:
    """Replace the token: running servers accept only the new one from their next request."""
    _write_token_file(path, replace=True)


def read_token(path: Path) -> str:
    """The token in ``path``; :class:`UsageError` if it is missing, empty or open to others."""
    try:
        st = path.stat()
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError as exc:
        raise UsageError(f"no API token file at {path}; 'agentmem serve' creates one") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the API token file {path}: {exc}") from exc
    if _unsafe_mode(st):
        raise UsageError(
            f"the API token file {path} is open to other users "
            f"(mode {stat.S_IMODE(st.st_mode):04o}); run 'agentmem serve --rotate-token' to "
            "replace it with a private one"
        )
    if not text or not text.isascii() or not text.isprintable():
        raise UsageError(
            f"the API token file {path} holds no usable token; run 'agentmem serve --rotate-token'"
        )
    return text


class _TokenFile:
    """The token as the running server sees it: re-read whenever the file changes.

    A stat per request is cheap, and it makes rotation and revocation immediate. If the file
    disappears or becomes open to other users, no token matches (the server fails closed).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._signature: tuple[int, ...] | None = None
        self._token: bytes | None = None

    def current(self) -> bytes | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        signature = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size, st.st_mode)
        if signature != self._signature:
            with self._lock:
                try:
                    self._token = read_token(self.path).encode("ascii")
                except UsageError as exc:
                    log.warning("refusing every token: %s", exc.message)
                    self._token = None
                self._signature = signature
        return self._token


# -- binding ----------------------------------------------------------------------------------


def check_bind_host(host: str, *, allow_remote: bool = False) -> None:
    """Refuse a non-loopback address unless the operator explicitly allows it."""
    if not host:
        raise UsageError("--host must not be empty (use 127.0.0.1)")
    if not allow_remote and not is_loopback(host):
        raise UsageError(
            f"refusing to listen on {host!r}: it is not a loopback address, so other machines "
            "could reach the API; use 127.0.0.1, or pass --allow-remote if you really mean it"
        )


# -- routes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What a route handler gets: already authenticated, bounded and decoded where it can be."""

    principal: str
    params: dict[str, str]
    query: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Reply:
    """A route's answer: a JSON-encodable value, or raw bytes with their media type."""

    status: int
    value: Any
    media_type: str = _JSON


Handler = Callable[[Store, Request], Reply]


@dataclass(frozen=True)
class Route:
    """One operation: ``method`` on a path ``template`` with ``{name}`` segments."""

    method: str
    template: str
    handler: Handler
    auth: bool = True
    query: tuple[str, ...] = ()
    json_body: bool = False
    segments: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "segments", tuple(self.template.split("/")[1:]))


def _principal(value: str, what: str) -> str:
    try:
        return msgspec.convert(value, Principal)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{what} must be 1 to 128 printable characters") from exc


def _health(store: Store, request: Request) -> Reply:
    return Reply(200, {"status": "ok", "schema_version": store.conn.pragma("user_version")})


def _openapi(store: Store, request: Request) -> Reply:
    return Reply(200, openapi_bytes())


def _append_events(store: Store, request: Request) -> Reply:
    body = request.body.lstrip()
    if body[:1] != b"[":
        event = decode_client_event(request.body)
        if event.principal is None:
            event = msgspec.structs.replace(event, principal=request.principal)
        result = store.append_event(event)
        return Reply(200 if result.duplicate else 201, result)
    try:
        items = msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise InvalidInput(f"malformed JSON: {exc}") from exc
    for item in items:
        if isinstance(item, dict) and item.get("principal") is None:
            item["principal"] = request.principal
    batch = store.append_many(items)
    return Reply(201 if batch.imported else 200, batch)


def _session(store: Store, request: Request) -> Reply:
    session_id = request.params["session_id"]
    info = store.session(session_id)
    runs = store.runs(session_id=session_id)
    return Reply(200, {**msgspec.to_builtins(info), "runs": msgspec.to_builtins(runs)})


def _close_session(store: Store, request: Request) -> Reply:
    return Reply(200, store.close_session(request.params["session_id"]))


def _export_run(store: Store, request: Request) -> Reply:
    result = store.export_run(request.params["run_id"], principal=request.principal)
    return Reply(
        201 if result.created else 200,
        {"artifact_id": result.artifact_id, "created": result.created},
    )


def _artifact(store: Store, request: Request) -> Reply:
    info, data = store.read_artifact(request.params["artifact_id"], principal=request.principal)
    return Reply(200, data, info.media_type)


def _consent_status(store: Store, request: Request) -> Reply:
    principal = _principal(request.params["principal"], "the principal in the path")
    return Reply(200, store.consent_status(principal))


def _grant(store: Store, request: Request) -> Reply:
    principal = _principal(request.params["principal"], "the principal in the path")
    return Reply(200, store.grant_consent(principal))


def _withdraw(store: Store, request: Request) -> Reply:
    principal = _principal(request.params["principal"], "the principal in the path")
    return Reply(200, store.withdraw_consent(principal))


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
    return Reply(200, {"beliefs": found})


#: Every operation the server implements; ``agentmem/openapi.json`` documents exactly these.
ROUTES: tuple[Route, ...] = (
    Route("GET", "/v1/health", _health, auth=False),
    Route("GET", "/v1/openapi.json", _openapi, auth=False),
    Route("POST", "/v1/events", _append_events, json_body=True),
    Route("GET", "/v1/sessions/{session_id}", _session),
    Route("POST", "/v1/sessions/{session_id}/close", _close_session),
    Route("POST", "/v1/runs/{run_id}/export", _export_run),
    Route("GET", "/v1/artifacts/{artifact_id}", _artifact),
    Route("GET", "/v1/consent/{principal}", _consent_status),
    Route("POST", "/v1/consent/{principal}", _grant),
    Route("DELETE", "/v1/consent/{principal}", _withdraw),
    Route("GET", "/v1/beliefs", _beliefs, query=("q", "limit")),
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


# -- the request handler ----------------------------------------------------------------------


class _ClientGone(Exception):
    """The client closed or stalled its connection mid-request: there is no one to answer."""


class _Reply(Exception):
    """A refusal decided by the HTTP layer itself (host, auth, routing, framing)."""

    def __init__(self, status: int, code: str, message: str, headers: tuple[str, ...] = ()):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


_PARSE_ERROR_CODES = {
    400: "bad_request",
    414: "uri_too_long",
    431: "headers_too_large",
    505: "http_version_not_supported",
}


_date_cache: list = [0, ""]


def _http_date() -> str:
    """The ``Date`` header, formatted once per second (it is on every response)."""
    second = int(time.time())
    if second != _date_cache[0]:
        _date_cache[1] = email.utils.formatdate(second, usegmt=True)
        _date_cache[0] = second
    return _date_cache[1]


def _error_body(code: str, message: str) -> bytes:
    return _encoder.encode({"error": {"code": code, "message": message}})


class _Handler(http.server.BaseHTTPRequestHandler):
    """One connection, possibly many keep-alive requests; every response is built here."""

    protocol_version = "HTTP/1.1"
    server_version = "agentmem"
    sys_version = ""
    disable_nagle_algorithm = True
    server: _PooledServer

    def setup(self) -> None:
        self.app = self.server.app
        super().setup()
        self.connection.settimeout(self.app.timeout)
        self.deadline: float | None = None
        self.busy = False
        self.expect_continue = False
        self.app._connections_add(self)

    def finish(self) -> None:
        self.app._connections_discard(self)
        with contextlib.suppress(OSError):
            super().finish()

    def abort(self) -> None:
        """Unblock a read on this connection from another thread (deadline or shutdown)."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def handle(self) -> None:
        self.close_connection = True
        try:
            self.handle_one_request()
            while not self.close_connection and self.app._begin_idle(self):
                self.handle_one_request()
        except (OSError, _ClientGone):  # timeouts, resets, sockets cut by the deadline reaper
            pass

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + self.app.request_deadline
        self.expect_continue = False
        self.raw_requestline = self.rfile.readline(65537)
        if len(self.raw_requestline) > 65536:
            self.requestline = self.request_version = self.command = ""
            self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
            return
        if not self.raw_requestline:
            self.close_connection = True
            return
        if not self.parse_request():
            return
        self._respond()

    def handle_expect_100(self) -> bool:
        # Answer "100 Continue" only once host, auth and size checks have passed.
        self.expect_continue = True
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors found by the stdlib request parser, in our JSON shape (never HTML)."""
        self.close_connection = True
        status = int(code)
        text = message or HTTPStatus(status).phrase
        self._write(status, _error_body(_PARSE_ERROR_CODES.get(status, "bad_request"), text))

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.client_address[0], *args)

    # -- one request --------------------------------------------------------------------------

    def _respond(self) -> None:
        method = self.command or ""
        path, _, query_text = self.path.partition("?")
        self.body_unread = self._declares_body()
        try:
            status, body, media_type, extra = self._answer(method, path, query_text)
            if self.body_unread:  # refused before the body was read: the stream is unusable
                self.close_connection = True
            self._write(status, body, media_type, extra)
        finally:
            self.busy = False

    def _answer(self, method: str, path: str, query_text: str) -> tuple[int, bytes, str, tuple]:
        """Route, check and run one request; every failure becomes a JSON error reply."""
        try:
            try:
                reply = self._dispatch(method, path, query_text)
            except (_Reply, _ClientGone):
                raise
            except AgentmemError as exc:
                raise _Reply(exc.http_status, exc.code, exc.message) from exc
            except Exception as exc:
                log.exception("internal error on %s %s", method, path)
                raise _Reply(
                    500, "internal", "internal error; the details are in the server's log"
                ) from exc
        except _Reply as refusal:
            if refusal.status in (401, 403, 421):
                log.warning(
                    "refused %s %s from %s: %s", method, path, self.client_address[0], refusal.code
                )
            return (
                refusal.status,
                _error_body(refusal.code, refusal.message),
                _JSON,
                refusal.headers,
            )
        value = reply.value
        body = value if isinstance(value, bytes) else _encoder.encode(value)
        return reply.status, body, reply.media_type, ()

    def _dispatch(self, method: str, path: str, query_text: str) -> Reply:
        self._check_host()
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
                (f"Allow: {allow}",),
            )
        refusal = self.app.refusal
        if refusal is not None:  # decided at start-up; no database is opened for it
            if route.handler is _openapi:
                return Reply(200, openapi_bytes())
            raise _Reply(503, refusal.code, refusal.message)
        query = self._query(query_text, route)
        principal = self.app.settings.principal
        if route.auth:
            self._check_token()
            header = self.headers.get(PRINCIPAL_HEADER)
            if header is not None:
                principal = _principal(header, f"the {PRINCIPAL_HEADER} header")
        if route.json_body:
            self._check_json_content_type()
        body = self._read_body(route)
        self.busy = True
        return route.handler(self.app._store(), Request(principal, params, query, body))

    def _declares_body(self) -> bool:
        length = self.headers.get("Content-Length", "0").strip()
        return "Transfer-Encoding" in self.headers or length not in ("", "0")

    def _check_host(self) -> None:
        values = self.headers.get_all("Host") or []
        if len(values) != 1 or not self.app._host_allowed(values[0]):
            raise _Reply(
                421,
                "misdirected_request",
                "the Host header must name this server by a loopback name "
                "(localhost, 127.0.0.1 or [::1]) and its port",
            )

    def _check_token(self) -> None:
        header = self.headers.get("Authorization")
        challenge = ('WWW-Authenticate: Bearer realm="agentmem"',)
        if header is None:
            raise _Reply(
                401,
                "unauthorized",
                "missing 'Authorization: Bearer <token>'; the token is in the file "
                "'agentmem serve' printed at start-up",
                challenge,
            )
        scheme, _, value = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise _Reply(
                401, "unauthorized", "the Authorization header must be 'Bearer <token>'", challenge
            )
        expected = self.app._tokens.current()
        given = value.strip().encode("latin-1", "replace")
        if expected is None or not hmac.compare_digest(given, expected):
            raise _Reply(403, "invalid_token", "the bearer token does not match this server's")

    def _query(self, text: str, route: Route) -> dict[str, str]:
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

    def _check_json_content_type(self) -> None:
        media_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if media_type != _JSON:
            raise _Reply(
                415, "unsupported_media_type", "send the body with 'Content-Type: application/json'"
            )

    def _read_body(self, route: Route) -> bytes:
        lengths = self.headers.get_all("Content-Length") or []
        if "Transfer-Encoding" in self.headers:
            if lengths:
                raise _Reply(
                    400,
                    "bad_request",
                    "a request must not have both Transfer-Encoding and Content-Length",
                )
            raise _Reply(
                411, "length_required", "chunked request bodies are refused; send Content-Length"
            )
        if not lengths:
            if route.json_body:
                raise _Reply(411, "length_required", "send the JSON body with a Content-Length")
            return b""
        distinct = {value.strip() for value in lengths}
        text = distinct.pop()
        if distinct or not _CONTENT_LENGTH.fullmatch(text):
            raise _Reply(400, "bad_request", "Content-Length must be one decimal number")
        length = int(text)
        if length > self.app.max_body:
            raise _Reply(
                413,
                "payload_too_large",
                f"the body is {length:,} bytes; the limit is {self.app.max_body:,} bytes "
                "(split a batch into several requests)",
            )
        try:
            if self.expect_continue:
                self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            body = self.rfile.read(length) if length else b""
        except OSError as exc:
            raise _ClientGone from exc
        if len(body) != length:
            raise _ClientGone
        self.body_unread = False
        self.deadline = None
        return body

    def _write(
        self, status: int, body: bytes, media_type: str = _JSON, extra: tuple[str, ...] = ()
    ) -> None:
        if self.app._stopping:
            self.close_connection = True
        lines = [
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
            f"Date: {_http_date()}",
            "Server: agentmem",
            f"Content-Type: {media_type}",
            f"Content-Length: {len(body)}",
            "Cache-Control: no-store",
            "X-Content-Type-Options: nosniff",
            *extra,
        ]
        if self.close_connection:
            lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        # A response to HEAD carries the headers of the body it would have, never the body.
        self.wfile.write(head if self.command == "HEAD" else head + body)
        self.deadline = None


class _PooledServer(http.server.HTTPServer):
    """An HTTPServer whose connections are served by a fixed pool of worker threads.

    Accepted connections wait in a bounded queue; when it is full the connection gets an
    immediate 503 instead of a thread, so a flood of clients cannot exhaust the process.
    """

    def __init__(self, app: AgentmemServer, address: tuple[str, int], family: int) -> None:
        self.app = app
        self.address_family = family
        self.pending: queue.Queue[tuple[socket.socket, Any] | None] = queue.Queue(
            maxsize=app.max_pending
        )
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind does a reverse DNS lookup (getfqdn); a local API needs none.
        socketserver.TCPServer.server_bind(self)
        self.server_name = str(self.server_address[0])
        self.server_port = int(self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        try:
            self.pending.put_nowait((request, client_address))
        except queue.Full:
            self._refuse_busy(request)

    def _refuse_busy(self, request: socket.socket) -> None:
        body = _error_body("unavailable", "the server is busy; retry shortly")
        head = (
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        )
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(head.encode("ascii") + body)
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("connection from %s failed", client_address[0])

    def work(self) -> None:
        """A worker thread: serve queued connections until told to stop; own one Store."""
        try:
            while True:
                item = self.pending.get()
                if item is None:
                    return
                request, client_address = item
                try:
                    self.finish_request(request, client_address)
                except Exception:
                    self.handle_error(request, client_address)
                finally:
                    self.shutdown_request(request)
        finally:
            self.app._close_thread_store()


# -- the server -------------------------------------------------------------------------------


class AgentmemServer:
    """The loopback HTTP API over one database file, usable in process and by ``agentmem serve``.

    ``with AgentmemServer(db_path, settings) as server: ... server.url ...`` binds an ephemeral
    port (``port=0``) on 127.0.0.1. The token file is created on first start (0600) unless it
    exists; ``token_file`` defaults to :func:`default_token_path`.
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
        workers: int = 16,
        max_pending: int = 64,
        timeout: float = 10.0,
        request_deadline: float = 30.0,
        max_body: int = MAX_BODY_BYTES,
    ) -> None:
        check_bind_host(host, allow_remote=allow_remote)
        if settings is None:
            settings = load_settings(db=os.fspath(db_path) if db_path is not None else None)
        elif db_path is not None:
            settings = msgspec.structs.replace(settings, db=os.fspath(db_path))
        if settings.db_path() == ":memory:" or settings.db_path().startswith("file::memory:"):
            raise UsageError(
                "the HTTP API needs a database file: with ':memory:' every worker thread "
                "would see its own empty database"
            )
        if workers < 1 or max_pending < 1:
            raise UsageError("workers and max_pending must be at least 1")
        if not 0 <= port <= 65535:
            raise UsageError(f"--port must be from 0 to 65535, not {port}")
        self.settings = settings
        self.db_path = settings.db_path()
        self.host = host
        self.allow_remote = allow_remote
        self.token_file = Path(token_file) if token_file is not None else default_token_path()
        self.workers = workers
        self.max_pending = max_pending
        self.timeout = timeout
        self.request_deadline = request_deadline
        self.max_body = max_body
        self.port = port
        self.created_token = False
        self._requested_port = port
        self._tokens = _TokenFile(self.token_file)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._stores: list[Store] = []
        self._connections: set[_Handler] = set()
        self._stopping = False
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        self._httpd: _PooledServer | None = None
        self._allowed_hosts: frozenset[str] = frozenset()
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
        if self._httpd is not None:
            return self
        from agentmem.memory.composition import resolve_settings

        self.refusal = None
        try:
            resolve_settings(self.settings)
        except PolicyRefused as exc:
            self.refusal = exc
            log.error("refusing every request: %s", exc.message)
        if self.refusal is None:
            self.created_token = ensure_token(self.token_file)
            read_token(self.token_file)  # refuses a token file others can read, before binding
            with Store.open(settings=self.settings):
                pass  # creates the file or refuses it (not agentmem, schema too new) up front
        family, address = self._address()
        try:
            httpd = _PooledServer(self, address, family)
        except OSError as exc:
            raise UsageError(
                f"cannot listen on {self.host}:{self._requested_port}: {exc.strerror or exc}"
            ) from exc
        self._httpd = httpd
        self.port = httpd.server_port
        names = {f"{name}:{self.port}" for name in _LOOPBACK_NAMES}
        if self.port == 80:
            names |= _LOOPBACK_NAMES
        self._allowed_hosts = frozenset(names)
        self._stopping = False
        self._stopped.clear()
        for index in range(self.workers):
            self._spawn(httpd.work, f"agentmem-http-worker-{index}")
        self._spawn(self._reap, "agentmem-http-deadlines")
        self._spawn(lambda: httpd.serve_forever(poll_interval=0.1), "agentmem-http-accept")
        return self

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _address(self) -> tuple[int, tuple[str, int]]:
        host = self.host.strip("[]")
        try:
            version = ipaddress.ip_address(host).version
        except ValueError:
            try:
                infos = socket.getaddrinfo(host, self._requested_port, type=socket.SOCK_STREAM)
            except socket.gaierror as exc:
                raise UsageError(f"cannot resolve --host {self.host!r}: {exc}") from exc
            family, _, _, _, sockaddr = infos[0]
            return family, (str(sockaddr[0]), self._requested_port)
        family = socket.AF_INET6 if version == 6 else socket.AF_INET
        return family, (host, self._requested_port)

    def stop(self) -> None:
        """Stop accepting, finish requests in flight, close every connection and Store."""
        httpd = self._httpd
        if httpd is None:
            return
        httpd.shutdown()
        httpd.server_close()
        with self._lock:
            self._stopping = True
            for handler in self._connections:
                if not handler.busy:
                    handler.abort()
        while True:
            try:
                item = httpd.pending.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                httpd.shutdown_request(item[0])
        for _ in range(self.workers):
            httpd.pending.put(None)
        self._stopped.set()
        for thread in self._threads:
            thread.join(timeout=self.timeout + 5)
        self._threads.clear()
        with self._lock:
            leftovers, self._stores = self._stores, []
        for store in leftovers:
            with contextlib.suppress(Exception):
                store.close()
        self._httpd = None

    def __enter__(self) -> AgentmemServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- used by the handler ------------------------------------------------------------------

    def _store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            store = Store.open(settings=self.settings)
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        return store

    def _close_thread_store(self) -> None:
        store = getattr(self._local, "store", None)
        if store is None:
            return
        self._local.store = None
        with self._lock:
            if store in self._stores:
                self._stores.remove(store)
        store.close()

    def _connections_add(self, handler: _Handler) -> None:
        with self._lock:
            self._connections.add(handler)

    def _connections_discard(self, handler: _Handler) -> None:
        with self._lock:
            self._connections.discard(handler)

    def _begin_idle(self, handler: _Handler) -> bool:
        """Whether a keep-alive connection may wait for its next request (not while stopping)."""
        with self._lock:
            return not self._stopping

    def _host_allowed(self, value: str) -> bool:
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

    def _reap(self) -> None:
        """Cut connections whose current request overran the deadline (slow clients)."""
        interval = min(0.25, self.request_deadline / 4)
        while not self._stopped.wait(interval):
            now = time.monotonic()
            with self._lock:
                late = [
                    h
                    for h in self._connections
                    if h.deadline is not None and h.deadline < now and not h.busy
                ]
            for handler in late:
                handler.abort()
