import { EventPrunedError } from 'conversation-memory';
import { checkPruneBefore, encodeSnapshotJson } from 'conversation-memory/store-kit';
import type { PostgresConnection } from './connection';
import type { StreamReader } from './eventReader';

/**
 * The event store's `prune(streamId, { before })`: the state at `before` is computed in one
 * consistent read, then written as a snapshot at `before` and the actions and snapshots below it
 * removed in one transaction that holds the stream's row (`FOR UPDATE`) and checks it is still the
 * stream that was read (its never-reused id), live and not pruned as far already.
 */

/**
 * The prune's statements, for a quoted schema `s`, made once per store.
 *
 * @example
 * ```ts
 * const sql = pruneStatements('"conversation_memory"');
 * ```
 */
export const pruneStatements = (s: string) =>
  Object.freeze({
    /** The row of stream `$1`, held until the transaction ends. */
    hold: `SELECT id, first_version, updated_at FROM ${s}.event_streams WHERE stream_key = $1::text FOR UPDATE`,
    /** The snapshot at `$2` of stream id `$1`: `$3` its JSON. */
    snapshot: `INSERT INTO ${s}.event_snapshots (stream, version, snapshot_json) VALUES ($1::bigint, $2::bigint, $3::text)
      ON CONFLICT (stream, version) DO UPDATE SET snapshot_json = EXCLUDED.snapshot_json`,
    /** Stream id `$1` starts at version `$2` (before its actions below go: see the trigger). */
    cut: `UPDATE ${s}.event_streams SET first_version = $2::bigint WHERE id = $1::bigint`,
    /** Removes the actions of stream id `$1` below `$2`; returns how many. */
    dropActions: `WITH gone AS (DELETE FROM ${s}.event_actions WHERE stream = $1::bigint AND version < $2::bigint RETURNING 1)
      SELECT count(*) AS n FROM gone`,
    /** Removes the snapshots of stream id `$1` below `$2`. */
    dropSnapshots: `DELETE FROM ${s}.event_snapshots WHERE stream = $1::bigint AND version < $2::bigint`,
  });

/**
 * The statements of one store (see {@link pruneStatements}).
 *
 * @example
 * ```ts
 * const sql: PruneStatements = pruneStatements('"app"');
 * ```
 */
export type PruneStatements = ReturnType<typeof pruneStatements>;

/**
 * What a prune needs from its store: the connection, the statements, and its stream reader (the
 * live head, the state at a version as `load` computes it, and whether a row has expired).
 *
 * @example
 * ```ts
 * const context: PruneContext = { connection, sql: pruneStatements(schema), reader };
 * ```
 */
export interface PruneContext {
  readonly connection: PostgresConnection;
  readonly sql: PruneStatements;
  readonly reader: StreamReader;
}

/**
 * Prunes stream `key` before version `before` (see the module's note); resolves to how many
 * actions it removed (0 when the stream starts at `before` or later already).
 *
 * @throws MemoryArgumentError for an absent or expired stream, or `before` past its version
 *   (nothing changed); EventCorruptError for a stream that does not replay to `before`
 * @example
 * ```ts
 * await pruneStream(context, 'PostgresEventStore.prune', 'u1:s1', 1_000); // 999
 * ```
 */
export const pruneStream = async (
  context: PruneContext,
  api: string,
  key: string,
  before: number,
): Promise<number> => {
  const { reader, sql } = context;
  const head = await reader.head(reader.send(api), api, key);
  checkPruneBefore(key, before, head?.version ?? 0, api);
  if (head === undefined || before <= head.first) return 0;
  let found;
  try {
    found = await reader.loadAt(api, key, before);
  } catch (error) {
    // Pruned at or past `before` since the head was read: nothing is left to cut.
    if (error instanceof EventPrunedError && error.firstVersion >= before) return 0;
    throw error;
  }
  checkPruneBefore(key, before, found?.head.id === head.id ? found.head.version : 0, api);
  const { state, config } = found ?? {};
  if (state === undefined || config === undefined) return 0; // refused above
  const json = encodeSnapshotJson(state, { stream: key, version: before, config });
  return context.connection.transaction(api, true, async (send) => {
    const [row] = await send(sql.hold, [key]);
    // Deleted, expired, or deleted and made again since it was read: not this stream.
    if (row === undefined || row['id'] !== head.id || reader.expired(row['updated_at'])) {
      checkPruneBefore(key, before, 0, api);
    }
    if (before <= Number(row?.['first_version'])) return 0;
    await send(sql.snapshot, [head.id, before, json]);
    await send(sql.cut, [head.id, before]);
    const [dropped] = await send(sql.dropActions, [head.id, before]);
    await send(sql.dropSnapshots, [head.id, before]);
    return Number(dropped?.['n'] ?? 0);
  });
};
