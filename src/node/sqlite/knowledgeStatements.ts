import type BetterSqlite3 from 'better-sqlite3';
import { type KnowledgeState, readKnowledgeJson } from 'conversation-memory/knowledge';
import { describeValue } from 'conversation-memory/store-kit';

/**
 * A stored row as SQLite returns it: the columns are typed by the schema, but a row written by
 * another program may hold anything, so the store checks each value.
 *
 * @example
 * ```ts
 * const row: KnowledgeRow = { key: 'acme:u1', state_json: '{…}', revision: 3, updated_at: 1764500000 };
 * ```
 */
export interface KnowledgeRow {
  readonly key: string;
  readonly state_json: unknown;
  readonly revision: unknown;
  /** The time of its last save (Unix seconds): `defaultTtl` runs from it. */
  readonly updated_at: unknown;
}

/** A row of `knowledge_states_corrupt` (its id and the key it was set aside from, unchecked). */
export interface KnowledgeAsideRow {
  readonly id: number;
  readonly key: unknown;
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
  /** The revision and `updated_at` of one record, without its state. */
  readonly selectStamp: BetterSqlite3.Statement<
    [string],
    Pick<KnowledgeRow, 'revision' | 'updated_at'>
  >;
  readonly selectAll: BetterSqlite3.Statement<[], KnowledgeRow>;
  readonly upsert: BetterSqlite3.Statement<[string, string, number, number]>;
  readonly remove: BetterSqlite3.Statement<[string]>;
  readonly moveAside: BetterSqlite3.Statement<[number, string, string]>;
  readonly asideCount: BetterSqlite3.Statement<[], { readonly n: number }>;
  /** Keys whose `updated_at` is a number below a bound, after a key (`NULL`: from the first). */
  readonly expiredAfter: BetterSqlite3.Statement<
    [string | null, string | null, number, number],
    string
  >;
  /** Keys in `[lower, upper)`, after a key (`NULL`: from `lower`). */
  readonly keysBetween: BetterSqlite3.Statement<
    [string, string, string | null, string | null, number],
    string
  >;
  /** Set-aside copies after an id, with their keys. */
  readonly asideAfter: BetterSqlite3.Statement<[number, number], KnowledgeAsideRow>;
  readonly deleteAside: BetterSqlite3.Statement<[number]>;
}

const ROW = 'key, state_json, revision, updated_at';

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
  select: db.prepare(`SELECT ${ROW} FROM knowledge_states WHERE key = ?`),
  // From the index alone (the planner would take the primary key's and read the row).
  selectStamp: db.prepare(
    'SELECT revision, updated_at FROM knowledge_states INDEXED BY knowledge_states_stamp WHERE key = ?',
  ),
  selectAll: db.prepare(`SELECT ${ROW} FROM knowledge_states ORDER BY key`),
  upsert: db.prepare(
    'INSERT OR REPLACE INTO knowledge_states (key, state_json, revision, updated_at) VALUES (?, ?, ?, ?)',
  ),
  remove: db.prepare('DELETE FROM knowledge_states WHERE key = ?'),
  moveAside: db.prepare(
    `INSERT INTO knowledge_states_corrupt (key, state_json, revision, updated_at, moved_at, problems)
       SELECT key, state_json, revision, updated_at, ?, ? FROM knowledge_states WHERE key = ?`,
  ),
  asideCount: db.prepare('SELECT COUNT(*) AS n FROM knowledge_states_corrupt'),
  expiredAfter: db
    .prepare<[string | null, string | null, number, number], string>(
      `SELECT key FROM knowledge_states
       WHERE (? IS NULL OR key > ?) AND typeof(updated_at) IN ('integer', 'real') AND updated_at < ?
       ORDER BY key LIMIT ?`,
    )
    .pluck(),
  keysBetween: db
    .prepare<[string, string, string | null, string | null, number], string>(
      `SELECT key FROM knowledge_states WHERE key >= ? AND key < ? AND (? IS NULL OR key > ?)
       ORDER BY key LIMIT ?`,
    )
    .pluck(),
  asideAfter: db.prepare(
    `SELECT aside_id AS id, key FROM knowledge_states_corrupt
     WHERE aside_id > ? ORDER BY aside_id LIMIT ?`,
  ),
  deleteAside: db.prepare('DELETE FROM knowledge_states_corrupt WHERE aside_id = ?'),
});

/**
 * A stored row, read: the state and revision, or what is wrong with it.
 *
 * @example
 * ```ts
 * const read: ReadKnowledgeRow = { problems: ['revision: expected an integer ≥ 1, got "x"'] };
 * ```
 */
export type ReadKnowledgeRow =
  | { readonly state: KnowledgeState; readonly revision: number }
  | { readonly problems: readonly string[] };

/**
 * Reads a stored row: its revision (an integer ≥ 1) and its state (`readKnowledgeJson`), or the
 * problems naming what is wrong.
 *
 * @example
 * ```ts
 * const read = readKnowledgeRow(sql.select.get('acme:u1'));
 * if ('problems' in read) throw new KnowledgeCorruptError(api, key, location, read.problems);
 * ```
 */
export const readKnowledgeRow = (row: KnowledgeRow): ReadKnowledgeRow => {
  const checked = readRevisionColumn(row.revision);
  if ('problems' in checked) return checked;
  const read = readKnowledgeJson(row.state_json);
  return 'problems' in read ? read : { state: read.state, revision: checked.revision };
};

/**
 * A row's `revision` column: the integer ≥ 1 it must be, or the problem naming it (what
 * `readKnowledgeRow` and the store's `stamp` both check).
 *
 * @example
 * ```ts
 * readRevisionColumn('x'); // { problems: ['revision: expected an integer ≥ 1, got "x"'] }
 * ```
 */
export const readRevisionColumn = (
  revision: unknown,
): { readonly revision: number } | { readonly problems: readonly string[] } =>
  typeof revision === 'number' && Number.isSafeInteger(revision) && revision >= 1
    ? { revision }
    : { problems: [`revision: expected an integer ≥ 1, got ${describeValue(revision)}`] };
