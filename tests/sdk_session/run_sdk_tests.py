"""Run the OpenAI Agents SDK's own session tests against AgentmemSession (used by ``.ci/run``).

Downloads the sdist of the pinned SDK version from the package index, extracts its tests, and
runs :data:`FILES` with the ``agentmem_swap`` plugin, which puts AgentmemSession in place of
SQLiteSession and marks the documented not-applicable tests. The exit status is pytest's: any
failure outside that list fails the run. ``--pinned`` prints the pinned version (for pip).
Needs pytest-asyncio, pytest-timeout, aiosqlite and cryptography (the SDK's test extras).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from importlib.metadata import version
from pathlib import Path

PINNED = "0.24.0"
#: The SDK's test files that exercise SQLiteSession.
FILES = (
    "tests/memory/test_session.py",
    "tests/memory/test_session_limit.py",
    "tests/memory/test_compaction_suffix.py",
    "tests/memory/test_compaction_model_visibility.py",
    "tests/memory/test_openai_responses_compaction_session.py",
)
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def main(argv: list[str]) -> int:
    if argv == ["--pinned"]:
        print(PINNED)
        return 0
    installed = version("openai-agents")
    if installed != PINNED:
        print(
            f"openai-agents {installed} is installed; these tests are pinned to {PINNED}: "
            f"pip install 'openai-agents=={PINNED}'",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="agentmem-sdk-") as tmp:
        download = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        download += ["--no-binary", ":all:", f"openai-agents=={PINNED}", "-d", tmp]
        subprocess.run(download, check=True)
        sdist = next(Path(tmp).glob("openai_agents-*.tar.gz"))
        root = Path(tmp) / f"openai_agents-{PINNED}"
        with tarfile.open(sdist) as archive:
            wanted = [
                m
                for m in archive.getmembers()
                if m.name.startswith(f"{root.name}/tests/")
                or m.name == f"{root.name}/pyproject.toml"
            ]
            archive.extractall(tmp, members=wanted, filter="data")
        path = [str(HERE), str(REPO), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["-p", "agentmem_swap", "--timeout", "120", "-rfEs", *FILES]
        return subprocess.run(command, cwd=root, env=env, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
