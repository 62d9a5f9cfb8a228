"""What a person sees: tables fitted to 80 and 120 columns on a terminal (a real pseudo-terminal),
plain text in pipes, NO_COLOR, escaped control characters, progress only on a terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

# CSI sequences (colour, cursor) that a terminal interprets rather than prints.
_CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Colour (foreground/background) in an SGR sequence: 30-37, 38;..., 40-47, 90-97, 100-107.
_COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")

CJK_SESSION = "会話-セッション-🙂"
CJK_TEXT = "私は東京に住んでいて、毎朝コーヒーを飲みます。" * 4
LONG_TEXT = "I work as a backend engineer at Acme " + "and I keep writing very long messages " * 6
#: What must never reach a terminal raw: OSC (retitles it), BEL, NUL, a bidi override, colour.
RAW_CONTROLS = ("\x1b]", "\x07", "\x00", "\u202e", "\x1b[31m")
HOSTILE = "look \x1b]0;pwned\x07 here \x1b[31mred\x1b[0m nul\x00 bidi\u202eevil\u202c end"


def run_pty(
    args: list[str], cols: int, env: dict[str, str], stdin: bytes | None = None
) -> tuple[int, str]:
    """Run ``agentmem ARGS`` with stdout and stderr on a pseudo-terminal ``cols`` wide."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    full = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentmem", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=full,
    )
    os.close(slave)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def screen_lines(raw: str) -> list[str]:
    """What the terminal shows, line by line (each redraw after a carriage return apart)."""
    text = _CSI.sub("", raw)
    return [part for line in text.split("\n") for part in line.split("\r") if part]


@pytest.fixture(scope="module")
def formed_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo's sessions, beliefs and runs, plus wide characters, long and hostile text;
    built once (the tests only read it, except for an idempotent close).

    In a short directory: ``status`` prints the path, and a path longer than the terminal is
    kept whole (for copying), so pytest's long temporary paths would not fit 80 columns.
    """
    home = tmp_path_factory.mktemp("home")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMEM_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home), AGENTMEM_CONFIG=str(home / "none"))

    def run_cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "agentmem", *args]
        return subprocess.run(command, input=input, capture_output=True, text=True, env=env)

    directory = Path(tempfile.mkdtemp(prefix="am-", dir="/tmp"))
    try:
        yield _formed(run_cli, directory / "f.db")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _formed(run_cli, db: Path) -> Path:
    assert run_cli("demo", "--db", str(db)).returncode == 0
    events = [
        {"type": "run.started", "session_id": CJK_SESSION, "run_id": "r-cjk", "tools": []},
        {"type": "user.message.created", "session_id": CJK_SESSION, "text": CJK_TEXT},
        {"type": "user.message.created", "session_id": "s-long", "text": LONG_TEXT},
        {"type": "user.message.created", "session_id": "s-hostile", "text": HOSTILE},
        {"type": "assistant.message.created", "session_id": "s-hostile", "text": HOSTILE},
        {"type": "run.started", "session_id": "s-hostile", "run_id": "r-hostile", "tools": []},
        {"type": "tool.result.created", "session_id": "s-hostile", "run_id": "r-hostile",
         "tool_call_id": "c1", "content": HOSTILE},
        {"type": "run.completed", "session_id": "s-hostile", "run_id": "r-hostile",
         "outcome": "failed", "failure_class": "tool_error", "error": HOSTILE},
    ]  # fmt: skip
    jsonl = "".join(json.dumps(e) + "\n" for e in events)
    out = run_cli("event", "import", "-", "--db", str(db), "--principal", "alice", input=jsonl)
    assert out.returncode == 0, out.stderr
    for session in ("s-long", "s-hostile", CJK_SESSION):
        closed = run_cli("session", "close", session, "--db", str(db), "--principal", "alice")
        assert closed.returncode == 0, closed.stderr
    return db


def _belief_id(run_cli, db: Path) -> str:
    out = run_cli("beliefs", "list", "--all-principals", "--db", str(db), "--json")
    return next(b["belief_id"] for b in json.loads(out.stdout) if b["principal"] == "alice")


def _listings(run_cli, db: Path) -> list[list[str]]:
    at = ["--db", str(db)]
    alice = [*at, "--principal", "alice"]
    return [
        ["status", *at],
        ["event", "list", "--all-principals", *at],
        ["session", "list", "--all-principals", *at],
        ["session", "show", "s-hostile", *alice],
        ["run", "list", "--all-principals", *at],
        ["run", "show", "r-hostile", *alice],
        ["beliefs", "list", "--all", "--all-principals", *at],
        ["beliefs", "show", _belief_id(run_cli, db), *alice],
        ["beliefs", "search", "Lisbon", *alice],
        ["consent", "status", "alice", *at],
        ["artifacts", "list", "--expired", "--all-principals", *at],
        ["session", "close", "s-hostile", "--explain", *alice],
        ["db", "check", *at],
    ]


@pytest.mark.parametrize("cols", [80, 120])
def test_every_listing_fits_the_terminal(run_cli, cli_env, formed_db: Path, cols: int) -> None:
    for args in _listings(run_cli, formed_db):
        code, raw = run_pty(args, cols, cli_env)
        assert code == 0, (args, raw[-500:])
        lines = screen_lines(raw)
        assert lines, args
        too_wide = [line for line in lines if cell_len(line) > cols]
        assert not too_wide, (args, too_wide)
        assert not any(c in raw for c in RAW_CONTROLS), args
    # fitting never hides what a row is: ids stay whole, wide text is cut on a cell boundary
    _, raw = run_pty(["event", "list", "--all-principals", "--db", str(formed_db)], cols, cli_env)
    shown = "\n".join(screen_lines(raw))
    assert "r-hostile" in shown and "…" in shown
    assert "私は東京に住んでいて" in shown
    _, raw = run_pty(["beliefs", "list", "--all-principals", "--db", str(formed_db)], cols, cli_env)
    beliefs = "\n".join(screen_lines(raw))
    assert _belief_id(run_cli, formed_db) in beliefs
    assert "Lisbon" in beliefs and "─" in beliefs  # a header rule on a terminal


def test_pipes_get_plain_uncut_rows(run_cli, formed_db: Path) -> None:
    listing = run_cli("event", "list", "--all-principals", "--db", str(formed_db))
    assert listing.returncode == 0
    assert "\x1b" not in listing.stdout and "─" not in listing.stdout
    rows = listing.stdout.splitlines()
    long_row = next(row for row in rows if "s-long" in row)
    assert " ".join(LONG_TEXT.split()) in long_row  # whole, on one line: grep finds it
    assert any("user.message.created" in row for row in rows)  # full type names in pipes
    beliefs = run_cli("beliefs", "list", "--all", "--db", str(formed_db), "--principal", "alice")
    header, *body = beliefs.stdout.splitlines()
    assert header.split() == ["BELIEF", "STATUS", "STATEMENT", "POLICY", "SEQS"]
    assert all(row.split()[1] in ("active", "superseded", "forgotten") for row in body)
    assert "\x1b" not in beliefs.stdout and not any(row != row.rstrip() for row in body)


def test_json_output_is_unchanged_by_the_terminal(run_cli, cli_env, formed_db: Path) -> None:
    args = ["beliefs", "list", "--all-principals", "--db", str(formed_db), "--json"]
    piped = run_cli(*args).stdout
    _, raw = run_pty(args, 80, cli_env)
    assert json.loads(raw.replace("\r\n", "\n")) == json.loads(piped)


def test_no_color_is_honoured(run_cli, cli_env, formed_db: Path) -> None:
    args = ["db", "check", "--db", str(formed_db)]
    _, coloured = run_pty(args, 100, cli_env)
    assert _COLOUR.search(coloured)  # the progress bar is coloured on a terminal
    for listing in (args, ["beliefs", "list", "--all-principals", "--db", str(formed_db)]):
        code, plain = run_pty(listing, 100, {**cli_env, "NO_COLOR": "1"})
        assert code == 0 and not _COLOUR.search(plain), listing


def test_control_characters_are_escaped_in_every_listing(run_cli, cli_env, formed_db: Path) -> None:
    # on a terminal: test_every_listing_fits_the_terminal
    for args in _listings(run_cli, formed_db):
        piped = run_cli(*args)
        assert not any(c in piped.stdout + piped.stderr for c in RAW_CONTROLS), args
    at = ("--db", str(formed_db), "--principal", "alice")
    shown = run_cli("event", "list", "--session", "s-hostile", *at)
    # the user's, the assistant's and the tool's text, each shown escaped
    assert shown.stdout.count("\\x1b]0;pwned\\x07") == 3
    assert "\\x00" in shown.stdout and "\\u202e" in shown.stdout
    run = run_cli("run", "show", "r-hostile", *at)
    assert run.returncode == 0


def _import_file(tmp_path: Path) -> Path:
    path = tmp_path / "many.jsonl"
    lines = [
        json.dumps({"type": "run.started", "session_id": "s-many", "run_id": "r-m", "tools": []})
    ]
    lines += [
        json.dumps({"type": "user.message.created", "session_id": "s-many", "text": f"note {i}"})
        for i in range(2000)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("args", "label", "counts"),
    [
        (["event", "import", "{file}"], "importing events", None),
        (["consolidate", "--idle", "0s"], "consolidating sessions", r"1/1 sessions"),
        (["artifacts", "sweep"], "sweeping artifacts", None),
        (["db", "check"], "checking the database", r"2001/2001 events"),
        (["db", "backup", "{out}"], "backing up", r"(\d+)/\1 pages"),
        (["erase", "session", "s-many", "--yes"], "erasing", r"(\d+)/\1 steps"),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]) if isinstance(v, list) else "",
)
def test_progress_only_on_a_terminal_and_never_with_json(
    run_cli, cli_env, tmp_path: Path, args: list[str], label: str, counts: str | None
) -> None:
    """Long work shows a bar on a terminal, ending on its real count where it has one (the
    sessions consolidated, the events verified, the pages copied, the erasure's steps)."""
    source = _import_file(tmp_path)
    dbs = [tmp_path / f"{name}.db" for name in ("tty", "json", "pipe")]

    def full(db: Path) -> list[str]:
        out = str(db.with_suffix(".copy"))
        return [a.replace("{file}", str(source)).replace("{out}", out) for a in args]

    for db in dbs:
        assert run_cli("init", "--db", str(db)).returncode == 0
        if args[0] != "event":
            assert run_cli("event", "import", str(source), "--db", str(db)).returncode == 0
    code, raw = run_pty([*full(dbs[0]), "--db", str(dbs[0])], 100, cli_env)
    assert code == 0 and label in raw, raw[-500:]
    if counts is not None:
        assert re.search(counts, _CSI.sub("", raw)), raw[-500:]
    code, raw = run_pty([*full(dbs[1]), "--db", str(dbs[1]), "--json"], 100, cli_env)
    json.loads(_CSI.sub("", raw).strip())  # nothing but the JSON document
    assert code == 0 and label not in raw
    piped = run_cli(*full(dbs[2]), "--db", str(dbs[2]))
    assert piped.returncode == 0 and piped.stderr == "" and label not in piped.stdout


def test_evaluation_progress_is_a_bar_on_a_terminal_and_lines_elsewhere(
    run_cli, cli_env, tmp_path: Path
) -> None:
    script = tmp_path / "script.json"
    script.write_text("[]")
    args = ["eval", "memory-formation", "--provider", "scripted", "--script", str(script)]
    args += ["--limit", "2", "--out", str(tmp_path / "ev.json")]
    code, raw = run_pty(args, 100, cli_env)
    assert code == 9 and "evaluating cases" in raw
    assert "agentmem: eval memory-formation:" not in raw  # the bar instead of log lines
    code, raw = run_pty([*args, "--json"], 100, cli_env)
    assert code == 9 and "evaluating cases" not in raw
    piped = run_cli(*args)
    assert "evaluating cases" not in piped.stderr
    assert "agentmem: eval memory-formation: 2/2 cases, finished" in piped.stderr
