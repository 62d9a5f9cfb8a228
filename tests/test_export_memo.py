"""An export scans each distinct string once (``ScanMemo``) without weakening any stage.

The memo shared by the redaction and the verification stage caches the scan, a pure function
of the text; these tests hold that sharing it changes no result and that verification still
fails closed when the replacement stage leaves a hit in place.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentmem
from agentmem.redaction import ScanMemo, default_registry, engine, fakes

_FILLER = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x2FFF), max_size=30
)


def _document(rule: str, encoding: str, seed: int, pre: str) -> dict[str, Any]:
    rng = random.Random(seed)
    secret, _ = fakes.generate_case(rule, rng)
    shown = fakes.encode(secret, encoding, rng)
    return {
        "messages": [
            {"role": "user", "content": pre},
            {"role": "assistant", "content": f"{pre} {shown}"},
            {"role": "user", "content": pre},  # the same string again: answered by the memo
            {
                "role": "assistant",
                "tool_calls": [
                    {"function": {"name": "run", "arguments": json.dumps({"cmd": shown})}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": f"{pre} {shown}"},
        ],
        "env": [{"name": "SERVICE_API_KEY", "value": shown}],
        "order_id": "4539578763621486",
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule=st.sampled_from(fakes.RULES_WITH_FAKES),
    encoding=st.sampled_from(fakes.ENCODINGS),
    seed=st.integers(0, 2**32),
    pre=_FILLER,
)
def test_a_shared_memo_changes_no_result(rule: str, encoding: str, seed: int, pre: str) -> None:
    reg = default_registry()
    doc = _document(rule, encoding, seed, pre)
    alone = reg.redact_json(doc)
    memo = ScanMemo(reg)
    shared = reg.redact_json(doc, memo=memo)
    assert shared == alone

    def verdict(**kwargs: Any) -> tuple[str, str] | None:
        try:
            reg.verify_document(shared[0], **kwargs)
        except agentmem.RedactionFailed as exc:
            return exc.rule, exc.path
        return None

    assert verdict(memo=memo) == verdict()
    # and on the unredacted document, whose strings the memo has seen: the same refusal
    memo_raw = ScanMemo(reg)
    reg.redact_json(doc, memo=memo_raw)
    with pytest.raises(agentmem.RedactionFailed) as with_memo:
        reg.verify_document(doc, memo=memo_raw)
    with pytest.raises(agentmem.RedactionFailed) as without:
        reg.verify_document(doc)
    assert (with_memo.value.rule, with_memo.value.path) == (without.value.rule, without.value.path)


def test_verification_fails_closed_when_replacement_leaves_the_hit(store, monkeypatch) -> None:
    # The redaction stage finds the token (the memo records it) but a broken replacement
    # writes the text back unchanged: verification, reading the same memo, must still refuse.
    secret = fakes.generate("github_token", random.Random(7))
    store.grant_consent("alice")
    base = {"session_id": "s1", "run_id": "r1", "principal": "alice"}
    store.append_many(
        [
            {"type": "run.started", **base},
            {"type": "user.message.created", **base, "text": f"my token is {secret}"},
            {"type": "run.completed", **base, "outcome": "succeeded"},
        ]
    )
    monkeypatch.setattr(engine, "_replaced", lambda text, found: text)
    with pytest.raises(agentmem.RedactionFailed) as info:
        store.export_run("r1", principal="alice")
    assert info.value.rule == "github_token" and info.value.path == "$.messages[0].content"
    assert secret not in str(info.value)
    assert store.conn.execute("SELECT count(*) FROM artifacts").get == 0
