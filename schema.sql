-- agentmem schema, the whole current version (see agentmem/db.py for the user_version ladder).
--
-- Everything that must hold whoever writes the file is enforced here, by SQLite itself:
-- the event log is append-only, projections move in the same transaction as the append,
-- consent is stamped on a run when it starts and a withdrawal expires the principal's exports.
-- Triggers use RAISE(ABORT, 'agentmem:<reason>'): never RAISE(ROLLBACK), which would destroy
-- the caller's savepoints. Timestamps are UTC text 'YYYY-MM-DDTHH:MM:SS.mmmZ' (the same
-- precision as strftime('%Y-%m-%dT%H:%M:%fZ')), so text order is time order.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value ANY NOT NULL
) STRICT;

-- The append-only log. payload holds the type's own fields as JSON text; the envelope has
-- columns. content_hash is the SHA-256 of the canonical event without created_at and seq: the
-- same event_id with the same hash is an idempotent replay, with another hash a conflict.
CREATE TABLE events (
    seq          INTEGER PRIMARY KEY,
    event_id     TEXT NOT NULL UNIQUE,
    type         TEXT NOT NULL,
    session_id   TEXT,
    run_id       TEXT,
    principal    TEXT NOT NULL,
    payload      TEXT NOT NULL CHECK (json_valid(payload)),
    content_hash TEXT NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;
-- A session's events in order. run_id rides along so a run's events are found in its
-- session's range without reading the table: the member guard below keeps every message, tool
-- result and system prompt of a run in the run's session between its start and its
-- completion, so only a run's other events need the partial index after it. A message append
-- then writes one index page fewer (a page is a fifth of an append's cost at NORMAL).
CREATE INDEX events_by_session ON events (session_id, seq, run_id);
CREATE INDEX events_by_run ON events (run_id, seq)
WHERE run_id IS NOT NULL
  AND type NOT IN ('user.message.created', 'assistant.message.created', 'tool.result.created',
                   'system.prompt.set');

CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'agentmem:append_only');
END;
-- Erasure (agentmem.erasure) is the one path that removes events. It first appends a
-- content-free `erasure` event, then lists the seqs it covers in `purge`: each listed row
-- deletes its event and then itself, so the table is empty between statements and the delete
-- guard lets through exactly the listed events, never an erasure event. A purge row is refused
-- unless an erasure event is the newest in the log (appended in the same transaction).
CREATE TABLE purge (
    seq         INTEGER PRIMARY KEY,
    erasure_seq INTEGER NOT NULL
) STRICT;
CREATE TRIGGER purge_audited BEFORE INSERT ON purge
BEGIN
    SELECT RAISE(ABORT, 'agentmem:purge_unaudited')
    WHERE NEW.erasure_seq IS NOT (SELECT max(seq) FROM events)
       OR NOT EXISTS (SELECT 1 FROM events WHERE seq = NEW.erasure_seq AND type = 'erasure')
       OR NEW.seq >= NEW.erasure_seq;
END;
CREATE TRIGGER purge_event AFTER INSERT ON purge
BEGIN
    DELETE FROM events WHERE seq = NEW.seq;
    DELETE FROM purge WHERE seq = NEW.seq;
END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
WHEN OLD.type = 'erasure' OR NOT EXISTS (SELECT 1 FROM purge WHERE seq = OLD.seq)
BEGIN
    SELECT RAISE(ABORT, 'agentmem:append_only');
END;
-- Every insert is checked before it happens. INSERT OR REPLACE on an existing seq or event_id
-- would delete that row without firing the delete trigger, so both must be new. The type must
-- be one of the closed set exactly (client types, then agentmem's process types; the list in
-- agentmem.events, compared by a test): the guards below compare types case-sensitively, so
-- 'User.Message.Created' would otherwise pass all of them and land in the log unread. The
-- types are a CASE rather than NOT IN (...): a trigger rebuilds an IN list's lookup table on
-- every insert, which cost a fifth of a bulk import's time.
CREATE TRIGGER events_append_only_insert BEFORE INSERT ON events
BEGIN
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM events WHERE seq = NEW.seq)
          OR EXISTS (SELECT 1 FROM events WHERE event_id = NEW.event_id)
            THEN RAISE(ABORT, 'agentmem:append_only')
        WHEN CASE NEW.type
                 WHEN 'session.closed' THEN 0
                 WHEN 'run.started' THEN 0
                 WHEN 'run.completed' THEN 0
                 WHEN 'user.message.created' THEN 0
                 WHEN 'assistant.message.created' THEN 0
                 WHEN 'tool.result.created' THEN 0
                 WHEN 'system.prompt.set' THEN 0
                 WHEN 'consent.granted' THEN 0
                 WHEN 'consent.withdrawn' THEN 0
                 WHEN 'memory.consolidated' THEN 0
                 WHEN 'memory.belief.forgotten' THEN 0
                 WHEN 'memory.provider.called' THEN 0
                 WHEN 'memory.formation.policy_resolved' THEN 0
                 WHEN 'agents.item.added' THEN 0
                 WHEN 'agents.item.popped' THEN 0
                 WHEN 'agents.session.cleared' THEN 0
                 WHEN 'erasure' THEN 0
                 ELSE 1 END
            THEN RAISE(ABORT, 'agentmem:unknown_type')
    END;
END;

-- Projections. Each can be rebuilt from the log: db.rebuild_projections replays the log through
-- these same trigger bodies (the triggers named events_proj_*), so incremental and rebuilt state
-- cannot drift apart by construction.
CREATE TABLE sessions (
    session_id              TEXT PRIMARY KEY,
    principal               TEXT NOT NULL,
    status                  TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    event_count             INTEGER NOT NULL,
    user_message_count      INTEGER NOT NULL,
    assistant_message_count INTEGER NOT NULL,
    run_count               INTEGER NOT NULL,
    first_seq               INTEGER NOT NULL,
    last_seq                INTEGER NOT NULL,
    closed_seq              INTEGER,
    created_at              TEXT NOT NULL,
    last_activity_at        TEXT NOT NULL
) STRICT;

-- runs.event_count is the run's start, members and completion, counted from the log when the run
-- completes; until then it stays 1 and readers count a running run's events (agentmem.db
-- RUN_EVENT_COUNT), so a message append rewrites no run row.
CREATE TABLE runs (
    run_id        TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL,
    parent_run_id TEXT,
    principal     TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('running', 'completed')),
    outcome       TEXT CHECK (outcome IN ('succeeded', 'failed', 'cancelled')),
    failure_class TEXT,
    event_count   INTEGER NOT NULL,
    started_seq   INTEGER NOT NULL,
    completed_seq INTEGER,
    started_at    TEXT NOT NULL,
    completed_at  TEXT,
    -- ADR-0032 decision 5: the seq of the consent grant in force when the run started, or NULL.
    consent_seq   INTEGER
) STRICT;
CREATE INDEX runs_by_session ON runs (session_id, started_seq);
CREATE INDEX runs_by_principal ON runs (principal);

CREATE TABLE run_tools (
    run_id        TEXT NOT NULL,
    name          TEXT NOT NULL,
    schema_sha256 TEXT NOT NULL,
    PRIMARY KEY (run_id, name)
) STRICT, WITHOUT ROWID;

-- Consent per principal and purpose, projected from consent.granted / consent.withdrawn events.
CREATE TABLE consent (
    principal        TEXT NOT NULL,
    purpose          TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('granted', 'withdrawn')),
    granted_seq      INTEGER,
    last_withdrawn_seq INTEGER,
    changed_seq      INTEGER NOT NULL,
    changed_at       TEXT NOT NULL,
    PRIMARY KEY (principal, purpose)
) STRICT, WITHOUT ROWID;

-- Content-addressed blobs: key = HMAC-SHA256(per-database secret, content). Callers never
-- choose keys. Artifacts point at blobs; the sweeper is the only path that deletes either.
CREATE TABLE blobs (
    blob_key TEXT PRIMARY KEY,
    size     INTEGER NOT NULL,
    data     BLOB NOT NULL
) STRICT;

CREATE TABLE artifacts (
    artifact_id TEXT PRIMARY KEY,
    origin      TEXT NOT NULL CHECK (origin IN ('trajectory_export', 'evaluation_report')),
    blob_key    TEXT NOT NULL REFERENCES blobs (blob_key),
    run_id      TEXT,
    principal   TEXT NOT NULL,
    media_type  TEXT NOT NULL,
    doc_schema  TEXT NOT NULL,
    size        INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
) STRICT;
CREATE INDEX artifacts_by_run ON artifacts (run_id, doc_schema, expires_at);
CREATE INDEX artifacts_by_principal ON artifacts (principal, origin);
CREATE INDEX artifacts_by_expiry ON artifacts (expires_at);
CREATE INDEX artifacts_by_blob ON artifacts (blob_key);
-- ADR-0032 decision 9: one export per run and document schema. An expired export keeps its
-- place until the sweeper deletes it (exporting that run again sweeps first).
CREATE UNIQUE INDEX artifacts_one_export ON artifacts (run_id, doc_schema)
WHERE origin = 'trajectory_export';

-- Guards: the log's rules, enforced for every client. They run as the first statements of the
-- projection triggers below (a RAISE(ABORT) in an AFTER trigger undoes the insert too): one
-- trigger program per event instead of two measured ~10% faster on bulk imports. The
-- projections are read before they are updated, so they still describe the log before NEW.
-- A closed session is refused by the update branch of its own upsert (no separate read).

-- Projection triggers (events_proj_*): bodies reference only NEW and projection tables.
-- Each has a precise WHEN so an event only pays for the statements that concern it.
CREATE TRIGGER events_proj_session AFTER INSERT ON events
WHEN NEW.type IN ('session.closed', 'run.started', 'run.completed', 'user.message.created',
                  'assistant.message.created', 'tool.result.created', 'system.prompt.set')
BEGIN
    INSERT INTO sessions (session_id, principal, status, event_count, user_message_count,
                          assistant_message_count, run_count, first_seq, last_seq, closed_seq,
                          created_at, last_activity_at)
    VALUES (NEW.session_id, NEW.principal,
            CASE NEW.type WHEN 'session.closed' THEN 'closed' ELSE 'open' END, 1,
            NEW.type = 'user.message.created', NEW.type = 'assistant.message.created',
            NEW.type = 'run.started', NEW.seq, NEW.seq,
            CASE NEW.type WHEN 'session.closed' THEN NEW.seq END,
            NEW.created_at, NEW.created_at)
    ON CONFLICT (session_id) DO UPDATE SET
        status = CASE status WHEN 'closed' THEN RAISE(ABORT, 'agentmem:session_closed')
                             ELSE excluded.status END,
        event_count = event_count + 1,
        user_message_count = user_message_count + excluded.user_message_count,
        assistant_message_count = assistant_message_count + excluded.assistant_message_count,
        run_count = run_count + excluded.run_count,
        last_seq = excluded.last_seq,
        closed_seq = excluded.closed_seq,
        last_activity_at = max(last_activity_at, excluded.last_activity_at);
END;

CREATE TRIGGER events_proj_run_started AFTER INSERT ON events
WHEN NEW.type = 'run.started'
BEGIN
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM runs WHERE run_id = NEW.run_id)
            THEN RAISE(ABORT, 'agentmem:run_exists')
        WHEN json_extract(NEW.payload, '$.parent_run_id') IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM runs
                             WHERE run_id = json_extract(NEW.payload, '$.parent_run_id'))
            THEN RAISE(ABORT, 'agentmem:parent_run_unknown')
    END;
    INSERT INTO runs (run_id, session_id, parent_run_id, principal, status, event_count,
                      started_seq, started_at, consent_seq)
    VALUES (NEW.run_id, NEW.session_id, json_extract(NEW.payload, '$.parent_run_id'),
            NEW.principal, 'running', 1, NEW.seq, NEW.created_at,
            (SELECT granted_seq FROM consent
             WHERE principal = NEW.principal AND purpose = 'trajectory_export'
               AND status = 'granted'));
    INSERT INTO run_tools (run_id, name, schema_sha256)
    SELECT NEW.run_id, json_extract(value, '$.name'), json_extract(value, '$.schema_sha256')
    FROM json_each(NEW.payload, '$.tools');
END;

-- A run's messages, tool results and system prompts belong to it while it runs, in its session:
-- the guard that lets readers find them in the session's range (events_by_session).
CREATE TRIGGER events_proj_run_member AFTER INSERT ON events
WHEN NEW.run_id IS NOT NULL
 AND NEW.type IN ('user.message.created', 'assistant.message.created', 'tool.result.created',
                  'system.prompt.set')
BEGIN
    SELECT CASE
        WHEN r.run_id IS NULL THEN RAISE(ABORT, 'agentmem:run_unknown')
        WHEN r.session_id <> NEW.session_id THEN RAISE(ABORT, 'agentmem:run_other_session')
        WHEN r.status <> 'running' THEN RAISE(ABORT, 'agentmem:run_completed')
    END
    FROM (SELECT NEW.run_id AS wanted) LEFT JOIN runs AS r ON r.run_id = wanted;
END;

CREATE TRIGGER events_proj_run_completed AFTER INSERT ON events
WHEN NEW.type = 'run.completed'
BEGIN
    SELECT CASE
        WHEN r.run_id IS NULL THEN RAISE(ABORT, 'agentmem:run_unknown')
        WHEN r.session_id <> NEW.session_id THEN RAISE(ABORT, 'agentmem:run_other_session')
        WHEN r.status <> 'running' THEN RAISE(ABORT, 'agentmem:run_completed')
    END
    FROM (SELECT NEW.run_id AS wanted) LEFT JOIN runs AS r ON r.run_id = wanted;
    UPDATE runs SET
        event_count = (SELECT count(*) FROM events AS e
                       WHERE e.session_id = NEW.session_id
                         AND e.seq BETWEEN runs.started_seq AND NEW.seq
                         AND e.run_id = NEW.run_id
                         AND e.type IN ('run.started', 'run.completed', 'user.message.created',
                                        'assistant.message.created', 'tool.result.created',
                                        'system.prompt.set')),
        status = 'completed',
        outcome = json_extract(NEW.payload, '$.outcome'),
        failure_class = json_extract(NEW.payload, '$.failure_class'),
        completed_seq = NEW.seq,
        completed_at = NEW.created_at
    WHERE run_id = NEW.run_id;
END;

CREATE TRIGGER events_proj_consent_granted AFTER INSERT ON events
WHEN NEW.type = 'consent.granted'
BEGIN
    INSERT INTO consent (principal, purpose, status, granted_seq, changed_seq, changed_at)
    VALUES (NEW.principal, json_extract(NEW.payload, '$.purpose'), 'granted', NEW.seq, NEW.seq,
            NEW.created_at)
    ON CONFLICT (principal, purpose) DO UPDATE SET
        status = 'granted', granted_seq = excluded.granted_seq,
        changed_seq = excluded.changed_seq, changed_at = excluded.changed_at;
END;

-- ADR-0032 decisions 5 and 6: a withdrawal reaches backwards. Every trajectory export of the
-- principal's runs expires now; the ordinary sweeper deletes them.
CREATE TRIGGER events_proj_consent_withdrawn AFTER INSERT ON events
WHEN NEW.type = 'consent.withdrawn'
BEGIN
    INSERT INTO consent (principal, purpose, status, granted_seq, last_withdrawn_seq,
                         changed_seq, changed_at)
    VALUES (NEW.principal, json_extract(NEW.payload, '$.purpose'), 'withdrawn', NULL, NEW.seq,
            NEW.seq, NEW.created_at)
    ON CONFLICT (principal, purpose) DO UPDATE SET
        status = 'withdrawn', granted_seq = NULL, last_withdrawn_seq = excluded.last_withdrawn_seq,
        changed_seq = excluded.changed_seq, changed_at = excluded.changed_at;
    UPDATE artifacts SET expires_at = NEW.created_at
    WHERE origin = 'trajectory_export' AND expires_at > NEW.created_at
      AND created_at <= NEW.created_at
      AND json_extract(NEW.payload, '$.purpose') = 'trajectory_export'
      AND run_id IN (SELECT run_id FROM runs WHERE principal = NEW.principal);
END;

-- The live items of each OpenAI Agents SDK session (agentmem.integrations.openai_agents):
-- agents.item.added adds its seq, agents.item.popped removes the item it names and
-- agents.session.cleared every item at or before its through_seq. AgentmemSession reads its
-- latest items here (the limit in SQL), so a read costs the same whatever the history's length.
CREATE TABLE agents_items (
    session_id TEXT NOT NULL,
    principal  TEXT NOT NULL,
    item_seq   INTEGER NOT NULL,
    PRIMARY KEY (session_id, principal, item_seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER events_proj_agents_item_added AFTER INSERT ON events
WHEN NEW.type = 'agents.item.added' AND NEW.session_id IS NOT NULL
BEGIN
    INSERT INTO agents_items (session_id, principal, item_seq)
    VALUES (NEW.session_id, NEW.principal, NEW.seq);
END;

CREATE TRIGGER events_proj_agents_item_popped AFTER INSERT ON events
WHEN NEW.type = 'agents.item.popped'
BEGIN
    DELETE FROM agents_items
    WHERE session_id = NEW.session_id AND principal = NEW.principal
      AND item_seq = json_extract(NEW.payload, '$.item_seq');
END;

CREATE TRIGGER events_proj_agents_session_cleared AFTER INSERT ON events
WHEN NEW.type = 'agents.session.cleared'
BEGIN
    DELETE FROM agents_items
    WHERE session_id = NEW.session_id AND principal = NEW.principal
      AND item_seq <= json_extract(NEW.payload, '$.through_seq');
END;

-- Long-term memory (ADR-0057). The formation service is the only writer of these tables.
-- A belief keeps its provenance: formation policy, extractor, origin (deterministic, shared or
-- provider-added) and evidence (the cited user-message seqs and exact quotes). Forgetting
-- erases statement, values and quotes, and keeps a content-free tombstone: the kind and the
-- cited seqs, so the same evidence cannot form it again.
CREATE TABLE beliefs (
    belief_id        TEXT PRIMARY KEY,
    principal        TEXT NOT NULL,
    kind             TEXT NOT NULL,
    claim_key        TEXT,
    conflict_key     TEXT,
    statement        TEXT,
    claim_values     TEXT CHECK (claim_values IS NULL OR json_valid(claim_values)),
    status           TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'forgotten')),
    candidate_status TEXT,
    scope            TEXT NOT NULL,
    portability      TEXT NOT NULL CHECK (portability IN ('portable', 'local')),
    salience         REAL NOT NULL,
    formation_policy TEXT NOT NULL,
    extractor        TEXT NOT NULL,
    origin           TEXT NOT NULL CHECK (origin IN ('deterministic', 'shared', 'provider_added')),
    session_id       TEXT NOT NULL,
    supersedes       TEXT,
    superseded_by    TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX beliefs_by_principal ON beliefs (principal, status, kind);
CREATE INDEX beliefs_by_claim ON beliefs (principal, claim_key) WHERE status = 'active';
-- A principal's newest active beliefs, in rowid (creation) order, without a sort.
CREATE INDEX beliefs_newest ON beliefs (principal, status);

CREATE TABLE belief_evidence (
    belief_id  TEXT NOT NULL REFERENCES beliefs (belief_id),
    seq        INTEGER NOT NULL,
    session_id TEXT NOT NULL,
    quote      TEXT,
    PRIMARY KEY (belief_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX belief_evidence_by_seq ON belief_evidence (seq);

-- Recall index: statement and values of active beliefs, BM25-ranked. secure-delete makes a
-- deletion remove the tokens from the index at once (forgetting really forgets).
CREATE VIRTUAL TABLE beliefs_fts USING fts5 (statement, claim_values, tokenize = 'porter unicode61');
INSERT INTO beliefs_fts (beliefs_fts, rank) VALUES ('secure-delete', 1);

-- The index follows the table, like every projection: a belief is indexed when it is written
-- active (its statement, and its non-empty values joined by spaces) and leaves the index as soon
-- as it stops being active or is deleted. No write path can forget it.
CREATE TRIGGER beliefs_fts_insert AFTER INSERT ON beliefs WHEN NEW.status = 'active'
BEGIN
    INSERT INTO beliefs_fts (rowid, statement, claim_values) VALUES (
        NEW.rowid,
        NEW.statement,
        (SELECT group_concat(value, ' ') FROM json_each(NEW.claim_values)
         WHERE value IS NOT NULL AND value <> '')
    );
END;
CREATE TRIGGER beliefs_fts_deactivate AFTER UPDATE OF status ON beliefs
WHEN OLD.status = 'active' AND NEW.status <> 'active'
BEGIN
    DELETE FROM beliefs_fts WHERE rowid = OLD.rowid;
END;
CREATE TRIGGER beliefs_fts_delete AFTER DELETE ON beliefs WHEN OLD.status = 'active'
BEGIN
    DELETE FROM beliefs_fts WHERE rowid = OLD.rowid;
END;

-- One audit row per consolidation of a session up to a seq under a formation policy:
-- idempotent by construction (the unique key), mirrored by a memory.consolidated event.
CREATE TABLE consolidations (
    session_id       TEXT NOT NULL,
    through_seq      INTEGER NOT NULL,
    formation_policy TEXT NOT NULL,
    principal        TEXT NOT NULL,
    extractor        TEXT NOT NULL,
    trigger_kind     TEXT NOT NULL CHECK (trigger_kind IN ('close', 'idle', 'manual')),
    counts           TEXT NOT NULL CHECK (json_valid(counts)),
    created_at       TEXT NOT NULL,
    PRIMARY KEY (session_id, through_seq, formation_policy)
) STRICT, WITHOUT ROWID;

-- ADR-0068: a provider failure that may pass (transport, timeout, HTTP 429/5xx) leaves the
-- deterministic result in place and marks the consolidated range retryable; later idle
-- consolidations retry the provider, one call per attempt, up to a fixed number of attempts.
CREATE TABLE provider_retries (
    session_id  TEXT NOT NULL,
    through_seq INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    retryable   INTEGER NOT NULL,
    last_error  TEXT,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, through_seq)
) STRICT, WITHOUT ROWID;
