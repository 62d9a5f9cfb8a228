"""``status`` counts beliefs by status and artifacts (expired ones apart) from the library's
StatusInfo, the same numbers in Python, in the CLI's table and in its ``--json``; ``db check``
reports what the library found and adds what to type."""

from __future__ import annotations

import json
from pathlib import Path

import apsw
from _events import user_msg

import agentmem
from agentmem import artifacts
from agentmem.log import BeliefCounts


def _formed(db_path: Path) -> None:
    """alice: one superseded home, the current one, a forgotten dog; two artifacts, one expired."""
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(user_msg("I live in Rome.", session="a", run=None))
        store.close_session("a")
        store.append(user_msg("I moved, I live in Lisbon now.", session="b", run=None))
        store.append(user_msg("I have a dog named Rex.", session="b", run=None))
        store.close_session("b")
        (dog,) = [b for b in store.beliefs() if "Rex" in (b.statement or "")]
        store.forget_belief(dog.belief_id)
        for data in (b"old", b"new"):
            artifacts.put(
                store,
                origin="trajectory_export",
                data=data,
                principal="alice",
                media_type="text/plain",
                doc_schema="t/1",
            )
        store.conn.execute(
            "UPDATE artifacts SET expires_at = '2000-01-01T00:00:00.000Z' "
            "WHERE blob_key = (SELECT blob_key FROM blobs WHERE data = x'6f6c64')"
        )


def test_status_info_counts_beliefs_by_status_and_expired_artifacts(db_path: Path) -> None:
    _formed(db_path)
    with agentmem.open(str(db_path), readonly=True) as store:
        info = store.status()
    assert info.beliefs == BeliefCounts(active=1, superseded=1, forgotten=1)
    assert (info.artifacts, info.expired_artifacts) == (2, 1)


def test_an_empty_file_reports_every_belief_status_as_zero(store: agentmem.Store) -> None:
    info = store.status()
    assert info.beliefs == BeliefCounts(active=0, superseded=0, forgotten=0)
    assert (info.artifacts, info.expired_artifacts) == (0, 0)


def test_the_cli_shows_the_librarys_counts(db_path: Path, run_cli) -> None:
    _formed(db_path)
    table = run_cli("status", "--db", str(db_path))
    assert table.returncode == 0, table.stderr
    lines = {line.split("  ")[0]: line for line in table.stdout.splitlines()}
    assert lines["beliefs"].endswith("1 active, 1 superseded, 1 forgotten")
    assert "2 (1 expired; 'agentmem artifacts sweep' deletes them)" in lines["artifacts"]
    shown = json.loads(run_cli("status", "--db", str(db_path), "--json").stdout)
    assert shown["beliefs"] == {"active": 1, "superseded": 1, "forgotten": 1}
    assert (shown["artifacts"], shown["expired_artifacts"]) == (2, 1)
    assert run_cli("artifacts", "sweep", "--db", str(db_path)).returncode == 0
    swept = json.loads(run_cli("status", "--db", str(db_path), "--json").stdout)
    assert (swept["artifacts"], swept["expired_artifacts"]) == (1, 0)


def test_a_drifted_projection_the_cli_says_what_to_type_the_library_does_not(
    db_path: Path, run_cli
) -> None:
    """``check()`` says what is wrong (HTTP and Python callers have no commands to type); the
    CLI adds the command that repairs it."""
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg("hello", run=None))

    raw = apsw.Connection(str(db_path))
    raw.execute("UPDATE sessions SET event_count = 999")
    raw.close()
    with agentmem.open(str(db_path), readonly=True) as store:
        (problem,) = store.check()
    assert problem.startswith("projection sessions:") and "agentmem" not in problem
    shown = run_cli("db", "check", "--db", str(db_path))
    assert shown.returncode == 1
    assert f"agentmem db rebuild-projections --db {db_path}" in shown.stdout
