"""``agentmem eval ...``: offline evaluations."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from cyclopts import Parameter

from agentmem.cli.common import (
    ArtifactArg,
    JsonOpt,
    PrincipalOpt,
    flag,
    print_json,
    print_table,
    progress,
    whole_number,
)

if TYPE_CHECKING:
    from agentmem.evaluation.harness import EvaluationResult


def redaction(
    *,
    corpus: Annotated[
        Path | None, Parameter(help="Redaction corpus directory (default: the bundled one).")
    ] = None,
    json: JsonOpt = False,
) -> int:
    """Score the redaction rules on the redaction corpus: recall and false positives per family,
    and recall per encoding.

    Exits 7 if any planted secret is missed.
    """
    from agentmem.redaction.evaluation import evaluate
    from agentmem.resources import data_path

    report = evaluate(corpus or data_path("corpus") / "redaction")
    data = report.to_dict()
    if json:
        print_json(data)
    else:
        print_table(
            ["family", "planted", "missed", "recall", "false positives"],
            [
                (
                    row["family"],
                    row["planted"],
                    row["missed"],
                    f"{row['recall']:.1%}",
                    row["false_positives"],
                )
                for row in data["per_family"]
            ],
        )
        print()
        print_table(
            ["encoding", "planted", "missed", "recall"],
            [
                (row["encoding"], row["planted"], row["missed"], f"{row['recall']:.1%}")
                for row in data["per_encoding"]
            ],
        )
        print(
            f"missed {report.missed_total} of {report.positives} planted secrets; "
            f"false positives {report.false_positives_total} on {report.benign} benign texts"
        )
    return 7 if report.missed_total else 0


def memory_formation(
    *,
    corpus: Annotated[
        Path | None, Parameter(help="Corpus directory (default: the bundled one).")
    ] = None,
    live: Annotated[bool, flag("Allow a provider that makes network calls.")] = False,
    out: Annotated[Path | None, Parameter(help="Where to write the evidence artifact.")] = None,
    report: Annotated[Path | None, Parameter(help="Write a self-contained HTML report.")] = None,
    provider: Annotated[str | None, Parameter(help="Provider (default: settings).")] = None,
    model: Annotated[str | None, Parameter(help="Model (default: settings).")] = None,
    base_url: Annotated[str | None, Parameter(help="Server URL (default: settings).")] = None,
    api_key_env: Annotated[
        str | None, Parameter(help="Environment variable holding the API key.")
    ] = None,
    script: Annotated[
        Path | None, Parameter(help="Recorded responses for the scripted provider.")
    ] = None,
    cases: Annotated[
        str | None,
        Parameter(
            help="Only the cases whose id matches this shell pattern (e.g. 'real-*'); a "
            "subset never writes evidence."
        ),
    ] = None,
    limit: Annotated[
        int | None,
        whole_number("At most this many cases (a quick look at a new model).", minimum=1),
    ] = None,
    progress_log: Annotated[
        Path | None,
        Parameter(
            help="Where each case's result is appended as one JSON line as soon as it "
            "finishes. Default: next to the evidence artifact, ending in .cases.jsonl."
        ),
    ] = None,
    json: JsonOpt = False,
) -> int:
    """Evaluate provider-assisted formation against the deterministic arm on the labeled corpus.

    Writes an evidence artifact only when the activation schema passes; otherwise prints the
    per-case diagnostics, writes nothing and exits 9. Each case's result is written to the
    progress log as it finishes. On a terminal a progress bar is shown on stderr (not with
    --json); when stderr is not a terminal (a log file, CI), a progress line is printed after
    the first case and then every 30 seconds, --json or not, because a live run can take an
    hour.
    """
    import sys

    import msgspec

    from agentmem.config import load_settings
    from agentmem.errors import UsageError
    from agentmem.evaluation.harness import evaluate_memory_formation, write_atomically
    from agentmem.memory.composition import tuple_for
    from agentmem.memory.provider import ProviderAssistedCandidateExtractor
    from agentmem.providers import make_provider
    from agentmem.providers.pricing import load_catalog
    from agentmem.resources import data_path

    settings = load_settings()
    spec = {k: v for k, v in msgspec.to_builtins(settings.memory.provider).items() if v}
    flags = {
        "provider": provider,
        "model": model,
        "base_url": base_url,
        "api_key_env": api_key_env,
        "script": str(script) if script else None,
    }
    if provider is not None:
        spec = {}
    spec.update({k: v for k, v in flags.items() if v is not None})
    if not spec.get("provider"):
        raise UsageError("no provider: pass --provider/--model or configure memory.provider")
    chosen = make_provider(spec)
    if chosen.network and not live:
        raise UsageError(f"provider {chosen.provider!r} makes network calls; pass --live to run it")
    pricing = settings.memory.pricing_path
    catalog = load_catalog(Path(pricing) if pricing else None)
    wanted = tuple_for(catalog, chosen.provider, chosen.model)
    target = out or Path(f"memory-evidence-{chosen.provider}-{_slug(chosen.model)}.json")
    log_path = progress_log or target.with_name(target.name.removesuffix(".json") + ".cases.jsonl")
    if not log_path.parent.is_dir():
        raise UsageError(f"cannot write the progress log {log_path}: no such directory")
    log = _CaseLog(log_path)
    lines = ProgressLines(sys.stderr)
    with log, progress("evaluating cases", enabled=not json) as update:

        def on_case(entry: dict) -> None:
            log.write(entry)
            lines.case(entry)

        def tick(done: int, total: int) -> None:
            update(done, total)
            lines.tick(done, total)

        result = evaluate_memory_formation(
            corpus or data_path("corpus") / "memory-formation",
            lambda: ProviderAssistedCandidateExtractor.for_evaluation(
                chosen, catalog, environment=settings.environment
            ),
            tuple_=wanted,
            live=chosen.network,
            progress=tick,
            on_case=on_case,
            pattern=cases,
            limit=limit,
        )
    lines.done(len(result.cases))
    if result.passed and result.artifact is not None:
        write_atomically(
            target, msgspec.json.format(msgspec.json.encode(result.artifact), indent=2) + b"\n"
        )
    if report is not None:
        from agentmem.evaluation.report import render_html

        html = render_html(
            result,
            title=f"memory-formation evaluation: {chosen.provider}/{chosen.model}",
            tuple_text=" ".join(f"{k}={v}" for k, v in msgspec.to_builtins(wanted).items()),
        )
        write_atomically(report, html.encode("utf-8"))
    if json:
        data = msgspec.to_builtins(result)
        data["artifact_path"] = str(target) if result.passed else None
        print_json(data)
    else:
        _print_summary(result)
        if result.passed:
            print(f"PASSED: evidence written to {target}", file=sys.stderr)
        else:
            print(
                "FAILED: " + "; ".join(result.problems) + "; no artifact written", file=sys.stderr
            )
    return 0 if result.passed else 9


class _CaseLog:
    """The progress log: one JSON line per finished case, flushed at once. The file is created
    with the first case, so a run refused before any case ran leaves nothing behind."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle: Any = None

    def write(self, entry: dict) -> None:
        import msgspec

        from agentmem.errors import UsageError

        if self.handle is None:
            try:
                self.handle = self.path.open("wb")
            except OSError as exc:
                raise UsageError(
                    f"cannot write the progress log {self.path}: {exc.strerror}"
                ) from exc
        self.handle.write(msgspec.json.encode(entry) + b"\n")
        self.handle.flush()

    def __enter__(self) -> _CaseLog:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


class ProgressLines:
    """Progress for a log that is not a terminal: one line after the first case (the run is
    alive and the provider answers), then one every ``every`` seconds, then a last one."""

    def __init__(self, stream: Any, every: float = 30.0) -> None:
        self.stream = stream
        self.enabled = not stream.isatty()
        self.every = every
        self.started = time.monotonic()
        self.last: float | None = None
        self.outcomes: Counter[str] = Counter()
        self.failing = 0

    def case(self, entry: dict) -> None:
        self.outcomes.update(entry["provider"]["provider_outcomes"])
        self.failing += bool(entry["failing"])

    def tick(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.enabled and (self.last is None or now - self.last >= self.every):
            self.last = now
            self._line(f"{done}/{total} cases")

    def done(self, total: int) -> None:
        if self.enabled:
            self._line(f"{total}/{total} cases, finished")

    def _line(self, where: str) -> None:
        elapsed = int(time.monotonic() - self.started)
        calls = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())) or "none"
        self.stream.write(
            f"agentmem: eval memory-formation: {where}; {elapsed // 60}m{elapsed % 60:02d}s "
            f"elapsed; {self.failing} failing; provider calls: {calls}\n"
        )
        self.stream.flush()


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "model"


def _print_summary(result: EvaluationResult) -> None:
    d, p = result.deterministic, result.provider
    print_table(
        ["arm", "supported", "fabricated", "policy failures", "positive fully supported"],
        [
            (
                "deterministic",
                d.supported,
                d.fabricated,
                d.policy_failures,
                f"{d.fully_supported_positive}/{result.positive_cases}",
            ),
            (
                "provider-assisted",
                p.supported,
                p.fabricated,
                p.policy_failures,
                f"{p.fully_supported_positive}/{result.positive_cases} "
                f"(floor {result.coverage_floor})",
            ),
        ],
        wrap=("positive fully supported",),
        right=("supported", "fabricated", "policy failures"),
    )
    print(f"provider calls: {_counts(p.provider_outcomes) or 'none'}")
    print()
    kinds = sorted(set(d.by_kind) | set(p.by_kind))
    print_table(
        ["claim kind", "deterministic", "provider-assisted"],
        [(k, d.by_kind.get(k, 0), p.by_kind.get(k, 0)) for k in kinds],
        right=("deterministic", "provider-assisted"),
    )
    # On a failed evaluation every case is a diagnostic (failing ones first); on a pass, only
    # the failing ones (there can be some while the aggregate criteria still hold).
    failing = result.cases if not result.passed else [c for c in result.cases if c["failing"]]
    if failing:
        print()
        print_table(
            ["case", "labels", "supported", "fabricated", "rejected", "provider calls"],
            [
                (
                    c["case"] + (" (failing)" if c["failing"] else ""),
                    "protected" if c["protected"] else c["labels"],
                    c["provider"]["supported"],
                    c["provider"]["fabricated"],
                    _counts(c["provider"]["rejected"]) or "-",
                    _counts(c["provider"]["provider_outcomes"]) or "-",
                )
                for c in failing
            ],
            wrap=("case", "rejected", "provider calls"),
            right=("supported", "fabricated"),
        )


def _counts(counts: dict[str, int]) -> str:
    """``timeout 3, accepted 9``: most frequent first."""
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def promote(
    artifact_id: ArtifactArg,
    /,
    *,
    to: Annotated[Path, Parameter(help="Directory for the case file.")],
    principal: PrincipalOpt = None,
    operator: Annotated[
        bool, flag("Read as an operator (an administrator's read), whatever the principal.")
    ] = False,
    db: Annotated[Path | None, Parameter(name="--db", help="Database file.")] = None,
    json: JsonOpt = False,
) -> None:
    """Convert a trajectory export into a memory-formation case with empty labels to review.

    Reads only the redacted artifact (never the event log); refuses expired or withdrawn ones.
    """
    from agentmem.cli.common import read_store
    from agentmem.evaluation.promote import promote as do_promote

    with read_store(db, principal) as store:
        path = do_promote(store, artifact_id, to, principal=principal, operator=operator)
    if json:
        print_json({"case_path": str(path)})
    else:
        print(f"wrote {path}; fill in its labels (or mark it protected) and review it")
