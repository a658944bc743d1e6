import type BetterSqlite3 from 'better-sqlite3';

/**
 * The tables of the three SQLite stores, each created on first use by its store: the sessions
 * (the reference's table, our `revision` column, the search index and the aside table), the
 * event streams (streams, actions, snapshots and the triggers that record gaps) and the knowledge
 * states. Their names never overlap, so one file can hold all three.
 */

/** The names of the file's tables or triggers. */
const namesOf = (db: BetterSqlite3.Database, type: 'table' | 'trigger'): Set<string> =>
  new Set(
    db
      .prepare<[string], string>('SELECT name FROM main.sqlite_master WHERE type = ?')
      .pluck()
      .all(type),
  );

// Sessions

/** The reference's table (selectools' `SQLiteSessionStore`), kept as it is so its files load. */
const SESSIONS_TABLE = `CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  memory_json TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL
)`;

/** Our one addition to it: rows the reference wrote load as revision 1. */
const REVISION_COLUMN = 'ALTER TABLE sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 1';

/** The reference's search index, by the same names, so an index it built is reused. */
const FTS_TABLES = [
  'CREATE VIRTUAL TABLE IF NOT EXISTS session_messages_fts USING fts5(content, session_key UNINDEXED)',
  'CREATE TABLE IF NOT EXISTS session_search_index (session_key TEXT PRIMARY KEY, indexed_at REAL NOT NULL)',
];

/**
 * Rows that did not decode, copied here (values untouched, columns untyped) before a save
 * replaced them: kept for inspection, never read by the store.
 */
const SESSIONS_CORRUPT_TABLE = `CREATE TABLE IF NOT EXISTS sessions_corrupt (
  aside_id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id,
  memory_json,
  message_count,
  created_at,
  updated_at,
  revision,
  moved_at REAL NOT NULL,
  problems TEXT NOT NULL
)`;

/** Whether this SQLite was built with FTS5 (the reference's probe, on a temporary table). */
const hasFts5 = (db: BetterSqlite3.Database): boolean => {
  try {
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.__fts5_probe__ USING fts5(x)');
    db.exec('DROP TABLE IF EXISTS temp.__fts5_probe__');
    return true;
  } catch {
    return false;
  }
};

const hasRevision = (db: BetterSqlite3.Database): boolean =>
  db
    .prepare<[], string>("SELECT name FROM pragma_table_info('sessions')")
    .pluck()
    .all()
    .includes('revision');

/** Whether every table and column is there already (then no write lock is taken). */
const complete = (db: BetterSqlite3.Database, fts: boolean): boolean => {
  const tables = namesOf(db, 'table');
  const needed = ['sessions', 'sessions_corrupt'];
  if (fts) needed.push('session_messages_fts', 'session_search_index');
  return needed.every((name) => tables.has(name)) && hasRevision(db);
};

/**
 * Prepares a database for the store, as the reference does and a little more: WAL mode, full
 * sync on commit, the reference's tables (created when missing; a database the reference wrote is
 * used as it is), the `revision` column added to its `sessions` table when missing, the FTS5 index
 * when this SQLite has FTS5 and `wantFts`, and the `sessions_corrupt` table. Creation happens in
 * one `BEGIN IMMEDIATE` transaction that checks again, so processes opening a new file at once do
 * not trip over each other.
 *
 * @param db - an open connection (its busy timeout bounds the wait for the write lock)
 * @param wantFts - `false` to leave FTS5 alone (the store then searches by scanning)
 * @returns whether FTS5 search is on
 * @example
 * ```ts
 * const { fts } = prepareSessionSchema(new Database('sessions.db'), true);
 * ```
 */
export const prepareSessionSchema = (
  db: BetterSqlite3.Database,
  wantFts: boolean,
): { fts: boolean } => {
  if (!db.memory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const fts = wantFts && hasFts5(db);
  if (!complete(db, fts)) {
    db.transaction(() => {
      db.exec(SESSIONS_TABLE);
      if (!hasRevision(db)) db.exec(REVISION_COLUMN);
      if (fts) for (const ddl of FTS_TABLES) db.exec(ddl);
      db.exec(SESSIONS_CORRUPT_TABLE);
    }).immediate();
  }
  return { fts };
};

// Event streams

/**
 * The event store's tables, beside (never inside) the session store's, so one file can hold both:
 * `event_streams` gives each stream an id that is never reused (a stream deleted and created
 * again is another stream to a reader that was paging through the old one) and holds its config,
 * its version (the number of actions its appends wrote, so an action deleted at the end or
 * added beyond it is noticed; `NULL` in a stream created by an earlier version of this library)
 * and `gap_from` (see {@link GAP_TRIGGERS}); `event_actions` holds one row per action, its primary
 * key `(stream, version)` making a second action at a version impossible; `event_snapshots` holds
 * the state's envelope every K actions.
 */
const EVENT_TABLES = [
  `CREATE TABLE IF NOT EXISTS event_streams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    created_at REAL NOT NULL,
    version INTEGER,
    gap_from INTEGER
  )`,
  `CREATE TABLE IF NOT EXISTS event_actions (
    stream INTEGER NOT NULL,
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (stream, version)
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS event_snapshots (
    stream INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (stream, version)
  ) WITHOUT ROWID`,
];

const EVENT_NAMES = ['event_streams', 'event_actions', 'event_snapshots'];

/**
 * Whatever removes an action from a live stream (a `DELETE`, or an `UPDATE` moving it to another
 * version or stream, by any program that opens the file) records the lowest such version in
 * `event_streams.gap_from`: a gap can only be at or above it. So the store knows a stream whose
 * `gap_from` is `NULL` to be whole without reading its actions (appends stay one indexed lookup of
 * the head), and looks for the gap only in a stream that has one recorded; an append that finds
 * none there (the rows were put back) clears it. The store's own `delete` removes the stream's
 * row first, so its actions' removal records nothing.
 */
const GAP_TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS event_actions_deleted AFTER DELETE ON event_actions BEGIN
    UPDATE event_streams SET gap_from = min(coalesce(gap_from, OLD.version), OLD.version)
     WHERE id = OLD.stream;
  END`,
  `CREATE TRIGGER IF NOT EXISTS event_actions_moved AFTER UPDATE OF stream, version ON event_actions
  BEGIN
    UPDATE event_streams SET gap_from = min(coalesce(gap_from, OLD.version), OLD.version)
     WHERE id = OLD.stream;
  END`,
];

const TRIGGER_NAMES = ['event_actions_deleted', 'event_actions_moved'];

/**
 * The column added to an `event_streams` table of an earlier version, and its value for the
 * streams already there: the highest version they hold.
 */
const VERSION_COLUMN = [
  'ALTER TABLE event_streams ADD COLUMN version INTEGER',
  `UPDATE event_streams SET version =
    (SELECT coalesce(max(a.version), 0) FROM event_actions a WHERE a.stream = event_streams.id)
   WHERE version IS NULL`,
];

/**
 * The column added to an `event_streams` table without it, and its value for the streams already
 * there: version 1 (look from the start) for a stream whose integer versions from 1 to its version
 * are fewer than its version (a gap made before the triggers recorded gaps), else `NULL`. One
 * count of each stream's actions, once per file.
 */
const GAP_COLUMN = [
  'ALTER TABLE event_streams ADD COLUMN gap_from INTEGER',
  `UPDATE event_streams SET gap_from = 1
   WHERE version IS NOT (SELECT count(*) FROM event_actions a
     WHERE a.stream = event_streams.id AND typeof(a.version) = 'integer'
       AND a.version BETWEEN 1 AND event_streams.version)`,
];

const columnsOf = (db: BetterSqlite3.Database): string[] =>
  db.prepare<[], string>("SELECT name FROM pragma_table_info('event_streams')").pluck().all();

const hasVersion = (db: BetterSqlite3.Database): boolean => columnsOf(db).includes('version');

const hasGapColumn = (db: BetterSqlite3.Database): boolean => columnsOf(db).includes('gap_from');

/**
 * Prepares a database for the event store: WAL mode, full sync on commit, its three tables and
 * the triggers that record gaps (created in one `BEGIN IMMEDIATE` transaction when one is
 * missing, so processes opening a new file at once do not trip over each other). A file of an
 * earlier version gets the `version` column of `event_streams`, filled from its actions, and the
 * `gap_from` column, set where its actions already have a gap, in the same transaction.
 *
 * @param db - an open connection (its busy timeout bounds the wait for the write lock)
 * @example
 * ```ts
 * prepareEventSchema(new Database('events.db'));
 * ```
 */
export const prepareEventSchema = (db: BetterSqlite3.Database): void => {
  if (!db.memory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const complete = (): boolean => {
    const tables = namesOf(db, 'table');
    const triggers = namesOf(db, 'trigger');
    return (
      EVENT_NAMES.every((name) => tables.has(name)) &&
      TRIGGER_NAMES.every((name) => triggers.has(name)) &&
      hasVersion(db) &&
      hasGapColumn(db)
    );
  };
  if (complete()) return;
  db.transaction(() => {
    for (const ddl of EVENT_TABLES) db.exec(ddl);
    if (!hasVersion(db)) for (const sql of VERSION_COLUMN) db.exec(sql);
    if (!hasGapColumn(db)) for (const sql of GAP_COLUMN) db.exec(sql);
    for (const ddl of GAP_TRIGGERS) db.exec(ddl);
  }).immediate();
};

// Knowledge states

/** One knowledge state per storage key (`ns:id`), as its JSON, with its revision. */
const STATES_TABLE = `CREATE TABLE IF NOT EXISTS knowledge_states (
  key TEXT PRIMARY KEY,
  state_json TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at REAL NOT NULL
)`;

/** Rows that did not decode, copied here (values untouched) before a save or delete replaced them. */
const KNOWLEDGE_CORRUPT_TABLE = `CREATE TABLE IF NOT EXISTS knowledge_states_corrupt (
  aside_id INTEGER PRIMARY KEY AUTOINCREMENT,
  key,
  state_json,
  revision,
  updated_at,
  moved_at REAL NOT NULL,
  problems TEXT NOT NULL
)`;

/**
 * Creates the knowledge tables when absent (WAL mode for a file). The reference's own `knowledge`
 * table (its entries), if the file has one, is left alone: the store reads it only through
 * `readReferenceEntries`.
 *
 * @param db - an open connection
 * @param inMemory - whether the database is `:memory:` (no WAL)
 * @example
 * ```ts
 * prepareKnowledgeSchema(db, false);
 * const sql = prepareKnowledgeStatements(db);
 * ```
 */
export const prepareKnowledgeSchema = (db: BetterSqlite3.Database, inMemory: boolean): void => {
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.exec(STATES_TABLE);
  db.exec(KNOWLEDGE_CORRUPT_TABLE);
};
