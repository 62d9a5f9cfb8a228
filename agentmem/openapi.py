"""The OpenAPI 3.1 document of the HTTP API, generated from the route table and the structs.

Bodies are the library's own msgspec structs (``msgspec.json.schema_components``), the path and
header parameters are the same ``Principal`` and ``Id`` types the server validates with, and
the operations are :data:`agentmem.http.ROUTES`; only the prose lives here. The package ships
the result as ``agentmem/openapi.json`` (served byte for byte at ``/v1/openapi.json``), and a
test checks the shipped file equals :func:`document`. Regenerate it with
``python -m agentmem.openapi > agentmem/openapi.json``.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Union

import msgspec

from agentmem.config import Principal
from agentmem.consent import ConsentStatus
from agentmem.erasure import ErasureReport
from agentmem.events import CLIENT_EVENT_CLASSES, MAX_EVENT_BYTES, Id
from agentmem.http import (
    MAX_BODY_BYTES,
    PRINCIPAL_HEADER,
    ROUTES,
    BeliefList,
    ErrorBody,
    ExportReply,
    Health,
)
from agentmem.memory.service import ConsolidationReport
from agentmem.store import AppendResult, ImportResult, RunInfo, SessionInfo

__all__ = ["document", "document_bytes"]

_REF = "#/components/schemas/{name}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF.format(name=name)}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


_ERROR = _json(_ref("ErrorBody"))


@dataclass(frozen=True)
class _Operation:
    operation_id: str
    summary: str
    description: str
    tag: str
    ok: dict[int, tuple[str, dict[str, Any]]]
    errors: dict[int, str] = field(default_factory=dict)
    parameters: dict[str, str] = field(default_factory=dict)


_EITHER_RESULT = _json({"oneOf": [_ref("AppendResult"), _ref("ImportResult")]})
_ID_PARAMETER = "Percent-encoded id (1 to 128 printable characters)."
_NO_BODY = " No request body is needed; any body is ignored."
_CONSENT_PATH = (
    "The principal whose consent this is (1 to 128 printable characters). A principal token "
    "may name only its own principal (else 403 `refused`)."
)

_OPERATIONS: dict[tuple[str, str], _Operation] = {
    ("GET", "/v1/health"): _Operation(
        "health",
        "Liveness and schema version",
        "No authentication. Answers from a read-only database connection, so a 200 means the "
        "database is readable.",
        "meta",
        {200: ("The server and its database are up.", _json(_ref("Health")))},
    ),
    ("GET", "/v1/openapi.json"): _Operation(
        "openapi",
        "This document",
        "No authentication. Byte-equal to `agentmem/openapi.json` in the installed package.",
        "meta",
        {200: ("The OpenAPI 3.1 document.", _json({"type": "object"}))},
    ),
    ("POST", "/v1/events"): _Operation(
        "appendEvents",
        "Append one event, or a batch in one transaction",
        "The body is one event object or an array of them, in the interchange format. A "
        "missing `principal` is the request principal; a principal token may append only as "
        "its principal, and only to its principal's sessions (else 403 `refused`). Appending "
        "an event again with the same `event_id` and content is an idempotent replay: it "
        "returns the original `seq`. A single new event answers 201; a pure replay of a single "
        "event answers **200** with `duplicate: true`. A batch answers 201 when it wrote at "
        "least one event and 200 when every event was a replay (an empty array included). Bad "
        "input writes nothing: a batch is all or nothing, and the error message names the "
        "failing event's position (`event 3: ...`). Each event is at most "
        f"{MAX_EVENT_BYTES} bytes. Status rule: 422 means the input is invalid wherever it "
        "is sent; 409 means valid input that the stored state refuses (an `event_id` stored "
        "with other content, a closed session, a completed or unknown run).",
        "events",
        {
            200: (
                "Nothing new: a replay of one event (`AppendResult` with `duplicate: true`) or "
                "a batch of replays (`ImportResult` with `imported: 0`).",
                _EITHER_RESULT,
            ),
            201: (
                "Written: one event (`AppendResult`) or a batch (`ImportResult`; "
                "`first_seq`..`last_seq` span the new events).",
                _EITHER_RESULT,
            ),
        },
        {
            403: "`refused`: a principal token appending as another principal, or to another "
            "principal's session.",
            409: "`conflict`: the `event_id` is stored with other content; `event_rejected`: "
            "the log's state refuses the event (a closed session, a completed run, a run "
            "never started or of another session). Nothing was written.",
            422: "`invalid_input`: malformed JSON, an unknown type or field, raw reasoning "
            "content, an oversized event, JSON nested too deeply. Nothing was written.",
        },
    ),
    ("GET", "/v1/sessions/{session_id}"): _Operation(
        "getSession",
        "A session and its runs",
        "The `sessions` projection row plus its runs. To a principal token, another "
        "principal's session does not exist (404).",
        "sessions",
        {200: ("The session.", _json(_ref("SessionView")))},
        {404: "`not_found`: the session has no events (or is another principal's)."},
        {"session_id": _ID_PARAMETER},
    ),
    ("POST", "/v1/sessions/{session_id}/close"): _Operation(
        "closeSession",
        "Close a session and consolidate it into beliefs",
        "Idempotent: closing a closed session consolidates again only if there are new events "
        "(`skipped: true` otherwise). To a principal token, another principal's session does "
        "not exist (404)." + _NO_BODY,
        "sessions",
        {200: ("The consolidation report.", _json(_ref("ConsolidationReport")))},
        {
            404: "`not_found`: no such session (or another principal's).",
            412: "`policy_refused` / `evidence_mismatch`: provider assistance is `required` "
            "but no matching evidence activates it.",
        },
        {"session_id": _ID_PARAMETER},
    ),
    ("POST", "/v1/runs/{run_id}/export"): _Operation(
        "exportRun",
        "Export a run as a redacted, consent-gated trajectory",
        "Idempotent per run and document schema: the first call creates the artifact (201, "
        "`created: true`), later calls return the same live artifact (200, `created: false`). "
        "The run must belong to the request principal and carry a consent stamp (a grant in "
        "force when it started) with no withdrawal since." + _NO_BODY,
        "export",
        {
            200: ("Already exported: the same artifact.", _json(_ref("ExportReply"))),
            201: ("Exported now.", _json(_ref("ExportReply"))),
        },
        {
            403: "`consent_required`: no consent stamped on the run, or consent withdrawn. "
            "`refused`: the run belongs to another principal, or the token may not act for "
            "the named principal.",
            404: "`not_found`: no such run.",
            422: "`redaction_failed`: the verification scan found a leak (rule and JSON path "
            "named, match never shown); no artifact was written.",
        },
        {"run_id": _ID_PARAMETER},
    ),
    ("GET", "/v1/artifacts/{artifact_id}"): _Operation(
        "getArtifact",
        "Read an artifact's content",
        "Only the artifact's own principal may read it, and never once it has expired (a "
        "consent withdrawal expires every export at once). The body is the stored document, "
        "byte for byte, with the artifact's media type.",
        "export",
        {
            200: (
                "The artifact's content.",
                {
                    "application/vnd.agentmem.trajectory+json": {
                        "schema": _ref("TrajectoryDocument")
                    },
                    "application/json": {"schema": {}},
                },
            )
        },
        {
            403: "`artifact_unavailable`: another principal's artifact, or expired. "
            "`refused`: the token may not act for the named principal.",
            404: "`not_found`: no such artifact.",
        },
        {"artifact_id": "The artifact id."},
    ),
    ("GET", "/v1/consent/{principal}"): _Operation(
        "consentStatus",
        "A principal's trajectory-export consent",
        "Consent of the principal named in the path.",
        "consent",
        {200: ("The consent state.", _json(_ref("ConsentStatus")))},
        parameters={"principal": _CONSENT_PATH},
    ),
    ("POST", "/v1/consent/{principal}"): _Operation(
        "grantConsent",
        "Grant trajectory-export consent",
        "Covers runs that start from now on. Repeating it is a no-op (`changed: false`)."
        + _NO_BODY,
        "consent",
        {200: ("The consent state after the grant.", _json(_ref("ConsentStatus")))},
        parameters={"principal": _CONSENT_PATH},
    ),
    ("DELETE", "/v1/consent/{principal}"): _Operation(
        "withdrawConsent",
        "Withdraw trajectory-export consent",
        "Blocks every export of the principal and expires every existing one at once (the "
        "sweeper deletes them). Repeating it is a no-op.",
        "consent",
        {200: ("The consent state after the withdrawal.", _json(_ref("ConsentStatus")))},
        parameters={"principal": _CONSENT_PATH},
    ),
    ("DELETE", "/v1/sessions/{session_id}"): _Operation(
        "eraseSession",
        "Erase a session for good",
        "Removes the session's events (and those of runs started in it), its projections, the "
        "beliefs formed from it, its consolidation audits and its exports, leaving one "
        "content-free `erasure` event; the `-wal` is emptied before the answer (README, "
        "'Privacy guarantees'). Backups made before are not reached. `dry_run=true` only "
        "counts. Erasing it again answers 200 with `already_erased: true`. To a principal "
        "token, another principal's session does not exist (404).",
        "privacy",
        {200: ("What was (or would be) erased.", _json(_ref("ErasureReport")))},
        {
            404: "`not_found`: nothing is stored for this session (or it is another principal's).",
            503: "`database_busy`: erased, but a reader kept old pages in the `-wal`; repeat "
            "the request to finish.",
        },
        {"session_id": _ID_PARAMETER},
    ),
    ("DELETE", "/v1/principals/{principal}"): _Operation(
        "erasePrincipal",
        "Erase every trace of a principal",
        "Removes the principal's events and every event of the sessions they own, their "
        "beliefs, consent records and artifacts, leaving one content-free `erasure` event that "
        "does not name them. Backups made before are not reached. `dry_run=true` only counts.",
        "privacy",
        {200: ("What was (or would be) erased.", _json(_ref("ErasureReport")))},
        {404: "`not_found`: nothing is stored for this principal."},
        parameters={"principal": _CONSENT_PATH.replace("consent this is", "data this is")},
    ),
    ("GET", "/v1/beliefs"): _Operation(
        "beliefs",
        "Recall the request principal's beliefs",
        "With `q`: full-text search over active beliefs, best BM25 match first. Without `q`: "
        "active beliefs, newest first. Only the request principal's beliefs are returned.",
        "memory",
        {200: ("Matching beliefs.", _json(_ref("BeliefList")))},
    ),
}

_QUERY = {
    "dry_run": (
        "`true`: count what would be erased and change nothing.",
        {"type": "string", "enum": ["true", "false"], "default": "false"},
    ),
    "q": ("Search text (words; FTS syntax is neutralised).", {"type": "string"}),
    "limit": (
        "At most this many beliefs.",
        {"type": "integer", "minimum": 1, "maximum": 1000, "default": 20},
    ),
}

_COMMON = {
    "BadRequest": "Bad arguments: an unknown or repeated query parameter, a malformed header "
    f"(`{PRINCIPAL_HEADER}`, `Content-Length`), a path parameter that is not percent-encoded "
    "UTF-8, malformed HTTP (refused by the parser), or both `Transfer-Encoding` and "
    "`Content-Length`.",
    "Unauthorized": "No valid token, nothing read or written: `unauthorized` when "
    "`Authorization: Bearer <token>` is missing or malformed, `invalid_token` when the token "
    "is unknown, rotated or revoked. The response carries `WWW-Authenticate: Bearer` (with "
    '`error="invalid_token"` for the latter, RFC 6750).',
    "Forbidden": "`refused`: a valid principal token acting for another principal (a "
    f"different `{PRINCIPAL_HEADER}`, path principal or event principal); nothing was read or "
    "written.",
    "LengthRequired": "A chunked (`Transfer-Encoding`) body, or a JSON body without "
    "`Content-Length`. Chunked bodies are always refused.",
    "PayloadTooLarge": f"`Content-Length` over {MAX_BODY_BYTES} bytes; refused before the "
    "body is read and the connection is closed.",
    "UnsupportedMediaType": "The body is not sent as `Content-Type: application/json`.",
    "MisdirectedRequest": "The `Host` header is not `localhost`, `127.0.0.1` or `[::1]` with "
    "the server's port (DNS-rebinding defence). With `--allow-remote`, IP literals and the "
    "bound host name are accepted too.",
    "Internal": "A bug or a database failure; the details are in the server's log, never in "
    "the body.",
    "Busy": "The server holds its maximum of open connections (or refuses every request by "
    "policy, decided at start-up); retry later.",
}

_INFO = f"""A thin adapter over the agentmem Store for desktop agents in any language. It \
listens on 127.0.0.1 (`agentmem serve`), and serves MCP over streamable HTTP at `/mcp` under \
the same rules.

- Authentication: every operation except `/v1/health` and `/v1/openapi.json` needs \
`Authorization: Bearer <token>`. The operator token (file `api-token`, 0600, under the user \
config directory; `AGENTMEM_CONFIG_DIR` overrides it) may act for any principal. A principal \
token (`agentmem serve --token-for P`) acts only for P. No, a malformed or an unknown token: \
401; a principal token acting for another principal: 403. Nothing is read or written on an \
auth failure.
- The request principal is the principal token's own; with the operator token, the \
`{PRINCIPAL_HEADER}` header, else the server's configured principal (`local` out of the box).
- The `Host` header must be a loopback name with the server's port, else 421.
- No CORS headers are ever sent. A method a path does not list (including OPTIONS and HEAD) \
answers 405 with an `Allow` header; an unknown path 404.
- Bodies: at most {MAX_BODY_BYTES} bytes by `Content-Length` (413 beyond, checked before \
reading); chunked bodies are refused (411).
- Errors: `{{"error": {{"code", "message"}}}}` with the status of the library's error \
(DESIGN.md, 'Exit codes (CLI) and HTTP statuses'); unexpected failures are 500 `internal` \
without details. One rule for 409 and 422: 422 is input that is invalid wherever it is sent; \
409 is valid input the stored state refuses (an `event_id` stored with other content, an \
event for a closed session or a completed run).
- Every response carries `Cache-Control: no-store`."""

_TRAJECTORY = {
    "description": "agentmem.trajectory/1: a redacted run in the OpenAI chat messages shape "
    "(DESIGN.md, 'Trajectory export'). Every secret and PII match is replaced with "
    "`[REDACTED:<rule>]`.",
    "type": "object",
    "properties": {
        "schema": {"const": "agentmem.trajectory/1"},
        "run_id": {"type": "string"},
        "date": {"type": "string", "format": "date"},
        "outcome": {"anyOf": [{"enum": ["succeeded", "failed", "cancelled"]}, {"type": "null"}]},
        "failure_class": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "tools": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "schema_sha256": {
                        "anyOf": [{"type": "string", "pattern": "^[0-9a-f]{64}$"}, {"type": "null"}]
                    },
                },
                "required": ["name", "schema_sha256"],
            },
        },
        "messages": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "role": {"enum": ["user", "assistant", "tool"]},
                    "content": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "tool_calls": {"type": "array", "items": {"type": "object"}},
                    "tool_call_id": {"type": "string"},
                },
                "required": ["role", "content"],
            },
        },
        "redaction": {
            "type": "object",
            "properties": {
                "rules_version": {"type": "string"},
                "replacements": {"type": "integer", "minimum": 0},
            },
            "required": ["rules_version", "replacements"],
        },
    },
    "required": [
        "schema",
        "run_id",
        "date",
        "outcome",
        "failure_class",
        "tools",
        "messages",
        "redaction",
    ],
}


def _type_schema(kind: Any) -> dict[str, Any]:
    return msgspec.json.schema(kind)


def _schemas() -> dict[str, Any]:
    event_union: Any = Union[CLIENT_EVENT_CLASSES]  # noqa: UP007 - a runtime union
    (union, *_), components = msgspec.json.schema_components(
        (
            event_union,
            AppendResult,
            ImportResult,
            SessionInfo,
            RunInfo,
            ConsentStatus,
            ConsolidationReport,
            BeliefList,
            ErrorBody,
            ErasureReport,
            ExportReply,
            Health,
        ),
        ref_template=_REF,
    )
    schemas = dict(components)
    # The store computes a tool's schema hash; a client value must match it, a rule JSON
    # Schema cannot state, so the document marks it read-only (clients omit it).
    tool = schemas["ToolDef"]["properties"]["schema_sha256"]
    schemas["ToolDef"]["properties"]["schema_sha256"] = {**tool, "readOnly": True}
    schemas["Event"] = {
        "title": "Event",
        "description": "One event in the interchange format (DESIGN.md, 'Event interchange "
        "format'); `type` selects the shape. A missing or null `principal` is filled with the "
        "request principal. `seq` is ignored.",
        **union,
    }
    schemas["EventBatch"] = {
        "title": "EventBatch",
        "description": "Events appended in one transaction: all of them land, or none.",
        "type": "array",
        "items": _ref("Event"),
    }
    schemas["SessionView"] = {
        "title": "SessionView",
        "description": "The session projection and its runs, in start order (as `agentmem "
        "session show --json`). `tools` of a run is not filled here (always []).",
        "allOf": [
            _ref("SessionInfo"),
            {
                "type": "object",
                "properties": {"runs": {"type": "array", "items": _ref("RunInfo")}},
                "required": ["runs"],
            },
        ],
    }
    schemas["TrajectoryDocument"] = {"title": "TrajectoryDocument", **_TRAJECTORY}
    return dict(sorted(schemas.items()))


def _responses(op: _Operation, *, auth: bool, json_body: bool) -> dict[str, Any]:
    out: dict[int, Any] = {
        status: {"description": text, "content": content}
        for status, (text, content) in op.ok.items()
    }
    common = {400: "BadRequest", 411: "LengthRequired", 413: "PayloadTooLarge"}
    common |= {421: "MisdirectedRequest", 500: "Internal", 503: "Busy"}
    if auth:
        common |= {401: "Unauthorized", 403: "Forbidden"}
    if json_body:
        common[415] = "UnsupportedMediaType"
    for status, name in common.items():
        out[status] = {"$ref": f"#/components/responses/{name}"}
    for status, text in op.errors.items():
        out[status] = {"description": text, "content": _ERROR}
    return {str(status): out[status] for status in sorted(out)}


def _operation(route: Any) -> dict[str, Any]:
    op = _OPERATIONS[(route.method, route.template)]
    parameters: list[dict[str, Any]] = []
    for name in re.findall(r"{(\w+)}", route.template):
        kind = Principal if name == "principal" else Id
        parameters.append(
            {
                "name": name,
                "in": "path",
                "required": True,
                "description": op.parameters[name],
                "schema": _type_schema(kind),
            }
        )
    for name in route.query:
        text, schema = _QUERY[name]
        parameters.append(
            {"name": name, "in": "query", "required": False, "description": text, "schema": schema}
        )
    if route.auth:
        parameters.append({"$ref": "#/components/parameters/Principal"})
    out: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
    }
    if not route.auth:
        out["security"] = []
    if parameters:
        out["parameters"] = parameters
    if route.json_body:
        out["requestBody"] = {
            "required": True,
            "description": "One event, or an array of events.",
            "content": _json({"oneOf": [_ref("Event"), _ref("EventBatch")]}),
        }
    out["responses"] = _responses(op, auth=route.auth, json_body=route.json_body)
    return out


_SURROGATES = "\\ud800-\\udfff"


def _representable(node: Any) -> Any:
    """The document with lone surrogates dropped from every ``pattern``.

    No request can carry a lone surrogate (headers and paths are UTF-8, and the JSON decoder
    refuses one as malformed), so excluding them changes nothing the server accepts, while
    generators (hypothesis, schemathesis) cannot build strings from a class that names them.
    """
    if isinstance(node, dict):
        return {
            k: v.replace(_SURROGATES, "") if k == "pattern" else _representable(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_representable(v) for v in node]
    return node


def document() -> dict[str, Any]:
    """The whole OpenAPI document as JSON-ready data."""
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        paths.setdefault(route.template, {})[route.method.lower()] = _operation(route)
    tags: list[str] = []
    for op in _OPERATIONS.values():
        if op.tag not in tags:
            tags.append(op.tag)
    return _representable(
        {
            "openapi": "3.1.0",
            "info": {"title": "agentmem loopback HTTP API", "version": "1", "description": _INFO},
            "servers": [
                {"url": "http://127.0.0.1:8765", "description": "agentmem serve (default)"}
            ],
            "tags": [{"name": tag} for tag in tags],
            "security": [{"bearer": []}],
            "paths": paths,
            "components": {
                "securitySchemes": {
                    "bearer": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "The operator token from the `api-token` file, or a "
                        "principal token.",
                    }
                },
                "parameters": {
                    "Principal": {
                        "name": PRINCIPAL_HEADER,
                        "in": "header",
                        "required": False,
                        "description": "Principal to act for. Default: the principal token's own, "
                        "else the server's configured principal. A principal token may name only "
                        "its own principal (403 otherwise).",
                        "schema": _type_schema(Principal),
                    }
                },
                "responses": {
                    name: {"description": text, "content": _ERROR} for name, text in _COMMON.items()
                },
                "schemas": _schemas(),
            },
        }
    )


def document_bytes() -> bytes:
    """The document as shipped: indented JSON, UTF-8, one trailing newline."""
    return (json.dumps(document(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


if __name__ == "__main__":
    sys.stdout.buffer.write(document_bytes())
