import type Database from 'better-sqlite3'
import { backfillAuditChain } from './audit-chain'

/**
 * One schema step: SQL, or a function for steps SQL alone cannot do (computing hashes). Either way
 * it runs inside the step's transaction, so it commits with its version bump or not at all. A
 * function step must be deterministic and use only the `db` it is given.
 */
export type MigrationStep = string | ((db: Database.Database) => void)

/**
 * Schema migrations, applied in order. `PRAGMA user_version` records how many have run, so entry i
 * takes the database from version i to i + 1. Never edit a shipped entry: append a new one.
 */
export const migrations: readonly MigrationStep[] = [
  /* 1: initial schema */ `
  CREATE TABLE conversations (
    id         TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX conversations_by_activity ON conversations (updated_at DESC);

  -- run_id is a plain column (no foreign key) in the tables below: the user's message is stored
  -- before run_started arrives, and a missing run must never cost us an event.
  CREATE TABLE runs (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    status          TEXT NOT NULL
                    CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
    stop_reason     TEXT,
    error           TEXT,
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER,
    usage           TEXT,
    model           TEXT
  );
  CREATE INDEX runs_by_conversation ON runs (conversation_id, started_at);
  CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

  CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT,
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    seq             INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX messages_by_conversation ON messages (conversation_id, seq);

  -- Keyed by run as well as call id: provider-issued call ids (local OpenAI-compatible servers in
  -- particular) are not guaranteed unique across runs.
  CREATE TABLE tool_calls (
    id              TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    tool            TEXT NOT NULL,
    args            TEXT,
    status          TEXT NOT NULL,
    is_error        INTEGER NOT NULL DEFAULT 0,
    output          TEXT NOT NULL DEFAULT '',
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER,
    duration_ms     INTEGER,
    PRIMARY KEY (run_id, id)
  );
  CREATE INDEX tool_calls_by_conversation ON tool_calls (conversation_id, started_at);
  CREATE INDEX tool_calls_open ON tool_calls (status)
    WHERE status IN ('pending', 'awaiting_approval', 'running');

  CREATE TABLE approvals (
    id              TEXT PRIMARY KEY,
    call_id         TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    tool            TEXT NOT NULL,
    args            TEXT,
    reason          TEXT NOT NULL,
    preview         TEXT NOT NULL,
    expires_at      INTEGER NOT NULL,
    requested_at    INTEGER NOT NULL,
    answer          TEXT CHECK (answer IN ('allow_once', 'deny')),
    resolved_by     TEXT,
    resolve_reason  TEXT,
    resolved_at     INTEGER
  );
  CREATE INDEX approvals_unanswered ON approvals (requested_at) WHERE answer IS NULL;

  CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id          TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    type            TEXT NOT NULL,
    data            TEXT NOT NULL,
    at              INTEGER NOT NULL
  );
  CREATE INDEX events_by_run ON events (run_id, seq);
  -- ON DELETE CASCADE needs an index on the child column, or every delete scans the table.
  CREATE INDEX events_by_conversation ON events (conversation_id);

  CREATE TABLE model_messages (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    data            TEXT NOT NULL
  );
  CREATE INDEX model_messages_by_conversation ON model_messages (conversation_id, seq);

  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- No foreign keys: audit rows outlive the conversations they mention.
  CREATE TABLE audit_log (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    at              INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    actor           TEXT NOT NULL,
    conversation_id TEXT,
    run_id          TEXT,
    data            TEXT NOT NULL
  );
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
  CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
  `,
  /* 2: risk assessments, richer approval answers, saved rules, audit hash chain */ migrateToRiskAndAuditChain,
  /* 3: tool summaries and attachments (images and files tools return) */ `
  ALTER TABLE tool_calls ADD COLUMN summary TEXT;      -- the tool's one-line summary(args)
  ALTER TABLE tool_calls ADD COLUMN attachments TEXT;  -- ToolAttachmentRef[] JSON; the bytes are in attachments

  -- Kept apart from the event log, which only names them: events and snapshots stay small.
  CREATE TABLE attachments (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    call_id         TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('image', 'file')),
    media_type      TEXT NOT NULL,
    name            TEXT,
    data            BLOB NOT NULL,
    created_at      INTEGER NOT NULL
  );
  CREATE INDEX attachments_by_conversation ON attachments (conversation_id);
  `,
  /* 4: a conversation may have its own workspace (the palette's picker); NULL: the one in settings */ `
  ALTER TABLE conversations ADD COLUMN workspace TEXT;
  `,
  /* 5: a conversation may have its own model (the chat header's picker); NULL: the one in settings */ `
  ALTER TABLE conversations ADD COLUMN model TEXT;
  `,
  /* 6: pinned conversations; full-text search over titles and messages (conversations.search) */ `
  ALTER TABLE conversations ADD COLUMN pinned_at INTEGER; -- when it was pinned; NULL: not pinned

  -- Trigram: substrings match, and Chinese (no spaces between words) is searchable; queries
  -- shorter than three characters fall back to LIKE (search.ts). Each table keeps its own copy of
  -- the text, keyed by the source row's rowid, so a delete needs only the rowid (an external-content
  -- table would need the exact text it indexed, which a skipped streaming update no longer has).
  -- conversation_id and message_id are stored too, and searches join on them, so a row that went
  -- stale (a VACUUM may renumber rowids) can never name a conversation or message that is gone.
  CREATE VIRTUAL TABLE conversation_titles_fts USING fts5 (conversation_id UNINDEXED, title, tokenize = 'trigram');
  CREATE VIRTUAL TABLE messages_fts USING fts5 (conversation_id UNINDEXED, message_id UNINDEXED, content, tokenize = 'trigram');

  CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN
    INSERT INTO conversation_titles_fts (rowid, conversation_id, title) VALUES (NEW.rowid, NEW.id, NEW.title);
  END;
  CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title ON conversations BEGIN
    DELETE FROM conversation_titles_fts WHERE rowid = OLD.rowid;
    INSERT INTO conversation_titles_fts (rowid, conversation_id, title) VALUES (NEW.rowid, NEW.id, NEW.title);
  END;
  CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
    DELETE FROM conversation_titles_fts WHERE rowid = OLD.rowid;
  END;

  -- An answer grows one token per UPDATE; re-indexing it each time would cost time quadratic in
  -- its length. So an assistant message is indexed once its run is no longer running (below), and
  -- every other message (the user's, or one whose run is over or unknown) as it is written.
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
  WHEN NEW.role = 'user' OR NOT EXISTS (SELECT 1 FROM runs WHERE id = NEW.run_id AND status = 'running')
  BEGIN
    INSERT INTO messages_fts (rowid, conversation_id, message_id, content)
    VALUES (NEW.rowid, NEW.conversation_id, NEW.id, NEW.content);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages
  WHEN NEW.role = 'user' OR NOT EXISTS (SELECT 1 FROM runs WHERE id = NEW.run_id AND status = 'running')
  BEGIN
    DELETE FROM messages_fts WHERE rowid = OLD.rowid;
    INSERT INTO messages_fts (rowid, conversation_id, message_id, content)
    VALUES (NEW.rowid, NEW.conversation_id, NEW.id, NEW.content);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = OLD.rowid;
  END;
  -- A run that ends (completed, failed, cancelled, or interrupted by recovery) indexes its answers.
  CREATE TRIGGER runs_fts_ended AFTER UPDATE OF status ON runs
  WHEN OLD.status = 'running' AND NEW.status <> 'running'
  BEGIN
    DELETE FROM messages_fts WHERE rowid IN
      (SELECT rowid FROM messages WHERE conversation_id = NEW.conversation_id AND run_id = NEW.id AND role = 'assistant');
    INSERT INTO messages_fts (rowid, conversation_id, message_id, content)
      SELECT rowid, conversation_id, id, content FROM messages
      WHERE conversation_id = NEW.conversation_id AND run_id = NEW.id AND role = 'assistant';
  END;

  -- What is already there: every title, and every message but the answers of runs still going.
  INSERT INTO conversation_titles_fts (rowid, conversation_id, title) SELECT rowid, id, title FROM conversations;
  INSERT INTO messages_fts (rowid, conversation_id, message_id, content)
    SELECT m.rowid, m.conversation_id, m.id, m.content FROM messages m
    WHERE m.role = 'user' OR NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = m.run_id AND r.status = 'running');
  `,

  /* 7: messages sent into desktop chat apps, for their rate limits (docs/desktop.md, "Sending messages") */ `
  CREATE TABLE chat_sends (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    app             TEXT NOT NULL,
    target          TEXT NOT NULL, -- the chat as asked for
    target_key      TEXT NOT NULL, -- the same, normalised for matching (whitespace, case, brackets)
    status          TEXT NOT NULL CHECK (status IN ('sent', 'not_sent', 'unknown')),
    reason          TEXT NOT NULL,
    at              INTEGER NOT NULL,
    conversation_id TEXT, -- no foreign key: the CLI sends without a conversation
    run_id          TEXT
  );
  CREATE INDEX chat_sends_by_target ON chat_sends (app, target_key, at);
  `,

  /* 8: message versions: regenerated answers and edited questions (docs/architecture.md, "Message versions") */ `
  -- A question (user message) follows one answer (run); NULL: the first question. Answers have NULL.
  ALTER TABLE messages ADD COLUMN parent_run_id TEXT;
  -- A run answers one question; several runs of one question are the versions of its answer.
  ALTER TABLE runs ADD COLUMN answers_message_id TEXT;

  -- What is already there is one line: each run answers the question that started it, and each
  -- question follows the run of the question before it.
  UPDATE runs SET answers_message_id =
    (SELECT m.id FROM messages m WHERE m.run_id = runs.id AND m.role = 'user' ORDER BY m.seq LIMIT 1);
  UPDATE messages SET parent_run_id =
    (SELECT p.run_id FROM messages p
     WHERE p.conversation_id = messages.conversation_id AND p.role = 'user' AND p.seq < messages.seq
     ORDER BY p.seq DESC LIMIT 1)
  WHERE role = 'user';
  `,

  /* 9: memories (docs/tools.md, "Memory") */ `
  -- n is the rowid the FTS index keys on: an explicit INTEGER PRIMARY KEY, so VACUUM never renumbers it.
  -- No foreign key to conversations: a memory outlives the conversation it was saved in.
  CREATE TABLE memories (
    n                      INTEGER PRIMARY KEY,
    id                     TEXT NOT NULL UNIQUE,
    text                   TEXT NOT NULL,
    scope                  TEXT NOT NULL CHECK (scope IN ('global', 'workspace')),
    workspace              TEXT,
    source_conversation_id TEXT,
    source_run_id          TEXT,
    source_call_id         TEXT,
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL,
    CHECK ((scope = 'workspace') = (workspace IS NOT NULL))
  );
  CREATE INDEX memories_by_update ON memories (updated_at DESC);
  CREATE INDEX memories_by_workspace ON memories (workspace) WHERE workspace IS NOT NULL;
  CREATE INDEX memories_by_source ON memories (source_conversation_id) WHERE source_call_id IS NOT NULL;
  -- The words of each memory, cut by ICU's segmenter in memories.ts (Chinese has no spaces), so
  -- unicode61 sees one token per word; contentless: the text itself lives in memories only.
  CREATE VIRTUAL TABLE memories_fts USING fts5 (words, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
  `,

  /* 10: scheduled tasks (docs/tools.md, "Schedules") */ `
  -- The last_* columns name the latest run's conversation without a foreign key: deleting that
  -- conversation must not delete the task.
  CREATE TABLE scheduled_tasks (
    id                   TEXT PRIMARY KEY,
    name                 TEXT NOT NULL,
    prompt               TEXT NOT NULL,
    workspace            TEXT NOT NULL,
    autonomy             TEXT NOT NULL CHECK (autonomy IN ('readonly', 'supervised', 'full')),
    schedule             TEXT NOT NULL, -- ScheduleSpec JSON
    enabled              INTEGER NOT NULL,
    next_run_at          INTEGER,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    last_run_id          TEXT,
    last_conversation_id TEXT,
    last_status          TEXT CHECK (last_status IN ('running', 'completed', 'failed', 'cancelled')),
    last_run_at          INTEGER,
    last_error           TEXT
  );
  CREATE INDEX scheduled_tasks_due ON scheduled_tasks (next_run_at) WHERE enabled = 1 AND next_run_at IS NOT NULL;
  `,

  /* 11: cheaper event rows (issue 28; docs/architecture.md, "One event stream") */ `
  -- The event log is the hot table: every token is a row. Rebuilt with one index instead of two, no
  -- foreign key checked per row, and no AUTOINCREMENT (its sqlite_sequence update per insert): an
  -- insert now costs about what a bare table's does (docs/benchmarks.md, "Store"). seq stays the
  -- log's order; a seq freed by deleting the newest conversation may be used again, which keeps
  -- every other conversation's order. The writer checks the conversation in the batch's
  -- transaction (sqlite-store.ts), and the trigger below deletes a conversation's events with it.
  CREATE TABLE events_v11 (
    seq             INTEGER PRIMARY KEY,
    run_id          TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    type            TEXT NOT NULL,
    data            TEXT NOT NULL,
    at              INTEGER NOT NULL
  );
  INSERT INTO events_v11 (seq, run_id, conversation_id, type, data, at)
    SELECT seq, run_id, conversation_id, type, data, at FROM events ORDER BY seq;
  DROP TABLE events;
  ALTER TABLE events_v11 RENAME TO events;
  -- Every read names the conversation: a snapshot reads one type at a time in log order (seq is
  -- the rowid, so the index holds it), a run's events are found through its conversation.
  CREATE INDEX events_by_conversation ON events (conversation_id, type);
  CREATE TRIGGER conversations_events_delete AFTER DELETE ON conversations BEGIN
    DELETE FROM events WHERE conversation_id = OLD.id;
  END;
  `
]

/**
 * Schema 2. A CHECK constraint cannot be altered in SQLite, so `approvals` is rebuilt (create,
 * copy with rowids so the request order survives, drop, rename, re-index); nothing references it,
 * so dropping it with foreign keys on is safe. The audit rows of schema 1 are chained here, in seq
 * order: the no-update trigger is dropped for the backfill and recreated before the step commits.
 */
function migrateToRiskAndAuditChain(db: Database.Database): void {
  db.exec(`
  CREATE TABLE approvals_v2 (
    id              TEXT PRIMARY KEY,
    call_id         TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    tool            TEXT NOT NULL,
    args            TEXT,
    reason          TEXT NOT NULL,
    preview         TEXT NOT NULL,
    expires_at      INTEGER NOT NULL,
    requested_at    INTEGER NOT NULL,
    answer          TEXT CHECK (answer IN ('allow_once', 'allow_conversation', 'allow_always', 'deny')),
    resolved_by     TEXT,
    resolve_reason  TEXT,
    resolved_at     INTEGER,
    assessment      TEXT, -- RiskAssessment JSON; NULL for approvals asked before schema 2
    binding_hash    TEXT  -- NULL for approvals asked before schema 2
  );
  INSERT INTO approvals_v2
    (rowid, id, call_id, conversation_id, run_id, tool, args, reason, preview, expires_at, requested_at,
     answer, resolved_by, resolve_reason, resolved_at)
  SELECT
     rowid, id, call_id, conversation_id, run_id, tool, args, reason, preview, expires_at, requested_at,
     answer, resolved_by, resolve_reason, resolved_at
  FROM approvals;
  DROP TABLE approvals;
  ALTER TABLE approvals_v2 RENAME TO approvals;
  CREATE INDEX approvals_unanswered ON approvals (requested_at) WHERE answer IS NULL;
  CREATE INDEX approvals_by_conversation ON approvals (conversation_id);

  ALTER TABLE tool_calls ADD COLUMN runtime TEXT;
  ALTER TABLE tool_calls ADD COLUMN verdict TEXT;   -- the risk engine's verdict: allow | ask | deny
  ALTER TABLE tool_calls ADD COLUMN findings TEXT;  -- RiskFinding[] JSON

  -- Narrow rules saved by "always allow"; one row per (tool, match), the first saved wins.
  CREATE TABLE approval_rules (
    id                 TEXT PRIMARY KEY,
    tool               TEXT NOT NULL,
    match              TEXT NOT NULL, -- JSON array of normalised tokens
    decision           TEXT NOT NULL CHECK (decision IN ('allow', 'ask', 'deny')),
    created_at         INTEGER NOT NULL,
    source_approval_id TEXT
  );
  CREATE UNIQUE INDEX approval_rules_by_subject ON approval_rules (tool, match);

  ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
  ALTER TABLE audit_log ADD COLUMN hash TEXT;
  DROP TRIGGER audit_log_no_update;
  `)
  backfillAuditChain(db)
  db.exec(`
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
  -- Every row goes through the store's chained insert; a row without its links is a bug, not data.
  CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
    WHEN NEW.hash IS NULL OR NEW.prev_hash IS NULL
    BEGIN SELECT RAISE(ABORT, 'audit_log rows must carry prev_hash and hash'); END;
  `)
}

export const LATEST_SCHEMA_VERSION = migrations.length

/** Thrown when an older DeskClaw opens a file a newer one has migrated: refusing beats corrupting. */
export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number
  ) {
    super(`database was written by a newer DeskClaw (schema ${found} > ${supported}); update DeskClaw`)
    this.name = 'NewerSchemaError'
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/**
 * Brings the database to the latest version; each step commits with its version bump or not at all.
 * `steps` is a parameter only so tests can prove a failing step leaves the file untouched.
 */
export function migrate(db: Database.Database, steps: readonly MigrationStep[] = migrations): void {
  const latest = steps.length
  assertNotNewer(schemaVersion(db), latest)
  // The version is re-read under the write lock, so two processes opening one file at once
  // (the app and `deskclaw run`) cannot both apply the same step.
  const applyNextStep = db.transaction((): boolean => {
    const version = schemaVersion(db)
    assertNotNewer(version, latest)
    const step = steps[version]
    if (step === undefined) return false
    if (typeof step === 'string') db.exec(step)
    else step(db)
    // user_version lives in the file header, which is written as part of this transaction.
    db.pragma(`user_version = ${version + 1}`)
    return true
  })
  while (schemaVersion(db) < latest && applyNextStep.immediate()) {
    // one step per transaction
  }
}

function assertNotNewer(version: number, latest: number): void {
  if (version > latest) throw new NewerSchemaError(version, latest)
}
