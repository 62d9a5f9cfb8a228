"""Library messages say what is wrong; the CLI adds what to type (HTTP and Python callers have
no commands to type, and a hint naming one would mislead them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _events import run_started, user_msg

import agentmem


def test_an_export_without_consent_names_no_command_but_the_cli_adds_one(
    db_path: Path, run_cli
) -> None:
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(run_started())
        store.append(user_msg("hello"))
        with pytest.raises(agentmem.ConsentRequired) as refused:
            store.export_run("r1")
    assert "not granted" in refused.value.message
    assert "agentmem" not in refused.value.message and "--" not in refused.value.message
    shown = run_cli("run", "export", "r1", "--principal", "alice", "--db", str(db_path))
    assert shown.returncode == 6
    assert shown.stderr.startswith(f"agentmem: {refused.value.message}; ")
    assert "'agentmem consent grant PRINCIPAL'" in shown.stderr


def test_a_process_type_on_import_is_refused_without_naming_a_command(store) -> None:
    with pytest.raises(agentmem.InvalidInput) as refused:
        store.append(
            {"type": "consent.granted", "session_id": "s", "principal": "p", "purpose": "x"}
        )
    assert "written by agentmem itself" in refused.value.message
    assert "'agentmem " not in refused.value.message


def test_required_provider_assistance_without_evidence_the_cli_points_at_status(
    db_path: Path, run_cli
) -> None:
    env = {
        "AGENTMEM_PROVIDER_ASSISTANCE": "required",
        "AGENTMEM_PROVIDER": "ollama",
        "AGENTMEM_PROVIDER_MODEL": "some-model",
    }
    assert run_cli("init", "--db", str(db_path)).returncode == 0
    event = json.dumps(user_msg("I live in Lisbon.", run=None))
    assert run_cli("event", "append", event, "--db", str(db_path)).returncode == 0
    refused = run_cli("consolidate", "--idle", "0s", "--db", str(db_path), env=env)
    assert refused.returncode == 8, refused.stderr
    message = refused.stderr.removeprefix("agentmem: ").split("; 'agentmem status'")[0]
    assert "cannot activate" in message and "agentmem" not in message
    assert "'agentmem status' shows the model tuple" in refused.stderr


def test_a_missing_database_is_named_by_the_library_and_the_cli_says_init(
    tmp_path: Path, run_cli
) -> None:
    missing = tmp_path / "missing.db"
    for options in ({"readonly": True}, {"create": False}):
        with pytest.raises(agentmem.UsageError, match="no agentmem database") as refused:
            agentmem.open(str(missing), **options)
        assert "'agentmem " not in refused.value.message and not missing.exists()
    shown = run_cli("status", "--db", str(missing))
    assert shown.returncode == 2 and f"agentmem init --db {missing}" in shown.stderr
