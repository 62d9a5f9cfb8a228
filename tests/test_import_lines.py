"""``event import`` names the line of a refused event deep in a large file.

The importer keeps only the last few chunks' line numbers (memory flat in the file's size), so
these tests put the refused event several chunks into a file with blank lines, where an
event's position and its line number differ.
"""

from __future__ import annotations

import json
from pathlib import Path

from _events import run_started, user_msg

from agentmem.bulk import CHUNK


def _file(path: Path, count: int, bad_at: int) -> int:
    """``count`` messages of a started run with a blank line after every seventh, the
    ``bad_at``-th of them citing a run never started; returns that event's line number."""
    lines = [json.dumps(run_started())]
    bad_line = 0
    for i in range(1, count + 1):
        event = user_msg(f"message {i}", run="ghost" if i == bad_at else "r1")
        lines.append(json.dumps(event))
        if i == bad_at:
            bad_line = len(lines)
        if i % 7 == 0:
            lines.append("")
    path.write_text("\n".join(lines) + "\n")
    return bad_line


def test_a_refused_event_chunks_into_the_file_is_named_by_its_line(
    run_cli, db_path: Path, tmp_path: Path
) -> None:
    f = tmp_path / "events.jsonl"
    count = 3 * CHUNK + 500
    line = _file(f, count, bad_at=count - 10)
    assert line != count - 10 + 1  # blank lines: position and line number differ
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4, out.stderr
    assert f"line {line}:" in out.stderr and "never started" in out.stderr
    listed = run_cli("event", "list", "--db", str(db_path), "--json")
    assert listed.stdout == ""  # one transaction: nothing was imported


def test_a_refused_event_in_the_first_chunk_is_named_by_its_line(
    run_cli, db_path: Path, tmp_path: Path
) -> None:
    f = tmp_path / "events.jsonl"
    line = _file(f, CHUNK + 100, bad_at=300)
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4 and f"line {line}:" in out.stderr
