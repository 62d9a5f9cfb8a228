"""The labeled corpus through the deterministic extractor and the formation service.

Three parts, reported separately (corpus/memory-formation/README.md says how they were made):
the bundled cases written with the first extractor, ``realistic/`` written like real chat
before the clause-scoped rules and used to tune them, and ``holdout/`` written at the same time
and never tuned on. Every case must form no false belief; the figures (stated facts remembered,
positives fully supported, per-kind precision and recall) print with ``-s``. Each case also runs
stepwise, consolidating after every user message as idle consolidation does, so a value the
user corrects or retracts later in the session must not be left active.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from agentmem.evaluation.corpus import Case, CaseResult, load_corpus, run_case
from agentmem.memory.claims import CLAIM_KINDS, normalize_claim
from agentmem.memory.service import FormationService

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "memory-formation"
TOP_LEVEL = {p.stem for p in CORPUS.glob("*.json")}
PARTS = {
    "bundled": [c for c in load_corpus(CORPUS) if c.id in TOP_LEVEL],
    "realistic": load_corpus(CORPUS / "realistic"),
    "holdout": load_corpus(CORPUS / "holdout"),
}
ALL = [(part, case) for part, cases in PARTS.items() for case in cases]
RESULTS: dict[str, CaseResult] = {}

# Floors of stated facts remembered, just under what was measured when they were set (bundled
# 95.5% and held out 78.2% at deterministic-extractor/35; realistic 83.6% at /44 and /45, down from
# 87.5% as eighty harder blind batches joined it over twenty-two versions, each measured on
# arrival at 15-95% and each gaining after its rules, while no realistic case lost a fact to a
# rule; 82.8% at /54, as seventeen more blind batches joined at 26-80% on arrival; 82.3% at /57,
# as ten more joined at 29-70%; 81.7% at /67, as twenty more joined at 21-85%; 81.1% at /71, as
# nineteen more joined at 32-90%; 81.1% at /80, as twenty more joined at 37-86%; 80.98% at /81, as
# four more joined at 29-78%; 80.77% at /86, as eighteen more joined at 47-100%; 80.68% at
# /97, as twelve more joined at 44-85%): a change
# that lowers recall below them fails. Floors against regression, not targets.
FLOORS = {"bundled": 0.93, "realistic": 0.80, "holdout": 0.78}


def _deterministic(store):
    return FormationService(store)


# Under pytest-xdist the workers share what each has run: the figures test of a part needs
# every case of it, and without this it ran again the half of them another worker had run for
# its own case tests (a third of the suite's time). A result is written whole, then renamed.
_SHARED: list[Path] = []
_DECODER = msgspec.msgpack.Decoder(CaseResult)


@pytest.fixture(scope="session", autouse=True)
def _share_results_between_workers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if hasattr(request.config, "workerinput"):
        shared = tmp_path_factory.getbasetemp().parent / "corpus-results"
        shared.mkdir(exist_ok=True)
        _SHARED.append(shared)


def _result(case: Case) -> CaseResult:
    if case.id in RESULTS:
        return RESULTS[case.id]
    path = _SHARED[0] / f"{case.id}.msgpack" if _SHARED else None
    if path is not None and path.exists():
        result = _DECODER.decode(path.read_bytes())
    else:
        result = run_case(case, _deterministic, stepwise=True)
        if path is not None:
            partial = path.with_name(f"{path.name}.{os.getpid()}")
            partial.write_bytes(msgspec.msgpack.encode(result))
            os.replace(partial, path)
    RESULTS[case.id] = result
    return result


# The held-out part is measured, never asserted case by case: a failing held-out case that had to
# be fixed would be tuned on. Its figures print beside the others.
TUNED = [(part, case) for part, case in ALL if part != "holdout"]


# The held-out part in eight slices, so the workers share running it: each slice must run
# through the formation service without an error, its scores consistent (a crash on unread text
# is a defect even where the figures are not asserted); the figures test then reads the results.
HELD_OUT_SLICES = 8


@pytest.mark.parametrize("index", range(HELD_OUT_SLICES))
def test_held_out_slice_runs_cleanly(index: int) -> None:
    for case in PARTS["holdout"][index::HELD_OUT_SLICES]:
        result = _result(case)
        assert 0 <= result.supported <= result.labels, case.id
        assert result.fabricated + result.supported <= len(result.beliefs), case.id


# The tuned cases in shards, each failure named by its case: one test per case made seven
# thousand items, and pytest-xdist's bookkeeping for them cost a minute of the suite.
CASE_SHARDS = 64


@pytest.mark.parametrize("shard", range(CASE_SHARDS))
def test_cases_form_no_false_belief(shard: int) -> None:
    failures: dict[str, str] = {}
    for _, case in TUNED[shard::CASE_SHARDS]:
        result = _result(case)
        if result.fabricated:
            failures[case.id] = f"fabricated {result.beliefs}"
        elif result.false_active:
            failures[case.id] = "a corrected or retracted value is active"
        elif case.protected and result.beliefs:
            failures[case.id] = f"protected case formed {result.beliefs}"
    assert failures == {}


def _figures(part: str, cases: list[Case]) -> tuple[float, float]:
    results = [_result(c) for c in cases]
    positives = [(c, r) for c, r in zip(cases, results, strict=True) if not c.protected]
    traps = [r for c, r in zip(cases, results, strict=True) if c.protected]
    facts = sum(r.labels for _, r in positives)
    remembered = sum(r.supported for _, r in positives)
    full = sum(r.fully_supported for _, r in positives)
    labels_by_kind: Counter[str] = Counter()
    formed_by_kind: Counter[str] = Counter()
    right_by_kind: Counter[str] = Counter()
    for case, result in zip(cases, results, strict=True):
        labels_by_kind.update(normalize_claim(x.kind, x.values).kind for x in case.labels)
        formed_by_kind.update(b.kind for b in result.beliefs)
        right_by_kind.update(result.supported_by_kind)
    print(
        f"\n{part}: {len(cases)} cases; stated facts remembered {remembered}/{facts} "
        f"({remembered / max(facts, 1):.1%}); positives fully supported {full}/{len(positives)} "
        f"({full / max(len(positives), 1):.1%}); fabricated "
        f"{sum(r.fabricated for r in results)}; beliefs on {len(traps)} traps "
        f"{sum(len(r.beliefs) for r in traps)}; corrected values left active "
        f"{sum(r.false_active for r in results)}"
    )
    print(f"  {'kind':<15} {'precision':>10} {'recall':>14}")
    for kind in CLAIM_KINDS:
        if labels_by_kind[kind] or formed_by_kind[kind]:
            precision = right_by_kind[kind] / formed_by_kind[kind] if formed_by_kind[kind] else 1
            right, stated = right_by_kind[kind], labels_by_kind[kind]
            print(
                f"  {kind:<15} {precision:>10.0%} {right:>6}/{stated:<3}"
                f" {right / max(stated, 1):>4.0%}"
            )
    return remembered / max(facts, 1), full / max(len(positives), 1)


@pytest.mark.parametrize("part", list(PARTS))
def test_corpus_figures(part: str) -> None:
    cases = PARTS[part]
    assert len(cases) >= 40
    recall, _ = _figures(part, cases)
    assert recall >= FLOORS[part]
