"""The CLI end to end, as a real subprocess: output, exit codes, and nothing written on error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _events import run_started, user_msg


def _jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def _count(run_cli, db: Path) -> int:
    out = run_cli("status", "--db", str(db), "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["events"]


def test_init_and_status(run_cli, db_path: Path) -> None:
    out = run_cli("init", "--db", str(db_path))
    assert out.returncode == 0 and "initialized" in out.stdout
    again = run_cli("init", "--db", str(db_path))
    assert again.returncode == 0
    status = run_cli("status", "--db", str(db_path))
    assert status.returncode == 0
    assert str(db_path) in status.stdout and "schema" in status.stdout


def test_status_without_database_is_a_clear_error(run_cli, tmp_path: Path) -> None:
    out = run_cli("status", "--db", str(tmp_path / "missing.db"))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "agentmem init" in out.stderr
    assert not (tmp_path / "missing.db").exists()


def test_agentmem_db_env_selects_the_file(run_cli, db_path: Path) -> None:
    out = run_cli("init", env={"AGENTMEM_DB": str(db_path)})
    assert out.returncode == 0 and db_path.exists()


def test_append_argument_and_stdin_print_seq(run_cli, db_path: Path) -> None:
    a = run_cli("event", "append", json.dumps(run_started()), "--db", str(db_path))
    assert (a.returncode, a.stdout.strip()) == (0, "1")
    b = run_cli(
        "event",
        "append",
        "--db",
        str(db_path),
        "--json",
        input=json.dumps(user_msg("hi", event_id="e1")),
    )
    assert b.returncode == 0 and json.loads(b.stdout) == {
        "seq": 2,
        "event_id": "e1",
        "duplicate": False,
    }
    c = run_cli("event", "append", json.dumps(user_msg("hi", event_id="e1")), "--db", str(db_path))
    assert c.stdout.strip() == "2"


def test_append_defaults_principal_from_flag(run_cli, db_path: Path) -> None:
    ev = {"type": "run.started", "session_id": "s", "run_id": "r"}
    out = run_cli("event", "append", json.dumps(ev), "--db", str(db_path), "--principal", "zoe")
    assert out.returncode == 0, out.stderr
    show = run_cli("run", "show", "r", "--db", str(db_path), "--principal", "zoe", "--json")
    assert json.loads(show.stdout)["principal"] == "zoe"


@pytest.mark.parametrize(
    ("payload", "code", "needle"),
    [
        ("{not json", 4, "malformed JSON"),
        ("[1, 2]", 4, "JSON object"),
        ('{"type": "chat", "session_id": "s"}', 4, "known types"),
        ('{"type": "user.message.created", "session_id": "s"}', 4, "`text`"),
        (json.dumps(user_msg("x", run="never")), 4, "never started"),
    ],
)
def test_append_bad_input(run_cli, db_path: Path, payload: str, code: int, needle: str) -> None:
    run_cli("init", "--db", str(db_path))
    out = run_cli("event", "append", payload, "--db", str(db_path))
    assert out.returncode == code
    assert needle in out.stderr and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr
    assert _count(run_cli, db_path) == 0


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("", "agentmem: no event on standard input: expected one JSON object\n"),
        ("  \n", "agentmem: no event on standard input: expected one JSON object\n"),
        (
            "x" * (5 << 20),
            "agentmem: the event on standard input is too large: an event may be at most 4 MiB\n",
        ),
    ],
    ids=["empty", "blank", "5 MiB"],
)
def test_append_from_stdin_says_what_is_wrong_in_words(
    run_cli, db_path: Path, stdin: str, needle: str
) -> None:
    run_cli("init", "--db", str(db_path))
    out = run_cli("event", "append", "--db", str(db_path), input=stdin)
    assert out.returncode == 4 and out.stderr == needle
    assert _count(run_cli, db_path) == 0


def test_conflicting_event_id_exits_5(run_cli, db_path: Path) -> None:
    run_cli(
        "event",
        "import",
        "-",
        "--db",
        str(db_path),
        input=_jsonl([run_started(), user_msg("a", event_id="e1")]),
    )
    out = run_cli("event", "append", json.dumps(user_msg("b", event_id="e1")), "--db", str(db_path))
    assert out.returncode == 5 and "different content" in out.stderr


def test_import_counts_and_duplicates(run_cli, db_path: Path, tmp_path: Path) -> None:
    f = tmp_path / "events.jsonl"
    f.write_text(_jsonl([run_started(), user_msg("a", event_id="e1"), user_msg("b")]) + "\n")
    first = run_cli("event", "import", str(f), "--db", str(db_path), "--json")
    assert json.loads(first.stdout) == {"imported": 3, "duplicates": 0}
    f.write_text(_jsonl([user_msg("a", event_id="e1")]))
    second = run_cli("event", "import", str(f), "--db", str(db_path), "--json")
    assert json.loads(second.stdout) == {"imported": 0, "duplicates": 1}


def test_import_bad_line_names_line_and_path_and_imports_nothing(
    run_cli, db_path: Path, tmp_path: Path
) -> None:
    f = tmp_path / "events.jsonl"
    lines = [run_started(), user_msg("ok"), {**user_msg("bad"), "text": 42}, user_msg("later")]
    f.write_text(_jsonl(lines))
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4
    assert "line 3" in out.stderr and "$.text" in out.stderr
    assert _count(run_cli, db_path) == 0


def test_import_store_rule_violation_names_the_line(run_cli, db_path: Path, tmp_path) -> None:
    f = tmp_path / "events.jsonl"
    f.write_text(_jsonl([run_started()]) + "\n\n" + _jsonl([user_msg("x", run="ghost")]))
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4 and "line 4" in out.stderr and "never started" in out.stderr


def test_import_non_utf8_file(run_cli, db_path: Path, tmp_path: Path) -> None:
    f = tmp_path / "latin1.jsonl"
    f.write_bytes(
        _jsonl([run_started()]).encode() + b'{"type": "user.message.created", '
        b'"session_id": "s1", "run_id": "r1", "text": "caf\xe9"}\n'
    )
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4 and "line 2" in out.stderr and "UTF-8" in out.stderr
    assert _count(run_cli, db_path) == 0


def test_import_50mb_line_is_refused_by_size_limit(run_cli, db_path: Path, tmp_path) -> None:
    f = tmp_path / "huge.jsonl"
    with f.open("wb") as handle:
        handle.write(_jsonl([run_started()]).encode())
        handle.write(b'{"type": "user.message.created", "session_id": "s1", "text": "')
        chunk = b"a" * (1 << 20)
        for _ in range(50):
            handle.write(chunk)
        handle.write(b'"}\n')
    out = run_cli("event", "import", str(f), "--db", str(db_path))
    assert out.returncode == 4
    assert "line 2" in out.stderr and "at most 4 MiB" in out.stderr
    assert _count(run_cli, db_path) == 0


def test_import_missing_file_is_usage_error(run_cli, db_path: Path, tmp_path: Path) -> None:
    out = run_cli("event", "import", str(tmp_path / "nope.jsonl"), "--db", str(db_path))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_list_json_round_trips_through_import(run_cli, tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    sample = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"
    assert run_cli("event", "import", str(sample), "--db", str(a)).returncode == 0
    listed = run_cli("event", "list", "--db", str(a), "--json", "--all-principals")
    lines = listed.stdout.splitlines()
    assert len(lines) == 33 and all(json.loads(line)["seq"] for line in lines)
    copied = run_cli("event", "import", "-", "--db", str(b), "--json", input=listed.stdout)
    assert json.loads(copied.stdout) == {"imported": 33, "duplicates": 0}
    relisted = run_cli("event", "list", "--db", str(b), "--json", "--all-principals")
    assert relisted.stdout == listed.stdout  # same ids, seqs, timestamps, payloads


def test_list_filters(run_cli, db_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"
    run_cli("event", "import", str(sample), "--db", str(db_path))
    alice = ("--db", str(db_path), "--principal", "alice")
    out = run_cli("event", "list", *alice, "--run", "r-code-1", "--json")
    assert {json.loads(x)["run_id"] for x in out.stdout.splitlines()} == {"r-code-1"}
    after = run_cli(
        "event", "list", "--db", str(db_path), "--all-principals", "--after", "20", "--json"
    )
    assert [json.loads(x)["seq"] for x in after.stdout.splitlines()] == list(range(21, 34))


def test_session_and_run_commands(run_cli, db_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"
    run_cli("event", "import", str(sample), "--db", str(db_path))
    db, alice = ("--db", str(db_path)), ("--principal", "alice")
    sessions = json.loads(run_cli("session", "list", *db, "--all-principals", "--json").stdout)
    assert {s["session_id"] for s in sessions} == {"s-family", "s-code", "s-garden", "s-traps"}
    shown = json.loads(run_cli("session", "show", "s-family", *db, *alice, "--json").stdout)
    assert {r["run_id"] for r in shown["runs"]} == {"r-family-1", "r-family-1a"}
    run = json.loads(run_cli("run", "show", "r-code-1", *db, *alice, "--json").stdout)
    assert (run["outcome"], run["failure_class"]) == ("failed", "tool_timeout")
    missing = run_cli("run", "show", "nope", *db)
    assert missing.returncode == 3 and "no run" in missing.stderr
    human = run_cli("run", "list", *db, *alice)
    assert "r-family-1a" in human.stdout


def test_db_check_and_rebuild(run_cli, db_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"
    run_cli("event", "import", str(sample), "--db", str(db_path))
    assert run_cli("db", "check", "--db", str(db_path)).returncode == 0
    import apsw

    conn = apsw.Connection(str(db_path))
    conn.execute("UPDATE sessions SET event_count = 999")  # simulate a drifted projection
    conn.close()
    bad = run_cli("db", "check", "--db", str(db_path), "--json")
    assert bad.returncode == 1 and "sessions" in bad.stdout
    fixed = run_cli("db", "rebuild-projections", "--db", str(db_path))
    assert fixed.returncode == 0
    assert run_cli("db", "check", "--db", str(db_path)).returncode == 0


def test_not_a_database_exit_code(run_cli, tmp_path: Path) -> None:
    f = tmp_path / "x.db"
    f.write_text("hello")
    out = run_cli("status", "--db", str(f))
    assert out.returncode == 4 and "not an SQLite database" in out.stderr
    assert f.read_text() == "hello"


def test_usage_error_exit_2(run_cli) -> None:
    out = run_cli("event", "list", "--after", "notanumber")
    assert out.returncode == 2 and out.stderr.startswith("agentmem: usage:")
    assert run_cli("frobnicate").returncode == 2


def test_two_processes_import_into_one_file(tmp_path: Path, cli_env: dict) -> None:
    db = tmp_path / "shared.db"
    files = []
    for name in ("a", "b"):
        events = [run_started(f"r-{name}", session=f"s-{name}")] + [
            user_msg(f"{name} {i}", session=f"s-{name}", run=f"r-{name}") for i in range(400)
        ]
        path = tmp_path / f"{name}.jsonl"
        path.write_text(_jsonl(events))
        files.append(path)
    subprocess.run(
        [sys.executable, "-m", "agentmem", "init", "--db", str(db)],
        env=cli_env,
        check=True,
        capture_output=True,
    )
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agentmem",
                "event",
                "import",
                str(f),
                "--db",
                str(db),
                "--json",
            ],
            env=cli_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in files
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    import agentmem

    with agentmem.open(str(db)) as s:
        seqs = [e.seq for e in s.events(all_principals=True)]
        assert len(seqs) == 802 and len(set(seqs)) == 802
        assert s.check() == []


def test_help_does_not_import_command_modules() -> None:
    code = (
        "import sys; from agentmem.cli import main; main(['--help']); "
        "loaded = [m for m in sys.modules if m.startswith('agentmem.') "
        "and m not in ('agentmem.cli',)]; print(sorted(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    last = out.stdout.strip().splitlines()[-1]
    assert "agentmem.store" not in last and "agentmem.cli.event_cmds" not in last


def test_read_commands_do_not_load_openssl(tmp_path: Path) -> None:
    """hashlib, hmac and secrets load OpenSSL (~2 ms of a ~95 ms start): only writes need them,
    so a top-level import of one of them in a module a read command imports shows here."""
    import agentmem

    db = str(tmp_path / "r.db")
    with agentmem.open(db, principal="alice") as store:
        store.append({"type": "user.message.created", "session_id": "s1", "text": "hi"})
    code = (
        "import sys; from agentmem.cli import main\n"
        "for argv in (['status'], ['event', 'list'], ['beliefs', 'search', 'x']):\n"
        "    main(argv)\n"
        "print('_hashlib' in sys.modules)"
    )
    env = {**os.environ, "AGENTMEM_DB": db, "AGENTMEM_PRINCIPAL": "alice"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_demo_shows_memory_traps_and_a_redacted_export(run_cli, tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    out = run_cli("demo", "--db", db)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    memory = text.split("== memory")[1].split("== traps")[0]
    assert "User has a daughter named Mia" in memory and '"My daughter Mia" (seq 3)' in memory
    assert "Berlin" not in memory
    traps = text.split("== traps")[1].split("== export")[0]
    assert 'Berlin next year" -> hypothetical' in traps
    assert "-> prompt injection" in traps and "-> never evidence" in traps
    assert "refused (exit 6)" in text and "[REDACTED:aws_access_key_id]" in text
    assert "the pasted key appears in the export: no" in text
    assert "False" not in text and "True" not in text
    assert "sweeper: deleted 1 artifact and 1 blob" in text
    lines = text.splitlines()
    assert len(lines) < 60
    assert all(len(line) <= 80 for line in lines if db not in line)  # a path is never split
    # the excerpt, not the whole document; --full prints it
    assert '"schema_sha256"' not in text
    full = run_cli("demo", "--full", "--db", str(tmp_path / "full.db"))
    assert '"schema_sha256"' in full.stdout and "[REDACTED:aws_access_key_id]" in full.stdout


def test_demo_deletes_its_temporary_database_unless_kept(run_cli, tmp_path: Path) -> None:
    env = {"TMPDIR": str(tmp_path)}
    out = run_cli("demo", env=env)
    assert out.returncode == 0, out.stderr
    assert "rerun with --keep" in out.stdout
    assert not list(tmp_path.glob("agentmem-demo-*"))
    kept = run_cli("demo", "--keep", env=env)
    (directory,) = tmp_path.glob("agentmem-demo-*")
    assert str(directory / "agentmem.db") in kept.stdout
    assert run_cli("beliefs", "list", "--db", str(directory / "agentmem.db")).returncode == 0


def test_conversation_listing_round_trips_after_memory_formation(run_cli, tmp_path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    sample = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"
    run_cli("event", "import", str(sample), "--db", str(a))
    run_cli("session", "close", "s-family", "--db", str(a), "--principal", "alice")
    everyone = ("--db", str(a), "--json", "--all-principals")
    everything = run_cli("event", "list", *everyone).stdout
    refused = run_cli("event", "import", "-", "--db", str(b), input=everything)
    assert refused.returncode == 4 and "written by agentmem itself" in refused.stderr
    conversation = run_cli("event", "list", *everyone, "--conversation").stdout
    copied = run_cli("event", "import", "-", "--db", str(b), "--json", input=conversation)
    assert json.loads(copied.stdout)["imported"] == 34  # 33 sample events + session.closed
