import { MemoryArgumentError, type SessionStoreOptions } from 'conversation-memory';
import { sessionClockOf, sessionTtlOf, readOptionFields } from 'conversation-memory/store-kit';

/** How long a call waits for another connection's write lock, by default (milliseconds). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/**
 * Reads a SQLite store's `lockTimeoutMs` (how long a write waits for the database lock):
 * `undefined` is 10,000; else a finite number ≥ 0. Shared by the session and event stores.
 *
 * @example
 * ```ts
 * lockTimeoutOf(undefined, 'SqliteSessionStore'); // 10000
 * ```
 */
export const lockTimeoutOf = (lockTimeoutMs: unknown, api: string): number => {
  if (lockTimeoutMs === undefined) return DEFAULT_LOCK_TIMEOUT_MS;
  if (typeof lockTimeoutMs !== 'number' || !Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0) {
    throw new MemoryArgumentError(
      api,
      `options.lockTimeoutMs must be a number of milliseconds ≥ 0, received ${String(lockTimeoutMs)}`,
    );
  }
  return lockTimeoutMs;
};

/**
 * Options of `SqliteSessionStore`.
 *
 * @example
 * ```ts
 * const options: SqliteSessionStoreOptions = { path: 'sessions.db', defaultTtl: 86_400 };
 * ```
 */
export interface SqliteSessionStoreOptions extends SessionStoreOptions {
  /** The database file (created when missing; a database written by the reference is used as it is). */
  readonly path: string;
  /**
   * `false` searches by scanning the rows (the reference's fallback, scored by term frequency)
   * even when this SQLite has FTS5. By default FTS5 is used when available, with the reference's
   * FTS scoring.
   */
  readonly fts?: boolean | undefined;
  /**
   * How long a call waits for a write lock held by another connection before giving up, in
   * milliseconds (default 10,000). A save that gives up rejects with `SessionConflictError`.
   */
  readonly lockTimeoutMs?: number | undefined;
}

/**
 * The options, checked, with their defaults.
 *
 * @example
 * ```ts
 * const settings: StoreSettings = readStoreOptions({ path: 'sessions.db' }, 'SqliteSessionStore');
 * ```
 */
export interface StoreSettings {
  readonly path: string;
  readonly ttl: number | undefined;
  readonly now: () => number;
  readonly fts: boolean;
  readonly lockTimeoutMs: number;
}

/**
 * Checks the store's options (a JavaScript caller may pass anything), naming the bad one.
 *
 * @param options - as given
 * @param api - the constructor's name, for the errors
 * @returns the settings
 * @throws MemoryArgumentError for a missing path, a TTL of 0 or less, a bad `fts`, `lockTimeoutMs`
 *   or `now`
 * @example
 * ```ts
 * readStoreOptions({ path: 'sessions.db', defaultTtl: 60 }, 'SqliteSessionStore').ttl; // 60
 * ```
 */
export const readStoreOptions = (options: unknown, api: string): StoreSettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(api, "options must be an object such as { path: 'sessions.db' }");
  }
  // A misspelled option would be ignored: `{ ttl: 60 }` would keep sessions forever.
  // Read once, before the file is opened: options that cannot be read create nothing.
  const { path, fts, lockTimeoutMs, defaultTtl, now } = readOptionFields(
    options,
    ['path', 'fts', 'lockTimeoutMs', 'defaultTtl', 'now'],
    api,
    { hints: { ttl: 'defaultTtl', default_ttl: 'defaultTtl', filename: 'path', file: 'path' } },
  );
  if (typeof path !== 'string' || path === '') {
    throw new MemoryArgumentError(
      api,
      `options.path must be the database file's path, received ${path === '' ? '""' : typeof path}`,
    );
  }
  if (fts !== undefined && typeof fts !== 'boolean') {
    throw new MemoryArgumentError(api, `options.fts must be a boolean, received ${typeof fts}`);
  }
  return {
    path,
    ttl: sessionTtlOf(defaultTtl, api),
    now: sessionClockOf(now, api),
    fts: fts !== false,
    lockTimeoutMs: lockTimeoutOf(lockTimeoutMs, api),
  };
};
