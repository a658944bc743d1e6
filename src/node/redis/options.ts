import { MemoryArgumentError, type SessionStoreOptions } from 'conversation-memory';
import { sessionClockOf, sessionTtlOf, readOptionFields } from 'conversation-memory/store-kit';
import {
  type RedisConnectionOptions,
  type RedisConnectionRead,
  readRedisConnectionOptions,
  REDIS_CONNECTION_OPTIONS,
} from './connectionOptions';

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
 * readRedisStoreOptions({ url: 'redis://localhost:6379' }, 'RedisSessionStore').prefix; // 'conversation-memory:session:'
 * ```
 */
export interface RedisStoreSettings extends RedisConnectionRead {
  readonly ttl: number | undefined;
  readonly now: () => number;
}

const kind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/**
 * Reads the store's options once, refusing what cannot work.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readRedisStoreOptions({}, 'RedisSessionStore'); // throws: pass exactly one of options.url …
 * ```
 */
export const readRedisStoreOptions = (options: unknown, api: string): RedisStoreSettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${kind(options)}`,
    );
  }
  // A misspelled option would be ignored: `{ ttl: 60 }` would keep sessions forever.
  // Read once: the checks below see the copy.
  const given = readOptionFields(options, [...REDIS_CONNECTION_OPTIONS, 'defaultTtl', 'now'], api, {
    hints: { ttl: 'defaultTtl', default_ttl: 'defaultTtl' },
  });
  const { defaultTtl, now } = given;
  return {
    ...readRedisConnectionOptions(given, DEFAULT_REDIS_SESSION_PREFIX, api),
    ttl: sessionTtlOf(defaultTtl, api),
    now: sessionClockOf(now, api),
  };
};
