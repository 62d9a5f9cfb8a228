"""``agentmem eval ...``: offline evaluations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from cyclopts import Parameter

from agentmem.cli._common import JsonOpt, print_json, print_table


def redaction(
    *,
    corpus: Annotated[
        Path | None, Parameter(help="Redaction corpus directory (default: the bundled one).")
    ] = None,
    json: JsonOpt = False,
) -> int:
    """Score the redaction rules on the redaction corpus: recall and false positives per family.

    Exits 7 if any planted secret is missed.
    """
    from agentmem._resources import data_path
    from agentmem.redaction import evaluate

    report = evaluate(corpus or data_path("corpus") / "redaction")
    data = report.to_dict()
    if json:
        print_json(data)
    else:
        print_table(
            ["family", "planted", "missed", "recall", "benign", "false positives"],
            [
                (
                    row["family"],
                    row["planted"],
                    row["missed"],
                    f"{row['recall']:.1%}",
                    row.get("benign", ""),
                    row["false_positives"],
                )
                for row in data["per_family"]
            ],
        )
        print(f"missed {report.missed_total}, false positives {report.false_positives_total}")
    return 7 if report.missed_total else 0
