"""``agentmem scan``: the committed-secret scanner over files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from cyclopts import Parameter

from agentmem.cli.common import JsonOpt, print_json
from agentmem.errors import RedactionFailed, UsageError


def scan(
    *paths: Annotated[Path, Parameter(help="Files or directories (text, JSON, JSONL).")],
    json: JsonOpt = False,
) -> int:
    """Scan files with the redaction rule registry; prints path:line:rule, never the match.

    Exits 7 when anything is found.
    """
    from agentmem.redaction.files import scan_files

    if not paths:
        raise UsageError("name at least one file or directory to scan")
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or directory: {', '.join(missing)}")
    findings = scan_files(paths)
    if json:
        print_json([{"path": f.path, "line": f.line, "rule": f.rule} for f in findings])
    else:
        for finding in findings:
            print(f"{finding.path}:{finding.line}:{finding.rule}")
    if findings:
        print(
            f"agentmem: {len(findings)} possible secret(s) found; matches are never printed",
            file=sys.stderr,
        )
        return RedactionFailed.exit_code
    return 0
