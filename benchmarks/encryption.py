"""Encryption at rest: encrypted against plain agentmem files, same machine, data and run.

Run from a checkout with the cipher installed (see README, "Encryption at rest"):
``python benchmarks/encryption.py [--quick]``. Each row is the plain file's time divided by the
encrypted file's time for the same work (so 0.80 means encryption costs 20%), the median of
several repeats with plain and encrypted runs interleaved so a change in load hits both.

- durable single appends: ``Store.append(dict)``, one transaction each, ``synchronous=FULL``;
- session read: ``Store.events(session_id=...)`` of a 2,000-event session, cold connection.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import agentmem  # noqa: E402
from agentmem.encryption import KEY_FILE_ENV, cipher_available, file_state  # noqa: E402


def _message(i: int) -> dict:
    return {
        "type": "user.message.created",
        "session_id": "s1",
        "principal": "alice",
        "text": f"message {i}: " + "the quick brown fox jumps over the lazy dog " * 4,
    }


def _appends(path: Path, count: int) -> float:
    with agentmem.open(str(path)) as store:
        started = time.perf_counter()
        for i in range(count):
            store.append(_message(i))
        return time.perf_counter() - started


def _read(path: Path) -> float:
    with agentmem.open(str(path), principal="alice", readonly=True) as store:
        started = time.perf_counter()
        count = sum(1 for _ in store.events(session_id="s1"))
        elapsed = time.perf_counter() - started
    assert count >= 2000
    return elapsed


def _run(encrypted: bool, work: Path, key: Path, appends: int) -> tuple[float, float]:
    path = work / f"{'enc' if encrypted else 'plain'}-{secrets.token_hex(3)}.db"
    if encrypted:
        os.environ[KEY_FILE_ENV] = str(key)
    else:
        os.environ.pop(KEY_FILE_ENV, None)
    try:
        append_time = _appends(path, appends)
        with agentmem.open(str(path)) as store:
            store.append_many(_message(i) for i in range(2000))
        assert file_state(path) == ("encrypted" if encrypted else "plain")
        return append_time / appends, _read(path)
    finally:
        os.environ.pop(KEY_FILE_ENV, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and appends")
    args = parser.parse_args()
    if not cipher_available():
        sys.exit("the loaded apsw has no cipher: install agentmem[encryption] (see README)")
    repeats, appends = (3, 100) if args.quick else (5, 400)
    rows: dict[str, list[tuple[float, float]]] = {"append": [], "read": []}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        key = work / "key.hex"
        key.write_text(secrets.token_hex(32))
        for _ in range(repeats):
            plain = _run(False, work, key, appends)
            encrypted = _run(True, work, key, appends)
            rows["append"].append((plain[0], encrypted[0]))
            rows["read"].append((plain[1], encrypted[1]))
    print(f"{'measure':<34} {'plain':>10} {'encrypted':>10} {'ratio':>6}")
    labels = {
        "append": "durable single append (ms each)",
        "read": "read a 2,000-event session (ms)",
    }
    for name, pairs in rows.items():
        plain_t = statistics.median(p for p, _ in pairs)
        enc_t = statistics.median(e for _, e in pairs)
        print(
            f"{labels[name]:<34} {plain_t * 1000:>10.3f} {enc_t * 1000:>10.3f} "
            f"{plain_t / enc_t:>6.2f}"
        )


if __name__ == "__main__":
    main()
