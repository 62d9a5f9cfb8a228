"""The output cap of a provider call is what a full claim batch from the messages sent can take,
not the 4,096-token ceiling: a slow local server is not left generating for a client that gave
up at its deadline (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

import agentmem
from agentmem.memory.provider import (
    BUDGET,
    ProviderAssistedCandidateExtractor,
    batch_output_tokens,
)
from agentmem.memory.service import FormationService
from agentmem.providers import make_provider
from agentmem.providers.pricing import load_catalog


def _cap_for(text: str, tmp_path: Path) -> int:
    script = tmp_path / "script.json"
    script.write_text("[]")
    provider = make_provider({"provider": "scripted", "script": str(script)})
    extractor = ProviderAssistedCandidateExtractor.for_evaluation(provider, load_catalog(None))
    with agentmem.open(str(tmp_path / f"{len(text)}.db"), principal="u") as store:
        store.append({"type": "user.message.created", "session_id": "s1", "text": text})
        FormationService(store, assist=extractor).consolidate("s1", trigger="close")
        rows = store.events_json(principal=None, session_id=None, types=None)
        audits = [json.loads(r) for r in rows if b"memory.provider.called" in r]
    (audit,) = audits
    return audit["max_output_tokens"]


def test_a_short_episode_asks_for_what_a_batch_can_take(tmp_path: Path) -> None:
    short = "I work as a nurse in Leeds and I have a cat named Miso."
    cap = _cap_for(short, tmp_path)
    assert cap == batch_output_tokens(len(short.encode())) < BUDGET.max_output_tokens * 0.6
    # longer messages may need longer quotes and values; never past the fixed ceiling
    long = "I work as a nurse in Leeds. " * 40
    assert cap < _cap_for(long, tmp_path) == BUDGET.max_output_tokens


def test_the_cap_grows_with_the_longest_message_and_stops_at_the_limits() -> None:
    assert batch_output_tokens(60) < batch_output_tokens(200) < batch_output_tokens(500)
    assert batch_output_tokens(10_000) == batch_output_tokens(100_000)
