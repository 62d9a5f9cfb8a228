"""Memory benchmarks: consolidation, recall and the provider path's local overhead.

Run from a checkout: ``python benchmarks/memory.py [--quick]``. Each row is a ratio against a
baseline measured in the same run on the same data:

- consolidating a 1,000-message session (deterministic formation@7, all gates, audit) against
  reading the same session's events from the log (target <= 3x; lower is better);
- consolidating the same small session for a principal with 100,000 active beliefs against one
  with none (target <= 2x; lower is better);
- ``Store.search_beliefs`` over 100,000 beliefs against the raw FTS5 query through apsw that
  returns the same top 20 rowids (target >= 0.8x throughput; higher is better);
- the provider path's local overhead (prompt build, budget, validation, merge) with a
  zero-latency scripted provider, against deterministic consolidation of the same session
  (reported; lower is better).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import agentmem  # noqa: E402
from agentmem.memory.claims import normalize_claim  # noqa: E402
from agentmem.memory.service import FormationService, seed_belief  # noqa: E402

SENTENCES = [
    "I live in {city}.",
    "Can you help me plan a trip to {city} next spring?",
    "I have a dog named {name}.",
    "I really like {food}.",
    "What do you think about {food} for dinner?",
    "My sister {name} is visiting next week.",
    "The build failed again, can you look at the logs?",
    "I work as a {job}.",
    "Should I learn {lang} or keep improving my French?",
    "Thanks, that worked.",
]
CITIES = ["Lisbon", "Porto", "Berlin", "Osaka", "Quito", "Tallinn", "Accra", "Hobart"]
NAMES = ["Mia", "Leo", "Ada", "Noor", "Kai", "Ines", "Tom", "Zoe", "Rex", "Pip"]
FOODS = ["ramen", "tapas", "pho", "dumplings", "risotto", "falafel", "tacos", "curry"]
JOBS = ["nurse", "carpenter", "data engineer", "teacher", "pilot", "baker"]
LANGS = ["Spanish", "Japanese", "German", "Swahili", "Korean"]


def _text(rng: random.Random) -> str:
    return rng.choice(SENTENCES).format(
        city=rng.choice(CITIES),
        name=rng.choice(NAMES),
        food=rng.choice(FOODS),
        job=rng.choice(JOBS),
        lang=rng.choice(LANGS),
    )


def _session(store: agentmem.Store, session: str, messages: int, rng: random.Random) -> None:
    events = [{"type": "run.started", "session_id": session, "run_id": f"r-{session}"}]
    for i in range(messages):
        kind = "user.message.created" if i % 2 == 0 else "assistant.message.created"
        events.append(
            {"type": kind, "session_id": session, "run_id": f"r-{session}", "text": _text(rng)}
        )
    store.append_many(events)


def best(fn, repeats: int) -> float:
    return min(fn() for _ in range(repeats))


def bench_consolidation(tmp: Path, messages: int) -> tuple[float, float]:
    rng = random.Random(7)
    with agentmem.open(str(tmp / "consolidate.db"), principal="alice") as store:
        sessions = [f"s{i}" for i in range(3)]
        for s in sessions:
            _session(store, s, messages, rng)

        def read() -> float:
            start = time.perf_counter()
            list(store.events(session_id="s0"))
            return time.perf_counter() - start

        times = []
        for s in sessions:
            start = time.perf_counter()
            FormationService(store).consolidate(s)
            times.append(time.perf_counter() - start)
        return min(times), best(read, 5)


CLOSE_TEXTS = [
    "im a nurse in leeds and i have a dog named Rex",
    "my sister Ola is visiting, shes vegan, im allergic to peanuts btw",
    "i love jazz and i hate early mornings",
    "i speak polish and im learning spanish",
]


def _seed_many(store: agentmem.Store, principal: str, count: int, rng: random.Random) -> None:
    """``count`` active beliefs of the kinds a session forms (pets, relatives, preferences,
    allergies, languages), so every candidate meets many beliefs of its own kind."""
    with store.conn:
        for i in range(count):
            kind = ("pet", "relationship", "preference", "allergy", "language")[i % 5]
            word = "".join("bcdfghklmnprstvz"[int(d)] + "aeiou"[int(d) % 5] for d in f"{i:06d}")
            values = {
                "pet": {"species": "dog", "name": word.title()},
                "relationship": {"relation": "sister", "name": word.title()},
                "preference": {"polarity": "likes", "object": word},
                "allergy": {"allergen": word},
                "language": {
                    "language": rng.choice(["polish", "spanish", "german"]),
                    "level": None,
                },
            }[kind]
            if kind == "language" and i > 10:
                values = {"polarity": "dislikes", "object": word}
                kind = "preference"
            seed_belief(store, principal, normalize_claim(kind, values))


def bench_close_vs_beliefs(tmp: Path, beliefs: int) -> tuple[float, float]:
    """Closing the same small session for a principal with no beliefs and with ``beliefs``."""
    rng = random.Random(5)
    times = {}
    for count in (0, beliefs):
        with agentmem.open(str(tmp / f"close-{count}.db"), principal="alice") as store:
            _seed_many(store, "alice", count, rng)
            runs = []
            for r in range(3):
                session = f"c{r}"
                store.append({"type": "run.started", "session_id": session, "run_id": session})
                for text in CLOSE_TEXTS:
                    store.append(
                        {
                            "type": "user.message.created",
                            "session_id": session,
                            "run_id": session,
                            "text": text,
                        }
                    )
                start = time.perf_counter()
                FormationService(store).consolidate(session)
                runs.append(time.perf_counter() - start)
            times[count] = min(runs)
    return times[beliefs], times[0]


def bench_search(tmp: Path, beliefs: int) -> tuple[float, float]:
    rng = random.Random(11)
    words = [
        f"{a}{b}"
        for a in ("ka", "lo", "mi", "ne", "po", "ru", "sa", "te", "vu", "zo")
        for b in ("ba", "de", "fi", "go", "hu", "ji", "ko", "la", "mo", "nu")
    ]
    with agentmem.open(str(tmp / "search.db"), principal="alice") as store:
        with store.conn:
            for i in range(beliefs):
                kind = rng.choice(["pet", "preference", "home_location"])
                if kind == "pet":
                    claim = normalize_claim(
                        "pet", {"species": "dog", "name": rng.choice(words).title()}
                    )
                elif kind == "preference":
                    claim = normalize_claim(
                        "preference",
                        {"polarity": "likes", "object": f"{rng.choice(words)} {rng.choice(words)}"},
                    )
                else:
                    claim = normalize_claim("home_location", {"place": rng.choice(words).title()})
                seed_belief(store, "alice" if i % 2 else "bob", claim)
        queries = [rng.choice(words) for _ in range(200)]

        def ours() -> float:
            start = time.perf_counter()
            for q in queries:
                store.search_beliefs(q, principal="alice", limit=20)
            return time.perf_counter() - start

        def raw() -> float:
            conn = store.conn
            start = time.perf_counter()
            for q in queries:
                list(
                    conn.execute(
                        "SELECT b.belief_id, b.statement FROM beliefs_fts JOIN beliefs AS b "
                        "ON b.rowid = beliefs_fts.rowid WHERE beliefs_fts MATCH ? "
                        "AND b.status = 'active' AND b.principal = ? ORDER BY bm25(beliefs_fts) "
                        "LIMIT 20",
                        (f'"{q}"', "alice"),
                    )
                )
            return time.perf_counter() - start

        return len(queries) / best(ours, 3), len(queries) / best(raw, 3)


def bench_provider_overhead(tmp: Path, messages: int) -> tuple[float, float]:
    from agentmem.memory.provider import ProviderAssistedCandidateExtractor
    from agentmem.providers import ScriptedProvider
    from agentmem.providers.pricing import load_catalog

    rng = random.Random(13)
    with agentmem.open(str(tmp / "provider.db"), principal="alice") as store:
        for s in ("p0", "p1", "d0", "d1"):
            _session(store, s, messages, rng)
        empty = ['{"claims": []}']
        times_p = []
        for s in ("p0", "p1"):
            provider = ScriptedProvider(
                [{"text": empty[0], "usage": {"input_tokens": 1, "output_tokens": 1}}]
            )
            assist = ProviderAssistedCandidateExtractor.for_evaluation(provider, load_catalog(None))
            start = time.perf_counter()
            FormationService(store, assist=assist).consolidate(s)
            times_p.append(time.perf_counter() - start)
        times_d = []
        for s in ("d0", "d1"):
            start = time.perf_counter()
            FormationService(store).consolidate(s)
            times_d.append(time.perf_counter() - start)
        return min(times_p), min(times_d)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a smoke run")
    args = parser.parse_args()
    messages, beliefs = (1_000, 10_000) if args.quick else (1_000, 100_000)
    rows = []
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        ours, base = bench_consolidation(tmp, messages)
        rows.append(
            (
                f"consolidate a {messages:,}-message session (lower is better)",
                f"{ours * 1000:.0f} ms",
                f"{base * 1000:.1f} ms read",
                ours / base,
                "<= 3x",
            )
        )
        ours, base = bench_close_vs_beliefs(tmp, beliefs)
        rows.append(
            (
                f"consolidate a session of a principal with {beliefs:,} beliefs (lower is better)",
                f"{ours * 1000:.1f} ms",
                f"{base * 1000:.1f} ms with none",
                ours / base,
                "<= 2x",
            )
        )
        ours, base = bench_search(tmp, beliefs)
        rows.append(
            (
                f"beliefs search over {beliefs:,} beliefs",
                f"{ours:,.0f} q/s",
                f"{base:,.0f} q/s",
                ours / base,
                ">= 0.8x",
            )
        )
        ours, base = bench_provider_overhead(tmp, messages)
        rows.append(
            (
                f"provider path local overhead, {messages:,} messages (lower is better)",
                f"{ours * 1000:.0f} ms",
                f"{base * 1000:.0f} ms deterministic",
                ours / base,
                "report",
            )
        )
    print("| benchmark | agentmem | baseline | ratio | target |")
    print("|---|---|---|---|---|")
    for name, a, b, ratio, target in rows:
        print(f"| {name} | {a} | {b} | {ratio:.2f}x | {target} |")


if __name__ == "__main__":
    main()
