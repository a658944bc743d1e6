import type { PostgresConnection } from './connection';
import { BATCH_LIMIT, removeInBatches } from './retentionBatches';
import { expiredSql, inNamespaceSql, namespaceRange } from './retentionSql';

/**
 * `sweep` and `deleteNamespace` of the stores with one row per record (sessions, knowledge):
 * batch statements of at most `SWEEP_BATCH` rows each (see `removeInBatches`), each its own
 * transaction. A record is one row, so each is removed whole or not at all.
 */

/**
 * The table of a store's records: its name, its key column (the kit's storage key, `COLLATE
 * "C"`), and the table its damaged rows are set aside in, with its key column.
 *
 * @example
 * ```ts
 * const table: RecordTable = { table: 'sessions', key: 'session_key', aside: 'sessions_corrupt' };
 * ```
 */
export interface RecordTable {
  readonly table: string;
  readonly key: string;
  readonly aside: string;
}

/**
 * The retention statements of `table` in the quoted schema `s`, made once per store.
 *
 * @example
 * ```ts
 * const retention = rowRetentionStatements('"conversation_memory"', { table: 'knowledge', key: 'record_key', aside: 'knowledge_corrupt' });
 * ```
 */
export const rowRetentionStatements = (s: string, { table, key, aside }: RecordTable) =>
  Object.freeze({
    /**
     * Up to a batch of expired rows after key `$3` (`NULL`: from the first), in key order,
     * removed (damaged ones too, nothing set aside): `$1` now, `$2` TTL. Rows a save holds are
     * passed over (they are being written again).
     */
    sweep: `WITH picked AS (
        SELECT ${key} FROM ${s}.${table} AS t
        WHERE ($3::text IS NULL OR t.${key} > $3::text) AND ${expiredSql('$1', '$2', 't')}
        ORDER BY t.${key} LIMIT ${BATCH_LIMIT} FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM ${s}.${table} AS t USING picked WHERE t.${key} = picked.${key} RETURNING 1)
      SELECT (SELECT count(*) FROM picked) AS picked, (SELECT count(*) FROM gone) AS removed,
        (SELECT max(${key}) FROM picked) AS last`,
    /** Up to a batch of the rows of the namespace whose key range is `$1`–`$2`, removed. */
    deleteNamespace: `WITH picked AS (
        SELECT ${key} FROM ${s}.${table} WHERE ${inNamespaceSql(key, '$1', '$2')}
        ORDER BY ${key} LIMIT ${BATCH_LIMIT} FOR UPDATE),
      gone AS (DELETE FROM ${s}.${table} AS t USING picked WHERE t.${key} = picked.${key} RETURNING 1)
      SELECT (SELECT count(*) FROM picked) AS picked, (SELECT count(*) FROM gone) AS removed`,
    /** Up to a batch of the namespace's copies set aside (key range `$1`–`$2`), removed. */
    deleteAside: `WITH picked AS (
        SELECT aside_id FROM ${s}.${aside} WHERE ${inNamespaceSql(key, '$1', '$2')}
        LIMIT ${BATCH_LIMIT}),
      gone AS (DELETE FROM ${s}.${aside} AS c USING picked WHERE c.aside_id = picked.aside_id RETURNING 1)
      SELECT (SELECT count(*) FROM picked) AS picked, 0 AS removed`,
  });

/**
 * The statements of one store (see {@link rowRetentionStatements}).
 *
 * @example
 * ```ts
 * const sql: RowRetentionStatements = rowRetentionStatements('"app"', table);
 * ```
 */
export type RowRetentionStatements = ReturnType<typeof rowRetentionStatements>;

/**
 * Removes the expired records (`ttl` seconds after their last save, by `now`), a batch a
 * transaction; resolves to how many. Nothing without a TTL: the tables keep no expiry of their
 * own, so rows saved under an earlier configuration's TTL stay until a store with a TTL sweeps.
 *
 * @example
 * ```ts
 * await sweepRows(connection, sql, 'PostgresSessionStore.sweep', 86_400, Date.now() / 1000); // 3
 * ```
 */
export const sweepRows = async (
  connection: PostgresConnection,
  sql: RowRetentionStatements,
  api: string,
  ttl: number | undefined,
  now: number,
): Promise<number> => {
  if (ttl === undefined) return 0;
  return removeInBatches(connection, api, sql.sweep, (last) => [now, ttl, last]);
};

/**
 * Removes every record of `namespace` (expired and damaged ones too), then the copies of its
 * records set aside, a batch a transaction; resolves to how many records.
 *
 * @example
 * ```ts
 * await deleteRowNamespace(connection, sql, 'PostgresSessionStore.deleteNamespace', 'tenant-42'); // 12
 * ```
 */
export const deleteRowNamespace = async (
  connection: PostgresConnection,
  sql: RowRetentionStatements,
  api: string,
  namespace: string,
): Promise<number> => {
  const range = namespaceRange(namespace);
  const removed = await removeInBatches(connection, api, sql.deleteNamespace, () => range);
  await removeInBatches(connection, api, sql.deleteAside, () => range);
  return removed;
};
