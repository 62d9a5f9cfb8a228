"""Shared fixtures: real database files under tmp_path, and the CLI as a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import agentmem

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "agentmem.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[agentmem.Store]:
    with agentmem.open(str(db_path)) as s:
        yield s


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    """An environment isolated from the developer's own config, data and logs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMEM_")}
    home = tmp_path / "home"
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        AGENTMEM_CONFIG=str(home / "no-config.toml"),
    )
    return env


@pytest.fixture
def run_cli(cli_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``agentmem ARGS`` in a subprocess; returns the completed process (text mode)."""

    def run(
        *args: str,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 120,
    ) -> subprocess.CompletedProcess:
        full_env = {**cli_env, **(env or {})}
        text = not isinstance(input, bytes)
        return subprocess.run(
            [sys.executable, "-m", "agentmem", *args],
            input=input,
            capture_output=True,
            text=text,
            env=full_env,
            timeout=timeout,
            check=False,
        )

    return run
