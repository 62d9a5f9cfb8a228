"""The one table every benchmark prints, and the ``[--quick]`` entry point that prints it.

A benchmark module that has ``rows(quick) -> list[Row]`` can be run on its own
(``python benchmarks/NAME.py [--quick]``) and by ``benchmarks/run_all.py``, which prints every
module's rows in one table.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

#: benchmark, agentmem's figure, the baseline's figure (same run), ratio, target.
Row = tuple[str, str, str, str, str]
HEADER: Row = ("benchmark", "agentmem", "baseline (same run)", "ratio", "target")


def print_table(rows: Iterable[Row]) -> None:
    """A Markdown table, as the README's benchmark section has it."""
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main(doc: str, rows: Callable[[bool], list[Row]], quick: str) -> None:
    """Parse ``--quick`` (described by ``quick``) and print the module's rows."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick)
    print_table(rows(parser.parse_args().quick))
