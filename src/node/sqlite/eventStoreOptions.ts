import { MemoryArgumentError } from 'conversation-memory';
import { snapshotEveryOf, readOptionFields } from 'conversation-memory/store-kit';
import { lockTimeoutOf } from './options';

/** How long an append waits for another connection's write lock, by default (milliseconds). */

/**
 * Options of `SqliteEventStore`.
 *
 * @example
 * ```ts
 * const options: SqliteEventStoreOptions = { path: 'events.db', snapshotEvery: 128 };
 * ```
 */
export interface SqliteEventStoreOptions {
  /** The database file (created when missing; it may be the session store's file too). */
  readonly path: string;
  /** The distance between snapshots (default 256). */
  readonly snapshotEvery?: number | undefined;
  /**
   * How long an append waits for a write lock held by another connection before giving up, in
   * milliseconds (default 10,000); it then rejects with `EventConflictError`.
   */
  readonly lockTimeoutMs?: number | undefined;
}

/**
 * The options, checked, with their defaults.
 *
 * @example
 * ```ts
 * readEventStoreOptions({ path: 'events.db' }, 'SqliteEventStore').snapshotEvery; // 256
 * ```
 */
export const readEventStoreOptions = (
  options: unknown,
  api: string,
): { path: string; snapshotEvery: number; lockTimeoutMs: number } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(api, "options must be an object such as { path: 'events.db' }");
  }
  // Read once, before the file is opened: options that cannot be read create nothing.
  const { path, snapshotEvery, lockTimeoutMs } = readOptionFields(
    options,
    ['path', 'snapshotEvery', 'lockTimeoutMs'],
    api,
    { hints: { filename: 'path', file: 'path' } },
  );
  if (typeof path !== 'string' || path === '') {
    throw new MemoryArgumentError(
      api,
      `options.path must be the database file's path, received ${path === '' ? '""' : typeof path}`,
    );
  }
  return {
    path,
    snapshotEvery: snapshotEveryOf(snapshotEvery, api),
    lockTimeoutMs: lockTimeoutOf(lockTimeoutMs, api),
  };
};
