"""``agentmem gates list|run``."""

from __future__ import annotations

from typing import Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import JsonOpt, print_json


def list_(*, json: JsonOpt = False) -> None:
    """List the registered conformance gates."""
    from agentmem.gates import GATES

    if json:
        print_json([{"name": n, "description": d} for n, (d, _) in GATES.items()])
        return
    for name, (description, _) in GATES.items():
        print(f"{name}\n    {description}")


def run(
    *names: Annotated[str, Parameter(help="Gates to run (default: all).")],
    json: JsonOpt = False,
) -> int:
    """Run gates against temporary databases; exits 1 if any gate fails."""
    from agentmem.gates import run_gates

    results = run_gates(list(names) or None)
    if json:
        print_json([msgspec.to_builtins(r) for r in results])
    else:
        for r in results:
            print(f"{'PASS' if r.passed else 'FAIL'}  {r.name}: {r.details}")
    return 0 if all(r.passed for r in results) else 1
