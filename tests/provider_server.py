"""A scripted loopback model server speaking OpenAI chat completions and Anthropic Messages.

Provider adapters are only trustworthy if they are tested over real HTTP: status codes, bodies
that are not JSON, a server that stops answering and a client that is cancelled mid-request all
behave differently on a socket than in a mock. :class:`ProviderServer` is a small threaded
HTTP/1.1 server bound to 127.0.0.1 on an ephemeral port; each test queues the behaviours the next
requests get and afterwards asserts on the recorded requests::

    with ProviderServer() as server:
        server.script(answer('{"claims": []}', usage=(12, 5)), http_error(429))
        provider = OpenAICompatibleProvider(server.base_url, "m", "openai")
        ...
        assert server.requests[0].json["max_completion_tokens"] == 256

``server.url`` is the root (Anthropic adapters append ``/v1/messages``); ``server.base_url`` is
``url + "/v1"`` (OpenAI-compatible adapters append ``/chat/completions``). When the queue is
empty the server answers with :attr:`ProviderServer.default`. A ``slow`` behaviour sleeps in
short steps and stops as soon as the server shuts down, so teardown is always quick.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "Behaviour",
    "ProviderServer",
    "RecordedRequest",
    "answer",
    "bad_request",
    "drop_connection",
    "http_error",
    "malformed_body",
    "missing_content",
    "no_usage",
    "non_json_content",
    "refusal",
    "schema_unsupported",
    "slow",
    "truncated",
]

DEFAULT_TEXT = '{"claims":[]}'
MAX_SLEEP_S = 5.0


@dataclass(frozen=True)
class Behaviour:
    """How the server answers one request.

    ``kind`` is one of: ``answer``, ``slow``, ``status``, ``schema_unsupported``,
    ``truncated``, ``refusal``, ``malformed_body``, ``missing_content``, ``drop``.
    """

    kind: str
    text: str = DEFAULT_TEXT
    usage: tuple[int, int] | None = (11, 7)
    status: int = 200
    delay_s: float = 0.0


def answer(text: str = DEFAULT_TEXT, usage: tuple[int, int] | None = (11, 7)) -> Behaviour:
    """A well-formed answer with this content text and (input, output) usage."""
    return Behaviour("answer", text=text, usage=usage)


def no_usage(text: str = DEFAULT_TEXT) -> Behaviour:
    """A well-formed answer without a ``usage`` field."""
    return Behaviour("answer", text=text, usage=None)


def non_json_content(text: str = "Sure! Here are the claims you asked for.") -> Behaviour:
    """A valid response body whose content text is not JSON."""
    return Behaviour("answer", text=text)


def slow(seconds: float = MAX_SLEEP_S, text: str = DEFAULT_TEXT) -> Behaviour:
    """Answer well, but only after ``seconds`` (capped at 5 s; cut short by shutdown)."""
    return Behaviour("slow", text=text, delay_s=min(seconds, MAX_SLEEP_S))


def http_error(status: int) -> Behaviour:
    """A non-2xx answer with a generic JSON error body (429, 500, 503, 401...)."""
    return Behaviour("status", status=status)


def schema_unsupported() -> Behaviour:
    """HTTP 400 saying the structured-output parameters are not supported."""
    return Behaviour("schema_unsupported", status=400)


def bad_request() -> Behaviour:
    """HTTP 400 for a reason unrelated to structured output."""
    return Behaviour("status", status=400)


def truncated(text: str = '{"claims":[{"kind":') -> Behaviour:
    """Output cut at the token limit (``finish_reason: length`` / ``stop_reason: max_tokens``)."""
    return Behaviour("truncated", text=text)


def refusal() -> Behaviour:
    """A refusal (``message.refusal`` / ``stop_reason: refusal``)."""
    return Behaviour("refusal")


def malformed_body() -> Behaviour:
    """HTTP 200 whose body is not JSON at all."""
    return Behaviour("malformed_body")


def missing_content() -> Behaviour:
    """HTTP 200 with a JSON body lacking choices / content."""
    return Behaviour("missing_content")


def drop_connection() -> Behaviour:
    """Close the connection without answering (a reset as the client sees it)."""
    return Behaviour("drop")


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received, and the exact response body sent back (``b""`` if none)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any
    response_body: bytes


def _openai_body(behaviour: Behaviour, request: Any) -> dict[str, Any]:
    model = request.get("model", "unknown") if isinstance(request, dict) else "unknown"
    message: dict[str, Any] = {"role": "assistant", "content": behaviour.text, "refusal": None}
    finish_reason = "stop"
    if behaviour.kind == "truncated":
        finish_reason = "length"
    elif behaviour.kind == "refusal":
        message = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }
    if behaviour.kind == "missing_content":
        body["choices"] = []
    if behaviour.usage is not None:
        prompt, completion = behaviour.usage
        body["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
    return body


def _anthropic_body(behaviour: Behaviour, request: Any) -> dict[str, Any]:
    request = request if isinstance(request, dict) else {}
    tools = request.get("tools") or []
    stop_reason = "end_turn"
    content: list[dict[str, Any]]
    if tools:
        try:
            tool_input: Any = json.loads(behaviour.text)
        except ValueError:
            tool_input = behaviour.text
        content = [
            {"type": "tool_use", "id": "toolu_test", "name": tools[0]["name"], "input": tool_input}
        ]
        stop_reason = "tool_use"
    else:
        content = [{"type": "text", "text": behaviour.text}]
    if behaviour.kind == "truncated":
        stop_reason = "max_tokens"
        content = [{"type": "text", "text": behaviour.text}]
    elif behaviour.kind == "refusal":
        stop_reason = "refusal"
        content = []
    body: dict[str, Any] = {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", "unknown"),
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
    }
    if behaviour.kind == "missing_content":
        del body["content"]
    if behaviour.usage is not None:
        body["usage"] = {"input_tokens": behaviour.usage[0], "output_tokens": behaviour.usage[1]}
    return body


def _error_body(path: str, status: int, message: str, param: str | None) -> dict[str, Any]:
    if path == "/v1/messages":
        return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    return {"error": {"message": message, "type": "invalid_request_error", "param": param}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 5  # idle keep-alive connections close themselves
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            parsed: Any = json.loads(raw)
        except ValueError:
            parsed = None
        owner = self.server.owner
        behaviour = owner.next_behaviour()
        status, body, content_type = self._respond(behaviour, parsed, owner)
        owner.record(
            RecordedRequest(
                method="POST",
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=raw,
                json=parsed,
                response_body=body,
            )
        )
        if behaviour.kind == "drop":
            self.close_connection = True
            return
        if behaviour.kind == "slow" and not owner.wait(behaviour.delay_s):
            self.close_connection = True  # shutting down: do not answer
            return
        try:
            self._send(status, body, content_type)
        except OSError:  # the client gave up (deadline or cancellation)
            self.close_connection = True

    def _respond(
        self, behaviour: Behaviour, parsed: Any, owner: ProviderServer
    ) -> tuple[int, bytes, str]:
        path = self.path
        if path not in ("/v1/chat/completions", "/v1/messages"):
            return 404, json.dumps({"error": {"message": "not found"}}).encode(), "application/json"
        if behaviour.kind == "drop":
            return 0, b"", "application/json"
        if behaviour.kind == "malformed_body":
            return 200, b"<html>upstream proxy error</html>{", "application/json"
        if behaviour.kind == "schema_unsupported":
            if path == "/v1/messages":
                message = "output_config.format: structured outputs are not supported by this model"
                param = None
            else:
                message = "response_format of type json_schema is not supported with this model"
                param = "response_format"
            body = _error_body(path, 400, message, param)
            return 400, json.dumps(body).encode(), "application/json"
        if behaviour.kind == "status":
            body = _error_body(path, behaviour.status, "request failed", None)
            return behaviour.status, json.dumps(body).encode(), "application/json"
        if path == "/v1/messages":
            data = _anthropic_body(behaviour, parsed)
        else:
            data = _openai_body(behaviour, parsed)
        return 200, json.dumps(data).encode(), "application/json"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ProviderServer


class ProviderServer:
    """The loopback server; use as a context manager (or call ``start`` / ``stop``)."""

    def __init__(self) -> None:
        self.default: Behaviour = answer()
        self._queue: collections.deque[Behaviour] = collections.deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> ProviderServer:
        """Bind 127.0.0.1 on an ephemeral port and serve in a daemon thread."""
        httpd = _Server(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; slow handlers stop sleeping and return without answering."""
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> ProviderServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- addresses ---------------------------------------------------------------------------

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``: the Anthropic base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: the OpenAI-compatible base URL."""
        return f"{self.url}/v1"

    # -- scripting and recording -------------------------------------------------------------

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next requests, in order."""
        with self._lock:
            self._queue.extend(behaviours)

    def next_behaviour(self) -> Behaviour:
        with self._lock:
            return self._queue.popleft() if self._queue else self.default

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far (a copy)."""
        with self._lock:
            return list(self._requests)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds`` in short steps; ``False`` if the server began shutting down."""
        deadline = time.monotonic() + min(seconds, MAX_SLEEP_S)
        while (remaining := deadline - time.monotonic()) > 0:
            if self._stopping.wait(min(remaining, 0.05)):
                return False
        return not self._stopping.is_set()
