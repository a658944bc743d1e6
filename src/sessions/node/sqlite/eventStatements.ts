import type BetterSqlite3 from 'better-sqlite3';

/** A row of `event_streams`, its columns untyped until checked. */
export interface StreamRow {
  readonly id: number;
  readonly config: unknown;
  readonly created_at: unknown;
}

/** A row of `event_actions` or `event_snapshots` (its payload column unchecked). */
export interface VersionRow {
  readonly version: number;
  readonly payload: unknown;
}

/** A row of the streams listing. */
export interface ListRow {
  readonly stream: string;
  readonly created_at: unknown;
  readonly version: number;
}

/**
 * The event store's prepared statements.
 *
 * @example
 * ```ts
 * const sql = prepareEventStatements(db);
 * sql.versionOf.get(7); // 12
 * ```
 */
export interface EventStatements {
  readonly selectStream: BetterSqlite3.Statement<[string], StreamRow>;
  readonly insertStream: BetterSqlite3.Statement<[string, string, number]>;
  readonly versionOf: BetterSqlite3.Statement<[number], number>;
  readonly insertAction: BetterSqlite3.Statement<[number, number, string]>;
  readonly page: BetterSqlite3.Statement<[number, number, number, number], VersionRow>;
  readonly snapshotAtOrBelow: BetterSqlite3.Statement<[number, number], VersionRow>;
  readonly insertSnapshot: BetterSqlite3.Statement<[number, number, string]>;
  readonly list: BetterSqlite3.Statement<[], ListRow>;
  readonly deleteStream: BetterSqlite3.Statement<[number]>;
  readonly deleteActions: BetterSqlite3.Statement<[number]>;
  readonly deleteSnapshots: BetterSqlite3.Statement<[number]>;
}

/**
 * Prepares every statement once per connection.
 *
 * @example
 * ```ts
 * const sql = prepareEventStatements(db);
 * ```
 */
export const prepareEventStatements = (db: BetterSqlite3.Database): EventStatements => ({
  selectStream: db.prepare('SELECT id, config, created_at FROM event_streams WHERE stream = ?'),
  insertStream: db.prepare(
    'INSERT INTO event_streams (stream, config, created_at) VALUES (?, ?, ?)',
  ),
  versionOf: db
    .prepare<[number], number>(
      'SELECT coalesce(max(version), 0) FROM event_actions WHERE stream = ?',
    )
    .pluck(),
  insertAction: db.prepare('INSERT INTO event_actions (stream, version, action) VALUES (?, ?, ?)'),
  page: db.prepare(
    'SELECT version, action AS payload FROM event_actions WHERE stream = ? AND version >= ? AND version <= ? ORDER BY version LIMIT ?',
  ),
  snapshotAtOrBelow: db.prepare(
    'SELECT version, state AS payload FROM event_snapshots WHERE stream = ? AND version <= ? ORDER BY version DESC LIMIT 1',
  ),
  insertSnapshot: db.prepare(
    'INSERT OR REPLACE INTO event_snapshots (stream, version, state) VALUES (?, ?, ?)',
  ),
  list: db.prepare(
    'SELECT s.stream AS stream, s.created_at AS created_at, (SELECT coalesce(max(a.version), 0) FROM event_actions a WHERE a.stream = s.id) AS version FROM event_streams s',
  ),
  deleteStream: db.prepare('DELETE FROM event_streams WHERE id = ?'),
  deleteActions: db.prepare('DELETE FROM event_actions WHERE stream = ?'),
  deleteSnapshots: db.prepare('DELETE FROM event_snapshots WHERE stream = ?'),
});
