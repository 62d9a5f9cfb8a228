"""The loopback HTTP API end to end: real sockets on 127.0.0.1, every response checked.

The server runs in process (``AgentmemServer``) so tests can look at the database directly,
and once as ``agentmem serve`` in a subprocess. Every response any test receives is checked
against ``agentmem/openapi.json``: its status must be documented for the operation, and (when
jsonschema is installed) its body must match the documented schema. The fuzz tests therefore
check the document's accuracy as well as the absence of 500s.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any, Union

import msgspec
import pytest
from _events import run_started, user_msg
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

import agentmem
from agentmem.config import Settings
from agentmem.consent import ConsentStatus
from agentmem.db import SCHEMA_VERSION
from agentmem.errors import UsageError
from agentmem.events import CLIENT_EVENT_CLASSES, CLIENT_EVENT_TYPES
from agentmem.http import (
    MAX_BODY_BYTES,
    ROUTES,
    AgentmemServer,
    check_bind_host,
    match_route,
    openapi_bytes,
    rotate_token,
)
from agentmem.memory.service import Belief, ConsolidationReport
from agentmem.redaction import fakes
from agentmem.store import AppendResult, ImportResult, RunInfo, SessionInfo

try:
    import jsonschema
except ImportError:  # pragma: no cover - statuses are still checked without it
    jsonschema = None

OPENAPI_FILE = Path(agentmem.__file__).with_name("openapi.json")
DOC = json.loads(OPENAPI_FILE.read_bytes())
METHODS = ("get", "post", "put", "patch", "delete", "options", "head", "trace")
# Statuses any request can meet before it reaches an operation (framing, host, overload).
TRANSPORT = {400, 411, 413, 414, 421, 431, 503, 505}


# -- checking responses against the document --------------------------------------------------


class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def code(self) -> str:
        return self.json()["error"]["code"]


def _schema_errors(schema: dict, value: Any) -> list[str]:
    if jsonschema is None:
        return []
    root = {**schema, "components": DOC["components"]}
    validator = jsonschema.Draft202012Validator(root)
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)
    ]


def _resolve(obj: dict) -> dict:
    while "$ref" in obj:
        node: Any = DOC
        for part in obj["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def check_documented(method: str, target: str, response: Response) -> None:
    """The response is one the document promises for this request, with a matching body."""
    status = response.status
    assert status != 500, f"{method} {target} -> 500: {response.body[:300]!r}"
    assert not any(k.lower().startswith("access-control-") for k in response.headers)
    path = target.split("?")[0]
    if status >= 400 and method.upper() != "HEAD":
        body = json.loads(response.body)
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    try:
        matched = match_route(path)
    except UsageError:
        assert status in TRANSPORT, (method, target, status)
        return
    if matched is None:
        assert status in TRANSPORT | {404}, (method, target, status)
        return
    template, _, _ = matched
    operation = DOC["paths"][template].get(method.lower())
    if operation is None:
        assert status in TRANSPORT | {405}, (method, target, status)
        if status == 405:
            assert response.headers["Allow"]
        return
    assert str(status) in operation["responses"], (method, template, status, response.body)
    documented = _resolve(operation["responses"][str(status)])
    media_type = response.headers.get("Content-Type", "").split(";")[0]
    assert media_type in documented["content"], (method, template, status, media_type)
    if method.upper() != "HEAD":
        schema = documented["content"][media_type]["schema"]
        problems = _schema_errors(schema, json.loads(response.body))
        assert not problems, (method, template, status, problems)


class Client:
    """A keep-alive ``http.client`` connection that checks every response it gets."""

    def __init__(self, server: AgentmemServer, token: str | None = None) -> None:
        self.server = server
        self.token = token if token is not None else read_token_file(server)
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def request(
        self,
        method: str,
        target: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        auth: bool = True,
        raw: bytes | None = None,
    ) -> Response:
        sent = {} if not auth else {"Authorization": f"Bearer {self.token}"}
        if raw is not None:
            payload: bytes | None = raw
        elif body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        else:
            payload = None
        sent.update(headers or {})
        self.conn.request(method, target, body=payload, headers=sent)
        got = self.conn.getresponse()
        response = Response(got.status, got.headers, got.read())
        if got.will_close:
            self.conn.close()
        check_documented(method, target, response)
        return response

    def close(self) -> None:
        self.conn.close()


def read_token_file(server: AgentmemServer) -> str:
    return server.token_file.read_text().strip()


def event_count(db_path: Path) -> int:
    with agentmem.open(str(db_path)) as store:
        return store.status().events


# -- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "api-token"


@pytest.fixture
def server(db_path: Path, token_file: Path) -> Iterator[AgentmemServer]:
    with AgentmemServer(db_path, Settings(db=str(db_path)), token_file=token_file) as running:
        yield running


@pytest.fixture
def client(server: AgentmemServer) -> Iterator[Client]:
    c = Client(server)
    yield c
    c.close()


def raw_exchange(port: int, data: bytes, *, shut: bool = True, wait: float = 5.0) -> bytes:
    """Send raw bytes, half-close, and read whatever comes back until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        try:
            sock.sendall(data)
            if shut:
                sock.shutdown(socket.SHUT_WR)
        except OSError:  # the server answered and closed before reading it all
            pass
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
    return b"".join(chunks)


def conversation(client: Client, run: str = "r1", session: str = "s1", *, secret: str = "") -> None:
    tools = [{"name": "search", "schema": {"type": "object"}}]
    for event in (
        run_started(run, session=session, tools=tools),
        user_msg(f"Find me schools. My token is {secret}", session=session, run=run),
        {
            "type": "assistant.message.created",
            "session_id": session,
            "principal": "alice",
            "run_id": run,
            "text": "Here are three.",
        },
        {
            "type": "run.completed",
            "session_id": session,
            "principal": "alice",
            "run_id": run,
            "outcome": "succeeded",
        },
    ):
        assert client.request("POST", "/v1/events", event).status == 201


# -- the document -----------------------------------------------------------------------------


def test_health_and_openapi_need_no_token(server: AgentmemServer, client: Client) -> None:
    health = client.request("GET", "/v1/health", auth=False)
    assert health.status == 200
    assert health.json() == {"status": "ok", "schema_version": SCHEMA_VERSION}
    document = client.request("GET", "/v1/openapi.json", auth=False)
    assert document.status == 200 and document.headers["Content-Type"] == "application/json"
    assert document.body == OPENAPI_FILE.read_bytes() == openapi_bytes()
    assert document.headers["Cache-Control"] == "no-store"


def test_openapi_documents_exactly_the_implemented_routes() -> None:
    assert DOC["openapi"].startswith("3.1.")
    implemented = {(route.template, route.method.lower()) for route in ROUTES}
    documented = {
        (path, method)
        for path, item in DOC["paths"].items()
        for method in item
        if method in METHODS
    }
    assert implemented == documented
    for route in ROUTES:
        operation = DOC["paths"][route.template][route.method.lower()]
        responses = operation["responses"]
        assert any(code.startswith("2") for code in responses)
        assert {"400", "421", "500"} <= set(responses)
        declared = {p.get("name") for p in operation.get("parameters", []) if "name" in p}
        assert {p for p in declared if p} == set(re.findall(r"{(\w+)}", route.template)) | set(
            route.query
        )
        if route.auth:
            assert "security" not in operation and {"401", "403"} <= set(responses)
        else:
            assert operation["security"] == []
        assert ("requestBody" in operation) == route.json_body


def test_shipped_document_is_the_generated_one() -> None:
    """The shipped (and served) document is generated from the routes and structs, not kept
    by hand: regenerate with ``python -m agentmem.openapi > agentmem/openapi.json``."""
    from agentmem.openapi import document_bytes

    assert OPENAPI_FILE.read_bytes() == document_bytes()


def test_principal_parameters_declare_what_the_server_enforces(client: Client) -> None:
    """Path and header principals share one schema; what it refuses, the server refuses (400)."""
    header = DOC["components"]["parameters"]["Principal"]["schema"]
    path = DOC["paths"]["/v1/consent/{principal}"]["get"]["parameters"][0]["schema"]
    assert header == path and {"minLength", "maxLength", "pattern"} <= set(header)
    pattern = re.compile(header["pattern"])
    for value in ("alice", "a\x7fb", "tab\there", "p" * 129, "\u202eevil"):
        valid = header["minLength"] <= len(value) <= header["maxLength"] and bool(
            pattern.search(value)
        )
        status = client.request("GET", f"/v1/consent/{urllib.parse.quote(value, safe='')}").status
        assert (status == 200) == valid, (value, status)


def test_every_reference_in_the_document_resolves() -> None:
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                yield node["$ref"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    refs = list(walk(DOC))
    assert len(refs) > 50
    for ref in refs:
        assert _resolve({"$ref": ref})


def _structure(schema: Any) -> Any:
    """A schema without its prose: docstrings may change without the API changing."""
    if isinstance(schema, dict):
        prose = ("title", "description", "readOnly")  # readOnly: a hint for clients only
        return {
            # The document leaves lone surrogates out of patterns: no request can carry one.
            k: v.replace("\\ud800-\\udfff", "") if k == "pattern" else _structure(v)
            for k, v in schema.items()
            if k not in prose
        }
    if isinstance(schema, list):
        return [_structure(v) for v in schema]
    return schema


def test_document_schemas_match_the_library_structs() -> None:
    """The documented bodies are the library's own structs (titles and prose aside)."""
    (union, *_), components = msgspec.json.schema_components(
        (
            Union[CLIENT_EVENT_CLASSES],  # noqa: UP007
            AppendResult,
            ImportResult,
            SessionInfo,
            RunInfo,
            ConsentStatus,
            Belief,
            ConsolidationReport,
        ),
        ref_template="#/components/schemas/{name}",
    )
    schemas = DOC["components"]["schemas"]
    components = json.loads(json.dumps(components))  # tuples (defaults) as JSON has them
    union = json.loads(json.dumps(union))
    for name, schema in components.items():
        assert _structure(schemas.get(name)) == _structure(schema), (
            f"agentmem/openapi.json components.schemas.{name} differs from the struct; "
            f"replace it with: {json.dumps(schema)}"
        )
    assert _structure({k: v for k, v in schemas["Event"].items()}) == _structure(union)


# -- routes end to end ------------------------------------------------------------------------


def test_append_one_event_then_replay_is_200(client: Client, db_path: Path) -> None:
    event = user_msg("hello", run=None, event_id="e-1")
    first = client.request("POST", "/v1/events", event)
    assert first.status == 201
    assert first.json() == {"seq": 1, "event_id": "e-1", "duplicate": False}
    again = client.request("POST", "/v1/events", event)
    assert again.status == 200 and again.json() == {"seq": 1, "event_id": "e-1", "duplicate": True}
    conflict = client.request("POST", "/v1/events", {**event, "text": "other"})
    assert conflict.status == 409 and conflict.code == "conflict"
    assert event_count(db_path) == 1


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+00:01"])
def test_out_of_range_created_at_is_422_not_500(client: Client, db_path: Path, moment: str) -> None:
    event = {**user_msg("hello", run=None), "created_at": moment}
    for body in (event, [event]):
        refused = client.request("POST", "/v1/events", body)
        assert refused.status == 422 and "created_at" in refused.json()["error"]["message"]
    assert event_count(db_path) == 0


def test_session_runs_carry_their_tools(client: Client) -> None:
    conversation(client)
    runs = client.request("GET", "/v1/sessions/s1").json()["runs"]
    assert [tool["name"] for tool in runs[0]["tools"]] == ["search"]


def test_batch_is_one_transaction(client: Client, db_path: Path) -> None:
    good = [user_msg(f"m{i}", run=None, event_id=f"b-{i}") for i in range(3)]
    bad = [*good, {"type": "user.message.created", "session_id": "s1"}]
    refused = client.request("POST", "/v1/events", bad)
    assert refused.status == 422 and refused.json()["error"]["message"].startswith("event 4:")
    assert event_count(db_path) == 0
    written = client.request("POST", "/v1/events", good)
    assert written.status == 201
    assert written.json() == {"imported": 3, "duplicates": 0, "first_seq": 1, "last_seq": 3}
    replay = client.request("POST", "/v1/events", good)
    assert replay.status == 200 and replay.json()["duplicates"] == 3
    assert client.request("POST", "/v1/events", []).status == 200
    assert event_count(db_path) == 3


def test_principal_comes_from_the_header_or_the_server(
    db_path: Path, token_file: Path, store: agentmem.Store
) -> None:
    settings_ = Settings(db=str(db_path), principal="carol")
    with AgentmemServer(settings=settings_, token_file=token_file) as server:
        client = Client(server)
        bare = {"type": "user.message.created", "session_id": "s-default", "text": "hi"}
        assert client.request("POST", "/v1/events", bare).status == 201
        headers = {"X-Agentmem-Principal": "dave"}
        single = {**bare, "session_id": "s-header"}
        assert client.request("POST", "/v1/events", single, headers=headers).status == 201
        batch = [{**bare, "session_id": "s-batch"}, {**bare, "session_id": "s-batch"}]
        assert client.request("POST", "/v1/events", batch, headers=headers).status == 201
        explicit = {**bare, "session_id": "s-explicit", "principal": "erin"}
        assert client.request("POST", "/v1/events", explicit, headers=headers).status == 201
        # A control character in a header value: httptools refuses the request as malformed
        # HTTP; h11 (without httptools) passes it on and the principal check refuses it.
        bad = client.request("GET", "/v1/beliefs", headers={"X-Agentmem-Principal": "a\x7fb"})
        assert bad.status == 400 and bad.code in ("bad_request", "usage")
        long = client.request("GET", "/v1/beliefs", headers={"X-Agentmem-Principal": "p" * 129})
        assert long.status == 400 and long.code == "usage"
        client.close()
    owners = {s.session_id: s.principal for s in store.sessions(all_principals=True)}
    assert owners == {
        "s-default": "carol",
        "s-header": "dave",
        "s-batch": "dave",
        "s-explicit": "erin",
    }


def test_session_view_and_close(client: Client) -> None:
    client.request("POST", "/v1/events", run_started("r1", session="s1"))
    client.request("POST", "/v1/events", user_msg("My daughter starts school on Monday."))
    view = client.request("GET", "/v1/sessions/s1")
    assert view.status == 200
    data = view.json()
    assert (data["session_id"], data["status"], data["event_count"]) == ("s1", "open", 2)
    assert [r["run_id"] for r in data["runs"]] == ["r1"]
    assert client.request("GET", "/v1/sessions/nope").status == 404
    closed = client.request("POST", "/v1/sessions/s1/close")
    assert closed.status == 200
    report = closed.json()
    assert report["session_id"] == "s1" and not report["skipped"] and report["belief_ids"]
    assert client.request("POST", "/v1/sessions/s1/close").json()["skipped"]
    assert client.request("GET", "/v1/sessions/s1").json()["status"] == "closed"
    assert client.request("POST", "/v1/sessions/nope/close").status == 404
    refused = client.request("POST", "/v1/events", user_msg("late"))
    assert refused.status == 409 and refused.code == "event_rejected"


def test_ids_in_paths_are_percent_decoded(client: Client) -> None:
    client.request("POST", "/v1/events", user_msg("hi", session="a/b c", run=None))
    assert client.request("GET", "/v1/sessions/a%2Fb%20c").json()["session_id"] == "a/b c"
    assert client.request("GET", "/v1/sessions/%ff").status == 400


def test_export_is_201_then_200_and_consent_governs_it(client: Client) -> None:
    alice = {"X-Agentmem-Principal": "alice"}
    granted = client.request("POST", "/v1/consent/alice")
    assert granted.status == 200
    assert (granted.json()["state"], granted.json()["changed"]) == ("granted", True)
    assert client.request("POST", "/v1/consent/alice").json()["changed"] is False
    assert client.request("GET", "/v1/consent/alice").json()["state"] == "granted"
    secret = fakes.generate("github_token", random.Random(3))
    conversation(client, secret=secret)

    first = client.request("POST", "/v1/runs/r1/export", headers=alice)
    assert first.status == 201 and first.json()["created"] is True
    again = client.request("POST", "/v1/runs/r1/export", headers=alice)
    assert again.status == 200
    assert again.json() == {"artifact_id": first.json()["artifact_id"], "created": False}

    target = f"/v1/artifacts/{first.json()['artifact_id']}"
    artifact = client.request("GET", target, headers=alice)
    assert artifact.status == 200
    assert artifact.headers["Content-Type"] == "application/vnd.agentmem.trajectory+json"
    document = artifact.json()
    assert document["schema"] == "agentmem.trajectory/1"
    assert [m["role"] for m in document["messages"]] == ["user", "assistant"]
    assert secret not in artifact.body.decode() and "[REDACTED:" in artifact.body.decode()

    other = client.request("GET", target, headers={"X-Agentmem-Principal": "mallory"})
    assert other.status == 403 and other.code == "artifact_unavailable"
    not_owner = client.request(
        "POST", "/v1/runs/r1/export", headers={"X-Agentmem-Principal": "bob"}
    )
    assert not_owner.status == 403 and not_owner.code == "refused"
    assert client.request("GET", "/v1/artifacts/nope", headers=alice).status == 404
    assert client.request("POST", "/v1/runs/nope/export", headers=alice).status == 404

    withdrawn = client.request("DELETE", "/v1/consent/alice")
    assert withdrawn.status == 200 and withdrawn.json()["state"] == "withdrawn"
    expired = client.request("GET", target, headers=alice)
    assert expired.status == 403 and expired.code == "artifact_unavailable"
    blocked = client.request("POST", "/v1/runs/r1/export", headers=alice)
    assert blocked.status == 403 and blocked.code == "consent_required"


def test_export_of_a_run_started_before_the_grant_is_refused(client: Client) -> None:
    conversation(client, run="early")
    client.request("POST", "/v1/consent/alice")
    refused = client.request(
        "POST", "/v1/runs/early/export", headers={"X-Agentmem-Principal": "alice"}
    )
    assert refused.status == 403 and refused.code == "consent_required"
    assert client.request("DELETE", "/v1/consent/%00").status == 400


def test_beliefs_search_and_list(client: Client) -> None:
    alice = {"X-Agentmem-Principal": "alice"}
    client.request("POST", "/v1/events", user_msg("My daughter starts school on Monday.", run=None))
    client.request("POST", "/v1/events", user_msg("I live in Berlin.", run=None))
    client.request("POST", "/v1/sessions/s1/close")
    listed = client.request("GET", "/v1/beliefs", headers=alice).json()["beliefs"]
    assert {b["statement"] for b in listed} >= {"User has at least one daughter"}
    found = client.request("GET", "/v1/beliefs?q=daughter&limit=5", headers=alice).json()
    assert [b["statement"] for b in found["beliefs"]] == ["User has at least one daughter"]
    assert len(client.request("GET", "/v1/beliefs?limit=1", headers=alice).json()["beliefs"]) == 1
    assert client.request("GET", "/v1/beliefs?q=daughter").json() == {"beliefs": []}
    for bad in ("limit=0", "limit=1001", "limit=x", "limit=" + "9" * 5000, "query=x", "q=a&q=b"):
        response = client.request("GET", f"/v1/beliefs?{bad}", headers=alice)
        assert response.status == 400 and response.code == "usage", bad


# -- security ---------------------------------------------------------------------------------


def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


def _bearer(token: str) -> str:
    # Built at run time so the repository's own secret scan sees no credential-shaped literal.
    return " ".join(("Bearer", token))


REFUSALS = {
    "no token": ({}, 401, "unauthorized"),
    "basic scheme": ({"Authorization": "Basic " + _b64("alice:s")}, 401, "unauthorized"),
    "empty bearer": ({"Authorization": "Bearer "}, 401, "unauthorized"),
    "wrong token": ({"Authorization": _bearer("not-the-token")}, 401, "invalid_token"),
    "non-ascii token": ({"Authorization": _bearer("tøken")}, 401, "invalid_token"),
    "foreign host": ({"Host": "evil.example:{port}", "Authorization": "{good}"}, 421, None),
    "other port": ({"Host": "127.0.0.1:1", "Authorization": "{good}"}, 421, None),
    "no port": ({"Host": "localhost", "Authorization": "{good}"}, 421, None),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_refused_requests_change_nothing(server: AgentmemServer, db_path: Path, case: str) -> None:
    template, status, code = REFUSALS[case]
    client = Client(server)
    good = f"Bearer {client.token}"
    headers = {k: v.format(port=server.port, good=good) for k, v in template.items()}
    before = event_count(db_path)
    for method, target, body in (
        ("POST", "/v1/events", user_msg("x")),
        ("POST", "/v1/events", [user_msg("y")]),
        ("POST", "/v1/consent/alice", None),
        ("DELETE", "/v1/consent/alice", None),
        ("POST", "/v1/sessions/s1/close", None),
        ("POST", "/v1/runs/r1/export", None),
        ("GET", "/v1/beliefs", None),
    ):
        response = client.request(method, target, body, headers=headers, auth=False)
        assert response.status == status
        assert response.code == (code or "misdirected_request")
        if status == 401:
            challenge = response.headers["WWW-Authenticate"]
            assert challenge.startswith("Bearer")
            assert ('error="invalid_token"' in challenge) == (code == "invalid_token")
        assert client.token not in response.body.decode()
    assert event_count(db_path) == before
    client.close()


def test_loopback_host_names_are_accepted(server: AgentmemServer, client: Client) -> None:
    for name in ("localhost", "127.0.0.1", "[::1]", "LOCALHOST"):
        host = {"Host": f"{name}:{server.port}"}
        assert client.request("GET", "/v1/beliefs", headers=host).status == 200
    missing = raw_exchange(server.port, b"GET /v1/health HTTP/1.0\r\n\r\n")
    assert missing.startswith(b"HTTP/1.1 421 ")
    twice = f"Host: 127.0.0.1:{server.port}\r\n".encode() * 2
    # Two Host headers: h11 refuses them as malformed HTTP (400), httptools passes both on
    # and the Host check, which wants exactly one, refuses them (421); no route runs either way.
    doubled = raw_exchange(server.port, b"GET /v1/health HTTP/1.1\r\n" + twice + b"\r\n")
    assert doubled.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 421 "))
    assert b'"bad_request"' in doubled or b'"misdirected_request"' in doubled


def test_without_httptools_the_h11_parser_refuses_in_the_same_shape(
    db_path: Path, token_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 'server' extra installs httptools; a server without it parses with h11, and
    # unparseable HTTP must still get the API's JSON error, never uvicorn's plain text.
    monkeypatch.setitem(sys.modules, "uvicorn.protocols.http.httptools_impl", None)
    with AgentmemServer(db_path, Settings(db=str(db_path)), token_file=token_file) as server:
        garbage = raw_exchange(server.port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n")
        assert garbage.startswith(b"HTTP/1.1 400 ") and b'"bad_request"' in garbage
        twice = f"Host: 127.0.0.1:{server.port}\r\n".encode() * 2
        doubled = raw_exchange(server.port, b"GET /v1/health HTTP/1.1\r\n" + twice + b"\r\n")
        assert doubled.startswith(b"HTTP/1.1 400 ") and b'"bad_request"' in doubled
        client = Client(server)
        assert client.request("GET", "/v1/health", auth=False).status == 200
        client.close()


def test_no_cors_and_options_is_405(server: AgentmemServer, client: Client) -> None:
    origin = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    preflight = client.request("OPTIONS", "/v1/events", headers=origin, auth=False)
    assert preflight.status == 405 and preflight.headers["Allow"] == "POST"
    answered = client.request("GET", "/v1/beliefs", headers={"Origin": "https://evil.example"})
    assert answered.status == 200  # and check_documented found no Access-Control-* header
    head = client.request("HEAD", "/v1/health", auth=False)
    assert head.status == 405 and head.body == b""
    assert client.request("PUT", "/v1/consent/alice").headers["Allow"] == "DELETE, GET, POST"


def test_oversized_body_is_refused_before_it_is_read(server: AgentmemServer, db_path: Path) -> None:
    token = read_token_file(server)
    head = (
        f"POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    # No body is sent and the socket stays open for writing: only a refusal decided from the
    # headers can answer before the timeout.
    reply = raw_exchange(server.port, head, shut=False)
    assert time.monotonic() - started < 3
    assert reply.startswith(b"HTTP/1.1 413 ") and b"connection: close" in reply.lower()
    assert b"payload_too_large" in reply
    assert event_count(db_path) == 0


def test_framing_errors(server: AgentmemServer, client: Client, db_path: Path) -> None:
    token = read_token_file(server)
    base = (
        f"POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
    ).encode()
    chunked = raw_exchange(
        server.port, base + b"Transfer-Encoding: chunked\r\n\r\n5\r\n{...}\r\n0\r\n\r\n"
    )
    assert chunked.startswith(b"HTTP/1.1 411 ")
    both = raw_exchange(
        server.port, base + b"Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}"
    )
    assert both.startswith(b"HTTP/1.1 400 ")
    no_length = raw_exchange(server.port, base + b"\r\n")
    assert no_length.startswith(b"HTTP/1.1 411 ")
    for length in (b"-1", b"1e3", b"0x10", b"2, 3"):
        bad = raw_exchange(server.port, base + b"Content-Length: " + length + b"\r\n\r\n{}")
        assert bad.startswith(b"HTTP/1.1 400 "), length
    garbage = raw_exchange(server.port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n")
    assert garbage.startswith(b"HTTP/1.1 400 ") and b'"bad_request"' in garbage

    malformed = client.request(
        "POST", "/v1/events", raw=b'{"type": ', headers={"Content-Type": "application/json"}
    )
    assert malformed.status == 422 and malformed.code == "invalid_input"
    for value in (b"42", b'"x"', b"null", b"[1]", b"\xff\xfe", b""):
        response = client.request(
            "POST", "/v1/events", raw=value, headers={"Content-Type": "application/json"}
        )
        assert response.status == 422, value
    text_plain = client.request(
        "POST",
        "/v1/events",
        raw=json.dumps(user_msg("x")).encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert text_plain.status == 415
    assert event_count(db_path) == 0


def test_expect_100_continue_only_after_checks(server: AgentmemServer) -> None:
    body = json.dumps(user_msg("hello", run=None)).encode()

    def head(token: str) -> bytes:
        return (
            f"POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nExpect: 100-continue\r\n\r\n"
        ).encode()

    refused = raw_exchange(server.port, head("wrong"), shut=False)
    assert refused.startswith(b"HTTP/1.1 401 ") and b"100 Continue" not in refused
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(head(read_token_file(server)))
        assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(body)
        assert sock.recv(1000).startswith(b"HTTP/1.1 201 ")


def test_token_file_is_private_and_rotation_takes_effect(
    server: AgentmemServer, token_file: Path
) -> None:
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
    old = token_file.read_text().strip()
    assert len(old) >= 43
    rotate_token(token_file)
    new = token_file.read_text().strip()
    assert new != old and stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert [p.name for p in token_file.parent.iterdir()] == ["api-token"]  # no temp files left
    assert Client(server, token=old).request("GET", "/v1/beliefs").status == 401
    assert Client(server, token=new).request("GET", "/v1/beliefs").status == 200


def test_token_file_readable_by_others_is_refused(
    server: AgentmemServer, token_file: Path, db_path: Path
) -> None:
    client = Client(server)
    token_file.chmod(0o644)
    assert client.request("GET", "/v1/beliefs").status == 401  # fails closed while running
    with pytest.raises(UsageError, match="open to other users"):
        AgentmemServer(db_path, Settings(db=str(db_path)), token_file=token_file).start()
    token_file.unlink()
    assert client.request("GET", "/v1/beliefs").status == 401


def test_non_loopback_bind_is_refused(db_path: Path, token_file: Path) -> None:
    for host in ("127.0.0.1", "::1", "localhost", "127.1.2.3"):
        check_bind_host(host)
    for host in ("0.0.0.0", "::", "192.168.1.10", "example.com", ""):
        with pytest.raises(UsageError):
            check_bind_host(host)
    with pytest.raises(UsageError, match="not a loopback address"):
        AgentmemServer(db_path, Settings(db=str(db_path)), host="0.0.0.0", token_file=token_file)
    remote = AgentmemServer(
        db_path, Settings(db=str(db_path)), host="0.0.0.0", allow_remote=True, token_file=token_file
    )
    with remote:
        client = Client(remote)
        assert client.request("GET", "/v1/health", auth=False).status == 200
        assert (
            client.request("GET", "/v1/beliefs", headers={"Host": f"10.0.0.2:{remote.port}"}).status
            == 200
        )
        evil = client.request("GET", "/v1/beliefs", headers={"Host": f"evil.example:{remote.port}"})
        assert evil.status == 421
        client.close()
    with pytest.raises(UsageError, match="memory"):
        AgentmemServer(":memory:", token_file=token_file)


def test_idle_and_slow_clients_cannot_hold_the_server(server: AgentmemServer) -> None:
    """20 idle sockets and 20 slow-loris senders: a legitimate request still answers < 1 s."""
    socks = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(40)]
    try:
        for sock in socks[20:]:  # half a request line each, then silence
            sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        for _ in range(3):
            for sock in socks[20:]:
                sock.sendall(b"a")  # a byte now and then keeps each one "busy"
            client = Client(server)
            started = time.monotonic()
            assert client.request("GET", "/v1/beliefs").status == 200
            assert time.monotonic() - started < 1.0
            client.close()
            time.sleep(0.2)
    finally:
        for sock in socks:
            sock.close()


def test_too_many_connections_answer_503(db_path: Path, token_file: Path) -> None:
    settings_ = Settings(db=str(db_path))
    with AgentmemServer(settings=settings_, token_file=token_file, max_connections=2) as server:
        holders = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in "ab"]
        time.sleep(0.2)
        head = f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
        refused = raw_exchange(server.port, head.encode())
        assert refused.startswith(b"HTTP/1.1 503 ")
        for sock in holders:
            sock.close()
        time.sleep(0.2)
        assert Client(server).request("GET", "/v1/health", auth=False).status == 200


def test_unexpected_errors_are_500_without_details(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(self: agentmem.Store, session_id: str) -> None:
        raise RuntimeError("SECRET-DETAIL in a traceback")

    monkeypatch.setattr(agentmem.Store, "session", explode)
    client.conn.request(
        "GET", "/v1/sessions/s1", headers={"Authorization": f"Bearer {client.token}"}
    )
    response = client.conn.getresponse()
    body = response.read()
    assert response.status == 500
    assert json.loads(body) == {
        "error": {
            "code": "internal",
            "message": "internal error; the details are in the server's log",
        }
    }
    assert b"SECRET" not in body and b"Traceback" not in body


def test_stop_is_prompt_with_idle_keep_alive_clients(db_path: Path, token_file: Path) -> None:
    server = AgentmemServer(db_path, Settings(db=str(db_path)), token_file=token_file)
    server.start()
    clients = [Client(server) for _ in range(3)]
    for c in clients:
        assert c.request("GET", "/v1/beliefs").status == 200  # each now idles in keep-alive
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 2
    assert not Path(f"{server.db_path}-wal").exists()  # every connection closed
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


# -- concurrency ------------------------------------------------------------------------------


def test_concurrent_clients_lose_nothing(server: AgentmemServer, db_path: Path) -> None:
    seqs: list[int] = []
    errors: list[str] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        client = Client(server)
        try:
            for n in range(50):
                event = user_msg(
                    f"t{index} n{n}", session=f"s{index % 4}", run=None, event_id=f"t{index}-{n}"
                )
                response = client.request("POST", "/v1/events", event)
                if response.status != 201:
                    errors.append(f"{response.status} {response.body[:200]!r}")
                    return
                with lock:
                    seqs.append(response.json()["seq"])
        finally:
            client.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(seqs) == len(set(seqs)) == 400
    with agentmem.open(str(db_path)) as store:
        assert store.status().events == 400
        assert {s.session_id: s.event_count for s in store.sessions(all_principals=True)} == {
            f"s{i}": 100 for i in range(4)
        }
        assert store.check() == []


def test_a_refused_append_fails_alone_among_concurrent_writers(
    server: AgentmemServer, db_path: Path
) -> None:
    """Appends waiting together share a commit; each still succeeds or fails on its own."""
    client = Client(server)
    client.request("POST", "/v1/events", user_msg("first", session="closed", run=None))
    assert client.request("POST", "/v1/sessions/closed/close").status == 200
    client.close()
    statuses: dict[str, int] = {}
    lock = threading.Lock()

    def worker(index: int) -> None:
        c = Client(server)
        try:
            for n in range(25):
                session = "closed" if (index + n) % 3 == 0 else f"open-{index}"
                event_id = f"w{index}-{n}"
                event = user_msg(f"n{n}", session=session, run=None, event_id=event_id)
                status = c.request("POST", "/v1/events", event).status
                with lock:
                    statuses[event_id] = status
        finally:
            c.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    refused = {e for e, s in statuses.items() if s == 409}
    written = {e for e, s in statuses.items() if s == 201}
    assert len(refused) + len(written) == 200 and refused and written
    with agentmem.open(str(db_path)) as store:
        alices = store.events(principal="alice", types=["user.message.created"])
        stored = {e.event_id for e in alices}
        stored -= {e.event_id for e in store.events(principal="alice", session_id="closed")}
        assert stored == written
        assert store.check() == []


def test_responses_are_not_held_back_by_nagle(server: AgentmemServer, client: Client) -> None:
    """Keep-alive round trips take about a millisecond, not the 40 ms of a delayed ACK."""
    timings = []
    for _ in range(21):
        started = time.perf_counter()
        assert client.request("GET", "/v1/health", auth=False).status == 200
        timings.append(time.perf_counter() - started)
    assert sorted(timings)[10] < 0.03, timings


# -- the CLI ----------------------------------------------------------------------------------


def test_agentmem_serve_subprocess_answers_and_stops_on_sigint(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    config_dir = tmp_path / "serve-config"
    env = {**cli_env, "AGENTMEM_CONFIG_DIR": str(config_dir)}
    process = subprocess.Popen(
        [sys.executable, "-m", "agentmem", "serve", "--port", "0", "--db", str(tmp_path / "s.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        token = (config_dir / "api-token").read_text().strip()
        assert str(config_dir / "api-token") in line and token not in line
        assert stat.S_IMODE((config_dir / "api-token").stat().st_mode) == 0o600
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=10)
        conn.request("GET", "/v1/health")
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read())["status"] == "ok"
        conn.close()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        assert token not in (process.stderr.read() if process.stderr else "")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_agentmem_serve_rotate_token_and_remote_refusal(tmp_path: Path, run_cli: Any) -> None:
    env = {"AGENTMEM_CONFIG_DIR": str(tmp_path / "cfg")}
    path = tmp_path / "cfg" / "api-token"
    first = run_cli("serve", "--rotate-token", env=env)
    assert first.returncode == 0 and str(path) in first.stdout
    token = path.read_text().strip()
    assert token not in first.stdout and stat.S_IMODE(path.stat().st_mode) == 0o600
    second = run_cli("serve", "--rotate-token", "--print-token", env=env)
    new = path.read_text().strip()
    assert second.returncode == 0 and new != token and new in second.stdout
    remote = run_cli("serve", "--host", "0.0.0.0", "--db", str(tmp_path / "r.db"), env=env)
    assert remote.returncode == 2 and "--allow-remote" in remote.stderr
    assert not (tmp_path / "r.db").exists()


def test_serve_without_the_server_extra_is_one_line_exit_2(tmp_path: Path, run_cli: Any) -> None:
    fake = tmp_path / "no-server" / "uvicorn"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        'raise ModuleNotFoundError("No module named \'uvicorn\'", name="uvicorn")\n'
    )
    db = tmp_path / "x.db"
    env = {"PYTHONPATH": str(fake.parent), "AGENTMEM_CONFIG_DIR": str(tmp_path / "cfg")}
    result = run_cli("serve", "--port", "0", "--db", str(db), env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert "pip install 'agentmem[server]'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not db.exists() and not (tmp_path / "cfg").exists()


# -- generated requests -----------------------------------------------------------------------

_WORDS = ["v1", "events", "sessions", "runs", "export", "close", "artifacts", "consent"]
_WORDS += ["beliefs", "health", "openapi.json", "s1", "r1", "alice", "", "..", "%2F", "%00"]
_ids = st.sampled_from(["s1", "s2", "r1", "r2", "alice", "bob", "local", "a/b", "x" * 200])
_any_id = _ids | st.text(min_size=1, max_size=12)


@st.composite
def _routed(draw: st.DrawFn) -> tuple[str, str]:
    """A real operation with generated path parameters (most requests should reach a handler)."""
    events = next(r for r in ROUTES if r.template == "/v1/events")
    route = draw(st.sampled_from([*ROUTES, *[events] * len(ROUTES)]))
    path = route.template
    for name in re.findall(r"{(\w+)}", path):
        path = path.replace(f"{{{name}}}", urllib.parse.quote(draw(_any_id), safe=""))
    return route.method, path


_methods = st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"])
_segment = st.sampled_from(_WORDS) | st.text(max_size=12).map(
    lambda s: urllib.parse.quote(s, safe="")
)
_wild = st.tuples(
    _methods | st.from_regex(r"\A[A-Z]{1,8}\Z"),
    st.lists(_segment, max_size=4).map(lambda parts: "/v1/" + "/".join(parts)),
)
_targets = st.one_of(_routed(), _routed(), _routed(), _wild)
_query = st.one_of(
    st.just(""),
    st.just(""),
    st.just(""),
    st.just(""),
    st.lists(
        st.tuples(st.sampled_from(["q", "limit", "x", "%ff", ""]), st.text(max_size=8)),
        max_size=3,
    ).map(lambda pairs: "?" + urllib.parse.urlencode(pairs)),
    st.sampled_from(["?q=daughter", "?limit=5", "?q=AND+OR+NOT+*", '?q="', "?q=%ff"]),
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
_text = st.text(max_size=40) | st.sampled_from(
    ["My daughter starts school on Monday.", "I live in Berlin.", "I prefer tea.", "\x00"]
)
_times = st.datetimes(timezones=st.just(UTC)).map(lambda d: d.isoformat()) | st.sampled_from(
    ["2026-01-01T00:00:00Z", "not-a-date", "2026-13-45T99:00:00Z", "1970-01-01T00:00:00+14:00"]
)
_envelope = {
    "principal": st.sampled_from(["alice", "bob"]) | st.none() | _any_id,
    "event_id": st.sampled_from(["e1", "e2", "e3"]) | _any_id,
    "created_at": _times,
}
_run_fields = {
    "session_id": st.sampled_from(["s1", "s2", "s3"]) | st.uuids().map(str),
    "run_id": _ids,
}
_tool = st.fixed_dictionaries({"name": _ids}, optional={"schema": st.dictionaries(_text, _json)})
_call = st.fixed_dictionaries({"id": _ids, "name": _ids}, optional={"arguments": _text})
_typed_events = [
    st.fixed_dictionaries(
        {"type": st.just("run.started"), **_run_fields},
        optional={**_envelope, "tools": st.lists(_tool, max_size=2), "parent_run_id": _ids},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("run.completed"),
            **_run_fields,
            "outcome": st.sampled_from(["succeeded", "failed", "cancelled", "maybe"]),
        },
        optional={**_envelope, "failure_class": _text, "error": _text},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("user.message.created"),
            "session_id": _run_fields["session_id"],
            "text": _text,
        },
        optional={**_envelope, "run_id": _ids},
    ),
    st.fixed_dictionaries(
        {"type": st.just("assistant.message.created"), **_run_fields},
        optional={**_envelope, "text": _text, "tool_calls": st.lists(_call, max_size=2)},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("tool.result.created"),
            **_run_fields,
            "tool_call_id": _ids,
            "content": _text,
        },
        optional={**_envelope, "is_error": st.booleans()},
    ),
    st.fixed_dictionaries(
        {"type": st.just("session.closed"), "session_id": _run_fields["session_id"]},
        optional={**_envelope, "reason": _text},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("system.prompt.set"),
            "session_id": _run_fields["session_id"],
            "text": _text,
        },
        optional=_envelope,
    ),
]
_loose_event = st.fixed_dictionaries(
    {
        "type": st.sampled_from([*CLIENT_EVENT_TYPES, "consent.granted", "bogus"]),
        "session_id": _any_id,
    },
    optional={
        name: _json | _text
        for name in (
            "run_id",
            "principal",
            "event_id",
            "created_at",
            "text",
            "tools",
            "tool_calls",
            "outcome",
            "content",
            "seq",
            "reasoning",
            "thinking",
        )
    },
)
_event = st.one_of(*_typed_events, _loose_event)
_body = st.one_of(
    st.none(),
    st.binary(max_size=64),
    _json.map(lambda v: json.dumps(v).encode()),
    _event.map(lambda v: json.dumps(v).encode()),
    _event.map(lambda v: json.dumps(v).encode()),
    st.lists(_event, max_size=4).map(lambda v: json.dumps(v).encode()),
)
_principal_header = st.sampled_from(["alice", "bob"]) | st.text(
    st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="\x7f"), max_size=10
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    target=_targets,
    query=_query,
    body=_body,
    principal=st.one_of(st.none(), st.none(), st.sampled_from(["alice", "bob"]), _principal_header),
    token=st.sampled_from(["good"] * 8 + ["bad", "none"]),
    content_type=st.sampled_from(
        ["application/json"] * 4 + ["application/json; charset=utf-8", "text/plain", None]
    ),
)
def test_generated_requests_never_crash_the_server(
    fuzz_server: AgentmemServer,
    target: tuple[str, str],
    query: str,
    body: bytes | None,
    principal: str | None,
    token: str,
    content_type: str | None,
) -> None:
    headers: dict[str, str] = {}
    if principal is not None:
        headers["X-Agentmem-Principal"] = principal
    if content_type is not None:
        headers["Content-Type"] = content_type
    if token != "none":
        good = read_token_file(fuzz_server)
        headers["Authorization"] = f"Bearer {good if token == 'good' else good[::-1]}"
    client = Client(fuzz_server, token="")
    try:
        method, path = target
        response = client.request(method, path + query, raw=body, headers=headers, auth=False)
    finally:
        client.close()
    code = response.code if response.status >= 400 and method != "HEAD" else ""
    note_event(f"status {response.status} {code}")  # see --hypothesis-show-statistics


_raw_line = st.one_of(
    st.binary(max_size=40),
    st.tuples(
        st.sampled_from([b"GET", b"POST", b"DELETE", b"\x00", b"G E T"]),
        st.sampled_from([b"/v1/health", b"/v1/events", b"*", b"http://x/v1/health", b"/\xff"]),
        st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/1.x", b""]),
    ).map(b" ".join),
)
_raw_header = st.sampled_from(
    [
        b"Content-Length: 5",
        b"Content-Length: 999999999999999999999",
        b"Content-Length: -5",
        b"Content-Length: 3",
        b"Transfer-Encoding: chunked",
        b"Expect: 100-continue",
        b"Connection: close",
        b"Connection: keep-alive",
        b"Host: localhost",
        b"no colon here",
        b"Content-Type: application/json",
    ]
)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    line=_raw_line,
    extra=st.lists(_raw_header, max_size=4),
    huge_header=st.booleans(),
    body=st.binary(max_size=16),
)
def test_generated_raw_bytes_never_crash_the_server(
    fuzz_server: AgentmemServer, line: bytes, extra: list[bytes], huge_header: bool, body: bytes
) -> None:
    token = read_token_file(fuzz_server)
    headers = [
        f"Host: 127.0.0.1:{fuzz_server.port}".encode(),
        f"Authorization: Bearer {token}".encode(),
        *extra,
        *([b"X-Huge: " + b"y" * 70_000] if huge_header else []),
    ]
    reply = raw_exchange(
        fuzz_server.port, line + b"\r\n" + b"\r\n".join(headers) + b"\r\n\r\n" + body
    )
    assert b" 500 " not in reply.split(b"\r\n", 1)[0]
    assert b"Traceback" not in reply and token.encode() not in reply


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AgentmemServer]:
    root = tmp_path_factory.mktemp("fuzz")
    settings_ = Settings(db=str(root / "fuzz.db"))
    with AgentmemServer(settings=settings_, token_file=root / "cfg" / "api-token") as server:
        yield server
        client = Client(server)
        assert client.request("GET", "/v1/health", auth=False).status == 200
        client.close()
    with agentmem.open(str(root / "fuzz.db")) as store:
        assert store.check() == []
