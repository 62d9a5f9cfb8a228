"""Named conformance gates: executable checks, each run against a temporary database.

A gate is a function that builds the situation it guards (a run seeded with generated
secrets, a consent lifecycle), exercises the public API, and returns what it observed. Gates
exist so that a release, or an operator, can check a property on the installed code rather
than trust that the test suite once passed (ADR-0032 decision 10).
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec

__all__ = ["GATES", "GateResult", "run_gates"]


class GateResult(msgspec.Struct, frozen=True):
    """The outcome of one gate; ``details`` never contains secret text."""

    name: str
    passed: bool
    details: str


GateFn = Callable[[Path], GateResult]
GATES: dict[str, tuple[str, GateFn]] = {}


def gate(name: str, description: str) -> Callable[[GateFn], GateFn]:
    """Register a gate under its ADR name."""

    def register(fn: GateFn) -> GateFn:
        GATES[name] = (description, fn)
        return fn

    return register


def _open(tmp: Path, name: str = "gate.db"):
    from agentmem.store import Store

    return Store.open(str(tmp / name), principal="gate-user")


@gate(
    "gate.event.export_redacted",
    "A run seeded with a generated secret of every rule, in every message role and in tool "
    "arguments and results, exports with no secret left (or is refused).",
)
def export_redacted(tmp: Path) -> GateResult:
    from agentmem.errors import RedactionFailed
    from agentmem.redaction import default_registry, fakes

    rng = random.Random(20260728)
    planted: list[tuple[str, str]] = []
    with _open(tmp) as store:
        store.grant_consent()
        store.append(
            {
                "type": "run.started",
                "session_id": "gate",
                "run_id": "gate-run",
                "tools": [{"name": "lookup", "schema": {"type": "object"}}],
            }
        )
        for index, rule in enumerate(fakes.RULES_WITH_FAKES):
            secret = fakes.generate(rule, rng)
            planted.append((rule, secret))
            call_id = f"call-{index}"
            arguments = msgspec.json.encode({"query": "status", "token": secret}).decode()
            for event in (
                {"type": "user.message.created", "text": f"here it is: {secret} thanks"},
                {
                    "type": "assistant.message.created",
                    "text": f"I will use {secret} for this.",
                    "tool_calls": [{"id": call_id, "name": "lookup", "arguments": arguments}],
                },
                {
                    "type": "tool.result.created",
                    "tool_call_id": call_id,
                    "content": f"config loaded: value={secret}",
                },
            ):
                store.append({**event, "session_id": "gate", "run_id": "gate-run"})
        store.append(
            {
                "type": "run.completed",
                "session_id": "gate",
                "run_id": "gate-run",
                "outcome": "succeeded",
            }
        )
        try:
            result = store.export_run("gate-run")
        except RedactionFailed as exc:
            return GateResult(
                "gate.event.export_redacted",
                True,
                f"export refused by verification ({exc.rule}); nothing written",
            )
        _, data = store.read_artifact(result.artifact_id)
    text = data.decode("utf-8")
    decoded = msgspec.json.decode(data)
    leaked = sorted({rule for rule, secret in planted if secret in text or secret in str(decoded)})
    try:
        default_registry().verify_document(decoded)
        verified = True
    except RedactionFailed:
        verified = False
    if leaked or not verified:
        return GateResult(
            "gate.event.export_redacted",
            False,
            f"secrets of rules {', '.join(leaked) or '-'} survived the export "
            f"(verification {'passed' if verified else 'failed'})",
        )
    return GateResult(
        "gate.event.export_redacted",
        True,
        f"{len(planted)} rules x 4 positions planted; none left in the export",
    )


@gate(
    "gate.event.export_consent",
    "Consent is stamped at run start, a withdrawal blocks every export and expires existing "
    "ones, the sweeper deletes them, and a re-grant does not revive earlier runs.",
)
def export_consent(tmp: Path) -> GateResult:
    from agentmem.errors import ArtifactUnavailable, ConsentRequired

    def run(store, run_id: str) -> None:
        store.append({"type": "run.started", "session_id": f"s-{run_id}", "run_id": run_id})
        store.append(
            {
                "type": "user.message.created",
                "session_id": f"s-{run_id}",
                "run_id": run_id,
                "text": "hello",
            }
        )
        store.append(
            {
                "type": "run.completed",
                "session_id": f"s-{run_id}",
                "run_id": run_id,
                "outcome": "succeeded",
            }
        )

    def refused(fn) -> bool:
        try:
            fn()
        except (ConsentRequired, ArtifactUnavailable):
            return True
        return False

    checks: list[tuple[str, bool]] = []
    with _open(tmp) as store:
        run(store, "before-grant")
        store.grant_consent()
        run(store, "after-grant")
        checks.append(
            (
                "run before grant is unstamped and refused",
                store.run("before-grant").consent_seq is None
                and refused(lambda: store.export_run("before-grant")),
            )
        )
        first = store.export_run("after-grant")
        again = store.export_run("after-grant")
        checks.append(
            (
                "export is idempotent",
                first.created and not again.created and first.artifact_id == again.artifact_id,
            )
        )
        store.withdraw_consent()
        checks.append(
            ("withdrawal blocks export", refused(lambda: store.export_run("after-grant")))
        )
        checks.append(
            (
                "withdrawal makes the export unreadable at once",
                refused(lambda: store.read_artifact(first.artifact_id)),
            )
        )
        swept = store.sweep_artifacts()
        left = store.conn.execute("SELECT count(*) FROM artifacts").get
        blobs = store.conn.execute("SELECT count(*) FROM blobs").get
        checks.append(
            (
                "sweeper deletes the expired export and its blob",
                swept.artifacts == 1 and left == 0 and blobs == 0,
            )
        )
        store.grant_consent()
        checks.append(
            (
                "re-grant does not revive earlier runs",
                refused(lambda: store.export_run("after-grant")),
            )
        )
        run(store, "after-regrant")
        checks.append(
            ("a run after the re-grant exports", store.export_run("after-regrant").created)
        )
    failed = [name for name, ok in checks if not ok]
    if failed:
        return GateResult("gate.event.export_consent", False, "failed: " + "; ".join(failed))
    return GateResult("gate.event.export_consent", True, f"{len(checks)} lifecycle checks passed")


@gate(
    "gate.memory.no_fabrication",
    "The deterministic arm on the bundled corpus, less its held-out part, forms no fabricated "
    "belief and no belief on a protected case.",
)
def memory_no_fabrication(tmp: Path) -> GateResult:
    from agentmem.evaluation.corpus import run_case, tuned_cases
    from agentmem.memory.service import FormationService
    from agentmem.resources import data_path

    cases = tuned_cases(data_path("corpus") / "memory-formation")
    results = [run_case(case, lambda store: FormationService(store)) for case in cases]
    fabricated = [r.case_id for r in results if r.fabricated]
    protected = [r.case_id for r in results if r.policy_failures]
    positives = [r for r in results if not r.protected]
    full = sum(r.fully_supported for r in positives)
    detail = (
        f"{len(cases)} cases: {full}/{len(positives)} positive cases fully supported, "
        f"fabricated in {len(fabricated)}, beliefs on {len(protected)} protected"
    )
    if fabricated or protected:
        detail += ": " + ", ".join(fabricated + protected)
    return GateResult("gate.memory.no_fabrication", not fabricated and not protected, detail)


@gate(
    "gate.memory.evidence_schema",
    "A weakened or tampered evidence artifact is rejected; a valid one for another tuple or "
    "corpus does not activate.",
)
def memory_evidence_schema(tmp: Path) -> GateResult:
    from agentmem.errors import EvidenceMismatch
    from agentmem.memory.evidence import (
        ArmSummary,
        EvidenceArtifact,
        ModelTuple,
        coverage_floor,
        find_evidence,
        validate_artifact,
    )

    wanted = ModelTuple("x/8", "formation@8", "claims-batch@1", "ollama", "m", "default", "0")
    good = EvidenceArtifact(
        schema="agentmem.memory-evidence/1",
        evidence_id="ev-gate",
        created_at="2026-01-01",
        live=True,
        tuple=wanted,
        corpus_hash="c" * 64,
        samples=40,
        positive_cases=30,
        coverage_floor=coverage_floor(30),
        deterministic=ArmSummary(20, 0, 0, 20),
        provider=ArmSummary(30, 0, 0, 28),
    )
    tampered = {
        "weaker floor": msgspec.structs.replace(good, coverage_floor=20),
        "too few samples": msgspec.structs.replace(
            good, samples=10, positive_cases=10, coverage_floor=coverage_floor(10)
        ),
        "a fabricated belief": msgspec.structs.replace(good, provider=ArmSummary(30, 1, 0, 28)),
        "no lift": msgspec.structs.replace(good, provider=ArmSummary(20, 0, 0, 28)),
        "more policy failures": msgspec.structs.replace(good, provider=ArmSummary(30, 0, 1, 28)),
        "coverage below floor": msgspec.structs.replace(good, provider=ArmSummary(30, 0, 0, 20)),
    }
    failures = []
    try:
        validate_artifact(good)
    except EvidenceMismatch:
        failures.append("the valid artifact was rejected")
    for name, artifact in tampered.items():
        try:
            validate_artifact(artifact)
            failures.append(f"{name} was accepted")
        except EvidenceMismatch:
            pass
    path = tmp / "unknown-field.json"
    path.write_bytes(msgspec.json.encode({**msgspec.to_builtins(good), "note": "x"}))
    found, *_ = find_evidence([("operator", path)], wanted)
    if found is not None:
        failures.append("an artifact with an unknown field activated")
    path.write_bytes(msgspec.json.encode(good))
    checks = {
        "exact tuple and corpus": (wanted, "c" * 64, True),
        "another model": (msgspec.structs.replace(wanted, model="other"), "c" * 64, False),
        "another corpus": (wanted, "d" * 64, False),
    }
    for name, (tup, corpus, expect) in checks.items():
        found, *_ = find_evidence([("operator", path)], tup, corpus_hash=corpus)
        if (found is not None) != expect:
            failures.append(f"{name}: activation was {found is not None}")
    path.write_bytes(msgspec.json.encode(msgspec.structs.replace(good, live=False)))
    if find_evidence([("operator", path)], wanted, corpus_hash="c" * 64)[0] is not None:
        failures.append("a non-live (scripted) artifact activated")
    if failures:
        return GateResult("gate.memory.evidence_schema", False, "; ".join(failures))
    return GateResult(
        "gate.memory.evidence_schema",
        True,
        f"{len(tampered) + 1} tampered artifacts rejected; activation exact",
    )


def run_gates(names: list[str] | None = None) -> list[GateResult]:
    """Run the named gates (all when ``None``), each in its own temporary directory."""
    from agentmem.errors import UsageError

    selected = names or list(GATES)
    unknown = [n for n in selected if n not in GATES]
    if unknown:
        raise UsageError(f"unknown gate {unknown[0]!r}; known: {', '.join(GATES)}")
    results = []
    for name in selected:
        with tempfile.TemporaryDirectory(prefix="agentmem-gate-") as tmp:
            results.append(GATES[name][1](Path(tmp)))
    return results
