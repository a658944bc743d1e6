import type BetterSqlite3 from 'better-sqlite3';

type Statement<P extends unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

/** A row of `session_messages_fts` (its rowid and session key, unchecked). */
export interface IndexedMessage {
  readonly id: number;
  readonly key: unknown;
}

/** A row of `sessions_corrupt` (its id and the key it was set aside from, unchecked). */
export interface AsideRow {
  readonly id: number;
  readonly key: unknown;
}

/**
 * The session store's statements for `sweep` and `deleteNamespace`: the pages they walk (keys
 * after the last one seen, each page bounded by a parameter), and the search-index rows and
 * set-aside copies left without a session.
 *
 * @example
 * ```ts
 * const retention = prepareSessionRetentionStatements(db, fts);
 * retention.expiredAfter.all(null, null, 941, 500);
 * ```
 */
export interface SessionRetentionStatements {
  /** Keys whose `updated_at` is a number below a bound, after a key (`NULL`: from the first). */
  readonly expiredAfter: Statement<[string | null, string | null, number, number], string>;
  /** Keys in `[lower, upper)`, after a key (`NULL`: from `lower`). */
  readonly keysBetween: Statement<[string, string, string | null, string | null, number], string>;
  /** Set-aside copies after an id, with their keys. */
  readonly asideAfter: Statement<[number, number], AsideRow>;
  readonly deleteAside: Statement<[number]>;
  /** Present when FTS5 search is on. */
  readonly fts:
    | {
        /** Indexed messages of no session, after a rowid. */
        readonly orphansAfter: Statement<[number, number], IndexedMessage>;
        /** Index entries of no session in `[lower, upper)`, after a key (`NULL`: from `lower`). */
        readonly orphanEntries: Statement<
          [string, string, string | null, string | null, number],
          string
        >;
      }
    | undefined;
}

/**
 * Prepares the retention statements on a connection whose session schema is ready.
 *
 * @param db - the connection
 * @param fts - whether FTS5 search is on (its tables exist only then)
 * @example
 * ```ts
 * const retention = prepareSessionRetentionStatements(db, prepareSessionSchema(db, true).fts);
 * ```
 */
export const prepareSessionRetentionStatements = (
  db: BetterSqlite3.Database,
  fts: boolean,
): SessionRetentionStatements => ({
  expiredAfter: db
    .prepare<[string | null, string | null, number, number], string>(
      `SELECT session_id FROM sessions
       WHERE (? IS NULL OR session_id > ?)
         AND typeof(updated_at) IN ('integer', 'real') AND updated_at < ?
       ORDER BY session_id LIMIT ?`,
    )
    .pluck(),
  keysBetween: db
    .prepare<[string, string, string | null, string | null, number], string>(
      `SELECT session_id FROM sessions
       WHERE session_id >= ? AND session_id < ? AND (? IS NULL OR session_id > ?)
       ORDER BY session_id LIMIT ?`,
    )
    .pluck(),
  asideAfter: db.prepare(
    `SELECT aside_id AS id, session_id AS key FROM sessions_corrupt
     WHERE aside_id > ? ORDER BY aside_id LIMIT ?`,
  ),
  deleteAside: db.prepare('DELETE FROM sessions_corrupt WHERE aside_id = ?'),
  fts: fts
    ? {
        orphansAfter: db.prepare(
          `SELECT f.rowid AS id, f.session_key AS key FROM session_messages_fts f
           WHERE f.rowid > ?
             AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = f.session_key)
           ORDER BY f.rowid LIMIT ?`,
        ),
        orphanEntries: db
          .prepare<[string, string, string | null, string | null, number], string>(
            `SELECT i.session_key FROM session_search_index i
             WHERE i.session_key >= ? AND i.session_key < ? AND (? IS NULL OR i.session_key > ?)
               AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = i.session_key)
             ORDER BY i.session_key LIMIT ?`,
          )
          .pluck(),
      }
    : undefined,
});
