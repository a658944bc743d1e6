import type BetterSqlite3 from 'better-sqlite3';

/**
 * A stream's row of `event_streams` with the lowest and highest versions of its actions (both
 * read through the primary key, without visiting the actions), its columns untyped until checked.
 */
export interface HeadRow {
  readonly id: number;
  readonly config: unknown;
  readonly created_at: unknown;
  /** The version its appends recorded (`NULL` in a stream of an earlier version of the store). */
  readonly recorded: unknown;
  /** The lowest version of its actions (`NULL` when it has none). */
  readonly min: unknown;
  /** The highest version of its actions (`NULL` when it has none). */
  readonly max: unknown;
  /** The lowest version of an action removed from it, so where a gap may be (`NULL`: none). */
  readonly gap_from: unknown;
  /** The time of its last append (`NULL` in a stream an earlier version of the store appended to). */
  readonly updated_at: unknown;
  /** Its first version once pruned (`NULL`: never pruned, so 1). */
  readonly first_version: unknown;
}

/** Actions read per query: `read` and `load` never hold more of a stream than this at once. */
export const EVENT_PAGE = 512;

/** A row of `event_actions` or `event_snapshots` (its payload column unchecked). */
export interface VersionRow {
  readonly version: unknown;
  readonly payload: unknown;
}

/** A row of `event_actions`, its version only (the search for a gap reads no payload). */
export interface VersionOnly {
  readonly version: unknown;
}

/** A row of the streams listing: a head, with the stream's key. */
export interface ListRow extends HeadRow {
  readonly stream: string;
}

/**
 * The event store's prepared statements.
 *
 * @example
 * ```ts
 * const sql = prepareEventStatements(db);
 * sql.selectHead.get('u1:s1'); // { id: 7, config: '…', created_at: 1764500000, recorded: 12, min: 1, max: 12, … }
 * ```
 */
export interface EventStatements {
  readonly selectHead: BetterSqlite3.Statement<[string], HeadRow>;
  /** The stream's first version (1 when never pruned); no row once it was deleted. */
  readonly firstVersion: BetterSqlite3.Statement<[number], unknown>;
  readonly insertStream: BetterSqlite3.Statement<[string, string, number, number]>;
  readonly setVersion: BetterSqlite3.Statement<[number, number, number]>;
  readonly insertAction: BetterSqlite3.Statement<[number, number, string]>;
  readonly page: BetterSqlite3.Statement<[number, number, number, number], VersionRow>;
  readonly versions: BetterSqlite3.Statement<[number, number, number, number], VersionOnly>;
  readonly snapshotAtOrBelow: BetterSqlite3.Statement<[number, number], VersionRow>;
  readonly insertSnapshot: BetterSqlite3.Statement<[number, number, string]>;
  readonly list: BetterSqlite3.Statement<[], ListRow>;
  readonly deleteStream: BetterSqlite3.Statement<[number]>;
  readonly deleteActions: BetterSqlite3.Statement<[number]>;
  readonly deleteSnapshots: BetterSqlite3.Statement<[number]>;
}

/** The head columns of `event_streams s` (min and max use the primary key: no scan). */
const HEAD = `s.id AS id, s.config AS config, s.created_at AS created_at, s.version AS recorded,
  s.gap_from AS gap_from, s.updated_at AS updated_at, s.first_version AS first_version,
  (SELECT min(a.version) FROM event_actions a WHERE a.stream = s.id) AS min,
  (SELECT max(a.version) FROM event_actions a WHERE a.stream = s.id) AS max`;

/**
 * Prepares every statement once per connection.
 *
 * @example
 * ```ts
 * const sql = prepareEventStatements(db);
 * ```
 */
export const prepareEventStatements = (db: BetterSqlite3.Database): EventStatements => ({
  selectHead: db.prepare(`SELECT ${HEAD} FROM event_streams s WHERE s.stream = ?`),
  firstVersion: db
    .prepare<[number], unknown>('SELECT coalesce(first_version, 1) FROM event_streams WHERE id = ?')
    .pluck(),
  insertStream: db.prepare(
    'INSERT INTO event_streams (stream, config, created_at, updated_at, version) VALUES (?, ?, ?, ?, 0)',
  ),
  // An append has checked the whole stream: any gap recorded before was filled since.
  setVersion: db.prepare(
    'UPDATE event_streams SET version = ?, updated_at = ?, gap_from = NULL WHERE id = ?',
  ),
  insertAction: db.prepare('INSERT INTO event_actions (stream, version, action) VALUES (?, ?, ?)'),
  page: db.prepare(
    'SELECT version, action AS payload FROM event_actions WHERE stream = ? AND version >= ? AND version <= ? ORDER BY version LIMIT ?',
  ),
  versions: db.prepare(
    'SELECT version FROM event_actions WHERE stream = ? AND version >= ? AND version <= ? ORDER BY version LIMIT ?',
  ),
  snapshotAtOrBelow: db.prepare(
    'SELECT version, state AS payload FROM event_snapshots WHERE stream = ? AND version <= ? ORDER BY version DESC LIMIT 1',
  ),
  insertSnapshot: db.prepare(
    'INSERT OR REPLACE INTO event_snapshots (stream, version, state) VALUES (?, ?, ?)',
  ),
  list: db.prepare(`SELECT s.stream AS stream, ${HEAD} FROM event_streams s`),
  deleteStream: db.prepare('DELETE FROM event_streams WHERE id = ?'),
  deleteActions: db.prepare('DELETE FROM event_actions WHERE stream = ?'),
  deleteSnapshots: db.prepare('DELETE FROM event_snapshots WHERE stream = ?'),
});
