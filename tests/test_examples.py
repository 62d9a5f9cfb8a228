"""The examples run as users run them: a subprocess each, offline, in seconds.

Each example is a script a reader copies from; if one stops working, or stops showing what
it claims to, this fails. Examples that need an optional SDK are skipped without it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def needs(module: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        importlib.util.find_spec(module) is None, reason=f"the {module!r} SDK is not installed"
    )


def test_python_api(cli_env: dict[str, str]) -> None:
    out = run_example("python_api.py", cli_env)
    assert "appended 6 events" in out
    assert "closed chat-1: 2 beliefs formed (formation@7)" in out
    assert "recall: User lives in Lisbon [seq 3: 'I live in Lisbon']" in out
    assert "recall 'Paris': 0 beliefs" in out
    assert "(2 redactions)" in out
    assert "[REDACTED:email]" in out and "landlord@example.com" not in out
    assert "after withdrawal: artifact" in out and "no longer readable" in out


@needs("agents")
def test_openai_agents_session(cli_env: dict[str, str]) -> None:
    out = run_example("openai_agents_session.py", cli_env)
    assert "agent: It is sunny and 24 °C in Lisbon." in out
    assert "agent: Nice to meet you, Ada!" in out
    assert "session items: 6 (message, function_call, function_call_output," in out
    assert "closed chat-1: 2 beliefs formed" in out
    assert "belief: User lives in Lisbon" in out
    assert "belief: User's name is Ada" in out
    assert ": user -> assistant -> tool -> assistant -> user -> assistant" in out


@needs("mcp")
def test_mcp_client(cli_env: dict[str, str]) -> None:
    out = run_example("mcp_client.py", cli_env)
    assert "tools: recall, record_message, close_session" in out
    assert "resources: agentmem://beliefs" in out
    assert "role must be 'user' or 'assistant', got 'system'" in out
    assert "close_session -> {'formed': 2}" in out
    assert "recall 'Lisbon' -> ['User lives in Lisbon']" in out
    assert "recall 'Paris' -> []" in out
    assert "belief: User lives in Lisbon (seq 1: 'I live in Lisbon')" in out
