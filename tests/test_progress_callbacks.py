"""Long library calls report ``progress(done, total)`` with real counts, so any front end (the
CLI's bar, a GUI) can show how far they are; the counts rise and end at the total."""

from __future__ import annotations

from _events import user_msg

import agentmem


def _calls(work) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    work(lambda done, total: seen.append((done, total)))
    return seen


def _rises_to_the_end(seen: list[tuple[int, int]], total: int | None = None) -> None:
    assert seen, "progress was never reported"
    dones = [done for done, _ in seen]
    assert dones == sorted(dones) and seen[-1][0] == seen[-1][1]
    if total is not None:
        assert seen[-1] == (total, total)


def test_check_counts_the_events_it_verifies(store: agentmem.Store) -> None:
    store.append_many(user_msg(f"note {i}", session="s", run=None) for i in range(600))
    seen = _calls(lambda update: store.check(progress=update))
    _rises_to_the_end(seen, 600)
    assert len(seen) == 3  # every 256 events and the last: a bar, not a call per row


def test_consolidation_counts_sessions(store: agentmem.Store) -> None:
    for i in range(3):
        store.append(user_msg(f"I live in City{i}.", session=f"s{i}", run=None))
    seen = _calls(lambda update: store.consolidate_idle(0, progress=update))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_erasure_counts_its_steps_and_a_dry_run_ends_too(store: agentmem.Store) -> None:
    store.append(user_msg("I live in Lisbon.", session="s1", run=None))
    store.append(user_msg("I live in Porto.", session="s2", run=None))
    dry = _calls(lambda update: store.erase_session("s1", dry_run=True, progress=update))
    _rises_to_the_end(dry)
    real = _calls(lambda update: store.erase_session("s2", progress=update))
    _rises_to_the_end(real, dry[-1][1])
    assert len(real) > len(dry) > 1  # the deletions, the rebuild and reindexing were counted
