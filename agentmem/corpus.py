"""The memory-formation corpus's identity: the case format, loading, the held-out part, the hash.

Below both memory and evaluation: the composition binds activation evidence to the hash of the
corpus this release ships, and the evaluation runs the same cases, so neither reaches into the
other for them. Running and scoring cases is the evaluation's (``agentmem.evaluation.corpus``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from agentmem.canonical import canonical_json
from agentmem.errors import InvalidInput

__all__ = ["HOLDOUT", "Case", "Label", "corpus_hash", "load_corpus", "tuned_cases"]


class Label(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A normalized claim, as written in a case file."""

    kind: str
    values: dict[str, str | None]


class Case(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One labeled session (see corpus/memory-formation/README.md)."""

    id: str
    description: str
    principal: str
    protected: bool
    tags: list[str]
    existing_beliefs: list[Label]
    events: list[dict[str, Any]]
    labels: list[Label]


def load_corpus(directory: Path) -> list[Case]:
    """All cases of ``directory`` and its subdirectories (``realistic/``, ``holdout/``), sorted by
    id; a malformed case is an error naming its file."""
    if not directory.is_dir():
        raise InvalidInput(f"no corpus directory at {directory}")
    cases = []
    decoder = msgspec.json.Decoder(Case)
    for path in sorted(directory.rglob("*.json"), key=lambda p: p.name):
        try:
            case = decoder.decode(path.read_bytes())
        except msgspec.ValidationError as exc:
            raise InvalidInput(f"{path.name}: {exc}") from exc
        except msgspec.DecodeError as exc:
            raise InvalidInput(f"{path.name}: malformed JSON: {exc}") from exc
        if case.id != path.stem:
            raise InvalidInput(f"{path.name}: id {case.id!r} does not match the file name")
        cases.append(case)
    if not cases:
        raise InvalidInput(f"no cases (*.json) in {directory}")
    return cases


#: The part of the corpus no rule is tuned on (corpus/memory-formation/README.md).
HOLDOUT = "holdout"


def tuned_cases(directory: Path) -> list[Case]:
    """The cases of ``directory`` less its held-out part: what a gate may assert on, since a
    held-out case that had to pass would be tuned on."""
    held = (
        {c.id for c in load_corpus(directory / HOLDOUT)}
        if (directory / HOLDOUT).is_dir()
        else set()
    )
    return [c for c in load_corpus(directory) if c.id not in held]


def corpus_hash(cases: Iterable[Case]) -> str:
    """SHA-256 over the canonical encoding of every case, in id order."""
    import hashlib

    digest = hashlib.sha256()
    for case in sorted(cases, key=lambda c: c.id):
        digest.update(canonical_json(case))
    return digest.hexdigest()
