import type BetterSqlite3 from 'better-sqlite3';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { rethrowBusy, retryWhileBusy } from './busyRetry';
import type { KnowledgeStatements } from './knowledgeStatements';
import type { StoreExpiry } from './options';
import { betweenBatches, expiryBound, prefixRange } from './retentionBatches';

/**
 * What the knowledge store's `sweep` and `deleteNamespace` work with: its connection and
 * statements, its TTL and expiry rule, its lock wait, and the call's `stillOpen`.
 *
 * @example
 * ```ts
 * const removed = await sweepKnowledge({ db, sql, expiry, expired, lockTimeoutMs, stillOpen });
 * ```
 */
export interface KnowledgeRetention {
  readonly db: BetterSqlite3.Database;
  readonly sql: KnowledgeStatements;
  readonly expiry: StoreExpiry;
  /** Whether a row saved at `updatedAt` has expired at `now` (the store's rule). */
  readonly expired: (updatedAt: unknown, now: number) => boolean;
  readonly lockTimeoutMs: number;
  readonly stillOpen: () => void;
}

const inTransaction = <T>(
  retention: KnowledgeRetention,
  kind: 'immediate' | 'deferred',
  step: () => T,
): Promise<T> => {
  const transaction = retention.db.transaction(step);
  return retryWhileBusy(
    () => transaction[kind](),
    retention.lockTimeoutMs,
    rethrowBusy,
    retention.stillOpen,
  );
};

/**
 * The knowledge store's `sweep`: finds the records expired at its start a page at a time (read
 * transactions, which block no writer) and removes each page's records that are still expired
 * (checked again in the write: a record saved meanwhile stays), damaged or not, nothing set
 * aside, `SWEEP_BATCH` records a write transaction. Nothing without a TTL.
 *
 * @returns how many records it removed
 * @example
 * ```ts
 * const removed = await sweepKnowledge(retention);
 * ```
 */
export const sweepKnowledge = async (retention: KnowledgeRetention): Promise<number> => {
  const { sql, expiry } = retention;
  if (expiry.ttl === undefined) return 0;
  const now = expiry.now();
  const bound = expiryBound(now, expiry.ttl);
  let removed = 0;
  for (let after: string | null = null; ;) {
    const from = after;
    const page = await inTransaction(retention, 'deferred', () =>
      sql.expiredAfter.all(from, from, bound, SWEEP_BATCH),
    );
    // Others get their turn before the page is removed: each record is checked again there.
    await betweenBatches(retention.stillOpen);
    removed += await inTransaction(retention, 'immediate', () => {
      let gone = 0;
      for (const key of page) {
        const row = sql.select.get(key);
        if (row === undefined || !retention.expired(row.updated_at, now)) continue;
        sql.remove.run(key);
        gone++;
      }
      return gone;
    });
    if (page.length < SWEEP_BATCH) return removed;
    after = page[page.length - 1] as string;
    await betweenBatches(retention.stillOpen);
  }
};

/**
 * The knowledge store's `deleteNamespace`: every record whose key starts with `prefix` (the
 * namespace's: see `namespaceKeys`), expired or damaged alike, `SWEEP_BATCH` a write transaction,
 * each batch read by key range inside its write (a save racing it lands before its record is
 * removed, and is removed with it, or finds none: a revision check then fails, and a save
 * expecting none starts anew); then the copies set aside from its records.
 *
 * @returns how many records it removed
 * @example
 * ```ts
 * const removed = await deleteKnowledgeNamespace(retention, namespaceKeys('tenant-42').prefix);
 * ```
 */
export const deleteKnowledgeNamespace = async (
  retention: KnowledgeRetention,
  prefix: string,
): Promise<number> => {
  const { sql } = retention;
  const { lower, upper } = prefixRange(prefix);
  let removed = 0;
  for (let after: string | null = null; ;) {
    const from = after;
    const page = await inTransaction(retention, 'immediate', () => {
      const keys = sql.keysBetween.all(lower, upper, from, from, SWEEP_BATCH);
      for (const key of keys) sql.remove.run(key);
      return keys;
    });
    removed += page.length;
    if (page.length < SWEEP_BATCH) break;
    after = page[page.length - 1] as string;
    await betweenBatches(retention.stillOpen);
  }
  for (let after = 0; ;) {
    const page = await inTransaction(retention, 'deferred', () =>
      sql.asideAfter.all(after, SWEEP_BATCH),
    );
    const doomed = page.filter((row) => typeof row.key === 'string' && row.key.startsWith(prefix));
    if (doomed.length > 0) {
      await inTransaction(retention, 'immediate', () => {
        for (const { id } of doomed) sql.deleteAside.run(id);
      });
    }
    if (page.length < SWEEP_BATCH) return removed;
    after = (page[page.length - 1] as { id: number }).id;
    await betweenBatches(retention.stillOpen);
  }
};
