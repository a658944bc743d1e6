import {
  MemoryArgumentError,
  type SessionStoreOptions,
  type StoreExpiryOptions,
} from 'conversation-memory';
import {
  describeValue,
  readOptionFields,
  sessionClockOf,
  sessionTtlOf,
  snapshotEveryOf,
} from 'conversation-memory/store-kit';

/** How long a call waits for another connection's write lock, by default (milliseconds). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/**
 * The options of the SQLite stores (`SqliteSessionStore`, `SqliteEventStore`,
 * `SqliteKnowledgeStore`): each store's options type, and the one reader each constructor calls,
 * which reads the options once (through the kit's `readOptionFields`, refusing a misspelled key)
 * and checks them before anything is opened.
 */

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
      `options.lockTimeoutMs must be a number of milliseconds ≥ 0, received ${describeValue(lockTimeoutMs)}`,
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
 * const settings: SessionStoreSettings = readSessionStoreOptions({ path: 'sessions.db' }, 'SqliteSessionStore');
 * ```
 */
export interface SessionStoreSettings {
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
 * readSessionStoreOptions({ path: 'sessions.db', defaultTtl: 60 }, 'SqliteSessionStore').ttl; // 60
 * ```
 */
export const readSessionStoreOptions = (options: unknown, api: string): SessionStoreSettings => {
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

/** The misspellings of the expiry options, with the option each one means. */
const EXPIRY_HINTS = { ttl: 'defaultTtl', default_ttl: 'defaultTtl' } as const;

/**
 * The expiry options of a store (`defaultTtl` and `now`), checked: the TTL in seconds
 * (`undefined`: records live forever) and the clock in Unix seconds.
 *
 * @example
 * ```ts
 * const expiry: StoreExpiry = { ttl: 86_400, now: () => Date.now() / 1000 };
 * ```
 */
export interface StoreExpiry {
  readonly ttl: number | undefined;
  readonly now: () => number;
}

/**
 * Options of `SqliteEventStore`: the file, the distance between snapshots, the lock wait, and
 * `defaultTtl`/`now` (a stream expires `defaultTtl` seconds after its last append).
 *
 * @example
 * ```ts
 * const options: SqliteEventStoreOptions = { path: 'events.db', snapshotEvery: 128, defaultTtl: 2_592_000 };
 * ```
 */
export interface SqliteEventStoreOptions extends StoreExpiryOptions {
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
): { path: string; snapshotEvery: number; lockTimeoutMs: number; expiry: StoreExpiry } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(api, "options must be an object such as { path: 'events.db' }");
  }
  // Read once, before the file is opened: options that cannot be read create nothing.
  const { path, snapshotEvery, lockTimeoutMs, defaultTtl, now } = readOptionFields(
    options,
    ['path', 'snapshotEvery', 'lockTimeoutMs', 'defaultTtl', 'now'],
    api,
    { hints: { filename: 'path', file: 'path', ...EXPIRY_HINTS } },
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
    expiry: { ttl: sessionTtlOf(defaultTtl, api), now: sessionClockOf(now, api) },
  };
};

/**
 * Options of `SqliteKnowledgeStore`: the database file (`':memory:'` for a private one), how
 * long a write waits for another connection's lock, in milliseconds (default 10,000), and
 * `defaultTtl`/`now` (a record expires `defaultTtl` seconds after its last save).
 *
 * @example
 * ```ts
 * const options: SqliteKnowledgeStoreOptions = { path: 'knowledge.db', lockTimeoutMs: 5000, defaultTtl: 2_592_000 };
 * ```
 */
export interface SqliteKnowledgeStoreOptions extends StoreExpiryOptions {
  readonly path: string;
  readonly lockTimeoutMs?: number | undefined;
}

/**
 * The options of `SqliteKnowledgeStore`, checked, with their defaults.
 *
 * @example
 * ```ts
 * readKnowledgeStoreOptions({ path: 'knowledge.db' }, 'SqliteKnowledgeStore').lockTimeoutMs; // 10000
 * ```
 */
export const readKnowledgeStoreOptions = (
  options: unknown,
  api: string,
): { path: string; lockTimeoutMs: number; expiry: StoreExpiry } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      "options must be an object such as { path: 'knowledge.db' }",
    );
  }
  // Read once, before the file is opened: options that cannot be read create nothing.
  const { path, lockTimeoutMs, defaultTtl, now } = readOptionFields(
    options,
    ['path', 'lockTimeoutMs', 'defaultTtl', 'now'],
    api,
    { hints: { filename: 'path', file: 'path', ...EXPIRY_HINTS } },
  );
  if (typeof path !== 'string' || path === '') {
    throw new MemoryArgumentError(
      api,
      `options.path must be the database file's path, received ${describeValue(path)}`,
    );
  }
  return {
    path,
    lockTimeoutMs: lockTimeoutOf(lockTimeoutMs, api),
    expiry: { ttl: sessionTtlOf(defaultTtl, api), now: sessionClockOf(now, api) },
  };
};
