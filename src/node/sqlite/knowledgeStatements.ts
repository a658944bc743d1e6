import type BetterSqlite3 from 'better-sqlite3';

/** One knowledge state per storage key (`ns:id`), as its JSON, with its revision. */
const STATES_TABLE = `CREATE TABLE IF NOT EXISTS knowledge_states (
  key TEXT PRIMARY KEY,
  state_json TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at REAL NOT NULL
)`;

/** Rows that did not decode, copied here (values untouched) before a save or delete replaced them. */
const CORRUPT_TABLE = `CREATE TABLE IF NOT EXISTS knowledge_states_corrupt (
  aside_id INTEGER PRIMARY KEY AUTOINCREMENT,
  key,
  state_json,
  revision,
  updated_at,
  moved_at REAL NOT NULL,
  problems TEXT NOT NULL
)`;

/**
 * A stored row as SQLite returns it: the columns are typed by the schema, but a row written by
 * another program may hold anything, so the store checks each value.
 *
 * @example
 * ```ts
 * const row: KnowledgeRow = { key: 'acme:u1', state_json: '{…}', revision: 3 };
 * ```
 */
export interface KnowledgeRow {
  readonly key: string;
  readonly state_json: unknown;
  readonly revision: unknown;
}

/**
 * The prepared statements of a knowledge database.
 *
 * @example
 * ```ts
 * const row = statements.select.get('acme:u1');
 * ```
 */
export interface KnowledgeStatements {
  readonly select: BetterSqlite3.Statement<[string], KnowledgeRow>;
  readonly selectAll: BetterSqlite3.Statement<[], KnowledgeRow>;
  readonly upsert: BetterSqlite3.Statement<[string, string, number, number]>;
  readonly remove: BetterSqlite3.Statement<[string]>;
  readonly moveAside: BetterSqlite3.Statement<[number, string, string]>;
  readonly asideCount: BetterSqlite3.Statement<[], { readonly n: number }>;
}

/**
 * Creates the knowledge tables when absent (WAL mode for a file) and prepares the statements.
 * The reference's own `knowledge` table (its entries), if the file has one, is left alone: this
 * store reads it only through `readReferenceEntries`.
 *
 * @param db - an open connection
 * @param inMemory - whether the database is `:memory:` (no WAL)
 * @returns the statements
 * @example
 * ```ts
 * const sql = prepareKnowledgeSchema(db, false);
 * ```
 */
export const prepareKnowledgeSchema = (
  db: BetterSqlite3.Database,
  inMemory: boolean,
): KnowledgeStatements => {
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.exec(STATES_TABLE);
  db.exec(CORRUPT_TABLE);
  return {
    select: db.prepare('SELECT key, state_json, revision FROM knowledge_states WHERE key = ?'),
    selectAll: db.prepare('SELECT key, state_json, revision FROM knowledge_states ORDER BY key'),
    upsert: db.prepare(
      'INSERT OR REPLACE INTO knowledge_states (key, state_json, revision, updated_at) VALUES (?, ?, ?, ?)',
    ),
    remove: db.prepare('DELETE FROM knowledge_states WHERE key = ?'),
    moveAside: db.prepare(
      `INSERT INTO knowledge_states_corrupt (key, state_json, revision, updated_at, moved_at, problems)
       SELECT key, state_json, revision, updated_at, ?, ? FROM knowledge_states WHERE key = ?`,
    ),
    asideCount: db.prepare('SELECT COUNT(*) AS n FROM knowledge_states_corrupt'),
  };
};
