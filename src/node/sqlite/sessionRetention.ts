import { isStorageKey, namespaceKeys, SWEEP_BATCH } from 'conversation-memory/store-kit';
import { rethrowBusy } from './busyRetry';
import { betweenBatches, expiryBound, prefixRange } from './retentionBatches';
import type { SessionDatabase } from './sessionDatabase';
import { rowAddressOf, shadowingKeyOf } from './sessionReferenceRows';

/**
 * The session store's `sweep` and `deleteNamespace`, in batches of at most `SWEEP_BATCH`
 * sessions a write transaction (pages are found in read transactions, which block no writer, or
 * by an indexed key range inside the write), with the event loop let run between two. A removed
 * session's row and its search-index entry go in one transaction; its FTS5 rows, which only a
 * full scan of the index finds (their key is not indexed), are removed after the sessions, in one
 * pass over the index that takes the rows of no session (search joins them to their session, so
 * they are never seen meanwhile; a session saved again under the key re-indexes over them).
 */

/** The store's TTL and expiry rule, as `sweep` reads them. */
export interface SessionExpiry {
  readonly ttl: number | undefined;
  readonly now: () => number;
  /** Whether a row updated at `updatedAt` has expired at `now` (the store's rule). */
  readonly expired: (updatedAt: unknown, now: number) => boolean;
}

/**
 * Whether removing the row of `key` removes a session as `list` counts them: every row but a
 * reference row whose pair has a row of ours (`list` shows that one; see `shadowingKeyOf`).
 */
const countsAsSession = (database: SessionDatabase, key: string): boolean => {
  if (isStorageKey(key)) return true;
  const shadowing = shadowingKeyOf(key);
  return shadowing === undefined || database.sql.selectMeta.get(shadowing) === undefined;
};

/** Removes one session's row and its index entry, copying nothing (call inside `write`). */
const removeRow = (database: SessionDatabase, key: string): void => {
  const { sql } = database;
  sql.deleteRow.run(key);
  sql.fts?.deleteIndexed.run(key);
  database.known.delete(key);
};

/**
 * Removes the FTS5 rows of no session whose key `matches` (every such row without a filter),
 * `SWEEP_BATCH` at a time, each checked again in the write (a session saved meanwhile keeps its
 * rows).
 */
const removeOrphanMessages = async (
  database: SessionDatabase,
  stillOpen: () => void,
  matches: (key: string) => boolean = () => true,
): Promise<void> => {
  const { sql, retention } = database;
  const fts = sql.fts;
  const orphans = retention.fts;
  if (fts === undefined || orphans === undefined) return;
  for (let after = 0; ;) {
    const page = await database.read(() => orphans.orphansAfter.all(after, SWEEP_BATCH), stillOpen);
    const doomed = page.filter((row) => typeof row.key === 'string' && matches(row.key));
    if (doomed.length > 0) {
      await database.write(
        () => {
          for (const { id, key } of doomed) {
            if (sql.selectMeta.get(key as string) === undefined) fts.deleteMessage.run(id);
          }
        },
        rethrowBusy,
        stillOpen,
      );
    }
    if (page.length < SWEEP_BATCH) return;
    after = (page[page.length - 1] as { id: number }).id;
    await betweenBatches(stillOpen);
  }
};

/**
 * The session store's `sweep`: every row expired at the sweep's start (the store's rule, checked
 * again in the write, so a session saved meanwhile stays), damaged or not, is removed with its
 * index, nothing copied aside; then the FTS5 rows left without a session. Nothing without a TTL.
 *
 * @returns how many sessions it removed
 * @example
 * ```ts
 * const removed = await sweepSessions(database, expiry, stillOpen);
 * ```
 */
export const sweepSessions = async (
  database: SessionDatabase,
  expiry: SessionExpiry,
  stillOpen: () => void,
): Promise<number> => {
  if (expiry.ttl === undefined) return 0;
  const { sql, retention } = database;
  const now = expiry.now();
  const bound = expiryBound(now, expiry.ttl);
  let removed = 0;
  for (let after: string | null = null; ;) {
    const from = after;
    const page = await database.read(
      () => retention.expiredAfter.all(from, from, bound, SWEEP_BATCH),
      stillOpen,
    );
    // Others get their turn before the page is removed: each row is checked again there.
    await betweenBatches(stillOpen);
    removed += await database.write(
      () => {
        let gone = 0;
        for (const key of page) {
          const row = sql.selectMeta.get(key);
          if (row === undefined || !expiry.expired(row.updated_at, now)) continue;
          if (countsAsSession(database, key)) gone++;
          removeRow(database, key);
        }
        return gone;
      },
      rethrowBusy,
      stillOpen,
    );
    if (page.length < SWEEP_BATCH) break;
    after = page[page.length - 1] as string;
    await betweenBatches(stillOpen);
  }
  if (removed > 0) await removeOrphanMessages(database, stillOpen);
  return removed;
};

/**
 * Whether a row's key is a session of `namespace` as `load` and `list` read it: a storage key of
 * the namespace, or a row the reference wrote for one of its pairs (see `rowAddressOf`).
 */
const belongsTo =
  (namespace: string) =>
  (key: string): boolean =>
    isStorageKey(key)
      ? namespaceKeys(namespace).includes(key)
      : rowAddressOf(key).namespace === namespace;

/**
 * The key ranges that hold a namespace's rows: its storage keys' (`a%3Ab:`), and the reference's
 * `ns:` when it differs (a namespace with `%`; a reference row there belongs to it only when
 * {@link belongsTo} says so). The reference's range first, so a reference row whose pair's row of
 * ours is still there is not counted twice.
 */
const rangesOf = (namespace: string): { lower: string; upper: string }[] => {
  const prefix = namespaceKeys(namespace).prefix;
  const reference = `${namespace}:`;
  return reference === prefix
    ? [prefixRange(prefix)]
    : [prefixRange(reference), prefixRange(prefix)];
};

/**
 * The session store's `deleteNamespace`: every row of the namespace (expired, damaged or from the
 * reference alike) with its index entry, `SWEEP_BATCH` rows a write transaction, each batch read
 * by key range inside its write (a save racing it lands before its row is removed, and is removed
 * with it, or finds no session: a revision check then fails, and a save expecting none starts
 * anew); then the copies set aside from its sessions (`sessions_corrupt`), its index entries and
 * FTS5 rows left without a session.
 *
 * @returns how many sessions it removed (a reference row and our row of one pair count once)
 * @example
 * ```ts
 * const removed = await deleteSessionNamespace(database, 'tenant-42', stillOpen);
 * ```
 */
export const deleteSessionNamespace = async (
  database: SessionDatabase,
  namespace: string,
  stillOpen: () => void,
): Promise<number> => {
  const { retention } = database;
  const matches = belongsTo(namespace);
  let removed = 0;
  for (const { lower, upper } of rangesOf(namespace)) {
    for (let after: string | null = null; ;) {
      const from = after;
      const page = await database.write(
        () => {
          const keys = retention.keysBetween.all(lower, upper, from, from, SWEEP_BATCH);
          for (const key of keys.filter(matches)) {
            if (countsAsSession(database, key)) removed++;
            removeRow(database, key);
          }
          return keys;
        },
        rethrowBusy,
        stillOpen,
      );
      if (page.length < SWEEP_BATCH) break;
      after = page[page.length - 1] as string;
      await betweenBatches(stillOpen);
    }
  }
  await removeAsideCopies(database, matches, stillOpen);
  await removeOrphanEntries(database, namespace, stillOpen);
  await removeOrphanMessages(database, stillOpen, matches);
  return removed;
};

/** Removes the set-aside copies whose key `matches`, `SWEEP_BATCH` read at a time. */
const removeAsideCopies = async (
  database: SessionDatabase,
  matches: (key: string) => boolean,
  stillOpen: () => void,
): Promise<void> => {
  const { retention } = database;
  for (let after = 0; ;) {
    const page = await database.read(() => retention.asideAfter.all(after, SWEEP_BATCH), stillOpen);
    const doomed = page.filter((row) => typeof row.key === 'string' && matches(row.key));
    if (doomed.length > 0) {
      await database.write(
        () => {
          for (const { id } of doomed) retention.deleteAside.run(id);
        },
        rethrowBusy,
        stillOpen,
      );
    }
    if (page.length < SWEEP_BATCH) return;
    after = (page[page.length - 1] as { id: number }).id;
    await betweenBatches(stillOpen);
  }
};

/** Removes the namespace's search-index entries of no session (left by another program). */
const removeOrphanEntries = async (
  database: SessionDatabase,
  namespace: string,
  stillOpen: () => void,
): Promise<void> => {
  const { sql, retention } = database;
  const orphans = retention.fts;
  const fts = sql.fts;
  if (orphans === undefined || fts === undefined) return;
  const matches = belongsTo(namespace);
  for (const { lower, upper } of rangesOf(namespace)) {
    for (let after: string | null = null; ;) {
      const from = after;
      const page = await database.write(
        () => {
          const keys = orphans.orphanEntries.all(lower, upper, from, from, SWEEP_BATCH);
          for (const key of keys.filter(matches)) fts.deleteIndexed.run(key);
          return keys;
        },
        rethrowBusy,
        stillOpen,
      );
      if (page.length < SWEEP_BATCH) break;
      after = page[page.length - 1] as string;
      await betweenBatches(stillOpen);
    }
  }
};
