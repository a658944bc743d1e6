import type BetterSqlite3 from 'better-sqlite3';
import { namesOf } from './schema';

/**
 * The event store's tables (streams, actions, snapshots, the queue of removed streams) and the
 * triggers that record gaps, created on first use; a file of an earlier version gets the columns
 * it lacks, in the same `BEGIN IMMEDIATE` transaction.
 */

/**
 * The ids of streams whose row is gone (deleted by `deleteNamespace` or `sweep`, or an expired
 * stream replaced by a new append) but whose actions and snapshots are still being removed, in
 * bounded batches: the row's removal and the id's entry here are one transaction, so the stream
 * vanishes at once for every reader (its id is never reused, so nothing reaches its rows again)
 * and a removal cut short by a crash is finished by the next `sweep`.
 */
const REMOVALS_TABLE = 'CREATE TABLE IF NOT EXISTS event_removals (stream INTEGER PRIMARY KEY)';

/**
 * The event store's tables, beside (never inside) the session store's, so one file can hold both:
 * `event_streams` gives each stream an id that is never reused (a stream deleted and created
 * again is another stream to a reader that was paging through the old one) and holds its config,
 * its version (the number of actions its appends wrote, so an action deleted at the end or
 * added beyond it is noticed; `NULL` in a stream created by an earlier version of this library),
 * `gap_from` (see {@link GAP_TRIGGERS}), `updated_at` (the time of its last append, Unix seconds
 * by the store's clock: `defaultTtl` runs from it) and `first_version` (`NULL` until a prune
 * removed the actions below it: see `pruneStream`); `event_actions` holds one row per action, its primary
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
    gap_from INTEGER,
    updated_at REAL,
    first_version INTEGER
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
  REMOVALS_TABLE,
];

const EVENT_NAMES = ['event_streams', 'event_actions', 'event_snapshots', 'event_removals'];

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

/**
 * The columns of retention added to an `event_streams` table without them: `first_version`
 * (`NULL`: never pruned) and `updated_at`, set for the streams already there to the time the file
 * is opened by this version (their last append is not known; the TTL runs from then, so a stream
 * is never removed earlier than the TTL says).
 */
const RETENTION_COLUMNS = [
  'ALTER TABLE event_streams ADD COLUMN updated_at REAL',
  'ALTER TABLE event_streams ADD COLUMN first_version INTEGER',
  'UPDATE event_streams SET updated_at = ? WHERE updated_at IS NULL',
];

const columnsOf = (db: BetterSqlite3.Database): string[] =>
  db.prepare<[], string>("SELECT name FROM pragma_table_info('event_streams')").pluck().all();

const hasVersion = (db: BetterSqlite3.Database): boolean => columnsOf(db).includes('version');

const hasGapColumn = (db: BetterSqlite3.Database): boolean => columnsOf(db).includes('gap_from');

const hasRetentionColumns = (db: BetterSqlite3.Database): boolean =>
  columnsOf(db).includes('first_version');

/**
 * Prepares a database for the event store: WAL mode, full sync on commit, its four tables and
 * the triggers that record gaps (created in one `BEGIN IMMEDIATE` transaction when one is
 * missing, so processes opening a new file at once do not trip over each other). A file of an
 * earlier version gets the `version` column of `event_streams`, filled from its actions, the
 * `gap_from` column, set where its actions already have a gap, and the retention columns
 * (`updated_at` set to `now`, `first_version` empty), in the same transaction.
 *
 * @param db - an open connection (its busy timeout bounds the wait for the write lock)
 * @param now - the store's clock (Unix seconds), for the streams a file of an earlier version has
 * @example
 * ```ts
 * prepareEventSchema(new Database('events.db'), () => Date.now() / 1000);
 * ```
 */
export const prepareEventSchema = (db: BetterSqlite3.Database, now: () => number): void => {
  if (!db.memory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const complete = (): boolean => {
    const tables = namesOf(db, 'table');
    const triggers = namesOf(db, 'trigger');
    return (
      EVENT_NAMES.every((name) => tables.has(name)) &&
      TRIGGER_NAMES.every((name) => triggers.has(name)) &&
      hasVersion(db) &&
      hasGapColumn(db) &&
      hasRetentionColumns(db)
    );
  };
  if (complete()) return;
  db.transaction(() => {
    for (const ddl of EVENT_TABLES) db.exec(ddl);
    if (!hasVersion(db)) for (const sql of VERSION_COLUMN) db.exec(sql);
    if (!hasGapColumn(db)) for (const sql of GAP_COLUMN) db.exec(sql);
    if (!hasRetentionColumns(db)) {
      const [updatedAt, firstVersion, since] = RETENTION_COLUMNS as [string, string, string];
      db.exec(updatedAt);
      db.exec(firstVersion);
      db.prepare(since).run(now());
    }
    for (const ddl of GAP_TRIGGERS) db.exec(ddl);
  }).immediate();
};
