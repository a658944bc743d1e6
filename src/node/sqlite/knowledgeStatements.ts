import type BetterSqlite3 from 'better-sqlite3';

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
 * Prepares the statements of a knowledge database (its tables made by `prepareKnowledgeSchema`).
 *
 * @param db - an open connection
 * @returns the statements
 * @example
 * ```ts
 * prepareKnowledgeSchema(db, false);
 * const sql = prepareKnowledgeStatements(db);
 * ```
 */
export const prepareKnowledgeStatements = (db: BetterSqlite3.Database): KnowledgeStatements => ({
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
});
