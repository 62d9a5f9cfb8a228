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

from collections import Counter
from pathlib import Path

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
# rule): a change that lowers recall below them fails. Floors against regression, not targets.
FLOORS = {"bundled": 0.93, "realistic": 0.83, "holdout": 0.78}


def _deterministic(store):
    return FormationService(store)


def _result(case: Case) -> CaseResult:
    if case.id not in RESULTS:
        RESULTS[case.id] = run_case(case, _deterministic, stepwise=True)
    return RESULTS[case.id]


# The held-out part is measured, never asserted case by case: a failing held-out case that had to
# be fixed would be tuned on. Its figures print beside the others.
TUNED = [(part, case) for part, case in ALL if part != "holdout"]


@pytest.mark.parametrize(("part", "case"), TUNED, ids=[c.id for _, c in TUNED])
def test_case_forms_no_false_belief(part: str, case: Case) -> None:
    result = _result(case)
    assert result.fabricated == 0, f"{case.id}: fabricated {result.beliefs}"
    assert result.false_active == 0, f"{case.id}: a corrected or retracted value is active"
    if case.protected:
        assert result.beliefs == [], f"{case.id}: protected case formed {result.beliefs}"


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
