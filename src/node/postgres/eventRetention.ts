import type { PostgresConnection } from './connection';
import { BATCH_LIMIT, removeInBatches } from './retentionBatches';
import { expiredSql, inNamespaceSql, namespaceRange } from './retentionSql';

/**
 * The event store's `sweep` and `deleteNamespace`, in batches of at most `SWEEP_BATCH` rows, each
 * its own transaction. A stream is taken away whole first: its row is deleted and its id listed
 * in `event_removals` in one statement, so from then on nothing of it is reachable (every read
 * goes through the row; a new stream under the key gets a new id). Then its actions and
 * snapshots are removed, a batch at a time, and its id last. A removal cut short (a lost
 * connection, a crash) is finished by the next `sweep` or `deleteNamespace`.
 */

/**
 * The retention statements of the event store in the quoted schema `s`, made once per store.
 *
 * @example
 * ```ts
 * const retention = eventRetentionStatements('"conversation_memory"');
 * ```
 */
export const eventRetentionStatements = (s: string) => {
  /** Deletes the `picked` streams' rows and lists their ids; `$last` the last key picked. */
  const takeAway = `gone AS (DELETE FROM ${s}.event_streams AS h USING picked WHERE h.id = picked.id RETURNING h.id),
      queued AS (INSERT INTO ${s}.event_removals (stream) SELECT id FROM gone ON CONFLICT DO NOTHING)
    SELECT (SELECT count(*) FROM picked) AS picked, (SELECT count(*) FROM gone) AS removed,
      (SELECT max(stream_key) FROM picked) AS last`;
  /** Up to a batch of the rows of `table` that belong to a stream listed for removal, removed. */
  const drain = (table: string) => `WITH picked AS (
      SELECT x.stream, x.version FROM ${s}.event_removals AS r JOIN ${s}.${table} AS x ON x.stream = r.stream
      LIMIT ${BATCH_LIMIT}),
    gone AS (DELETE FROM ${s}.${table} AS x USING picked WHERE x.stream = picked.stream AND x.version = picked.version)
    SELECT (SELECT count(*) FROM picked) AS picked, 0 AS removed`;
  return Object.freeze({
    /**
     * Up to a batch of expired streams after key `$3` (`NULL`: from the first), in key order,
     * taken away: `$1` now, `$2` TTL. Streams an append holds are passed over.
     */
    sweep: `WITH picked AS (
        SELECT id, stream_key FROM ${s}.event_streams AS h
        WHERE ($3::text IS NULL OR h.stream_key > $3::text) AND ${expiredSql('$1', '$2', 'h')}
        ORDER BY h.stream_key LIMIT ${BATCH_LIMIT} FOR UPDATE SKIP LOCKED),
      ${takeAway}`,
    /** Up to a batch of the streams of the namespace whose key range is `$1`–`$2`, taken away. */
    deleteNamespace: `WITH picked AS (
        SELECT id, stream_key FROM ${s}.event_streams WHERE ${inNamespaceSql('stream_key', '$1', '$2')}
        ORDER BY stream_key LIMIT ${BATCH_LIMIT} FOR UPDATE),
      ${takeAway}`,
    drainActions: drain('event_actions'),
    drainSnapshots: drain('event_snapshots'),
    /** Up to a batch of listed ids with nothing left, unlisted. */
    drainIds: `WITH picked AS (
        SELECT r.stream FROM ${s}.event_removals AS r
        WHERE NOT EXISTS (SELECT 1 FROM ${s}.event_actions AS a WHERE a.stream = r.stream)
          AND NOT EXISTS (SELECT 1 FROM ${s}.event_snapshots AS n WHERE n.stream = r.stream)
        LIMIT ${BATCH_LIMIT}),
      gone AS (DELETE FROM ${s}.event_removals AS r USING picked WHERE r.stream = picked.stream)
      SELECT (SELECT count(*) FROM picked) AS picked, 0 AS removed`,
  });
};

/**
 * The statements of one store (see {@link eventRetentionStatements}).
 *
 * @example
 * ```ts
 * const sql: EventRetentionStatements = eventRetentionStatements('"app"');
 * ```
 */
export type EventRetentionStatements = ReturnType<typeof eventRetentionStatements>;

/** Removes the actions and snapshots of every stream listed in `event_removals`, then the ids. */
const drainRemovals = async (
  connection: PostgresConnection,
  sql: EventRetentionStatements,
  api: string,
): Promise<void> => {
  for (const text of [sql.drainActions, sql.drainSnapshots, sql.drainIds]) {
    await removeInBatches(connection, api, text, () => []);
  }
};

/**
 * Takes away the expired streams (`ttl` seconds after their last append, by `now`), then removes
 * what is left of every stream taken away (this sweep's and any earlier removal cut short), a batch
 * a transaction; resolves to how many streams this sweep took away (none without a TTL: the table
 * keeps no expiry of its own).
 *
 * @example
 * ```ts
 * await sweepStreams(connection, sql, 'PostgresEventStore.sweep', 86_400, Date.now() / 1000); // 2
 * ```
 */
export const sweepStreams = async (
  connection: PostgresConnection,
  sql: EventRetentionStatements,
  api: string,
  ttl: number | undefined,
  now: number,
): Promise<number> => {
  const removed =
    ttl === undefined
      ? 0
      : await removeInBatches(connection, api, sql.sweep, (last) => [now, ttl, last]);
  await drainRemovals(connection, sql, api);
  return removed;
};

/**
 * Takes away every stream of `namespace` (expired and damaged ones too), then removes their
 * actions and snapshots, a batch a transaction; resolves to how many streams.
 *
 * @example
 * ```ts
 * await deleteStreamNamespace(connection, sql, 'PostgresEventStore.deleteNamespace', 'tenant-42'); // 7
 * ```
 */
export const deleteStreamNamespace = async (
  connection: PostgresConnection,
  sql: EventRetentionStatements,
  api: string,
  namespace: string,
): Promise<number> => {
  const range = namespaceRange(namespace);
  const removed = await removeInBatches(connection, api, sql.deleteNamespace, () => range);
  await drainRemovals(connection, sql, api);
  return removed;
};
