"""The formation service: the only writer of beliefs (ADR-0057 decision 5).

Extractors propose; this module decides. Every candidate passes the gates in order, and the
first gate that refuses it names the reason it is counted under:

1. **source**: every cited seq is a ``user.message.created`` event of the owning principal in
   the session being consolidated, and the quote occurs exactly in it;
2. **scope** and **portability**: decided here from the claim kind; a candidate that arrives
   with either already set was shaped by its extractor and is refused;
3. **salience**: the service's own score (the kind's base salience), not the extractor's;
4. **rejection**: secret, prompt-injection and transient markers, rechecked on the *complete*
   cited source text (normalization of a quote cannot erase a hazard): a secret or an injection
   rejects every claim citing its message, a transient marker the claims of the clause it
   governs ("I'm in Ghent this weekend", not the nurse of the next sentence), and the tombstones of
   forgotten beliefs (the same evidence never forms a forgotten belief again);
5. **conflict**: an equal belief merges the new evidence; a single-valued kind, a preference
   with flipped polarity, or a more specific claim supersedes the old belief, keeping provenance.

At most :data:`MAX_CANDIDATES` candidates are considered per consolidation, by salience.
Consolidation runs at session close and for idle sessions, never on the append path, and is
idempotent: one audit row per (session, through-seq, formation policy).
"""

from __future__ import annotations

import contextlib
import secrets
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import msgspec

from agentmem.errors import AgentmemError, InvalidInput
from agentmem.events import canonical_json, format_time, now_text
from agentmem.memory.beliefs import (
    Belief,
    NewBelief,
    beliefs,
    claim_key,
    conflict_key,
    insert_belief,
    stored_claim,
)
from agentmem.memory.claims import (
    CLAIM_KINDS,
    Claim,
    MemoryCandidate,
    normalize_claim,
    render_statement,
    statement_is_local,
)
from agentmem.memory.episode import USER_MESSAGE, Episode, EpisodeEvent, MemoryCandidateExtractor
from agentmem.memory.events import MemoryConsolidated, audit_event_id
from agentmem.memory.markers import injection_marker, transient_marker_for

if TYPE_CHECKING:
    from agentmem.events import Event
    from agentmem.log import EventLog
    from agentmem.memory.evidence import Resolution
    from agentmem.memory.provider import ProviderAssistedCandidateExtractor

__all__ = [
    "MAX_CANDIDATES",
    "MIN_SALIENCE",
    "Belief",
    "ConsolidationReport",
    "ExplainedClause",
    "FormationService",
    "build_episode",
    "consolidate_idle",
    "idle_sessions",
    "seed_belief",
]

MAX_CANDIDATES = 12
MIN_SALIENCE = 0.2
SCOPE = "principal"

Arm = Literal["deterministic", "provider"]


class ExplainedClause(msgspec.Struct, frozen=True, kw_only=True):
    """One clause of a user message and what consolidation made of it, so a user can see why
    something was (not) remembered. ``reason`` names the marker or gate that stopped the
    statements (``question``, ``negation``, ``transient:time_window``, ``forgotten``, ...);
    ``None`` with statements means they formed, without statements that it stated nothing the
    extractor knows. ``clause`` has every secret redacted; a message holding a secret is
    withheld whole."""

    seq: int
    clause: str
    reason: str | None = None
    statements: tuple[str, ...] = ()


class ConsolidationReport(msgspec.Struct, frozen=True):
    """What one consolidation did: outcome and rejection counts, and the beliefs it touched.

    A consolidation of many sessions goes on past one that fails; that session's report then
    carries ``error`` (one line) and ``error_code`` (the error's stable ``code``) and wrote
    nothing.
    """

    session_id: str
    principal: str
    through_seq: int
    formation_policy: str
    extractor: str
    skipped: bool
    counts: dict[str, int]
    rejected: dict[str, int]
    belief_ids: tuple[str, ...] = ()
    error: str | None = None
    error_code: str | None = None


# Conversation events whose Agents SDK item was later popped or cleared (agents.item.popped,
# agents.session.cleared): the user took them back, so they are never evidence. A compaction
# (``compacted``) rewrites history without taking anything back.
_WITHDRAWN_SQL = (
    "SELECT json_extract(a.payload, '$.event_ref') FROM events AS a "
    "WHERE a.session_id = ?1 AND a.type = 'agents.item.added' "
    "AND json_extract(a.payload, '$.event_ref') IS NOT NULL AND EXISTS ("
    "SELECT 1 FROM events AS w WHERE w.session_id = ?1 AND w.principal = a.principal "
    "AND json_extract(w.payload, '$.compacted') IS NULL AND ("
    "(w.type = 'agents.item.popped' AND json_extract(w.payload, '$.item_seq') = a.seq) OR "
    "(w.type = 'agents.session.cleared' AND json_extract(w.payload, '$.through_seq') >= a.seq)))"
)


#: How many of the principal's newest active beliefs an episode carries as context.
EXISTING_BELIEFS = 50


def build_episode(store: EventLog, session_id: str, principal: str) -> Episode:
    """The session's conversation as an extractor sees it (user, assistant and tool text).

    Events whose Agents SDK item was popped or cleared are left out: what the user took back
    is never evidence.
    """
    withdrawn = {ref for (ref,) in store.conn.execute(_WITHDRAWN_SQL, (session_id,))}
    # Straight from the rows (SQLite's JSON functions) rather than through event structs:
    # consolidation reads whole sessions, and only these four fields matter here.
    events = [
        EpisodeEvent(seq=seq, type=type_, principal=principal, text=text or "")
        for seq, event_id, type_, principal, text in store.conn.execute(
            "SELECT seq, event_id, type, principal, coalesce(json_extract(payload, '$.text'), "
            "json_extract(payload, '$.content')) FROM events WHERE session_id = ? AND type IN "
            "('user.message.created', 'assistant.message.created', 'tool.result.created') "
            "ORDER BY seq",
            (session_id,),
        )
        if event_id not in withdrawn
    ]
    existing = tuple(
        Claim(kind=b.kind, values=b.values)
        for b in beliefs(store, principal=principal, limit=EXISTING_BELIEFS)
        if b.values is not None
    )
    return Episode(
        principal=principal, session_id=session_id, events=tuple(events), existing_beliefs=existing
    )


def _related_query(principal: str, claim: Claim) -> tuple[str, tuple[str, ...]]:
    """SQL for the active beliefs of ``claim``'s kind that share its anchor: the first field
    it competes on that is never unknown (every field of a single-valued kind competes)."""
    sql = (
        "SELECT belief_id, claim_values FROM beliefs WHERE principal = ? AND kind = ? "
        "AND status = 'active'"
    )
    spec = CLAIM_KINDS[claim.kind]
    anchors = [f for f in spec.conflict_fields if f not in spec.nullable]
    if spec.single_valued or not anchors or claim.values.get(anchors[0]) is None:
        return sql, (principal, claim.kind)
    value = claim.values[anchors[0]]
    assert value is not None
    return sql + f" AND json_extract(claim_values, '$.{anchors[0]}') = ?", (
        principal,
        claim.kind,
        value,
    )


def _unaccented(claim: Claim) -> tuple[str | None, ...]:
    """``claim``'s values with accents and other combining marks left out: "wrocław" and
    "wroclaw" are one spelling of the same place."""
    return tuple(
        "".join(
            ch
            for ch in unicodedata.normalize("NFKD", v.translate(_PLAIN_LETTERS))
            if not unicodedata.combining(ch)
        )
        if v
        else v
        for v in claim.values.values()
    )


# Letters with no decomposition into a plain letter and a mark ("łódź" is typed "lodz")
_PLAIN_LETTERS: Final = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th"}
)


def _secret_marker(text: str) -> str | None:
    from agentmem.redaction import default_registry

    rule = default_registry().first_secret(text)
    return f"secret:{rule}" if rule else None


class FormationService:
    """Consolidates sessions into beliefs. One instance per store and extractor set."""

    def __init__(
        self,
        store: EventLog,
        extractor: MemoryCandidateExtractor | None = None,
        *,
        assist: ProviderAssistedCandidateExtractor | None = None,
        resolution: Resolution | None = None,
        formation_policy: str | None = None,
    ) -> None:
        self.store = store
        if extractor is None:
            from agentmem.memory.extractor import DeterministicExtractor

            extractor = DeterministicExtractor()
        self.extractor = extractor
        self.assist = assist
        self._has_tombstones = True  # refreshed per formation; True is the safe default
        self._markers: dict[int, str | None] = {}  # per formation: seq -> first marker
        self.resolution = resolution
        self.formation_policy = formation_policy or (
            assist.formation_policy if assist is not None else self.extractor.formation_policy
        )

    # -- consolidation ---------------------------------------------------------------------

    def consolidate(self, session_id: str, *, trigger: str = "manual") -> ConsolidationReport:
        """Consolidate one session through its last event; a repeat writes nothing."""
        store = self.store
        info = store.session(session_id, all_principals=True)
        through = info.last_seq
        done = store.conn.execute(
            "SELECT counts FROM consolidations WHERE session_id = ? AND through_seq = ? "
            "AND formation_policy = ?",
            (session_id, through, self.formation_policy),
        ).fetchall()
        attempt = 1
        if done:
            counts = msgspec.json.decode(cast("str", done[0][0]))
            if not counts.get("deferred"):
                return ConsolidationReport(
                    session_id,
                    info.principal,
                    through,
                    self.formation_policy,
                    self.extractor.version,
                    True,
                    counts.get("outcomes", {}),
                    counts.get("rejected", {}),
                )
            # claims deferred by the twelve-candidate cap: this consolidation takes the next
            attempt = int(counts.get("pass", 1)) + 1
        episode = build_episode(store, session_id, info.principal)
        proposals: list[tuple[MemoryCandidate, Arm]] = [
            (c, "deterministic") for c in self.extractor.extract(episode)
        ]
        if self.assist is not None and attempt == 1:
            proposals += self._assisted(episode, through, attempt=1)
        return self.form(episode, proposals, through_seq=through, trigger=trigger, attempt=attempt)

    def _assisted(
        self, episode: Episode, through: int, *, attempt: int
    ) -> list[tuple[MemoryCandidate, Arm]]:
        """One provider attempt; its audit is appended whatever happens (even on cancel).

        Nothing on this path may stop deterministic formation (ADR-0057 decision 5): when the
        audit cannot be written, the provider's candidates are dropped (an unaudited call never
        contributes) and the deterministic ones go on alone.
        """
        import apsw

        from agentmem.memory.provider import run_sync

        assert self.assist is not None
        unaudited: list[Exception] = []

        def audit(event: Event) -> None:
            try:
                self.store.append_process(event)
            except (AgentmemError, apsw.Error) as exc:
                unaudited.append(exc)

        outcome = run_sync(
            self.assist.attempt(episode, attempt=attempt, on_audit=audit, through_seq=through)
        )
        if unaudited:
            return []
        with self.store.transaction():
            self.store.conn.execute(
                "INSERT INTO provider_retries (session_id, through_seq, attempts, retryable, "
                "last_error, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id, through_seq) DO UPDATE SET attempts = excluded.attempts,"
                " retryable = excluded.retryable, last_error = excluded.last_error, "
                "updated_at = excluded.updated_at",
                (
                    episode.session_id,
                    through,
                    attempt,
                    int(outcome.retryable),
                    outcome.error_class,
                    now_text(),
                ),
            )
        return [(c, "provider") for c in outcome.candidates]

    def retry_provider(self, session_id: str) -> ConsolidationReport | None:
        """ADR-0068: retry a retryable provider failure once, if attempts remain."""
        from agentmem.memory.provider import MAX_PROVIDER_ATTEMPTS

        if self.assist is None:
            return None
        rows = self.store.conn.execute(
            "SELECT through_seq, attempts FROM provider_retries WHERE session_id = ? "
            "AND retryable = 1 AND attempts < ? ORDER BY through_seq DESC LIMIT 1",
            (session_id, MAX_PROVIDER_ATTEMPTS),
        ).fetchall()
        if not rows:
            return None
        through, attempts = cast("tuple[int, int]", rows[0])  # provider_retries is STRICT
        info = self.store.session(session_id, all_principals=True)
        episode = build_episode(self.store, session_id, info.principal)
        episode = msgspec.structs.replace(
            episode, events=tuple(e for e in episode.events if e.seq <= through)
        )
        proposals: list[tuple[MemoryCandidate, Arm]] = [
            (c, "deterministic") for c in self.extractor.extract(episode)
        ]
        proposals += self._assisted(episode, through, attempt=attempts + 1)
        return self.form(
            episode, proposals, through_seq=through, trigger="idle", attempt=attempts + 1
        )

    def form(
        self,
        episode: Episode,
        proposals: Sequence[tuple[MemoryCandidate, Arm]],
        *,
        through_seq: int,
        trigger: str = "manual",
        extractor_label: str | None = None,
        attempt: int = 1,
    ) -> ConsolidationReport:
        """Run every proposal through the gates and write the survivors, in one transaction."""
        store = self.store
        rejected: Counter[str] = Counter()
        outcomes: Counter[str] = Counter()
        by_seq = {e.seq: e for e in episode.events}
        touched: list[str] = []
        self._markers = {}
        self._has_tombstones = bool(
            store.conn.execute(
                "SELECT 1 FROM beliefs WHERE principal = ? AND status = 'forgotten' LIMIT 1",
                (episode.principal,),
            ).fetchall()
        )
        with store.transaction():
            if attempt == 1:
                # Checked again under the write lock: another process may have consolidated
                # the same range while this one was extracting. Then this run writes nothing.
                done = store.conn.execute(
                    "SELECT counts FROM consolidations WHERE session_id = ? AND through_seq = ? "
                    "AND formation_policy = ?",
                    (episode.session_id, through_seq, self.formation_policy),
                ).fetchall()
                if done:
                    counts = msgspec.json.decode(cast("str", done[0][0]))
                    return ConsolidationReport(
                        episode.session_id,
                        episode.principal,
                        through_seq,
                        self.formation_policy,
                        self.extractor.version,
                        True,
                        counts.get("outcomes", {}),
                        counts.get("rejected", {}),
                    )
            accepted: dict[str, tuple[MemoryCandidate, set[str]]] = {}
            for candidate, arm in proposals:
                reason = self._gate(candidate, episode, by_seq)
                if reason is not None:
                    rejected[reason] += 1
                    continue
                key = claim_key(candidate.claim)
                if key in accepted:
                    merged, arms = accepted[key]
                    accepted[key] = (_merge(merged, candidate), arms | {arm})
                else:
                    accepted[key] = (candidate, {arm})
            # A re-statement of an active belief only merges evidence: it takes no slot of the
            # twelve, so a long session of known facts cannot crowd out a new one. New and
            # changed claims rank by salience, then by recency; those over the cap are deferred
            # to the next consolidation of the session (counted, never silently lost).
            keys = list(accepted)
            known = {
                key
                for (key,) in store.conn.execute(
                    "SELECT claim_key FROM beliefs WHERE principal = ? AND status = 'active' "
                    f"AND claim_key IN ({', '.join('?' * len(keys))})",
                    (episode.principal, *keys),
                )
            }
            confirmations = [item for key, item in accepted.items() if key in known]
            fresh = sorted(
                (item for key, item in accepted.items() if key not in known),
                key=lambda item: (-_salience(item[0]), -item[0].evidence[-1].seq),
            )
            deferred = max(0, len(fresh) - MAX_CANDIDATES)
            if deferred:
                rejected["over_limit"] += deferred
            # written in the order the user said them, each at the latest message that states
            # it, so a later statement supersedes ("were on node 20", "bumped to node 22",
            # "rolled back to node 20": 20 is said last); within
            # one message in the extractor's order, never restatements first (a consolidation
            # run again over "i work at TCS ... now i have joined Infosys" must not let the TCS
            # it superseded win back because Infosys is by then the held belief)
            said_order = {key: index for index, key in enumerate(accepted)}
            chosen = sorted(
                confirmations + fresh[:MAX_CANDIDATES],
                key=lambda item: (item[0].evidence[-1].seq, said_order[claim_key(item[0].claim)]),
            )
            retracted = getattr(self.extractor, "retracted", None)
            taken_back = (
                frozenset(claim_key(c) for c, _ in retracted(episode)) if retracted else frozenset()
            )
            for candidate, arms in chosen:
                origin = (
                    "shared"
                    if len(arms) == 2
                    else "provider_added"
                    if "provider" in arms
                    else "deterministic"
                )
                outcome, belief_id = self._write(candidate, episode, origin, taken_back)
                outcomes[outcome] += 1
                touched.append(belief_id)
            withdrawn = self._withdraw(episode, touched)
            if withdrawn:
                outcomes["withdrawn"] += withdrawn
            counts = {
                "outcomes": dict(outcomes),
                "rejected": dict(rejected),
                "proposed": len(proposals),
                "deferred": deferred,
                "pass": attempt,
            }
            label = extractor_label or (
                self.extractor.version
                + (f"+{self.assist.version}" if self.assist is not None else "")
            )
            store.conn.execute(
                "INSERT INTO consolidations (session_id, through_seq, formation_policy, "
                "principal, extractor, trigger_kind, counts, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
                "counts = excluded.counts, created_at = excluded.created_at",
                (
                    episode.session_id,
                    through_seq,
                    self.formation_policy,
                    episode.principal,
                    label,
                    trigger,
                    canonical_json(counts).decode(),
                    now_text(),
                ),
            )
            audit = MemoryConsolidated(
                principal=episode.principal,
                session_id=episode.session_id,
                through_seq=through_seq,
                formation_policy=self.formation_policy,
                extractor=label,
                outcomes=dict(outcomes),
                rejected=dict(rejected),
                attempt=attempt,
            )
            store.append_process(msgspec.structs.replace(audit, event_id=audit_event_id(audit)))
        return ConsolidationReport(
            episode.session_id,
            episode.principal,
            through_seq,
            self.formation_policy,
            label,
            False,
            dict(outcomes),
            dict(rejected),
            tuple(touched),
        )

    def explain(self, session_id: str) -> list[ExplainedClause]:
        """Per clause of each of the session's user messages: what it states, and what stopped
        it (a marker found by the extractor, or a gate of this service). Writes nothing."""
        from agentmem.redaction import default_registry

        info = self.store.session(session_id, all_principals=True)
        episode = build_episode(self.store, session_id, info.principal)
        explainer = getattr(self.extractor, "explain", None)
        if explainer is None:
            from agentmem.memory.extractor import DeterministicExtractor

            explainer = DeterministicExtractor().explain
        notes = explainer(episode)
        by_seq = {e.seq: e for e in episode.events}
        self._markers = {}
        self._has_tombstones = True
        gates: dict[str, str | None] = {}
        for candidate in self.extractor.extract(episode):
            gates[claim_key(candidate.claim)] = self._gate(candidate, episode, by_seq)
        registry = default_registry()
        out: list[ExplainedClause] = []
        for note in notes:
            text = by_seq[note.seq].text
            if _secret_marker(text):
                clause = "[withheld: the message holds a secret]"
            else:
                clause = registry.redact_text(text[note.start : note.end])[0]
            if not note.claims:
                out.append(ExplainedClause(seq=note.seq, clause=clause, reason=note.reason))
                continue
            for kind, values in note.claims:
                try:
                    claim = normalize_claim(kind, dict(values))
                except InvalidInput:
                    continue
                reason = note.reason or gates.get(claim_key(claim))
                out.append(
                    ExplainedClause(
                        seq=note.seq,
                        clause=clause,
                        reason=reason,
                        statements=(render_statement(claim),),
                    )
                )
        return out

    def _withdraw(self, episode: Episode, touched: list[str]) -> int:
        """Supersede active beliefs the session itself took back ("I love jazz." ... "oh wait,
        no, I meant blues"), when every piece of their evidence is from this session and the
        retraction came after it. Only an extractor that reports retractions triggers this."""
        count = 0
        conn = self.store.conn
        # a state the user says is over ("luna passed away", "Infosys was previous company")
        # ends the belief whichever session formed it, if its evidence came before the words
        ended = getattr(self.extractor, "ended", None)
        for claim, at_seq in ended(episode) if ended is not None else ():
            rows = conn.execute(
                "SELECT b.belief_id, coalesce(max(e.seq), 0) FROM beliefs AS b "
                "LEFT JOIN belief_evidence AS e USING (belief_id) WHERE b.principal = ? "
                "AND b.claim_key = ? AND b.status = 'active' GROUP BY b.belief_id",
                (episode.principal, claim_key(claim)),
            ).fetchall()
            for belief_id, last_seq in rows:
                if belief_id in touched or last_seq >= at_seq:
                    continue
                conn.execute(
                    "UPDATE beliefs SET status = 'superseded', updated_at = ? WHERE belief_id = ?",
                    (now_text(), belief_id),
                )
                count += 1
        retracted = getattr(self.extractor, "retracted", None)
        if retracted is None:
            return count
        for claim, at_seq in retracted(episode):
            rows = conn.execute(
                "SELECT b.belief_id, max(e.seq), min(e.session_id = ?) FROM beliefs AS b "
                "JOIN belief_evidence AS e USING (belief_id) WHERE b.principal = ? "
                "AND b.claim_key = ? AND b.status = 'active' GROUP BY b.belief_id",
                (episode.session_id, episode.principal, claim_key(claim)),
            ).fetchall()
            for belief_id, last_seq, only_here in rows:
                if belief_id in touched or not only_here or last_seq >= at_seq:
                    continue
                conn.execute(
                    "UPDATE beliefs SET status = 'superseded', updated_at = ? WHERE belief_id = ?",
                    (now_text(), belief_id),
                )
                count += 1
        return count

    # -- gates -------------------------------------------------------------------------------

    def _gate(
        self, candidate: MemoryCandidate, episode: Episode, by_seq: dict[int, EpisodeEvent]
    ) -> str | None:
        if not statement_is_local(candidate):
            return "statement_not_local"
        for evidence in candidate.evidence:
            source = by_seq.get(evidence.seq)
            if source is None:
                return "source_outside_session"
            if source.type != USER_MESSAGE:
                return "source_not_user_message"
            if source.principal != episode.principal:
                return "source_other_principal"
            if not evidence.quote or evidence.quote not in source.text:
                return "quote_not_in_source"
        if candidate.scope is not None or candidate.portability is not None:
            return "scope_set_by_extractor"
        if CLAIM_KINDS[candidate.claim.kind].base_salience < MIN_SALIENCE:
            return "low_salience"
        for evidence in candidate.evidence:
            text = by_seq[evidence.seq].text
            marker = self._marker(evidence.seq, text) or transient_marker_for(
                text, evidence.quote, candidate.claim.kind
            )
            if marker is not None:
                return marker
        if self._tombstoned(candidate):
            return "forgotten"
        return None

    def _marker(self, seq: int, text: str) -> str | None:
        """The secret or injection marker of a whole cited message, computed once per message."""
        if seq not in self._markers:
            self._markers[seq] = _secret_marker(text) or injection_marker(text)
        return self._markers[seq]

    def _tombstoned(self, candidate: MemoryCandidate) -> bool:
        if not self._has_tombstones:
            return False
        seqs = [e.seq for e in candidate.evidence]
        return bool(
            self.store.conn.execute(
                "SELECT 1 FROM belief_evidence AS ev JOIN beliefs AS b USING (belief_id) "
                f"WHERE b.status = 'forgotten' AND b.kind = ? AND ev.seq IN "
                f"({', '.join('?' * len(seqs))}) LIMIT 1",
                (candidate.claim.kind, *seqs),
            ).fetchall()
        )

    # -- writing -----------------------------------------------------------------------------

    def _write(
        self,
        candidate: MemoryCandidate,
        episode: Episode,
        origin: str,
        taken_back: frozenset[str] = frozenset(),
    ) -> tuple[str, str]:
        conn = self.store.conn
        claim = candidate.claim
        key, conflict = claim_key(claim), conflict_key(claim)
        now = now_text()
        same = conn.execute(
            "SELECT belief_id FROM beliefs WHERE principal = ? AND claim_key = ? "
            "AND status = 'active'",
            (episode.principal, key),
        ).fetchall()
        if same:
            return self._restated(cast("str", same[0][0]), candidate, episode.session_id, now)
        spec = CLAIM_KINDS[claim.kind]
        # Only beliefs that share the claim's anchor value can conflict with it or imply it
        # either way (a daughter with a daughter, a preference with its object), so SQLite
        # filters them: the cost stays flat as a principal's beliefs grow.
        related = [
            (row[0], stored_claim(claim.kind, row[1]))
            for row in conn.execute(*_related_query(episode.principal, claim))
        ]
        # "i live in wroclaw" said to a user held to live in "Wrocław": the same value typed
        # without its accents restates the held one and keeps its spelling (while "Łódź" said
        # after "Lodz" is the spelling the user corrected to)
        unaccented = _unaccented(claim)
        if unaccented == tuple(claim.values.values()):
            for belief_id, other in related:
                if _unaccented(other) == unaccented:
                    return self._restated(belief_id, candidate, episode.session_id, now)
        old = [
            belief_id
            for belief_id, other in related
            if conflict_key(other) == conflict or claim.implies(other)
        ]
        # A broader existing belief that already implies this one absorbs it as evidence.
        broader = [
            belief_id
            for belief_id, other in related
            if other.implies(claim)
            and not spec.single_valued
            # a belief the session took back absorbs no less specific claim ("my son mateo",
            # then "mateo is my nephew. my son is dario": the son is no longer Mateo)
            and claim_key(other) not in taken_back
        ]
        if broader:
            added = self._add_evidence(broader[0], candidate, episode.session_id)
            return ("merged" if added else "unchanged"), broader[0]
        belief_id = "bel-" + secrets.token_hex(10)
        insert_belief(
            self.store,
            NewBelief(
                belief_id=belief_id,
                principal=episode.principal,
                kind=claim.kind,
                claim_key=key,
                conflict_key=conflict,
                statement=candidate.statement,
                claim_values=canonical_json(claim.values).decode(),
                candidate_status=candidate.status,
                scope=SCOPE,
                portability=spec.portability,
                salience=_salience(candidate),
                formation_policy=self.formation_policy,
                extractor=self.extractor.version,
                origin=origin,
                session_id=episode.session_id,
                supersedes=old[0] if old else None,
                created_at=now,
                updated_at=now,
            ),
        )
        self._add_evidence(belief_id, candidate, episode.session_id)
        for old_id in old:
            conn.execute(
                "UPDATE beliefs SET status = 'superseded', superseded_by = ?, updated_at = ? "
                "WHERE belief_id = ?",
                (belief_id, now, old_id),
            )
        return ("superseded" if old else "formed"), belief_id

    def _restated(
        self, belief_id: str, candidate: MemoryCandidate, session_id: str, now: str
    ) -> tuple[str, str]:
        """A candidate equal to the active belief ``belief_id`` adds its evidence there."""
        added = self._add_evidence(belief_id, candidate, session_id)
        if added:
            self.store.conn.execute(
                "UPDATE beliefs SET updated_at = ? WHERE belief_id = ?", (now, belief_id)
            )
        return ("merged" if added else "unchanged"), belief_id

    def _add_evidence(self, belief_id: str, candidate: MemoryCandidate, session_id: str) -> int:
        """Attach the candidate's evidence; returns how many citations were new."""
        conn = self.store.conn
        before = conn.total_changes()
        conn.executemany(
            "INSERT INTO belief_evidence (belief_id, seq, session_id, quote) "
            "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [(belief_id, e.seq, session_id, e.quote) for e in candidate.evidence],
        )
        return conn.total_changes() - before


def _salience(candidate: MemoryCandidate) -> float:
    return CLAIM_KINDS[candidate.claim.kind].base_salience


def _merge(a: MemoryCandidate, b: MemoryCandidate) -> MemoryCandidate:
    seen = {e.seq for e in a.evidence}
    extra = tuple(e for e in b.evidence if e.seq not in seen)
    return msgspec.structs.replace(a, evidence=a.evidence + extra) if extra else a


def consolidate_idle(
    store: EventLog,
    service: FormationService,
    idle_seconds: float | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[ConsolidationReport]:
    """Consolidate closed and idle sessions that have unconsolidated events, then retry the
    retryable provider failures (ADR-0068) when ``service`` has provider assistance.

    ``idle_seconds`` defaults to the settings' ``memory.idle_minutes``. One session's failure
    does not stop the others: its report carries ``error`` and ``error_code``, and the next
    session is consolidated. ``progress(done, total)`` is called after each idle session.
    """
    if idle_seconds is None:
        idle_seconds = store.settings.memory.idle_minutes * 60.0
    cutoff = format_time(datetime.now(UTC) - timedelta(seconds=idle_seconds))
    reports: list[ConsolidationReport] = []
    idle = idle_sessions(store, cutoff)
    for done, (session_id, status) in enumerate(idle, start=1):
        trigger = "close" if status == "closed" else "idle"
        report = _isolated(store, session_id, service.consolidate, trigger=trigger)
        if report is not None:
            reports.append(report)
        if progress is not None:
            progress(done, len(idle))
    if service.assist is not None:
        retry_ids = [
            row[0]
            for row in store.conn.execute(
                "SELECT DISTINCT session_id FROM provider_retries WHERE retryable = 1"
            )
        ]
        for session_id in retry_ids:
            report = _isolated(store, session_id, service.retry_provider)
            if report is not None:
                reports.append(report)
    return reports


def _isolated(
    store: EventLog,
    session_id: str,
    consolidate: Callable[..., ConsolidationReport | None],
    **options: Any,
) -> ConsolidationReport | None:
    """Run one session's consolidation; a failure becomes that session's report, not a stop.

    Each consolidation is its own transaction, so a failed one has written nothing, and every
    other session is still consolidated. Interrupts are not failures: they propagate.
    """
    try:
        return consolidate(session_id, **options)
    except Exception as exc:
        if isinstance(exc, AgentmemError):
            code, message = exc.code, exc.message
        else:
            # The class only: a bug's message may quote data that must not reach a terminal.
            code, message = "internal", f"internal error ({type(exc).__name__})"
        principal = ""
        with contextlib.suppress(AgentmemError):
            principal = store.session(session_id, all_principals=True).principal
        return ConsolidationReport(
            session_id,
            principal,
            0,
            "",
            "",
            False,
            {},
            {},
            error=" ".join(message.split()),
            error_code=code,
        )


def idle_sessions(store: EventLog, older_than: str) -> list[tuple[str, str]]:
    """Sessions with unconsolidated events, or claims the twelve-candidate cap deferred, whose
    last activity is before ``older_than``."""
    return list(
        store.conn.execute(
            "SELECT s.session_id, s.status FROM sessions AS s "
            "WHERE (s.status = 'closed' OR s.last_activity_at <= ?) "
            "AND s.user_message_count > 0 "
            "AND NOT EXISTS (SELECT 1 FROM consolidations AS c WHERE c.session_id = s.session_id "
            "AND c.through_seq >= s.last_seq "
            "AND coalesce(json_extract(c.counts, '$.deferred'), 0) = 0) "
            "ORDER BY s.last_activity_at",
            (older_than,),
        )
    )


def seed_belief(store: EventLog, principal: str, claim: Claim) -> str:
    """Record a belief the principal held before any session here (evaluation corpora).

    It has no evidence and is marked ``formation_policy = "seed"`` so it is never mistaken for
    a formed belief.
    """
    belief_id = "bel-" + secrets.token_hex(10)
    now = now_text()
    spec = CLAIM_KINDS[claim.kind]
    with store.transaction():
        insert_belief(
            store,
            NewBelief(
                belief_id=belief_id,
                principal=principal,
                kind=claim.kind,
                claim_key=claim_key(claim),
                conflict_key=conflict_key(claim),
                statement=render_statement(claim),
                claim_values=canonical_json(claim.values).decode(),
                candidate_status="AFFIRMED",
                scope=SCOPE,
                portability=spec.portability,
                salience=spec.base_salience,
                formation_policy="seed",
                extractor="seed",
                origin="deterministic",
                session_id="",
                supersedes=None,
                created_at=now,
                updated_at=now,
            ),
        )
    return belief_id
