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

import secrets
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import msgspec

from agentmem.errors import InvalidInput
from agentmem.events import canonical_json, now_text
from agentmem.memory.claims import (
    CLAIM_KINDS,
    Claim,
    MemoryCandidate,
    normalize_claim,
    render_statement,
)
from agentmem.memory.markers import injection_marker, transient_marker_for

if TYPE_CHECKING:
    from agentmem.events import Event
    from agentmem.memory.evidence import Resolution

    # The extractor compiles its patterns on import (about 0.2 s): reading, searching and
    # forgetting beliefs never need it, so it is imported where consolidation starts.
    from agentmem.memory.extractor import Episode, EpisodeEvent, MemoryCandidateExtractor
    from agentmem.memory.provider import ProviderAssistedCandidateExtractor
    from agentmem.store import Store

__all__ = [
    "MAX_CANDIDATES",
    "Belief",
    "ConsolidationReport",
    "FormationService",
    "build_episode",
]

MAX_CANDIDATES = 12
_USER_MESSAGE = "user.message.created"  # extractor.USER_MESSAGE, without importing the extractor
MIN_SALIENCE = 0.2
SCOPE = "principal"

Arm = Literal["deterministic", "provider"]


class Belief(msgspec.Struct, frozen=True):
    """A belief as stored. Forgotten beliefs have no statement, values or quotes left."""

    belief_id: str
    principal: str
    kind: str
    statement: str | None
    values: dict[str, str | None] | None
    status: str
    scope: str
    portability: str
    salience: float
    formation_policy: str
    extractor: str
    origin: str
    session_id: str
    supersedes: str | None
    superseded_by: str | None
    created_at: str
    updated_at: str
    evidence: tuple[tuple[int, str | None], ...] = ()


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


def build_episode(store: Store, session_id: str, principal: str) -> Episode:
    """The session's conversation as an extractor sees it (user, assistant and tool text).

    Events whose Agents SDK item was popped or cleared are left out: what the user took back
    is never evidence.
    """
    from agentmem.memory.extractor import Episode, EpisodeEvent

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
        for b in beliefs(store, principal=principal)
        if b.values is not None
    )[:50]
    return Episode(
        principal=principal, session_id=session_id, events=tuple(events), existing_beliefs=existing
    )


def _claim_key(claim: Claim) -> str:
    return canonical_json([claim.kind, list(claim.values.values())]).decode()


def _conflict_key(claim: Claim) -> str:
    kind, values = claim.conflict_key()
    return canonical_json([kind, list(values)]).decode()


def _secret_marker(text: str) -> str | None:
    from agentmem.redaction import default_registry

    rule = default_registry().first_secret(text)
    return f"secret:{rule}" if rule else None


class FormationService:
    """Consolidates sessions into beliefs. One instance per store and extractor set."""

    def __init__(
        self,
        store: Store,
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
        info = store.session(session_id)
        through = info.last_seq
        done = store.conn.execute(
            "SELECT counts FROM consolidations WHERE session_id = ? AND through_seq = ? "
            "AND formation_policy = ?",
            (session_id, through, self.formation_policy),
        ).fetchall()
        attempt = 1
        if done:
            counts = msgspec.json.decode(done[0][0])
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

        from agentmem.errors import AgentmemError
        from agentmem.memory.provider import run_sync

        assert self.assist is not None
        unaudited: list[Exception] = []

        def audit(event: Event) -> None:
            try:
                self.store._append_process(event)
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
        through, attempts = rows[0]
        info = self.store.session(session_id)
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
                    counts = msgspec.json.decode(done[0][0])
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
                key = _claim_key(candidate.claim)
                if key in accepted:
                    merged, arms = accepted[key]
                    accepted[key] = (_merge(merged, candidate), arms | {arm})
                else:
                    accepted[key] = (candidate, {arm})
            # A re-statement of an active belief only merges evidence: it takes no slot of the
            # twelve, so a long session of known facts cannot crowd out a new one. New and
            # changed claims rank by salience, then by recency; those over the cap are deferred
            # to the next consolidation of the session (counted, never silently lost).
            known = {
                key
                for (key,) in store.conn.execute(
                    "SELECT claim_key FROM beliefs WHERE principal = ? AND status = 'active'",
                    (episode.principal,),
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
            # written in the order the user said them, so a later statement supersedes
            chosen = sorted(
                confirmations + fresh[:MAX_CANDIDATES], key=lambda item: item[0].evidence[0].seq
            )
            for candidate, arms in chosen:
                origin = (
                    "shared"
                    if len(arms) == 2
                    else "provider_added"
                    if "provider" in arms
                    else "deterministic"
                )
                outcome, belief_id = self._write(candidate, episode, origin)
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
            from agentmem.memory.events import MemoryConsolidated, audit_event_id

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
            store._append_process(msgspec.structs.replace(audit, event_id=audit_event_id(audit)))
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

        info = self.store.session(session_id)
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
            gates[_claim_key(candidate.claim)] = self._gate(candidate, episode, by_seq)
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
                reason = note.reason or gates.get(_claim_key(claim))
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
        retracted = getattr(self.extractor, "retracted", None)
        if retracted is None:
            return 0
        count = 0
        conn = self.store.conn
        for claim, at_seq in retracted(episode):
            rows = conn.execute(
                "SELECT b.belief_id, max(e.seq), min(e.session_id = ?) FROM beliefs AS b "
                "JOIN belief_evidence AS e USING (belief_id) WHERE b.principal = ? "
                "AND b.claim_key = ? AND b.status = 'active' GROUP BY b.belief_id",
                (episode.session_id, episode.principal, _claim_key(claim)),
            ).fetchall()
            for belief_id, last_seq, only_here in rows:
                if belief_id in touched or not only_here or last_seq >= at_seq:
                    continue
                conn.execute(
                    "UPDATE beliefs SET status = 'superseded', updated_at = ? WHERE belief_id = ?",
                    (now_text(), belief_id),
                )
                self._deindex(belief_id)
                count += 1
        return count

    # -- gates -------------------------------------------------------------------------------

    def _gate(
        self, candidate: MemoryCandidate, episode: Episode, by_seq: dict[int, EpisodeEvent]
    ) -> str | None:
        if candidate.statement != render_statement(candidate.claim):
            return "statement_not_local"
        for evidence in candidate.evidence:
            source = by_seq.get(evidence.seq)
            if source is None:
                return "source_outside_session"
            if source.type != _USER_MESSAGE:
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

    def _write(self, candidate: MemoryCandidate, episode: Episode, origin: str) -> tuple[str, str]:
        conn = self.store.conn
        claim = candidate.claim
        key, conflict = _claim_key(claim), _conflict_key(claim)
        now = now_text()
        same = conn.execute(
            "SELECT belief_id FROM beliefs WHERE principal = ? AND claim_key = ? "
            "AND status = 'active'",
            (episode.principal, key),
        ).fetchall()
        if same:
            belief_id = same[0][0]
            added = self._add_evidence(belief_id, candidate, episode.session_id)
            if added:
                conn.execute(
                    "UPDATE beliefs SET updated_at = ? WHERE belief_id = ?", (now, belief_id)
                )
            return ("merged" if added else "unchanged"), belief_id
        spec = CLAIM_KINDS[claim.kind]
        old = [
            row[0]
            for row in conn.execute(
                "SELECT belief_id, claim_values FROM beliefs WHERE principal = ? AND kind = ? "
                "AND status = 'active'",
                (episode.principal, claim.kind),
            )
            if _conflict_key(Claim(kind=claim.kind, values=msgspec.json.decode(row[1]))) == conflict
            or claim.implies(Claim(kind=claim.kind, values=msgspec.json.decode(row[1])))
        ]
        # A broader existing belief that already implies this one absorbs it as evidence.
        broader = [
            row[0]
            for row in conn.execute(
                "SELECT belief_id, claim_values FROM beliefs WHERE principal = ? AND kind = ? "
                "AND status = 'active'",
                (episode.principal, claim.kind),
            )
            if _stored_claim(claim.kind, row[1]).implies(claim) and not spec.single_valued
        ]
        if broader:
            added = self._add_evidence(broader[0], candidate, episode.session_id)
            return ("merged" if added else "unchanged"), broader[0]
        belief_id = "bel-" + secrets.token_hex(10)
        conn.execute(
            "INSERT INTO beliefs (belief_id, principal, kind, claim_key, conflict_key, statement,"
            " claim_values, status, candidate_status, scope, portability, salience,"
            " formation_policy, extractor, origin, session_id, supersedes, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                belief_id,
                episode.principal,
                claim.kind,
                key,
                conflict,
                candidate.statement,
                canonical_json(claim.values).decode(),
                candidate.status,
                SCOPE,
                spec.portability,
                _salience(candidate),
                self.formation_policy,
                self.extractor.version,
                origin,
                episode.session_id,
                old[0] if old else None,
                now,
                now,
            ),
        )
        rowid = conn.last_insert_rowid()
        conn.execute(
            "INSERT INTO beliefs_fts (rowid, statement, claim_values) VALUES (?, ?, ?)",
            (rowid, candidate.statement, " ".join(v for v in claim.values.values() if v)),
        )
        self._add_evidence(belief_id, candidate, episode.session_id)
        for old_id in old:
            self._deindex(old_id)
            conn.execute(
                "UPDATE beliefs SET status = 'superseded', superseded_by = ?, updated_at = ? "
                "WHERE belief_id = ?",
                (belief_id, now, old_id),
            )
        return ("superseded" if old else "formed"), belief_id

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

    def _deindex(self, belief_id: str) -> None:
        rowid = self.store.conn.execute(
            "SELECT rowid FROM beliefs WHERE belief_id = ?", (belief_id,)
        ).get
        self.store.conn.execute("DELETE FROM beliefs_fts WHERE rowid = ?", (rowid,))


def _salience(candidate: MemoryCandidate) -> float:
    return CLAIM_KINDS[candidate.claim.kind].base_salience


def _merge(a: MemoryCandidate, b: MemoryCandidate) -> MemoryCandidate:
    seen = {e.seq for e in a.evidence}
    extra = tuple(e for e in b.evidence if e.seq not in seen)
    return msgspec.structs.replace(a, evidence=a.evidence + extra) if extra else a


# -- reading -------------------------------------------------------------------------------

_BELIEF_COLUMNS = (
    "belief_id, principal, kind, statement, claim_values, status, scope, portability, salience,"
    " formation_policy, extractor, origin, session_id, supersedes, superseded_by, created_at,"
    " updated_at"
)


def _stored_values(kind: str, text: str) -> dict[str, str | None]:
    """Stored values (canonical JSON, sorted keys) back in the kind's field order."""
    values = msgspec.json.decode(text)
    return {field: values.get(field) for field in CLAIM_KINDS[kind].fields}


def _stored_claim(kind: str, text: str) -> Claim:
    return Claim(kind=kind, values=_stored_values(kind, text))


def _belief(store: Store, row: Sequence) -> Belief:
    return _beliefs(store, [row])[0]


def _beliefs(store: Store, rows: Sequence[Sequence]) -> list[Belief]:
    """Build beliefs with their evidence, fetched in one query for all of them."""
    if not rows:
        return []
    evidence: dict[str, list[tuple[int, str | None]]] = {row[0]: [] for row in rows}
    ids = list(evidence)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for belief_id, seq, quote in store.conn.execute(
            "SELECT belief_id, seq, quote FROM belief_evidence WHERE belief_id IN "
            f"({', '.join('?' * len(chunk))}) ORDER BY belief_id, seq",
            chunk,
        ):
            evidence[belief_id].append((seq, quote))
    return [
        Belief(
            row[0],
            row[1],
            row[2],
            row[3],
            _stored_values(row[2], row[4]) if row[4] is not None else None,
            *row[5:],
            evidence=tuple(evidence[row[0]]),
        )
        for row in rows
    ]


def beliefs(
    store: Store, *, principal: str | None = None, include_inactive: bool = False
) -> list[Belief]:
    """Active beliefs of ``principal`` (every principal when ``None``), newest first."""
    from agentmem.db import where

    active: list[tuple[str, list[object]]] = [] if include_inactive else [("status = 'active'", [])]
    condition, params = where({"principal": principal}, *active)
    sql = f"SELECT {_BELIEF_COLUMNS} FROM beliefs{condition} ORDER BY created_at DESC, belief_id"
    return _beliefs(store, list(store.conn.execute(sql, params)))


def belief(store: Store, belief_id: str, *, principal: str | None = None) -> Belief:
    """One belief by id (of ``principal`` when given)."""
    from agentmem.errors import NotFound

    rows = store.conn.execute(
        f"SELECT {_BELIEF_COLUMNS} FROM beliefs WHERE belief_id = ?", (belief_id,)
    ).fetchall()
    if not rows or (principal is not None and rows[0][1] != principal):
        raise NotFound(f"no belief {belief_id!r}" + (f" for {principal!r}" if principal else ""))
    return _belief(store, rows[0])


def fts_query(text: str) -> str:
    """A safe FTS5 query: each word quoted, OR-ed (BM25 ranks the best matches first)."""
    words = [w for w in "".join(c if c.isalnum() else " " for c in text).split() if w]
    return " OR ".join(f'"{w}"' for w in words)


def search(
    store: Store, query: str, *, principal: str | None = None, limit: int = 20
) -> list[Belief]:
    """Active beliefs matching ``query``, best BM25 match first."""
    match = fts_query(query)
    if not match:
        return []
    sql = (
        f"SELECT {', '.join('b.' + c.strip() for c in _BELIEF_COLUMNS.split(','))} "
        "FROM beliefs_fts JOIN beliefs AS b ON b.rowid = beliefs_fts.rowid "
        "WHERE beliefs_fts MATCH ? AND b.status = 'active'"
    )
    params: list[object] = [match]
    if principal is not None:
        sql += " AND b.principal = ?"
        params.append(principal)
    sql += f" ORDER BY bm25(beliefs_fts) LIMIT {int(limit)}"
    return _beliefs(store, list(store.conn.execute(sql, params)))


def forget(store: Store, belief_id: str, *, principal: str | None = None) -> Belief:
    """Erase a belief's content everywhere; keep only a content-free tombstone and an event.

    Everywhere means every byte of the file and its ``-wal``: the row and its evidence quotes,
    the FTS index (``secure-delete``), and the query planner's ``sqlite_stat4`` samples, which
    copy index keys (``beliefs_by_claim`` keys hold the claim's values, FTS index keys hold its
    words); ``secure_delete`` zeroes what is deleted. After the commit a TRUNCATE checkpoint
    moves the changed pages into the file and empties the ``-wal``, where earlier page images
    still held the text. Called inside the caller's own transaction, the checkpoint is left to
    the caller's commit. Forgetting again is harmless and retries the checkpoint.
    """
    from agentmem.errors import DatabaseBusy
    from agentmem.memory.events import BeliefForgotten

    with store.transaction():
        target = belief(store, belief_id, principal=principal)
        if target.status != "forgotten":
            FormationService(store)._deindex(belief_id)
            store.conn.execute(
                "UPDATE beliefs SET statement = NULL, claim_values = NULL, claim_key = NULL, "
                "conflict_key = NULL, status = 'forgotten', updated_at = ? WHERE belief_id = ?",
                (now_text(), belief_id),
            )
            store.conn.execute(
                "UPDATE belief_evidence SET quote = NULL WHERE belief_id = ?", (belief_id,)
            )
            if store.conn.execute(
                "SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat4'"
            ).fetchall():
                # The planner keeps no samples of these tables until it next analyzes them,
                # and then only samples what is still there.
                store.conn.execute(
                    "DELETE FROM sqlite_stat4 WHERE tbl IN ('beliefs', 'belief_evidence') "
                    "OR tbl GLOB 'beliefs_fts_*'"
                )
            store._append_process(
                BeliefForgotten(
                    principal=target.principal,
                    belief_id=belief_id,
                    event_id=f"memory.belief.forgotten:{belief_id}",
                )
            )
        forgotten = belief(store, belief_id)
    if not store.conn.in_transaction:
        busy, _, _ = store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0]
        if busy:
            raise DatabaseBusy(
                f"belief {belief_id!r} is forgotten, but another connection kept reading "
                f"{store.path}, so earlier copies of its pages remain in the -wal file until "
                "the next checkpoint; forget it again to finish"
            )
    return forgotten


def idle_sessions(store: Store, older_than: str) -> list[tuple[str, str]]:
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


def seed_belief(store: Store, principal: str, claim: Claim) -> str:
    """Record a belief the principal held before any session here (evaluation corpora).

    It has no evidence and is marked ``formation_policy = "seed"`` so it is never mistaken for
    a formed belief.
    """
    belief_id = "bel-" + secrets.token_hex(10)
    now = now_text()
    statement = render_statement(claim)
    spec = CLAIM_KINDS[claim.kind]
    with store.transaction():
        store.conn.execute(
            "INSERT INTO beliefs (belief_id, principal, kind, claim_key, conflict_key, statement,"
            " claim_values, status, candidate_status, scope, portability, salience,"
            " formation_policy, extractor, origin, session_id, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 'AFFIRMED', ?, ?, ?, 'seed', 'seed',"
            " 'deterministic', '', ?, ?)",
            (
                belief_id,
                principal,
                claim.kind,
                _claim_key(claim),
                _conflict_key(claim),
                statement,
                canonical_json(claim.values).decode(),
                SCOPE,
                spec.portability,
                spec.base_salience,
                now,
                now,
            ),
        )
        store.conn.execute(
            "INSERT INTO beliefs_fts (rowid, statement, claim_values) VALUES (?, ?, ?)",
            (
                store.conn.last_insert_rowid(),
                statement,
                " ".join(v for v in claim.values.values() if v),
            ),
        )
    return belief_id
