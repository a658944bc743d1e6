import type BetterSqlite3 from 'better-sqlite3';
import type { SessionRow } from './sessionRow';

type Statement<P extends unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

/**
 * A row without its memory: what `list`, `exists` and a save's check read.
 *
 * @example
 * ```ts
 * const row: MetaRow | undefined = sql.selectMeta.get('s1');
 * ```
 */
export type MetaRow = Omit<SessionRow, 'memory_json'>;

/**
 * One FTS5 match: the session, the message and its bm25 rank (lower is better), with the
 * session's `updated_at` (for the TTL).
 *
 * @example
 * ```ts
 * const match: MatchRow = { key: 's1', content: 'Lisbon in May', rank: -0.6, updated_at: 1764500000 };
 * ```
 */
export interface MatchRow {
  readonly key: string;
  readonly content: string;
  readonly rank: number;
  readonly updated_at: unknown;
}

/**
 * The store's SQL, prepared once per connection. Session rows are addressed by their full key
 * (`ns:id`), as the reference stores them.
 *
 * @example
 * ```ts
 * const sql = prepareStatements(db, true);
 * sql.selectRow.get('s1');
 * ```
 */
export interface Statements {
  readonly dataVersion: Statement<[], number>;
  readonly selectRow: Statement<[string], SessionRow>;
  readonly selectMeta: Statement<[string], MetaRow>;
  readonly selectMemory: Statement<[string], unknown>;
  readonly selectAllMeta: Statement<[], MetaRow>;
  readonly selectAllRows: Statement<[], SessionRow>;
  readonly upsert: Statement<[string, string, number, number, number, number]>;
  readonly deleteRow: Statement<[string]>;
  readonly selectMetaIfUnchanged: Statement<[string, unknown, unknown], MetaRow>;
  readonly moveAside: Statement<[number, string, string]>;
  /** Present when FTS5 search is on. */
  readonly fts:
    | {
        readonly deleteMessages: Statement<[string]>;
        readonly selectMessages: Statement<
          [string],
          { readonly id: number; readonly content: unknown }
        >;
        readonly deleteMessage: Statement<[number]>;
        readonly insertMessage: Statement<[string, string]>;
        readonly renameMessages: Statement<[string, string]>;
        readonly markIndexed: Statement<[string, number]>;
        readonly deleteIndexed: Statement<[string]>;
        readonly selectStale: Statement<[], SessionRow>;
        readonly match: Statement<[string], MatchRow>;
      }
    | undefined;
}

const ROW = 'session_id, memory_json, message_count, created_at, updated_at, revision';
const META = 'session_id, message_count, created_at, updated_at, revision';

/**
 * Prepares the store's statements on a connection whose schema is ready.
 *
 * @param db - the connection
 * @param fts - whether FTS5 search is on (its statements are prepared only then)
 * @returns the statements
 * @example
 * ```ts
 * const sql = prepareStatements(db, prepareSessionSchema(db, true).fts);
 * ```
 */
export const prepareStatements = (db: BetterSqlite3.Database, fts: boolean): Statements => ({
  dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  selectRow: db.prepare(`SELECT ${ROW} FROM sessions WHERE session_id = ?`),
  selectMeta: db.prepare(`SELECT ${META} FROM sessions WHERE session_id = ?`),
  selectMemory: db
    .prepare<[string], unknown>('SELECT memory_json FROM sessions WHERE session_id = ?')
    .pluck(),
  selectAllMeta: db.prepare(`SELECT ${META} FROM sessions`),
  selectAllRows: db.prepare(`SELECT ${ROW} FROM sessions`),
  upsert: db.prepare(
    `INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at, revision)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET memory_json = excluded.memory_json,
       message_count = excluded.message_count, created_at = excluded.created_at,
       updated_at = excluded.updated_at, revision = excluded.revision`,
  ),
  deleteRow: db.prepare('DELETE FROM sessions WHERE session_id = ?'),
  selectMetaIfUnchanged: db.prepare(
    `SELECT ${META} FROM sessions WHERE session_id = ? AND revision IS ? AND updated_at IS ?`,
  ),
  moveAside: db.prepare(
    `INSERT INTO sessions_corrupt (${ROW}, moved_at, problems)
     SELECT ${ROW}, ?, ? FROM sessions WHERE session_id = ?`,
  ),
  fts: fts
    ? {
        deleteMessages: db.prepare('DELETE FROM session_messages_fts WHERE session_key = ?'),
        selectMessages: db.prepare(
          'SELECT rowid AS id, content FROM session_messages_fts WHERE session_key = ? ORDER BY rowid',
        ),
        deleteMessage: db.prepare('DELETE FROM session_messages_fts WHERE rowid = ?'),
        insertMessage: db.prepare(
          'INSERT INTO session_messages_fts (content, session_key) VALUES (?, ?)',
        ),
        renameMessages: db.prepare(
          'UPDATE session_messages_fts SET session_key = ? WHERE session_key = ?',
        ),
        markIndexed: db.prepare(
          `INSERT INTO session_search_index (session_key, indexed_at) VALUES (?, ?)
           ON CONFLICT(session_key) DO UPDATE SET indexed_at = excluded.indexed_at`,
        ),
        deleteIndexed: db.prepare('DELETE FROM session_search_index WHERE session_key = ?'),
        selectStale: db.prepare(
          `SELECT ${ROW.split(', ')
            .map((column) => `s.${column}`)
            .join(', ')}
           FROM sessions s LEFT JOIN session_search_index i ON i.session_key = s.session_id
           WHERE i.session_key IS NULL OR i.indexed_at < s.updated_at`,
        ),
        match: db.prepare(
          `SELECT session_messages_fts.session_key AS key, session_messages_fts.content AS content,
             bm25(session_messages_fts) AS rank, sessions.updated_at AS updated_at
           FROM session_messages_fts JOIN sessions ON sessions.session_id = session_messages_fts.session_key
           WHERE session_messages_fts MATCH ?
           ORDER BY rank, session_messages_fts.rowid`,
        ),
      }
    : undefined,
});
