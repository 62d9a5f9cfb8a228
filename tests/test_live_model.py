"""Opt-in: a real local model behind an OpenAI-compatible server (never needed by CI).

Set ``AGENTMEM_LIVE_LLAMACPP_URL`` (e.g. ``http://127.0.0.1:8089/v1`` for
``python -m llama_cpp.server --model SmolLM2-135M-Instruct.Q4_1.gguf --port 8089``) to run it.
A tiny model's claims are poor (invented values, quotes that are not in the text); the point
is that the formation gates and the evaluation catch all of it: no fabricated belief is ever
written, and no evidence artifact is produced.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

URL = os.environ.get("AGENTMEM_LIVE_LLAMACPP_URL")
CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "memory-formation"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not URL, reason="set AGENTMEM_LIVE_LLAMACPP_URL to run against a model"),
]


def test_a_small_real_model_is_refused_without_writing_evidence(run_cli, tmp_path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in sorted(p.name for p in CORPUS.glob("*.json"))[:6]:
        shutil.copy(CORPUS / name, corpus / name)
    out = run_cli(
        "eval",
        "memory-formation",
        "--corpus",
        str(corpus),
        "--provider",
        "llamacpp",
        "--model",
        "SmolLM2-135M-Instruct",
        "--base-url",
        URL,
        "--live",
        "--out",
        str(tmp_path / "ev.json"),
        "--json",
        timeout=1800,
    )
    assert out.returncode == 9
    result = json.loads(out.stdout)
    assert result["provider"]["fabricated"] == 0 and result["provider"]["policy_failures"] == 0
    assert result["provider"]["provider_audits"] == 6
    assert not (tmp_path / "ev.json").exists()
