"""Erasure over the loopback HTTP API: a principal token erases its own data, nobody else's.

The server runs in process on a loopback port; requests are real HTTP. Every response is checked
against the shipped OpenAPI document by the same helper the main HTTP tests use.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from _events import user_msg
from test_http import Response, check_documented

import agentmem
from agentmem.api_tokens import issue_principal_token, principal_tokens_path
from agentmem.config import Settings
from agentmem.http import AgentmemServer


@pytest.fixture
def server(db_path: Path, tmp_path: Path) -> Iterator[AgentmemServer]:
    token_file = tmp_path / "config" / "api-token"
    with AgentmemServer(db_path, Settings(db=str(db_path)), token_file=token_file) as running:
        yield running


def _request(server: AgentmemServer, token: str, method: str, target: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(method, target, headers={"Authorization": f"Bearer {token}"})
        got = conn.getresponse()
        body = got.read()
    finally:
        conn.close()

    check_documented(method, target, Response(got.status, got.headers, body))
    return got.status, json.loads(body)


def _token(server: AgentmemServer, principal: str) -> str:
    _, secret = issue_principal_token(principal_tokens_path(server.token_file), principal)
    return secret


def _seed(db_path: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg("I live in Zanzibarvillage.", session="a1", run=None))
        store.append(user_msg("I live in Lisbon.", session="b1", run=None, principal="bob"))


def test_a_principal_token_erases_its_own_session_only(server, db_path: Path) -> None:
    _seed(db_path)
    alice = _token(server, "alice")
    status, body = _request(server, alice, "DELETE", "/v1/sessions/b1")
    assert status == 404  # bob's session does not exist for alice
    status, body = _request(server, alice, "DELETE", "/v1/sessions/a1?dry_run=true")
    assert status == 200 and body["dry_run"] and body["counts"]["events"] == 1
    status, body = _request(server, alice, "DELETE", "/v1/sessions/a1")
    assert status == 200 and body["erasure_seq"] is not None
    with agentmem.open(str(db_path)) as store:
        assert [s.session_id for s in store.sessions(all_principals=True)] == ["b1"]
        assert store.check() == []
    status, body = _request(server, alice, "DELETE", "/v1/sessions/a1")
    assert status == 200 and body["already_erased"]


def test_a_principal_token_erases_itself_but_not_another(server, db_path: Path) -> None:
    _seed(db_path)
    alice = _token(server, "alice")
    status, body = _request(server, alice, "DELETE", "/v1/principals/bob")
    assert status == 403 and body["error"]["code"] == "refused"
    status, body = _request(server, alice, "DELETE", "/v1/principals/alice?dry_run=maybe")
    assert status == 400
    status, body = _request(server, alice, "DELETE", "/v1/principals/alice")
    assert status == 200 and body["scope"] == "principal"
    wal = Path(f"{db_path}-wal")
    raw = db_path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    assert b"Zanzibarvillage" not in raw
    with agentmem.open(str(db_path)) as store:
        assert {s.principal for s in store.sessions(all_principals=True)} == {"bob"}
