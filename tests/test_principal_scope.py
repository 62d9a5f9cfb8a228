"""``principal=None`` means the store's principal, in every function that takes a principal.

A Store opened for alice in a file that also holds bob's conversation must never hand bob's
events, sessions, runs, beliefs, artifacts or consent to a caller who left ``principal`` out;
reading across principals is the explicit ``all_principals=True``.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from _events import run_started, user_msg

import agentmem
from agentmem import artifacts

PEOPLE = {"alice": "I live in Lisbon.", "bob": "I live in Porto."}


@pytest.fixture
def shared(db_path: Path) -> Path:
    """One file, two principals, each with a run, a belief, an artifact; bob granted consent."""
    with agentmem.open(str(db_path)) as store:
        for who, said in PEOPLE.items():
            session = f"s-{who}"
            store.append(run_started(f"r-{who}", session=session, principal=who))
            store.append(user_msg(said, session=session, run=f"r-{who}", principal=who))
            store.close_session(session, principal=who)
            artifacts.put(
                store,
                origin="trajectory_export",
                data=who.encode(),
                principal=who,
                media_type="text/plain",
                doc_schema="t/1",
            )
        store.grant_consent("bob")
    return db_path


def test_leaving_principal_out_reads_only_the_stores_principal(shared: Path) -> None:
    with agentmem.open(str(shared), principal="alice") as store:
        assert {e.principal for e in store.events()} == {"alice"}
        assert all(b'"principal":"alice"' in line for line in store.events_json())
        assert [s.session_id for s in store.sessions()] == ["s-alice"]
        assert [r.run_id for r in store.runs()] == ["r-alice"]
        assert [b.statement for b in store.beliefs()] == ["User lives in Lisbon"]
        assert store.search_beliefs("Porto") == []
        assert [b.statement for b in store.search_beliefs("Lisbon")] == ["User lives in Lisbon"]
        assert [a.principal for a in store.artifacts()] == ["alice"]
        assert store.consent_status().state == "never"  # bob's grant is not alice's
        assert store.consent_status().principal == "alice"


def test_all_principals_is_the_explicit_way_to_read_everyone(shared: Path) -> None:
    everyone = {"all_principals": True}
    with agentmem.open(str(shared), principal="alice") as store:
        assert {e.principal for e in store.events(**everyone)} >= {"alice", "bob"}
        assert {s.principal for s in store.sessions(**everyone)} == {"alice", "bob"}
        assert {r.principal for r in store.runs(**everyone)} == {"alice", "bob"}
        assert {b.principal for b in store.beliefs(**everyone)} == {"alice", "bob"}
        assert [b.principal for b in store.search_beliefs("Porto", **everyone)] == ["bob"]
        assert {a.principal for a in store.artifacts(**everyone)} == {"alice", "bob"}
        # another principal is named explicitly, never reached by leaving it out
        assert [s.session_id for s in store.sessions(principal="bob")] == ["s-bob"]


def test_another_principals_belief_is_not_found_and_not_forgotten(shared: Path) -> None:
    with agentmem.open(str(shared), principal="alice") as store:
        (bobs,) = store.beliefs(principal="bob")
        with pytest.raises(agentmem.NotFound, match="for 'alice'"):
            store.belief(bobs.belief_id)
        with pytest.raises(agentmem.NotFound):
            store.forget_belief(bobs.belief_id)
        assert store.belief(bobs.belief_id, principal="bob").statement == "User lives in Porto"
        assert store.belief(bobs.belief_id, all_principals=True).status == "active"
        (bobs_artifact,) = store.artifacts(principal="bob")
        with pytest.raises(agentmem.ArtifactUnavailable, match="another principal"):
            store.read_artifact(bobs_artifact.artifact_id)


def test_an_id_lookup_does_not_reach_another_principals_session_or_run(shared: Path) -> None:
    # Knowing bob's ids grants alice's store nothing: the lookups are scoped as the listings
    # are, and nothing is written on a refused close.
    with agentmem.open(str(shared), principal="alice") as store:
        assert store.session("s-alice").principal == "alice"
        assert store.run("r-alice").principal == "alice"
        before = store.conn.execute("SELECT max(seq) FROM events").fetchall()
        lookups = {
            "session": lambda: store.session("s-bob"),
            "run": lambda: store.run("r-bob"),
            "close_session": lambda: store.close_session("s-bob"),
            "explain_session": lambda: store.explain_session("s-bob"),
        }
        for name, lookup in lookups.items():
            with pytest.raises(agentmem.NotFound, match="for principal 'alice'"):
                lookup()
            assert store.conn.execute("SELECT max(seq) FROM events").fetchall() == before, name
        # naming bob, or every principal, is the explicit way in
        assert store.session("s-bob", principal="bob").principal == "bob"
        assert store.run("r-bob", all_principals=True).principal == "bob"
        clauses = store.explain_session("s-bob", principal="bob")
        assert any("Porto" in c.clause for c in clauses)
        assert store.close_session("s-bob", all_principals=True).session_id == "s-bob"
        with pytest.raises(agentmem.UsageError, match="not both"):
            store.session("s-bob", principal="bob", all_principals=True)


def test_the_cli_names_the_owner_of_another_principals_session(shared: Path, run_cli) -> None:
    db = ("--db", str(shared))
    shown = run_cli("session", "show", "s-bob", "--principal", "alice", *db)
    assert shown.returncode != 0
    assert "belongs to another principal" in shown.stderr and "Porto" not in shown.stdout
    missing = run_cli("session", "show", "s-nobody", "--principal", "alice", *db)
    assert missing.returncode == shown.returncode
    assert "no session 's-nobody'" in missing.stderr
    assert "another principal" not in missing.stderr
    assert run_cli("session", "show", "s-bob", "--principal", "bob", *db).returncode == 0


def test_a_principal_and_all_principals_together_are_refused(shared: Path) -> None:
    with agentmem.open(str(shared), principal="alice") as store:
        for read in (store.sessions, store.runs, store.beliefs, store.artifacts):
            with pytest.raises(agentmem.UsageError, match="not both"):
                read(principal="bob", all_principals=True)
        with pytest.raises(agentmem.UsageError, match="not both"):
            list(store.events(principal="bob", all_principals=True))


def test_every_principal_parameter_defaults_to_none_and_listings_offer_all_principals() -> None:
    """The facade's signatures say the same thing: ``principal`` is optional everywhere (the
    store's), and each listing of many principals' rows has the explicit opt-in."""
    listings = {"events", "events_json", "sessions", "runs", "beliefs", "search_beliefs"}
    listings |= {"artifacts", "belief", "forget_belief"}
    seen = set()
    for name, method in inspect.getmembers(agentmem.Store, inspect.isfunction):
        params = inspect.signature(method).parameters
        # erase_principal names whom it erases: never a default
        if name.startswith("_") or "principal" not in params or name == "erase_principal":
            continue
        seen.add(name)
        assert params["principal"].default is None, name
        if name in listings - {"events", "events_json"}:
            assert params["all_principals"].default is False, name
    assert seen >= listings - {"events", "events_json"}


def test_the_cli_lists_one_principal_unless_all_principals_is_given(shared: Path, run_cli) -> None:
    db = ("--db", str(shared))
    for noun in ("session", "run", "beliefs", "artifacts", "event"):
        mine = run_cli(noun, "list", "--principal", "alice", *db)
        assert mine.returncode == 0, mine.stderr
        everyone = run_cli(noun, "list", "--all-principals", *db)
        assert everyone.returncode == 0, everyone.stderr
        if noun == "event":
            assert "Porto" not in mine.stdout and "Porto" in everyone.stdout
        else:
            assert "bob" not in mine.stdout and "bob" in everyone.stdout, noun
