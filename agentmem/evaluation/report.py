"""One self-contained HTML file for an evaluation: summary, bar chart, failing cases first.

No external assets (no scripts, fonts or stylesheets fetched), so the report can be attached to
a review, archived, or opened offline. Every value is HTML-escaped. How the provider calls
ended (accepted, timeout, schema violation, ...) is shown in the summary and per case: a live
run whose calls all timed out must not look like an offline one. Passing cases are folded
into a ``<details>`` element, so the failing ones are what a reader sees first.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentmem.evaluation.harness import EvaluationResult

__all__ = ["render_html"]

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px}
th{background:#f3f3f3;text-align:left}.fail{background:#fde8e8}.pass{color:#196619}
.bad{color:#a11}.det{fill:#7a8fa6}.prov{fill:#d08c2a}
.outcomes span{display:inline-block;margin:0 .4em .2em 0;padding:0 .4em;border-radius:3px;
background:#eef2f6}.outcomes .warn{background:#fde2c4}summary{cursor:pointer;margin:1em 0}
"""

#: Outcomes that mean the provider answered as asked; every other class is shown as a warning.
_GOOD_OUTCOMES = frozenset({"accepted"})


def _outcomes(counts: dict[str, int]) -> str:
    """Outcome classes as labels, most frequent first (``-`` when no provider was called)."""
    if not counts:
        return "-"
    labels = []
    for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        warn = "" if name in _GOOD_OUTCOMES else ' class="warn"'
        labels.append(f"<span{warn}>{escape(name)} {count}</span>")
    return '<span class="outcomes">' + "".join(labels) + "</span>"


def _chart(result: EvaluationResult) -> str:
    kinds = sorted(set(result.deterministic.by_kind) | set(result.provider.by_kind))
    if not kinds:
        return "<p>No supported beliefs in either arm.</p>"
    top = max([*result.deterministic.by_kind.values(), *result.provider.by_kind.values(), 1])
    row, bar_w, height = 28, 300, 28 * len(kinds) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{height}" '
        'role="img" aria-label="supported beliefs per claim kind">'
    ]
    for i, kind in enumerate(kinds):
        y = 10 + i * row
        d = result.deterministic.by_kind.get(kind, 0)
        p = result.provider.by_kind.get(kind, 0)
        parts.append(f'<text x="0" y="{y + 14}" font-size="12">{escape(kind)}</text>')
        parts.append(
            f'<rect class="det" x="140" y="{y}" width="{bar_w * d / top:.1f}" '
            f'height="11"><title>deterministic {d}</title></rect>'
        )
        parts.append(
            f'<rect class="prov" x="140" y="{y + 12}" width="{bar_w * p / top:.1f}" '
            f'height="11"><title>provider {p}</title></rect>'
        )
        parts.append(
            f'<text x="{146 + bar_w * max(d, p) / top:.1f}" y="{y + 16}" '
            f'font-size="11">deterministic {d} &#183; provider {p}</text>'
        )
    parts.append(
        f'<text x="140" y="{height - 4}" font-size="11">'
        '<tspan class="det">&#9632;</tspan> deterministic '
        '<tspan class="prov">&#9632;</tspan> provider-assisted</text></svg>'
    )
    return "".join(parts)


def render_html(result: EvaluationResult, *, title: str, tuple_text: str) -> str:
    """The report as one HTML document."""
    verdict = (
        '<p class="pass"><b>PASSED</b>: the activation schema holds; an artifact was written.</p>'
        if result.passed
        else '<p class="bad"><b>FAILED</b>: '
        + escape("; ".join(result.problems))
        + ". No artifact was written.</p>"
    )
    d, p = result.deterministic, result.provider
    summary = "".join(
        f"<tr><td>{escape(name)}</td><td>{a}</td><td>{b}</td></tr>"
        for name, a, b in [
            ("supported beliefs", d.supported, p.supported),
            ("fabricated beliefs", d.fabricated, p.fabricated),
            ("policy failures", d.policy_failures, p.policy_failures),
            (
                f"positive cases fully supported (floor {result.coverage_floor})",
                d.fully_supported_positive,
                p.fully_supported_positive,
            ),
            ("provider audits", d.provider_audits, p.provider_audits),
        ]
    ) + (
        "<tr><td>provider calls by outcome</td><td>-</td>"
        f"<td>{_outcomes(p.provider_outcomes)}</td></tr>"
    )
    failing = [_case_row(case) for case in result.cases if case["failing"]]
    passing = [_case_row(case) for case in result.cases if not case["failing"]]
    head = (
        "<table><tr><th>case</th><th>labels</th>"
        "<th>det. supported/fabricated</th><th>prov. supported/fabricated</th>"
        "<th>provider calls</th><th>provider-added</th><th>provider beliefs</th></tr>"
    )
    cases = (
        f"<h2>Failing cases ({len(failing)})</h2>"
        + (head + "".join(failing) + "</table>" if failing else "<p>None.</p>")
        + f"<details><summary>Passing cases ({len(passing)})</summary>"
        + (head + "".join(passing) + "</table>" if passing else "<p>None.</p>")
        + "</details>"
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1><p><code>{escape(tuple_text)}</code></p>"
        f"<p>corpus {escape(result.corpus_hash[:16])}… &middot; {result.samples} cases, "
        f"{result.positive_cases} positive</p>{verdict}"
        "<h2>Summary</h2><table><tr><th></th><th>deterministic</th>"
        f"<th>provider-assisted</th></tr>{summary}</table>"
        f"<h2>Supported beliefs per claim kind</h2>{_chart(result)}"
        f"{cases}</body></html>"
    )


def _case_row(case: dict[str, Any]) -> str:
    dc, pc = case["deterministic"], case["provider"]
    cls = ' class="fail"' if case["failing"] else ""
    beliefs = "; ".join(
        f"{b['kind']}: " + ", ".join(f"{k}={v}" for k, v in b["values"].items() if v)
        for b in pc["beliefs"]
    )
    return (
        f"<tr{cls}><td>{escape(case['case'])}</td>"
        f"<td>{'protected' if case['protected'] else case['labels']}</td>"
        f"<td>{dc['supported']}/{dc['fabricated']}</td>"
        f"<td>{pc['supported']}/{pc['fabricated']}</td>"
        f"<td>{_outcomes(pc.get('provider_outcomes', {}))}</td>"
        f"<td>{case['provider_added_beliefs']}</td><td>{escape(beliefs)}</td></tr>"
    )
