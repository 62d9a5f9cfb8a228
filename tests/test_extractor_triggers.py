"""The extractor's and markers' trigger words stay sound: a pattern that matches a text is
never skipped by the prefilter for that text.

The prefilter (trigger words kept by hand next to each pattern) is what makes the
deterministic extractor fast; a pattern edited without updating its triggers would silently
stop running on some texts. This test runs every gated pattern on every corpus text, every
sentence and clause of them, and generated variations, and checks the prefilter agrees.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agentmem.memory.extractor as X
import agentmem.memory.markers as M
from agentmem.evaluation.corpus import load_corpus

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "memory-formation"


def _gates() -> list[tuple[str, object, int, re.Pattern[str]]]:
    gates = []
    for name, value in vars(X).items():
        if isinstance(value, X._Gated):
            gates.append((name, X._PREFILTER, value.bit, value.pattern))
        elif isinstance(value, list | tuple):
            for i, item in enumerate(value):
                gated = item[1] if isinstance(item, tuple) and len(item) == 2 else item
                if isinstance(gated, X._Gated):
                    gates.append((f"{name}[{i}]", X._PREFILTER, gated.bit, gated.pattern))
    return gates


def _marker_gates() -> list[tuple[str, object, int, re.Pattern[str]]]:
    return [
        (code, M._PREFILTER, bit, pattern) for code, pattern, bit in (*M._INJECTION, *M._TRANSIENT)
    ]


# The extractor's patterns read only the user's messages; the markers read any text
MARKER_GATES = _marker_gates()
GATES = _gates() + MARKER_GATES


def _texts() -> tuple[list[str], list[str]]:
    """Each corpus text with its sentences and clauses, once: the user's, then the others'."""
    users: dict[str, None] = {}
    others: dict[str, None] = {}
    for case in load_corpus(CORPUS):
        for event in case.events:
            text = event.get("text") or event.get("content") or ""
            into = users if event["type"] == "user.message.created" else others
            if text:
                into[text] = None
                into.update((s, None) for s in re.split(r"(?<=[.!?;,])\s+", text) if s)
    return list(users), [t for t in others if t not in users]


TEXTS, OTHER_TEXTS = _texts()


def _check(text: str, gates: list[tuple[str, object, int, re.Pattern[str]]] = GATES) -> list[str]:
    unsound = []
    scans = {}
    for name, prefilter, bit, pattern in gates:
        if pattern.search(text):
            mask = scans.setdefault(id(prefilter), prefilter.scan(text))
            if not mask & bit:
                unsound.append(name)
    return unsound


def test_there_are_gated_patterns() -> None:
    assert len(GATES) > 50


# Every text of the corpus is checked; in shards, so that parallel workers share them (checked
# as one test it took four of the suite's twelve minutes on one worker).
SHARDS = 8


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_corpus_texts_never_skip_a_matching_pattern(shard: int) -> None:
    failures = {text[:60]: _check(text) for text in TEXTS[shard::SHARDS]}
    failures.update({text[:60]: _check(text, MARKER_GATES) for text in OTHER_TEXTS[shard::SHARDS]})
    assert {k: v for k, v in failures.items() if v} == {}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(TEXTS), min_size=1, max_size=3),
    st.sampled_from(["", " ", "\n", ". ", "; "]),
    st.sampled_from([str, str.upper, str.lower, str.title]),
)
def test_combined_and_recased_texts_never_skip_a_matching_pattern(parts, glue, case) -> None:
    assert _check(case(glue.join(parts))) == []
