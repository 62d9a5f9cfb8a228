"""The wheel works without a checkout: build it, install it in a fresh venv elsewhere, run it."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# The suite runs with every database encrypted (tests/conftest.py).
ENCRYPTED = os.environ.get("AGENTMEM_TEST_ENCRYPTED") == "1"


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path, cli_env: dict) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = dist.glob("agentmem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "agentmem/_data/schema.sql" in names
    assert "agentmem/_data/corpus/sample/sample.jsonl" in names
    assert any(n.startswith("agentmem/_data/release-evidence/") for n in names)
    assert "agentmem/openapi.json" in names and "agentmem/providers/pricing.json" in names
    assert any(n.startswith("agentmem/_data/corpus/memory-formation/") for n in names)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    if ENCRYPTED:
        # The suite's key makes init create an encrypted file, so this venv takes the cipher
        # the way the README says: apsw-sqlite3mc forced over the apsw the wheel brought.
        cipher = f"apsw-sqlite3mc=={importlib.metadata.version('apsw-sqlite3mc')}"
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", cipher],
            check=True,
            capture_output=True,
            timeout=600,
        )
    work = tmp_path / "elsewhere"
    work.mkdir()
    db = work / "store.db"
    env = {**cli_env, "PYTHONPATH": "", "PATH": f"{env_dir / 'bin'}{os.pathsep}{cli_env['PATH']}"}
    agentmem = str(env_dir / "bin" / "agentmem")
    init = subprocess.run(
        [agentmem, "init", "--db", str(db)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert init.returncode == 0, init.stderr
    status = subprocess.run(
        [agentmem, "status", "--db", str(db)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert status.returncode == 0, status.stderr
    assert "schema" in status.stdout
    assert re.search(r"^encryption +(\S+)$", status.stdout, re.M)[1] == (
        "chacha20" if ENCRYPTED else "none"
    )
    where = subprocess.run(
        [str(py), "-c", "import agentmem, sys; print(agentmem.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(REPO) not in where.stdout
    demo = subprocess.run(
        [agentmem, "demo", "--db", str(work / "demo.db")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr
