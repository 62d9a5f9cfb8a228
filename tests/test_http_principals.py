"""Principal isolation on the HTTP doors: principal tokens on the REST API and on MCP at /mcp.

Alice's data is written with the operator token; then a client holding bob's principal token
tries every cross-principal move the security review made (read her session, close it,
withdraw her consent, write as her, export and read her run) and each is refused with nothing
changed. Real server on loopback, real SQLite file, tokens generated at run time.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _events import run_started, user_msg

import agentmem
from agentmem.api_tokens import (
    issue_principal_token,
    list_principal_tokens,
    principal_tokens_path,
    revoke_principal_token,
)
from agentmem.config import Settings
from agentmem.http import AgentmemServer


class Api:
    def __init__(self, server: AgentmemServer, token: str | None) -> None:
        self.server = server
        self.token = token

    def __call__(
        self, method: str, target: str, body: Any = None, **headers: str
    ) -> tuple[int, Any, http.client.HTTPMessage]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        sent = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.token is not None:
            sent["Authorization"] = f"Bearer {self.token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        conn.request(method, target, body=payload, headers=sent)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        parsed = json.loads(data) if data else None
        return response.status, parsed, response.headers


@pytest.fixture
def setup(tmp_path: Path, db_path: Path) -> Iterator[dict[str, Any]]:
    token_file = tmp_path / "cfg" / "api-token"
    listing = principal_tokens_path(token_file)
    with AgentmemServer(settings=Settings(db=str(db_path)), token_file=token_file) as server:
        _, alice = issue_principal_token(listing, "alice")
        bob_record, bob = issue_principal_token(listing, "bob")
        operator = Api(server, token_file.read_text().strip())
        assert operator("POST", "/v1/consent/alice")[0] == 200
        for event in (
            run_started("r1", session="s-alice"),
            user_msg("My daughter starts school on Monday.", session="s-alice", run="r1"),
            {
                "type": "run.completed",
                "session_id": "s-alice",
                "principal": "alice",
                "run_id": "r1",
                "outcome": "succeeded",
            },
        ):
            assert operator("POST", "/v1/events", event)[0] == 201
        assert operator("POST", "/v1/sessions/s-alice/close")[0] == 200
        status, exported, _ = Api(server, alice)("POST", "/v1/runs/r1/export")
        assert status == 201
        yield {
            "server": server,
            "db": db_path,
            "alice": Api(server, alice),
            "bob": Api(server, bob),
            "operator": operator,
            "listing": listing,
            "bob_id": bob_record.token_id,
            "artifact": exported["artifact_id"],
        }


def _snapshot(db_path: Path) -> tuple[int, str, str]:
    with agentmem.open(str(db_path)) as store:
        return (
            store.status().events,
            store.consent_status("alice").state,
            store.session("s-alice", principal="alice").status,
        )


def test_a_principal_token_cannot_act_for_another_principal(setup: dict[str, Any]) -> None:
    bob, db = setup["bob"], setup["db"]
    before = _snapshot(db)
    attempts = {
        "read her session": ("GET", "/v1/sessions/s-alice", None, {}, 404),
        "close her session": ("POST", "/v1/sessions/s-alice/close", None, {}, 404),
        "read her consent": ("GET", "/v1/consent/alice", None, {}, 403),
        "withdraw her consent": ("DELETE", "/v1/consent/alice", None, {}, 403),
        "grant her consent": ("POST", "/v1/consent/alice", None, {}, 403),
        "write as her": ("POST", "/v1/events", user_msg("hi", session="s-b", run=None), {}, 403),
        "write a batch as her": (
            "POST",
            "/v1/events",
            [{**user_msg("x", session="s-b", run=None), "principal": None}, user_msg("y")],
            {},
            403,
        ),
        "write into her session": (
            "POST",
            "/v1/events",
            {"type": "user.message.created", "session_id": "s-alice", "text": "I moved."},
            {},
            403,
        ),
        "claim her name in the header": (
            "GET",
            "/v1/beliefs",
            None,
            {"X_Agentmem_Principal": "alice"},
            403,
        ),
        "export her run": ("POST", "/v1/runs/r1/export", None, {}, 403),
        "read her export": ("GET", f"/v1/artifacts/{setup['artifact']}", None, {}, 403),
    }
    for name, (method, target, body, headers, expected) in attempts.items():
        status, answer, _ = bob(method, target, body, **headers)
        assert status == expected, (name, status, answer)
        assert set(answer) == {"error"}, name
    assert _snapshot(db) == before
    assert bob("GET", "/v1/beliefs")[1] == {"beliefs": []}  # lists are the caller's only
    assert bob("GET", "/v1/beliefs?q=daughter")[1] == {"beliefs": []}


def test_a_principal_token_acts_as_its_principal(setup: dict[str, Any]) -> None:
    alice, bob = setup["alice"], setup["bob"]
    bare = {"type": "user.message.created", "session_id": "s-bob", "text": "I live in Berlin."}
    assert bob("POST", "/v1/events", bare)[0] == 201
    assert bob("POST", "/v1/events", [{**bare, "text": "I prefer tea."}])[0] == 201
    assert bob("GET", "/v1/sessions/s-bob")[1]["principal"] == "bob"
    assert bob("GET", "/v1/consent/bob", X_Agentmem_Principal="bob")[0] == 200
    assert bob("POST", "/v1/sessions/s-bob/close")[0] == 200
    statements = {b["statement"] for b in bob("GET", "/v1/beliefs")[1]["beliefs"]}
    assert "User lives in Berlin" in statements
    hers = {b["statement"] for b in alice("GET", "/v1/beliefs")[1]["beliefs"]}
    assert hers and not hers & statements
    assert alice("GET", "/v1/sessions/s-bob")[0] == 404


def test_unknown_and_revoked_tokens_are_401_invalid_token(setup: dict[str, Any]) -> None:
    bob, listing = setup["bob"], setup["listing"]
    assert bob("GET", "/v1/beliefs")[0] == 200
    revoke_principal_token(listing, setup["bob_id"])
    status, answer, headers = bob("GET", "/v1/beliefs")
    assert status == 401 and answer["error"]["code"] == "invalid_token"
    assert headers["WWW-Authenticate"] == 'Bearer realm="agentmem", error="invalid_token"'
    status, answer, headers = Api(setup["server"], None)("GET", "/v1/beliefs")
    assert status == 401 and answer["error"]["code"] == "unauthorized"
    assert "error=" not in headers["WWW-Authenticate"]
    assert setup["alice"]("GET", "/v1/beliefs")[0] == 200  # the others still work


def test_the_token_list_keeps_no_token(setup: dict[str, Any]) -> None:
    listing: Path = setup["listing"]
    assert stat.S_IMODE(listing.stat().st_mode) == 0o600
    text = listing.read_text()
    assert setup["bob"].token not in text and setup["alice"].token not in text
    assert [t.principal for t in list_principal_tokens(listing)] == ["alice", "bob"]


def test_serve_issues_lists_and_revokes_principal_tokens(tmp_path: Path, run_cli: Any) -> None:
    env = {"AGENTMEM_CONFIG_DIR": str(tmp_path / "cfg")}
    issued = run_cli("serve", "--token-for", "alice", env=env)
    assert issued.returncode == 0
    token = issued.stdout.strip()
    assert token.startswith("amp_") and token not in issued.stderr
    listed = run_cli("serve", "--list-tokens", env=env)
    token_id, principal, _ = listed.stdout.strip().split("\t")
    assert principal == "alice" and token not in listed.stdout
    assert run_cli("serve", "--revoke-token", token_id, env=env).returncode == 0
    assert run_cli("serve", "--list-tokens", env=env).stdout == ""
    again = run_cli("serve", "--revoke-token", token_id, env=env)
    assert again.returncode == 3 and len(again.stderr.strip().splitlines()) == 1
    bad = run_cli("serve", "--token-for", "a\x7fb", env=env)
    assert bad.returncode == 2


# -- MCP over streamable HTTP -------------------------------------------------------------------


def _mcp(server: AgentmemServer, token: str, script: Any, **headers: str) -> Any:
    pytest.importorskip("mcp")
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def main() -> Any:
        sent = {"Authorization": f"Bearer {token}", **headers}
        async with (
            httpx2.AsyncClient(headers=sent, timeout=30) as client,
            streamable_http_client(f"{server.url}/mcp", http_client=client) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await script(session)

    return asyncio.run(asyncio.wait_for(main(), timeout=60))


def test_mcp_over_http_is_bound_to_the_tokens_principal(setup: dict[str, Any]) -> None:
    server, db = setup["server"], setup["db"]

    async def bob_script(session: Any) -> list[Any]:
        said = await session.call_tool(
            "record_message", {"session_id": "m-bob", "role": "user", "text": "I live in Oslo."}
        )
        intrude = await session.call_tool(
            "record_message", {"session_id": "s-alice", "role": "user", "text": "x"}
        )
        close_hers = await session.call_tool("close_session", {"session_id": "s-alice"})
        closed = await session.call_tool("close_session", {"session_id": "m-bob"})
        recall = await session.call_tool("recall", {"query": "daughter"})
        listed = await session.read_resource("agentmem://beliefs")
        return [said, intrude, close_hers, closed, recall, json.loads(listed.contents[0].text)]

    said, intrude, close_hers, closed, recall, listed = _mcp(
        server, setup["bob"].token, bob_script, **{"X-Agentmem-Principal": "bob"}
    )
    assert not said.is_error and not closed.is_error
    assert intrude.is_error and "no session 's-alice'" in intrude.content[0].text
    assert close_hers.is_error
    assert recall.structured_content == {"beliefs": []}
    assert listed["principal"] == "bob"
    assert {b["statement"] for b in listed["beliefs"]} == {"User lives in Oslo"}
    with agentmem.open(str(db)) as store:
        assert store.session("m-bob", all_principals=True).principal == "bob"
        assert (
            store.session("s-alice", principal="alice").event_count == 4
        )  # run, message, completion, close

    async def operator_script(session: Any) -> Any:
        return await session.read_resource("agentmem://beliefs")

    as_alice = _mcp(
        server, setup["operator"].token, operator_script, **{"X-Agentmem-Principal": "alice"}
    )
    assert json.loads(as_alice.contents[0].text)["principal"] == "alice"


def test_mcp_over_http_has_the_same_door_checks(setup: dict[str, Any]) -> None:
    server = setup["server"]
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"Accept": "application/json, text/event-stream"}
    anonymous = Api(server, None)
    status, answer, headers = anonymous("POST", "/mcp", hello, **accept)
    assert status == 401 and headers["WWW-Authenticate"].startswith("Bearer")
    status, _, _ = Api(server, "not-a-token")("POST", "/mcp", hello, **accept)
    assert status == 401
    status, answer, _ = setup["bob"]("POST", "/mcp", hello, X_Agentmem_Principal="alice", **accept)
    assert status == 403 and answer["error"]["code"] == "refused"
    status, _, _ = setup["bob"]("POST", "/mcp", hello, Host="evil.example", **accept)
    assert status == 421
