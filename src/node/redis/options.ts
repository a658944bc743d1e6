import {
  MemoryArgumentError,
  type SessionStoreOptions,
  type StoreExpiryOptions,
} from 'conversation-memory';
import {
  readOptionFields,
  sessionClockOf,
  sessionTtlOf,
  snapshotEveryOf,
} from 'conversation-memory/store-kit';
import type { RedisClusterClient, RedisSessionClient } from './clients';
import {
  type RedisConnectionOptions,
  type RedisConnectionRead,
  readRedisConnectionOptions,
  REDIS_CONNECTION_OPTIONS,
} from './connectionOptions';

/**
 * The options of the Redis stores (`RedisSessionStore`, `RedisEventStore`, `RedisKnowledgeStore`):
 * each store's options type and default prefix, and the one reader each constructor calls, which
 * reads the options once (through the kit's `readOptionFields`, refusing a misspelled key) and
 * checks them with the connection's options (see `connectionOptions.ts`).
 */

/**
 * The default key prefix. Not the reference's `selectools:session:`: its layout (a string per
 * session and a `__meta__` key) differs from this store's hashes, and sharing a prefix would make
 * each library see the other's keys as damaged.
 *
 * @example
 * ```ts
 * DEFAULT_REDIS_SESSION_PREFIX; // 'conversation-memory:session:'
 * ```
 */
export const DEFAULT_REDIS_SESSION_PREFIX = 'conversation-memory:session:';

/**
 * Options of `RedisSessionStore`: the connection (see `RedisConnectionOptions`: one of
 * `url`, `cluster` or `client`; `prefix`, default `'conversation-memory:session:'`;
 * `commandTimeoutMs`; `minReplicas`), `defaultTtl` in seconds (sliding) and `now` (the clock,
 * Unix seconds).
 *
 * @example
 * ```ts
 * const options: RedisSessionStoreOptions = { url: 'redis://localhost:6379/0', defaultTtl: 86_400 };
 * ```
 */
export interface RedisSessionStoreOptions extends SessionStoreOptions, RedisConnectionOptions {}

/**
 * The options read and checked once.
 *
 * @example
 * ```ts
 * readSessionStoreOptions({ url: 'redis://localhost:6379' }, 'RedisSessionStore').prefix; // 'conversation-memory:session:'
 * ```
 */
export interface SessionStoreSettings extends RedisConnectionRead, RedisExpirySettings {}

/**
 * The expiry settings of a store, checked once: `ttl` (seconds, `undefined`: none) and `now`
 * (the clock, Unix seconds), as the session stores read `defaultTtl` and `now`.
 *
 * @example
 * ```ts
 * const expiry: RedisExpirySettings = { ttl: 3600, now: () => Date.now() / 1000 };
 * ```
 */
export interface RedisExpirySettings {
  readonly ttl: number | undefined;
  readonly now: () => number;
}

/** The expiry option keys, and the misspellings they are suggested for. */
const EXPIRY_OPTIONS = ['defaultTtl', 'now'] as const;
const EXPIRY_HINTS = { ttl: 'defaultTtl', default_ttl: 'defaultTtl' };

const readExpiry = (given: Record<string, unknown>, api: string): RedisExpirySettings => ({
  ttl: sessionTtlOf(given['defaultTtl'], api),
  now: sessionClockOf(given['now'], api),
});

const kind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/**
 * Reads the store's options once, refusing what cannot work.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readSessionStoreOptions({}, 'RedisSessionStore'); // throws: pass exactly one of options.url …
 * ```
 */
export const readSessionStoreOptions = (options: unknown, api: string): SessionStoreSettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${kind(options)}`,
    );
  }
  // A misspelled option would be ignored: `{ ttl: 60 }` would keep sessions forever.
  // Read once: the checks below see the copy.
  const given = readOptionFields(options, [...REDIS_CONNECTION_OPTIONS, ...EXPIRY_OPTIONS], api, {
    hints: EXPIRY_HINTS,
  });
  return {
    ...readRedisConnectionOptions(given, DEFAULT_REDIS_SESSION_PREFIX, api),
    ...readExpiry(given, api),
  };
};

/**
 * The default key prefix of `RedisEventStore`. The event store's keys never collide with the
 * session store's, so both may also share one prefix.
 *
 * @example
 * ```ts
 * DEFAULT_REDIS_EVENT_PREFIX; // 'conversation-memory:events:'
 * ```
 */
export const DEFAULT_REDIS_EVENT_PREFIX = 'conversation-memory:events:';

/**
 * A node-redis client or cluster client for `RedisEventStore` (`options.client`): raw commands,
 * and `duplicate()` for the connection of its own that each `subscribe` opens (a blocking `XREAD`
 * holds up its connection).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client: RedisEventClient = await createClient({ url: 'redis://localhost:6379' }).connect();
 * ```
 */
export type RedisEventClient = (RedisSessionClient | RedisClusterClient) & {
  readonly duplicate?: (...args: never[]) => unknown;
};

/**
 * Options of `RedisEventStore`: the connection (see `RedisConnectionOptions`: one of `url`,
 * `cluster` or `client`; `prefix`, default `'conversation-memory:events:'`; `commandTimeoutMs`;
 * `minReplicas`), `snapshotEvery` (default 256), `defaultTtl` in seconds after a stream's last
 * append (omitted: forever) and `now` (the clock, Unix seconds).
 *
 * @example
 * ```ts
 * const options: RedisEventStoreOptions = { url: 'redis://localhost:6379/0', snapshotEvery: 128, defaultTtl: 30 * 86_400 };
 * ```
 */
export interface RedisEventStoreOptions extends RedisConnectionOptions, StoreExpiryOptions {
  readonly client?: RedisEventClient | undefined;
  readonly snapshotEvery?: number | undefined;
}

/**
 * The options, checked once, with their defaults (the connection options as the session store
 * checks them).
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readEventStoreOptions({ url: 'redis://localhost:6379' }, 'RedisEventStore').snapshotEvery; // 256
 * ```
 */
export const readEventStoreOptions = (
  options: unknown,
  api: string,
): RedisConnectionRead & RedisExpirySettings & { snapshotEvery: number } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${options === null ? 'null' : typeof options}`,
    );
  }
  // Read once: the checks below see the copy.
  const given = readOptionFields(
    options,
    [...REDIS_CONNECTION_OPTIONS, 'snapshotEvery', ...EXPIRY_OPTIONS],
    api,
    { hints: EXPIRY_HINTS },
  );
  const { snapshotEvery } = given;
  return {
    ...readRedisConnectionOptions(given, DEFAULT_REDIS_EVENT_PREFIX, api),
    ...readExpiry(given, api),
    snapshotEvery: snapshotEveryOf(snapshotEvery, api),
  };
};

/**
 * The prefix of every key a `RedisKnowledgeStore` writes, unless `prefix` says otherwise.
 *
 * @example
 * ```ts
 * DEFAULT_REDIS_KNOWLEDGE_PREFIX; // 'conversation-memory:knowledge:'
 * ```
 */
export const DEFAULT_REDIS_KNOWLEDGE_PREFIX = 'conversation-memory:knowledge:';

/**
 * Options of `RedisKnowledgeStore`: the connection options of `RedisSessionStore` (`url`,
 * `cluster` or `client`; `prefix`, `commandTimeoutMs`, `minReplicas`), `defaultTtl` in seconds
 * after a record's last save (omitted: forever) and `now` (the clock, Unix seconds).
 *
 * @example
 * ```ts
 * const options: RedisKnowledgeStoreOptions = { url: 'redis://localhost:6379', prefix: 'app:k:', defaultTtl: 90 * 86_400 };
 * ```
 */
export interface RedisKnowledgeStoreOptions extends RedisConnectionOptions, StoreExpiryOptions {}

/**
 * The options of `RedisKnowledgeStore`, checked once (the connection options as the session store
 * checks them).
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readKnowledgeStoreOptions({ url: 'redis://localhost:6379' }, 'RedisKnowledgeStore').prefix; // 'conversation-memory:knowledge:'
 * ```
 */
export const readKnowledgeStoreOptions = (
  options: unknown,
  api: string,
): RedisConnectionRead & RedisExpirySettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      "options must be an object such as { url: 'redis://localhost:6379' }",
    );
  }
  // Read once: the checks below see the copy.
  const given = readOptionFields(options, [...REDIS_CONNECTION_OPTIONS, ...EXPIRY_OPTIONS], api, {
    hints: EXPIRY_HINTS,
  });
  return {
    ...readRedisConnectionOptions(given, DEFAULT_REDIS_KNOWLEDGE_PREFIX, api),
    ...readExpiry(given, api),
  };
};
