import type BetterSqlite3 from 'better-sqlite3';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { rethrowBusy, retryWhileBusy } from './busyRetry';
import type { EventRetentionStatements } from './eventRetentionStatements';
import { streamExpired } from './eventStreams';
import type { StoreExpiry } from './options';
import { betweenBatches, expiryBound, prefixRange } from './retentionBatches';

/**
 * What the event store's `sweep` and `deleteNamespace` work with: its connection, its retention
 * statements, its TTL and clock, its lock wait, and the call's `stillOpen`.
 *
 * @example
 * ```ts
 * const removed = await sweepStreams({ db, sql, expiry, lockTimeoutMs: 10_000, stillOpen });
 * ```
 */
export interface EventRetention {
  readonly db: BetterSqlite3.Database;
  readonly sql: EventRetentionStatements;
  readonly expiry: StoreExpiry;
  readonly lockTimeoutMs: number;
  readonly stillOpen: () => void;
}

/**
 * Retires a stream (inside a write transaction): its row is deleted and its id queued in
 * `event_removals`, together, so it is gone for every reader at once and its key is free for a
 * new stream (with a new id: none of the old rows is reachable from it). {@link drainRemovals}
 * removes its actions and snapshots later, in bounded batches.
 *
 * @example
 * ```ts
 * db.transaction(() => retireStream(sql, 7)).immediate();
 * ```
 */
export const retireStream = (sql: EventRetentionStatements, id: number): void => {
  sql.retire.run(id);
  sql.queueRemoval.run(id);
};

const write = <T>(retention: EventRetention, step: () => T): Promise<T> => {
  const transaction = retention.db.transaction(step);
  return retryWhileBusy(
    () => transaction.immediate(),
    retention.lockTimeoutMs,
    rethrowBusy,
    retention.stillOpen,
  );
};

const read = <T>(retention: EventRetention, step: () => T): Promise<T> => {
  const transaction = retention.db.transaction(step);
  return retryWhileBusy(
    () => transaction.deferred(),
    retention.lockTimeoutMs,
    rethrowBusy,
    retention.stillOpen,
  );
};

/**
 * Removes the actions and snapshots of every retired stream, at most `SWEEP_BATCH` rows a
 * transaction, and each stream's queue entry once nothing of it is left. An id whose stream row
 * is there (which no retirement leaves) only leaves the queue: a live stream's rows are never
 * touched.
 *
 * @example
 * ```ts
 * await drainRemovals(retention);
 * ```
 */
export const drainRemovals = async (retention: EventRetention): Promise<void> => {
  const { sql } = retention;
  for (;;) {
    const done = await write(retention, (): boolean => {
      let budget = SWEEP_BATCH;
      // One more id than rows: a batch that empties its last stream takes it off the queue too.
      const ids = sql.removals.all(SWEEP_BATCH + 1);
      for (const id of ids) {
        if (sql.isStream.get(id) === undefined) {
          budget -= sql.dropActions.run(id, id, budget).changes;
          if (budget > 0) budget -= sql.dropSnapshots.run(id, id, budget).changes;
          if (budget === 0 && sql.hasRows.get(id, id) === 1) return false;
        }
        sql.unqueue.run(id);
        if (budget === 0) return false;
      }
      return ids.length <= SWEEP_BATCH;
    });
    if (done) return;
    await betweenBatches(retention.stillOpen);
  }
};

/**
 * The event store's `sweep`: finds the expired streams a page at a time (in read transactions,
 * which block no writer), retires each page's streams that are still expired in one write
 * transaction, then removes their actions and snapshots (see {@link drainRemovals}; leftovers of
 * a removal cut short are finished too). Without a TTL nothing expires, but the leftovers are
 * still removed.
 *
 * @returns how many streams it retired
 * @example
 * ```ts
 * const removed = await sweepStreams(retention);
 * ```
 */
export const sweepStreams = async (retention: EventRetention): Promise<number> => {
  const { sql, expiry } = retention;
  let removed = 0;
  if (expiry.ttl !== undefined) {
    const now = expiry.now();
    const bound = expiryBound(now, expiry.ttl);
    for (let after = 0; ;) {
      const page = await read(retention, () => sql.expiredAfter.all(after, bound, SWEEP_BATCH));
      if (page.length === 0) break;
      // Others get their turn before the page is removed: each stream is checked again there.
      await betweenBatches(retention.stillOpen);
      removed += await write(retention, () => {
        let retired = 0;
        for (const { id } of page) {
          // Appended to since the page was read: live again.
          const row = sql.stampById.get(id);
          if (row === undefined || !streamExpired(row.updated_at, expiry, now)) continue;
          retireStream(sql, id);
          retired++;
        }
        return retired;
      });
      if (page.length < SWEEP_BATCH) break;
      after = (page[page.length - 1] as { id: number }).id;
      await betweenBatches(retention.stillOpen);
    }
  }
  await drainRemovals(retention);
  return removed;
};

/**
 * The event store's `deleteNamespace`: retires every stream whose key starts with `prefix` (the
 * namespace's, see `namespaceKeys`), expired, pruned or damaged alike, `SWEEP_BATCH` at a time in
 * key order, each batch read and retired in one write transaction (so an append racing it either
 * lands before its stream is retired, and is removed with it, or finds no stream), then removes
 * their actions and snapshots (see {@link drainRemovals}).
 *
 * @returns how many streams it retired
 * @example
 * ```ts
 * const removed = await deleteStreamNamespace(retention, namespaceKeys('tenant-42').prefix);
 * ```
 */
export const deleteStreamNamespace = async (
  retention: EventRetention,
  prefix: string,
): Promise<number> => {
  const { sql } = retention;
  const { lower, upper } = prefixRange(prefix);
  let removed = 0;
  for (let last: string | null = null; ;) {
    const after = last;
    const page = await write(retention, () => {
      const rows = sql.keysBetween.all(lower, upper, after, after, SWEEP_BATCH);
      for (const { id } of rows) retireStream(sql, id);
      return rows;
    });
    removed += page.length;
    if (page.length < SWEEP_BATCH) break;
    last = (page[page.length - 1] as { stream: string }).stream;
    await betweenBatches(retention.stillOpen);
  }
  await drainRemovals(retention);
  return removed;
};
