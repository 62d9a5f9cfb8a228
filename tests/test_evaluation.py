"""``agentmem eval memory-formation`` end to end over loopback HTTP, promotion, and gates."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import agentmem
from agentmem.evaluation.corpus import tuned_cases
from agentmem.memory.claims import VALUE_FIELDS, normalize_claim

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus" / "memory-formation"
CASES = tuned_cases(CORPUS)  # what eval memory-formation runs: less the held-out part
LINE = re.compile(r"^\[seq (\d+)\] (.*)$", re.M)


def _user_texts(case) -> tuple[str, ...]:
    return tuple(
        e["text"].replace("\n", " ")
        for e in case.events
        if e["type"] == "user.message.created" and e["principal"] == case.principal
    )


CASE_BY_TEXTS: dict[tuple[str, ...], object] = {}
for _case in CASES:
    CASE_BY_TEXTS.setdefault(_user_texts(_case), _case)
FIRST_POSITIVE = next(c.id for c in CASES if not c.protected)


def _oracle_claims(user: str, *, fabricate: bool, miss: bool) -> list[dict]:
    """Answer like a perfect model: the labels of the case whose messages were sent."""
    sent = [(int(seq), text) for seq, text in LINE.findall(user)]
    case = CASE_BY_TEXTS.get(tuple(text for _, text in sent))
    if case is None or case.protected:
        return []
    claims = []
    labels = case.labels[:-1] if miss and len(case.labels) > 0 else case.labels
    for label in labels:
        claim = normalize_claim(label.kind, label.values)
        needles = [v.casefold() for v in claim.values.values() if v]
        seq, text = next(
            ((s, t) for s, t in reversed(sent) if any(n in t.casefold() for n in needles)),
            sent[-1],
        )
        values = dict.fromkeys(VALUE_FIELDS)
        values.update(claim.values)
        claims.append({"kind": claim.kind, "values": values, "quote": text, "seq": seq})
    if fabricate and case.id == FIRST_POSITIVE:
        values = dict.fromkeys(VALUE_FIELDS)
        values.update({"species": "llama", "name": "Fabricio"})
        claims.append({"kind": "pet", "values": values, "quote": sent[-1][1], "seq": sent[-1][0]})
    return claims


class Oracle:
    """An OpenAI-compatible server on loopback that answers the corpus (optionally wrongly)."""

    def __init__(self, *, fabricate: bool = False, miss: bool = False) -> None:
        oracle = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                user = body["messages"][-1]["content"]
                claims = _oracle_claims(user, fabricate=oracle.fabricate, miss=oracle.miss)
                content = json.dumps({"claims": claims})
                answer = {
                    "id": "x",
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content},
                        }
                    ],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 50},
                }
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.fabricate, self.miss = fabricate, miss
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Oracle:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def _eval_args(oracle: Oracle, tmp_path: Path, *extra: str) -> list[str]:
    return [
        "eval",
        "memory-formation",
        "--provider",
        "ollama",
        "--model",
        "oracle-1",
        "--base-url",
        oracle.base_url,
        "--live",
        "--out",
        str(tmp_path / "ev.json"),
        *extra,
    ]


@pytest.mark.slow  # the whole tuned corpus through both arms: about 2.5 minutes
def test_correct_server_yields_an_artifact_that_activates_exactly(run_cli, tmp_path) -> None:
    with Oracle() as oracle:
        report = tmp_path / "report.html"
        out = run_cli(*_eval_args(oracle, tmp_path, "--report", str(report), "--json"), timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        result = json.loads(out.stdout)
        assert result["passed"] and result["provider"]["fabricated"] == 0
        assert result["provider"]["supported"] > result["deterministic"]["supported"]
        artifact = json.loads((tmp_path / "ev.json").read_text())
        assert artifact["live"] is True and artifact["tuple"]["model"] == "oracle-1"
        html = report.read_text()
        # self-contained: nothing is loaded from anywhere (a case's own text may name "httpx")
        assert "<svg" in html
        assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|url\(|@import""", html)

        env = {
            "AGENTMEM_PROVIDER": "ollama",
            "AGENTMEM_PROVIDER_MODEL": "oracle-1",
            "AGENTMEM_PROVIDER_BASE_URL": oracle.base_url,
            "AGENTMEM_EVIDENCE_PATH": str(tmp_path / "ev.json"),
        }
        db = tmp_path / "live.db"
        run_cli("init", "--db", str(db))
        status = json.loads(run_cli("status", "--db", str(db), "--json", env=env).stdout)
        assert status["formation"]["decision"] == "provider-assisted"
        case = next(c for c in CASES if c.id == "pos-natural-er-doctor")
        run_cli(
            "event",
            "import",
            "-",
            "--db",
            str(db),
            env=env,
            input="".join(json.dumps(e) + "\n" for e in case.events),
        )
        owner = ("--db", str(db), "--principal", case.principal)
        closed = json.loads(run_cli("session", "close", "s1", *owner, "--json", env=env).stdout)
        assert closed["formation_policy"] == "formation@8"
        other = run_cli(
            "status", "--db", str(db), "--json", env={**env, "AGENTMEM_PROVIDER_MODEL": "oracle-2"}
        )
        assert json.loads(other.stdout)["formation"]["field"] == "model"


@pytest.fixture
def bundled_part(tmp_path: Path) -> Path:
    """The corpus's first-round part alone (117 cases): a whole corpus for runs that must fail
    the schema, at a twentieth of the bundled corpus's time (only a run of the bundled corpus
    can activate anything, so a failing run proves as much on this one)."""
    folder = tmp_path / "bundled-part"
    folder.mkdir()
    for case in CORPUS.glob("*.json"):
        (folder / case.name).write_bytes(case.read_bytes())
    return folder


@pytest.mark.parametrize(("fabricate", "miss"), [(True, False), (False, True)])
def test_a_fabricating_or_weak_server_exits_9_and_writes_nothing(
    run_cli, tmp_path, bundled_part, fabricate, miss
) -> None:
    with Oracle(fabricate=fabricate, miss=miss) as oracle:
        out = run_cli(*_eval_args(oracle, tmp_path, "--corpus", str(bundled_part)), timeout=600)
    assert out.returncode == 9, out.stderr[-2000:]
    assert "no artifact written" in out.stderr
    assert not (tmp_path / "ev.json").exists()
    assert "(failing)" in out.stdout


def test_network_provider_needs_live(run_cli, tmp_path) -> None:
    out = run_cli(
        "eval",
        "memory-formation",
        "--provider",
        "ollama",
        "--model",
        "m",
        "--out",
        str(tmp_path / "ev.json"),
    )
    assert out.returncode == 2 and "--live" in out.stderr


def test_scripted_artifacts_are_marked_non_live(run_cli, tmp_path, bundled_part) -> None:
    script = tmp_path / "script.json"
    script.write_text("[]")
    out = run_cli(
        "eval",
        "memory-formation",
        "--provider",
        "scripted",
        "--script",
        str(script),
        "--corpus",
        str(bundled_part),
        "--out",
        str(tmp_path / "ev.json"),
        "--json",
        timeout=600,
    )
    result = json.loads(out.stdout)
    cases = tuned_cases(bundled_part)
    # an empty script makes every provider call fail: no lift, exit 9, nothing written
    assert out.returncode == 9 and not result["passed"]
    assert result["provider"]["provider_audits"] == len(cases) == 117
    # each case was streamed as it finished, next to the artifact that was not written
    streamed = (tmp_path / "ev.cases.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["case"] for line in streamed) == sorted(c.id for c in cases)
    assert sum(result["provider"]["provider_outcomes"].values()) == len(cases)


def _scripted(tmp_path: Path, *extra: str) -> list[str]:
    script = tmp_path / "script.json"
    script.write_text("[]")  # every provider call fails: a run with no working model
    return [
        "eval",
        "memory-formation",
        "--provider",
        "scripted",
        "--script",
        str(script),
        "--out",
        str(tmp_path / "ev.json"),
        *extra,
    ]


def test_a_subset_streams_cases_prints_progress_lines_and_is_never_evidence(
    run_cli, tmp_path
) -> None:
    log, report = tmp_path / "cases.jsonl", tmp_path / "report.html"
    args = ["--cases", "pos-*", "--limit", "3", "--progress-log", str(log)]
    out = run_cli(*_scripted(tmp_path, *args, "--report", str(report)), timeout=600)
    assert out.returncode == 9, out.stderr
    chosen = [c.id for c in CASES if c.id.startswith("pos-")][:3]
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["case"] for e in entries] == chosen
    # stderr is not a terminal: progress lines, not a bar
    lines = [x for x in out.stderr.splitlines() if x.startswith("agentmem: eval memory-formation")]
    assert lines[0].startswith("agentmem: eval memory-formation: 1/3 cases;")
    assert "3/3 cases, finished" in lines[-1] and "provider calls: fallback" in lines[-1]
    assert "\r" not in out.stderr
    assert f"only 3 of the corpus's {len(CASES)} cases were run" in out.stderr
    assert not (tmp_path / "ev.json").exists()
    (outcome,) = entries[0]["provider"]["provider_outcomes"]
    assert f"provider calls: {outcome} 3" in out.stdout
    # the report shows how the provider calls ended, in the summary and per case
    html = report.read_text()
    assert f'class="warn">{outcome} 3</span>' in html
    assert html.count(f'class="warn">{outcome} 1</span>') == 3
    assert "<details><summary>Passing cases" in html and "Failing cases" in html
    assert "&#183; provider" in html


def test_a_pattern_matching_no_case_is_refused_and_writes_nothing(run_cli, tmp_path) -> None:
    out = run_cli(*_scripted(tmp_path, "--cases", "no-such-*"))
    assert out.returncode == 4 and out.stderr == "agentmem: no corpus case matches 'no-such-*'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["script.json"]


CHILD = r"""
import os, sys, time
from agentmem.evaluation import harness
real = os.replace
def slow_replace(src, dst):
    print("WRITING", flush=True)
    time.sleep(60)
    real(src, dst)
harness.os.replace = slow_replace
harness.write_atomically(__import__("pathlib").Path(sys.argv[1]), b'{"x": 1}' * 1000)
"""


def test_sigkill_during_artifact_write_leaves_no_partial_artifact(tmp_path) -> None:
    target = tmp_path / "evidence" / "ev.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "WRITING"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert not target.exists()
    assert [p.name for p in target.parent.glob("*.json")] == []


def _exported(db: Path) -> str:
    with agentmem.open(str(db), principal="alice") as store:
        store.grant_consent()
        store.append({"type": "run.started", "session_id": "s1", "run_id": "r1"})
        store.append(
            {
                "type": "user.message.created",
                "session_id": "s1",
                "run_id": "r1",
                "text": "I live in Porto.",
            }
        )
        store.append(
            {
                "type": "assistant.message.created",
                "session_id": "s1",
                "run_id": "r1",
                "text": "Nice city.",
            }
        )
        store.append(
            {"type": "run.completed", "session_id": "s1", "run_id": "r1", "outcome": "succeeded"}
        )
        return store.export_run("r1").artifact_id


def test_promote_reads_only_the_artifact(run_cli, tmp_path) -> None:
    db = tmp_path / "p.db"
    artifact_id = _exported(db)
    import apsw

    conn = apsw.Connection(str(db))
    conn.execute("DROP TABLE events")  # the converter must not need the raw log
    conn.close()
    out = run_cli(
        "eval",
        "promote",
        artifact_id,
        "--to",
        str(tmp_path / "cases"),
        "--db",
        str(db),
        "--principal",
        "alice",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    case = json.loads(Path(json.loads(out.stdout)["case_path"]).read_text())
    assert case["labels"] == [] and case["principal"] == "alice"
    texts = [e.get("text") for e in case["events"] if e["type"] == "user.message.created"]
    assert texts == ["I live in Porto."]
    import msgspec

    from agentmem.evaluation.corpus import Case

    msgspec.convert(case, Case)  # a valid case file for the corpus format


def test_promote_refuses_expired_or_withdrawn(run_cli, tmp_path) -> None:
    db = tmp_path / "p.db"
    artifact_id = _exported(db)
    with agentmem.open(str(db), principal="alice") as store:
        store.withdraw_consent()
    out = run_cli(
        "eval",
        "promote",
        artifact_id,
        "--to",
        str(tmp_path / "cases"),
        "--db",
        str(db),
        "--principal",
        "alice",
    )
    assert out.returncode == 6 and not (tmp_path / "cases").exists()


@pytest.mark.slow
def test_memory_gates(run_cli) -> None:
    out = run_cli(
        "gates",
        "run",
        "gate.memory.no_fabrication",
        "gate.memory.evidence_schema",
        "--json",
        timeout=300,
    )
    assert out.returncode == 0, out.stdout
    assert all(r["passed"] for r in json.loads(out.stdout))
