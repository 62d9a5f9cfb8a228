"""Schemathesis against the live API: every generated request answers as the document says.

The document is the shipped ``agentmem/openapi.json``; the server is a real one on loopback.
Schemathesis generates schema-valid (and, by its defaults, some schema-invalid) requests per
operation and checks each response: no 5xx, a documented status, content type, headers and
body schema, and no schema-valid request refused. Bounded (15 examples per operation).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

schemathesis = pytest.importorskip("schemathesis")
pytestmark = pytest.mark.slow  # about 30 s on two cores: 15 examples for each operation

from hypothesis import HealthCheck, settings  # noqa: E402

import agentmem  # noqa: E402
from agentmem.config import Settings  # noqa: E402
from agentmem.http import AgentmemServer  # noqa: E402
from agentmem.ids import ID_PATTERN  # noqa: E402

DOC = json.loads(Path(agentmem.__file__).with_name("openapi.json").read_bytes())
schema = schemathesis.openapi.from_dict(DOC)
# Examples and property-based fuzzing; the coverage phase builds boundary strings without
# applying a pattern's length limits together (a schemathesis limitation), so it is left out.
schema.config.phases.update(phases=["examples", "fuzzing"])


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    root = tmp_path_factory.mktemp("schemathesis")
    token_file = root / "cfg" / "api-token"
    with AgentmemServer(settings=Settings(db=str(root / "st.db")), token_file=token_file) as srv:
        yield srv.url, {"Authorization": f"Bearer {token_file.read_text().strip()}"}
    with agentmem.open(str(root / "st.db")) as store:
        assert store.check() == []


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_live_api_conforms_to_its_document(case: Any, live: tuple[str, dict]) -> None:
    base_url, headers = live
    # A case whose headers were generated schema-invalid may be the one without the required
    # bearer token: sending ours would turn it valid, and the server's 200 would then be read
    # as invalid data accepted. Such a case goes out as generated (the server must refuse it).
    meta = getattr(case, "meta", None)
    if meta is not None and meta.is_negative_at("header"):
        headers = {}
    refusal = _refusal_outside_the_schema(case)
    if refusal is not None:
        status, why = refusal
        response = case.call(base_url=base_url, headers=headers)
        assert response.status_code == status, f"{why}: answered {response.status_code}"
        return
    case.call_and_validate(base_url=base_url, headers=headers)


_PRINTABLE_ID = re.compile(ID_PATTERN)


def _refusal_outside_the_schema(case: Any) -> tuple[int, str] | None:
    """The refusal a case must get when it breaks a rule JSON Schema cannot carry.

    Schemathesis sends such a case as schema-valid, and would read the server's correct refusal
    as valid data rejected: a run.started naming one tool twice (the document says so in the
    field's description; JSON Schema has no "unique by property"), and a path principal that
    is not a printable id (schemathesis occasionally sends a path value outside the declared
    pattern, e.g. with a TAB, as positive data). Each must be refused, with its status.
    """
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive:
        return None  # a negative case is expected to be refused anyway
    principal = (case.path_parameters or {}).get("principal")
    if isinstance(principal, str):
        value = unquote(principal)
        if not (_PRINTABLE_ID.search(value) and len(value) <= 128):
            return 400, "a path principal outside the published pattern"
    body = case.body if isinstance(case.body, list) else [case.body]
    for event in body:
        if isinstance(event, dict) and event.get("type") == "run.started":
            tools = event.get("tools")
            tools = tools if isinstance(tools, list) else []
            names = [t.get("name") for t in tools if isinstance(t, dict)]
            if len(names) != len(set(map(str, names))):
                return 422, "a run.started naming one tool twice"
    return None
