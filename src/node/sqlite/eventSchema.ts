import type BetterSqlite3 from 'better-sqlite3';

/**
 * The event store's tables, beside (never inside) the session store's, so one file can hold both:
 * `event_streams` gives each stream an id that is never reused (a stream deleted and created
 * again is another stream to a reader that was paging through the old one) and holds its config
 * and its version (the number of actions its appends wrote, so an action deleted at the end or
 * added beyond it is noticed; `NULL` in a stream created by an earlier version of this library);
 * `event_actions` holds one row per action, its primary key `(stream, version)` making a second
 * action at a version impossible; `event_snapshots` holds the state's envelope every K actions.
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS event_streams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    created_at REAL NOT NULL,
    version INTEGER
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

const NAMES = ['event_streams', 'event_actions', 'event_snapshots'];

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

const hasVersion = (db: BetterSqlite3.Database): boolean =>
  db
    .prepare<[], string>("SELECT name FROM pragma_table_info('event_streams')")
    .pluck()
    .all()
    .includes('version');

/**
 * Prepares a database for the event store: WAL mode, full sync on commit, and its three tables
 * (created in one `BEGIN IMMEDIATE` transaction when one is missing, so processes opening a new
 * file at once do not trip over each other). A file of an earlier version gets the `version`
 * column of `event_streams`, filled from its actions, in the same transaction.
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
  const present = new Set(
    db
      .prepare<[], string>("SELECT name FROM main.sqlite_master WHERE type = 'table'")
      .pluck()
      .all(),
  );
  if (NAMES.every((name) => present.has(name)) && hasVersion(db)) return;
  db.transaction(() => {
    for (const ddl of TABLES) db.exec(ddl);
    if (!hasVersion(db)) for (const sql of VERSION_COLUMN) db.exec(sql);
  }).immediate();
};
