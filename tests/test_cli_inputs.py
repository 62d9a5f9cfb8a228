"""The CLI refuses what it cannot mean: bad numbers and choices, mistyped paths, a demo into a
used database; and ``--principal`` means one thing everywhere (issue 10, items 10 and 15-17).

Every refusal is exit 2 with one line on stderr, and nothing is written or created.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

import agentmem

SAMPLE = Path(__file__).resolve().parent.parent / "corpus" / "sample" / "sample.jsonl"


@pytest.fixture
def sample_db(run_cli, tmp_path: Path) -> Path:
    """The bundled sample (principals alice and bob, none for the default 'local')."""
    db = tmp_path / "sample.db"
    out = run_cli("event", "import", str(SAMPLE), "--db", str(db))
    assert out.returncode == 0, out.stderr
    return db


def _events(run_cli, db: Path) -> int:
    out = run_cli("status", "--db", str(db), "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["events"]


def _usage_line(out) -> str:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("agentmem: "), out.stderr
    assert "internal error" not in out.stderr
    return out.stderr


# -- item 10: the demo never writes into a database that holds something -----------------------


def test_demo_refuses_a_database_that_holds_events(run_cli, sample_db: Path) -> None:
    out = run_cli("demo", "--db", str(sample_db))
    line = _usage_line(out)
    assert "already holds 33 events" in line and out.stdout == ""
    assert _events(run_cli, sample_db) == 33


def test_demo_accepts_a_new_or_freshly_initialized_database(run_cli, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.db"
    assert run_cli("init", "--db", str(fresh)).returncode == 0
    out = run_cli("demo", "--db", str(fresh))
    assert out.returncode == 0, out.stderr
    assert _events(run_cli, fresh) > 33


# -- item 15: numbers, choices and paths ------------------------------------------------------

BAD_ARGUMENTS = [
    ("event", "list", "--limit", "-1"),
    ("event", "list", "--limit", "0"),
    ("event", "list", "--limit", "1.5"),
    ("event", "list", "--limit", "1e3"),
    ("event", "list", "--limit", "0x10"),
    ("event", "list", "--limit", "99999999999999999999"),
    ("event", "list", "--after", "99999999999999999999"),
    ("event", "list", "--after", "-1"),
    ("beliefs", "search", "dog", "--limit", "-1"),
    ("beliefs", "search", "dog", "--limit", "2.5"),
    ("beliefs", "search", "dog", "--limit", "99999999999999999999"),
    ("consolidate", "--idle", "999999999999d"),
    ("consolidate", "--idle", "soon"),
    ("session", "list", "--status", "bogus"),
    ("session", "list", "--principal", "alice", "--all-principals"),
    ("serve", "--port", "70000"),
    ("serve", "--port", "80.5"),
]


@pytest.mark.parametrize("args", BAD_ARGUMENTS, ids=" ".join)
def test_bad_arguments_are_one_usage_line_and_change_nothing(
    run_cli, sample_db: Path, args: tuple[str, ...]
) -> None:
    before = sample_db.read_bytes()
    out = run_cli(*args, "--db", str(sample_db), timeout=30)
    _usage_line(out)
    assert out.stdout == ""
    assert sample_db.read_bytes() == before


def _event() -> str:
    return json.dumps({"type": "run.started", "session_id": "s", "run_id": "r"})


WRITE_COMMANDS = [
    ("event", "append", _event()),
    ("event", "import", str(SAMPLE)),
    ("consent", "grant"),
    ("consent", "withdraw"),
    ("demo",),
    ("mcp",),
    ("serve", "--port", "0"),
]


@pytest.mark.parametrize("args", WRITE_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_write_commands_refuse_a_missing_directory(
    run_cli, tmp_path: Path, args: tuple[str, ...]
) -> None:
    typo = tmp_path / "tpyo"
    out = run_cli(*args, "--db", str(typo / "agentmem.db"), timeout=30)
    line = _usage_line(out)
    assert f"directory {typo} does not exist" in line and "agentmem init --db" in line
    assert not typo.exists()


@pytest.mark.parametrize(
    "args", [("status",), ("event", "list"), ("db", "check"), ("session", "close", "s")]
)
def test_other_commands_refuse_a_missing_database(
    run_cli, tmp_path: Path, args: tuple[str, ...]
) -> None:
    missing = tmp_path / "tpyo" / "agentmem.db"
    line = _usage_line(run_cli(*args, "--db", str(missing)))
    assert "no agentmem database" in line
    assert not missing.parent.exists()


def test_init_creates_missing_directories(run_cli, tmp_path: Path) -> None:
    target = tmp_path / "new" / "nested" / "agentmem.db"
    out = run_cli("init", "--db", str(target))
    assert out.returncode == 0, out.stderr
    assert target.is_file()
    assert run_cli("event", "append", _event(), "--db", str(target)).returncode == 0


def test_the_default_location_is_created_on_first_write(run_cli, cli_env: dict) -> None:
    # No --db and no AGENTMEM_DB: agentmem's own directory under the user data dir.
    out = run_cli("event", "append", _event())
    assert out.returncode == 0, out.stderr
    assert (Path(cli_env["XDG_DATA_HOME"]) / "agentmem" / "agentmem.db").is_file()


def test_valid_limits_still_work(run_cli, sample_db: Path) -> None:
    out = run_cli(
        "event", "list", "--db", str(sample_db), "--all-principals", "--limit", "2", "--json"
    )
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 2
    after = run_cli(
        "event", "list", "--db", str(sample_db), "--all-principals", "--after", "31", "--json"
    )
    assert [json.loads(x)["seq"] for x in after.stdout.splitlines()] == [32, 33]


# -- item 16: one meaning of --principal ------------------------------------------------------


def _ids(run_cli, *args: str, key: str) -> set[str]:
    out = run_cli(*args, "--json")
    assert out.returncode == 0, out.stderr
    if args[:2] == ("event", "list"):
        return {json.loads(line)[key] for line in out.stdout.splitlines()}
    return {row[key] for row in json.loads(out.stdout)}


LISTINGS = [
    (("session", "list"), "principal"),
    (("run", "list"), "principal"),
    (("event", "list"), "principal"),
    (("beliefs", "list"), "principal"),
    (("beliefs", "search", "daughter dog Mia"), "principal"),
    (("artifacts", "list"), "principal"),
]


@pytest.fixture
def formed_db(sample_db: Path) -> Path:
    """The sample with alice's beliefs formed and an export of one of her runs."""
    with agentmem.open(str(sample_db), principal="alice") as store:
        store.close_session("s-family")
        store.grant_consent()
        store.append({"type": "run.started", "session_id": "s-x", "run_id": "r-x"})
        store.append({"type": "user.message.created", "session_id": "s-x", "run_id": "r-x",
                      "text": "Summarise my week."})  # fmt: skip
        store.append({"type": "run.completed", "session_id": "s-x", "run_id": "r-x",
                      "outcome": "succeeded"})  # fmt: skip
        store.export_run("r-x")
    return sample_db


@pytest.mark.parametrize(("args", "key"), LISTINGS, ids=[" ".join(a[:2]) for a, _ in LISTINGS])
def test_listings_act_for_the_settings_principal_unless_all_principals(
    run_cli, formed_db: Path, args: tuple[str, ...], key: str
) -> None:
    db = ("--db", str(formed_db))
    assert _ids(run_cli, *args, *db, key=key) == set()  # nothing belongs to 'local'
    assert _ids(run_cli, *args, *db, "--principal", "alice", key=key) == {"alice"}
    everyone = _ids(run_cli, *args, *db, "--all-principals", key=key)
    assert "alice" in everyone and everyone <= {"alice", "bob"}
    from_settings = run_cli(*args, *db, "--json", env={"AGENTMEM_PRINCIPAL": "alice"})
    assert from_settings.stdout == run_cli(*args, *db, "--principal", "alice", "--json").stdout


@pytest.mark.parametrize(
    "args",
    [
        ("session", "show", "s-family"),
        ("session", "close", "s-code"),
        ("run", "show", "r-code-1"),
        ("beliefs", "show", "{belief}"),
        ("beliefs", "forget", "{belief}"),
    ],
    ids=" ".join,
)
def test_another_principals_item_is_not_found_with_a_hint(
    run_cli, formed_db: Path, args: tuple[str, ...]
) -> None:
    db = ("--db", str(formed_db))
    alice = ("--principal", "alice")
    (belief, *_) = _ids(run_cli, "beliefs", "list", *db, *alice, key="belief_id")
    args = tuple(a.replace("{belief}", belief) for a in args)
    before = _events(run_cli, formed_db)
    out = run_cli(*args, *db)
    assert out.returncode == 3 and out.stderr.count("\n") == 1
    assert "for principal 'local'" in out.stderr or "for 'local'" in out.stderr
    assert "pass --principal" in out.stderr
    assert _events(run_cli, formed_db) == before  # nothing closed or forgotten
    assert run_cli(*args, *db, *alice).returncode == 0


def test_export_and_artifacts_get_use_the_same_principal_rule(run_cli, formed_db: Path) -> None:
    db = ("--db", str(formed_db))
    refused = run_cli("run", "export", "r-x", *db)
    assert refused.returncode == 6 and "pass --principal" in refused.stderr
    (artifact,) = _ids(run_cli, "artifacts", "list", *db, "--principal", "alice", key="artifact_id")
    other = run_cli("artifacts", "get", artifact, *db)
    assert other.returncode == 6 and "--operator" in other.stderr
    assert run_cli("artifacts", "get", artifact, *db, "--operator").returncode == 0


def test_help_states_the_rule(run_cli) -> None:
    for args in (("session", "list"), ("beliefs", "forget"), ("artifacts", "get")):
        text = " ".join(run_cli(*args, "--help").stdout.split())
        assert "--principal" in text and "AGENTMEM_PRINCIPAL" in text
    assert "--all-principals" in run_cli("beliefs", "list", "--help").stdout


def test_library_refusals_do_not_name_cli_flags(formed_db: Path) -> None:
    with agentmem.open(str(formed_db), principal="mallory") as store:
        for action in (
            lambda: store.export_run("r-x"),
            lambda: store.read_artifact(store.artifacts(principal="alice")[0].artifact_id),
        ):
            with pytest.raises(agentmem.Refused) as caught:
                action()
            assert "--" not in caught.value.message


# -- item 17: the export hint works as printed ------------------------------------------------


def test_export_hint_is_a_command_that_works_as_printed(run_cli, tmp_path: Path) -> None:
    db = tmp_path / "with space" / "agentmem.db"
    assert run_cli("init", "--db", str(db)).returncode == 0
    with agentmem.open(str(db), principal="alice") as store:
        store.grant_consent()
        store.append({"type": "run.started", "session_id": "s", "run_id": "r"})
        store.append({"type": "user.message.created", "session_id": "s", "run_id": "r",
                      "text": "Plan the trip."})  # fmt: skip
        store.append({"type": "run.completed", "session_id": "s", "run_id": "r",
                      "outcome": "succeeded"})  # fmt: skip
    for attempt in range(2):  # created, then "already exported": both print the command
        out = run_cli("run", "export", "r", "--db", str(db), "--principal", "alice")
        assert out.returncode == 0, out.stderr
        printed = out.stdout.strip().rsplit("read it with: ", 1)[1]
        argv = shlex.split(printed)
        assert argv[:3] == ["agentmem", "artifacts", "get"], printed
        got = run_cli(*argv[1:])
        assert got.returncode == 0, (attempt, printed, got.stderr)
        assert json.loads(got.stdout)["run_id"] == "r"
