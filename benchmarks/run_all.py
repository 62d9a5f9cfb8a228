"""Every benchmark in ``benchmarks/``, quickly, in one table: re-measure everything in one command.

    python benchmarks/run_all.py --quick     # a few minutes on 2 cores
    python benchmarks/run_all.py             # the full sizes (tens of minutes)

Each benchmark runs in its own interpreter, one after another, so one's memory and caches do
not colour the next. A module with ``rows(quick)`` is asked for its rows (the README's
columns: benchmark, agentmem, baseline, ratio, target); any other module is run as a script
with ``--quick`` and every five-column Markdown row it prints is taken; what it prints in
another shape is shown below the table, so nothing measured is hidden. A benchmark that fails
(a peer package not installed, say) is listed with its last line of error output. The quick
sizes are smaller than the README's, so their ratios are a first look, not the record.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import time
from pathlib import Path

import table  # benchmarks/table.py

HERE = Path(__file__).resolve().parent
SKIP = {"run_all", "table"}


def _has_rows(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.FunctionDef) and node.name == "rows" for node in tree.body)


def _command(path: Path, quick: bool) -> list[str]:
    if _has_rows(path):
        code = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); import table, {path.stem} as m; "
            f"table.print_table(m.rows({quick}))"
        )
        return [sys.executable, "-c", code]
    return [sys.executable, str(path), *(["--quick"] if quick else [])]


def _table_rows(output: str) -> tuple[list[table.Row], list[str]]:
    """Five-cell Markdown rows (not headers or rules), and every other non-blank line."""
    rows: list[table.Row] = []
    other: list[str] = []
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5:
            if set(cells[0]) <= set("-: ") or cells[0] in ("benchmark", "measure"):
                continue
            rows.append((cells[0], cells[1], cells[2], cells[3], cells[4]))
        elif line.strip():
            other.append(line)
    return rows, other


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few minutes")
    parser.add_argument("only", nargs="*", help="benchmark names (default: every one)")
    args = parser.parse_args()
    paths = sorted(p for p in HERE.glob("*.py") if p.stem not in SKIP)
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    rows: list[table.Row] = []
    notes: list[str] = []
    failed = 0
    for path in paths:
        start = time.perf_counter()
        print(f"running {path.name} ...", file=sys.stderr, flush=True)
        done = subprocess.run(_command(path, args.quick), capture_output=True, text=True)
        seconds = time.perf_counter() - start
        found, other = _table_rows(done.stdout)
        rows += [(f"{path.stem}: {row[0]}", *row[1:]) for row in found]  # type: ignore[misc]
        if done.returncode != 0:
            failed += 1
            last = (done.stderr.strip().splitlines() or ["(no error output)"])[-1]
            notes.append(f"{path.name} failed (exit {done.returncode}, {seconds:.0f} s): {last}")
        elif other:
            notes.append(f"{path.name} ({seconds:.0f} s), besides its rows:")
            notes += [f"    {line}" for line in other]
        else:
            notes.append(f"{path.name}: {seconds:.0f} s")
    table.print_table(rows)
    print()
    print("\n".join(notes))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
