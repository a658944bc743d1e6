import type BetterSqlite3 from 'better-sqlite3';

type Statement<P extends unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

/**
 * A stream's row as the retention statements read it: its id, its key and the time of its last
 * append (columns unchecked).
 */
export interface StreamStamp {
  readonly id: number;
  readonly stream: unknown;
  readonly updated_at: unknown;
}

/**
 * The event store's statements for retention (expiry, `sweep`, `deleteNamespace`, `prune`):
 * retiring a stream (its row deleted and its id queued in `event_removals`, one transaction), the
 * bounded removal of a retired stream's actions and snapshots, the pages `sweep` and
 * `deleteNamespace` walk, and the cut `prune` makes. Every bound is a parameter.
 *
 * @example
 * ```ts
 * const sql = prepareEventRetentionStatements(db);
 * sql.retire.run(7);
 * sql.queueRemoval.run(7);
 * ```
 */
export interface EventRetentionStatements {
  readonly stampByKey: Statement<[string], StreamStamp>;
  readonly stampById: Statement<[number], StreamStamp>;
  readonly retire: Statement<[number]>;
  readonly queueRemoval: Statement<[number]>;
  readonly removals: Statement<[number], number>;
  readonly isStream: Statement<[number], number>;
  /** Removes at most a number of a retired stream's actions (`id, id, limit`). */
  readonly dropActions: Statement<[number, number, number]>;
  /** Removes at most a number of a retired stream's snapshots (`id, id, limit`). */
  readonly dropSnapshots: Statement<[number, number, number]>;
  /** Whether a retired stream still has actions or snapshots (`id, id`): 1 or 0. */
  readonly hasRows: Statement<[number, number], number>;
  readonly unqueue: Statement<[number]>;
  /** Streams whose `updated_at` is below a bound, by id after `id` (a prefilter: `sweep` checks each). */
  readonly expiredAfter: Statement<[number, number, number], StreamStamp>;
  /** Streams whose key is in `[lower, upper)` and after `last` (`NULL`: from `lower`), by key. */
  readonly keysBetween: Statement<
    [string, string, string | null, string | null, number],
    StreamStamp
  >;
  readonly cutActions: Statement<[number, number]>;
  readonly cutSnapshots: Statement<[number, number]>;
  readonly setFirst: Statement<[number, number | null, number]>;
}

/**
 * Prepares the retention statements on a connection whose event schema is ready.
 *
 * @example
 * ```ts
 * prepareEventSchema(db, now);
 * const retention = prepareEventRetentionStatements(db);
 * ```
 */
export const prepareEventRetentionStatements = (
  db: BetterSqlite3.Database,
): EventRetentionStatements => ({
  stampByKey: db.prepare('SELECT id, stream, updated_at FROM event_streams WHERE stream = ?'),
  stampById: db.prepare('SELECT id, stream, updated_at FROM event_streams WHERE id = ?'),
  retire: db.prepare('DELETE FROM event_streams WHERE id = ?'),
  queueRemoval: db.prepare('INSERT OR IGNORE INTO event_removals (stream) VALUES (?)'),
  removals: db
    .prepare<[number], number>('SELECT stream FROM event_removals ORDER BY stream LIMIT ?')
    .pluck(),
  isStream: db.prepare<[number], number>('SELECT 1 FROM event_streams WHERE id = ?').pluck(),
  dropActions: db.prepare(
    `DELETE FROM event_actions WHERE stream = ? AND version IN
       (SELECT version FROM event_actions WHERE stream = ? ORDER BY version LIMIT ?)`,
  ),
  dropSnapshots: db.prepare(
    `DELETE FROM event_snapshots WHERE stream = ? AND version IN
       (SELECT version FROM event_snapshots WHERE stream = ? ORDER BY version LIMIT ?)`,
  ),
  hasRows: db
    .prepare<[number, number], number>(
      `SELECT EXISTS (SELECT 1 FROM event_actions WHERE stream = ?)
           OR EXISTS (SELECT 1 FROM event_snapshots WHERE stream = ?)`,
    )
    .pluck(),
  unqueue: db.prepare('DELETE FROM event_removals WHERE stream = ?'),
  expiredAfter: db.prepare(
    `SELECT id, stream, updated_at FROM event_streams
     WHERE id > ? AND typeof(updated_at) IN ('integer', 'real') AND updated_at < ?
     ORDER BY id LIMIT ?`,
  ),
  keysBetween: db.prepare(
    `SELECT id, stream, updated_at FROM event_streams
     WHERE stream >= ? AND stream < ? AND (? IS NULL OR stream > ?)
     ORDER BY stream LIMIT ?`,
  ),
  cutActions: db.prepare('DELETE FROM event_actions WHERE stream = ? AND version < ?'),
  cutSnapshots: db.prepare('DELETE FROM event_snapshots WHERE stream = ? AND version < ?'),
  setFirst: db.prepare('UPDATE event_streams SET first_version = ?, gap_from = ? WHERE id = ?'),
});
