"""The memory-formation corpus is strictly well-formed, big enough, and its labels normalize.

The evaluation's activation floor is derived from these cases, so a malformed or mislabeled case
would silently weaken the gate. Cases are decoded with unknown fields rejected, independently of
the store's own event codec, so the corpus format is pinned by its README rather than by whatever
the event module accepts today.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import pytest

from agentmem.memory.claims import normalize_claim

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "memory-formation"
CASE_FILES = sorted(CORPUS.rglob("*.json"), key=lambda p: p.name)
SECRET_FAMILIES = frozenset({"aws_access_key_id", "github_token", "openai_api_key"})
PLACEHOLDER = re.compile(r"\{\{secret:([a-z0-9_]+)\}\}")
# Shapes of real credentials: none may be committed, placeholders only.
REAL_LOOKING = re.compile(
    r"AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[bpas]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)

NonEmpty = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
Text = Annotated[str, msgspec.Meta(min_length=1)]


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class ToolDef(_Strict):
    name: NonEmpty
    schema: dict[str, Any]


class ToolCall(_Strict):
    id: NonEmpty
    name: NonEmpty
    arguments: str


class _Event(_Strict, frozen=True, tag_field="type"):
    session_id: NonEmpty
    principal: NonEmpty
    run_id: NonEmpty


class RunStarted(_Event, frozen=True, tag="run.started"):
    tools: list[ToolDef]


class UserMessage(_Event, frozen=True, tag="user.message.created"):
    text: Text


class AssistantMessage(_Event, frozen=True, tag="assistant.message.created"):
    text: str
    tool_calls: list[ToolCall] = []


class ToolResult(_Event, frozen=True, tag="tool.result.created"):
    tool_call_id: NonEmpty
    content: str
    is_error: bool


class RunCompleted(_Event, frozen=True, tag="run.completed"):
    outcome: Literal["succeeded", "failed", "cancelled"]
    failure_class: NonEmpty | None = None
    error: str | None = None


Event = RunStarted | UserMessage | AssistantMessage | ToolResult | RunCompleted


class ClaimSpec(_Strict):
    kind: NonEmpty
    values: dict[str, str | None]


class Case(_Strict):
    id: Annotated[str, msgspec.Meta(pattern=r"^(?:pos|prot)-[a-z0-9-]+$")]
    description: Text
    principal: NonEmpty
    protected: bool
    tags: list[NonEmpty]
    existing_beliefs: list[ClaimSpec]
    events: Annotated[list[Event], msgspec.Meta(min_length=3)]
    labels: list[ClaimSpec]


_decoder = msgspec.json.Decoder(Case)


def load(path: Path) -> Case:
    return _decoder.decode(path.read_bytes())


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return [load(p) for p in CASE_FILES]


# The files in shards, each failure named by its case: one test per file made ten thousand
# items, and pytest-xdist's bookkeeping for them cost three times the checks themselves.
SHARDS = 16


@pytest.mark.parametrize("shard", range(SHARDS))
def test_case_files(shard: int) -> None:
    """Each case file is strictly valid, one session of well-formed runs, mixes principals
    only when tagged so, and its labels normalize idempotently."""
    failures: dict[str, str] = {}
    for path in CASE_FILES[shard::SHARDS]:
        try:
            case = load(path)
            _is_strictly_valid(path, case)
            _one_session_of_well_formed_runs(case)
            _only_other_principal_cases_mix_principals(case)
            _labels_normalize_idempotently(case)
        except (AssertionError, msgspec.MsgspecError, ValueError) as exc:
            failures[path.stem] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    assert failures == {}


def _is_strictly_valid(path: Path, case: Case) -> None:
    assert case.id == path.stem
    assert case.protected == case.id.startswith("prot-")
    assert (case.labels == []) == case.protected, "protected <=> no labels"


def test_unknown_fields_are_rejected() -> None:
    data = json.loads(CASE_FILES[0].read_text())
    data["surprise"] = 1
    with pytest.raises(msgspec.ValidationError, match="surprise"):
        _decoder.decode(json.dumps(data))
    data = json.loads(CASE_FILES[0].read_text())
    data["events"][0]["extra"] = True
    with pytest.raises(msgspec.ValidationError, match="extra"):
        _decoder.decode(json.dumps(data))


def test_counts_and_unique_ids(cases: list[Case]) -> None:
    ids = [c.id for c in cases]
    positive = [c for c in cases if not c.protected]
    protected = [c for c in cases if c.protected]
    print(f"\ncorpus: {len(cases)} cases, {len(positive)} positive, {len(protected)} protected")
    assert len(set(ids)) == len(ids)
    assert len(cases) >= 60
    assert len(positive) >= 40
    assert len(protected) >= 20


def _one_session_of_well_formed_runs(case: Case) -> None:
    assert len({e.session_id for e in case.events}) == 1
    open_run: str | None = None
    seen_runs: set[str] = set()
    calls: set[str] = set()
    for event in case.events:
        if isinstance(event, RunStarted):
            assert open_run is None, "runs do not nest or overlap"
            assert event.run_id not in seen_runs
            open_run = event.run_id
            seen_runs.add(event.run_id)
            continue
        assert event.run_id == open_run, "every event belongs to the open run"
        if isinstance(event, AssistantMessage):
            for call in event.tool_calls:
                json.loads(call.arguments)
                calls.add(call.id)
        elif isinstance(event, ToolResult):
            assert event.tool_call_id in calls, "a tool result answers an earlier call"
        elif isinstance(event, RunCompleted):
            open_run = None
    assert open_run is None, "the last run is completed"


def _only_other_principal_cases_mix_principals(case: Case) -> None:
    foreign = [e for e in case.events if e.principal != case.principal]
    assert all(isinstance(e, UserMessage) for e in foreign)
    assert bool(foreign) == ("other_principal" in case.tags)
    assert any(isinstance(e, UserMessage) and e.principal == case.principal for e in case.events)


def _labels_normalize_idempotently(case: Case) -> None:
    claims = []
    for spec in [*case.labels, *case.existing_beliefs]:
        claim = normalize_claim(spec.kind, spec.values)
        again = normalize_claim(claim.kind, claim.values)
        assert again == claim
        assert again.key() == claim.key()
    for spec in case.labels:
        claims.append(normalize_claim(spec.kind, spec.values))
    keys = [c.key() for c in claims]
    assert len(set(keys)) == len(keys), "labels are distinct"
    for a in claims:
        for b in claims:
            if a is b:
                continue
            assert not a.implies(b), f"{b.key()} is implied by {a.key()}: label only the first"
            assert a.conflict_key() != b.conflict_key(), "label only the final value"


def test_secrets_are_placeholders_in_a_few_cases_never_beside_a_label() -> None:
    with_placeholders = []
    for path in CASE_FILES:
        raw = path.read_text()
        assert not REAL_LOOKING.search(raw), f"{path.name} holds a real-looking credential"
        families = PLACEHOLDER.findall(raw)
        if families:
            with_placeholders.append(path.stem)
            assert set(families) <= SECRET_FAMILIES, f"{path.name}: unknown secret family"
            case = load(path)
            # a message carrying a secret is rejected whole (ADR-0057 decision 5), so no label
            # may rest on it: its values must all be stated in other messages
            values = {
                str(v).casefold() for label in case.labels for v in label.values.values() if v
            }
            texts = [getattr(event, "text", "") or "" for event in case.events]
            clean = " ".join(t.casefold() for t in texts if not PLACEHOLDER.search(t))
            for text in texts:
                if PLACEHOLDER.search(text):
                    # named there and restated nowhere else: the label would rest on it alone
                    named = [v for v in values if v in text.casefold() and v not in clean]
                    assert not named, f"{path.name}: a label rests on the message with a secret"
        # "{{ msg }}" in a pasted Vue template is text; only "{{secret:" opens a placeholder
        assert "{{secret" not in PLACEHOLDER.sub("", raw), f"{path.name}: malformed placeholder"
    # a few: secrets are one trap among many (each blind batch may use two)
    assert 1 <= len(with_placeholders) <= len(CASE_FILES) // 20


def test_readme_documents_the_format() -> None:
    readme = (CORPUS / "README.md").read_text()
    for field in Case.__struct_fields__:
        assert f"`{field}`" in readme, field
    for family in SECRET_FAMILIES:
        assert family in readme
    assert "{{secret:<family>}}" in readme
