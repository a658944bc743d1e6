import type BetterSqlite3 from 'better-sqlite3';

/**
 * The tables of the SQLite session and knowledge stores, each created on first use by its store:
 * the sessions (the reference's table, our `revision` column, the search index and the aside
 * table) and the knowledge states (the event streams' are in `eventSchema.ts`). Their names never
 * overlap, so one file can hold all three stores.
 */

/**
 * The names of the file's tables or triggers.
 *
 * @example
 * ```ts
 * namesOf(db, 'table').has('sessions'); // true once the session store opened the file
 * ```
 */
export const namesOf = (db: BetterSqlite3.Database, type: 'table' | 'trigger'): Set<string> =>
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

// Knowledge states

/** One knowledge state per storage key (`ns:id`), as its JSON, with its revision. */
const STATES_TABLE = `CREATE TABLE IF NOT EXISTS knowledge_states (
  key TEXT PRIMARY KEY,
  state_json TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at REAL NOT NULL
)`;

/**
 * Revision and save time by key, beside the state: `stamp` reads them from this index alone. In
 * the table they come after `state_json`, and a large state's overflow pages would be walked to
 * reach them (milliseconds at 100,000 observations).
 */
const STAMP_INDEX = `CREATE INDEX IF NOT EXISTS knowledge_states_stamp
  ON knowledge_states (key, revision, updated_at)`;

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
  db.exec(STAMP_INDEX);
  db.exec(KNOWLEDGE_CORRUPT_TABLE);
};
