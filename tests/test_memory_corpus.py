"""The labeled corpus through the deterministic extractor and the formation service."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentmem.evaluation.corpus import CaseResult, load_corpus, run_case
from agentmem.memory.service import FormationService

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "memory-formation"
CASES = load_corpus(CORPUS)
RESULTS: dict[str, CaseResult] = {}


def _deterministic(store):
    return FormationService(store)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_forms_no_false_belief(case) -> None:
    result = run_case(case, _deterministic)
    RESULTS[case.id] = result
    assert result.fabricated == 0, f"{case.id}: fabricated {result.beliefs}"
    if case.protected:
        assert result.beliefs == [], f"{case.id}: protected case formed {result.beliefs}"


def test_corpus_figures() -> None:
    results = [RESULTS.get(c.id) or run_case(c, _deterministic) for c in CASES]
    positives = [r for r in results if not r.protected]
    protected = [r for r in results if r.protected]
    full = sum(r.fully_supported for r in positives)
    supported = sum(r.supported for r in results)
    fabricated = sum(r.fabricated for r in results)
    print(
        f"\ndeterministic formation@7 on {len(results)} cases: {full}/{len(positives)} positive "
        f"cases fully supported ({full / len(positives):.1%}), {supported} supported beliefs, "
        f"{fabricated} fabricated, {sum(r.policy_failures for r in protected)} beliefs on "
        f"{len(protected)} protected cases"
    )
    assert len(positives) >= 40 and len(protected) >= 20
    assert fabricated == 0
    assert full >= 0.8 * len(positives)
