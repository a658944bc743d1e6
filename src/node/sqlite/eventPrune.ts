import {
  checkPruneBefore,
  encodeSnapshotJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import type { EventRetentionStatements } from './eventRetentionStatements';
import { stateAt } from './eventSnapshots';
import type { EventStatements } from './eventStatements';
import type { SqliteEventStreams } from './eventStreams';

/**
 * One prune (call it inside a `BEGIN IMMEDIATE` transaction, which holds the stream for the whole
 * prune: no append, delete or re-creation can come between its read and its write). The state at
 * `before` (computed as `load({ atVersion: before })` computes it, refusing a damaged stream) is
 * written as a snapshot at `before` first; then the actions and snapshots below `before` are
 * removed and the stream records `before` as its first version. The removal records no gap (the
 * gap triggers' mark, which it sets, is put back as it was, or to `before` when a gap was
 * recorded below it). The transaction commits all of it or none.
 *
 * @param streams - the store's stream reads
 * @param sql - the store's prepared statements
 * @param retention - the store's retention statements
 * @param api - the calling method, for errors
 * @param where - the stream's key and `before`, checked by `pruneOptionsOf`
 * @returns how many actions it removed (0 when `before` is at or below the first version)
 * @throws MemoryArgumentError for an absent or expired stream, or `before` past its version
 *   (`checkPruneBefore`); EventCorruptError for a stream whose actions below `before` do not
 *   replay
 * @example
 * ```ts
 * const prune = db.transaction(() => pruneStream(streams, sql, retention, api, { key: 'u1:s1', before: 100 }));
 * const removed = prune.immediate(); // 99
 * ```
 */
export const pruneStream = (
  streams: SqliteEventStreams,
  sql: EventStatements,
  retention: EventRetentionStatements,
  api: string,
  where: { readonly key: string; readonly before: number },
): number => {
  const { key, before } = where;
  const head = streams.head(api, key);
  checkPruneBefore(key, before, head?.version ?? 0, api);
  if (head === undefined || before <= head.first) return 0;
  streams.checkWhole(api, key, head, before);
  const config = readConfigJson(head.config, streams.at(api, key, 0));
  const state = stateAt(sql, streams.place(api, key, head.id), config, before);
  sql.insertSnapshot.run(
    head.id,
    before,
    encodeSnapshotJson(state, { stream: key, version: before, config }),
  );
  const removed = retention.cutActions.run(head.id, before).changes;
  retention.cutSnapshots.run(head.id, before);
  const gapFrom = head.gapFrom === undefined ? null : Math.max(head.gapFrom, before);
  retention.setFirst.run(before, gapFrom, head.id);
  return removed;
};
