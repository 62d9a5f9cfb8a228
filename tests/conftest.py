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

# AGENTMEM_TEST_ENCRYPTED=1 runs the suite with every database encrypted (the CI job on
# apsw-sqlite3mc, README "Encryption at rest"): a key file made for this run keys every new
# file, the CLI subprocesses get it too, and raw apsw connections opened by tests are keyed
# like agentmem's own. Tests marked ``own_keys`` (the encryption tests, which make plain files,
# wrong keys and keyring entries of their own) run without the suite's key.
ENCRYPTED = os.environ.get("AGENTMEM_TEST_ENCRYPTED") == "1"
SUITE_KEY_FILE: str | None = None
if ENCRYPTED:
    import atexit
    import secrets
    import shutil
    import tempfile

    import apsw

    from agentmem.encryption import KEY_FILE_ENV, require_cipher, unlock

    require_cipher("AGENTMEM_TEST_ENCRYPTED=1")
    _key_dir = tempfile.mkdtemp(prefix="agentmem-test-key-")
    atexit.register(shutil.rmtree, _key_dir, ignore_errors=True)
    _key_file = Path(_key_dir) / "key.hex"
    _key_file.write_text(secrets.token_hex(32))
    SUITE_KEY_FILE = os.environ[KEY_FILE_ENV] = str(_key_file)

    def _key_raw_connections(conn: apsw.Connection) -> None:
        """Key what a test opens with apsw itself, while the suite's key is in force."""
        if conn.filename and os.environ.get(KEY_FILE_ENV) == SUITE_KEY_FILE:
            # Keying reads the file; a hook runs inside the constructor, before the opener
            # can set a busy timeout, so it waits here as agentmem's own connections do.
            conn.set_busy_timeout(10_000)
            unlock(conn, conn.filename)

    apsw.connection_hooks.append(_key_raw_connections)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "own_keys: the test manages encryption keys itself (not the suite's key)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the slow tests first and read the corpus figures last.

    pytest-xdist hands the first quarter of the tests out in turn and the rest on demand, so a
    test of minutes put first never starts when the other worker is nearly done. The corpus
    figures tests read the results the other corpus tests share between the workers; run
    early, they recomputed cases still running elsewhere (76 s of one run; 0.2 s once last).
    Every worker sorts alike, as pytest-xdist requires.
    """

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        return 2 if item.name.startswith("test_corpus_figures") else 1

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def _suite_key(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Withdraw the suite's key from a test marked ``own_keys`` (a no-op on a plain run)."""
    if ENCRYPTED and request.node.get_closest_marker("own_keys"):
        monkeypatch.delenv("AGENTMEM_KEY_FILE")


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
    if SUITE_KEY_FILE is not None and os.environ.get("AGENTMEM_KEY_FILE") == SUITE_KEY_FILE:
        env["AGENTMEM_KEY_FILE"] = SUITE_KEY_FILE
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
