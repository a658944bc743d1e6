import {
  MemoryArgumentError,
  sessionClockOf,
  sessionTtlOf,
  type SessionStoreOptions,
} from 'conversation-memory';
import type { RedisSessionClient } from './redisConnection';
import { isRedisSafeText } from './redisSessionKey';

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

/** The default bound on each Redis command, in milliseconds. */
const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/**
 * Options of `RedisSessionStore`: exactly one of `url` (the store makes and owns a client, on first
 * use; `close()` quits it) or `client` (a connected node-redis client; `close()` leaves it open);
 * `prefix` in front of every key (default `'conversation-memory:session:'`; two stores must not
 * use prefixes one of which starts the other); `defaultTtl` in seconds (sliding); `now` (the
 * clock, Unix seconds); `commandTimeoutMs`, the longest wait for any one reply (default 10,000),
 * after which the call rejects with a `TimeoutError`.
 *
 * @example
 * ```ts
 * const options: RedisSessionStoreOptions = { url: 'redis://localhost:6379/0', defaultTtl: 86_400 };
 * ```
 */
export interface RedisSessionStoreOptions extends SessionStoreOptions {
  readonly url?: string | undefined;
  readonly client?: RedisSessionClient | undefined;
  readonly prefix?: string | undefined;
  readonly commandTimeoutMs?: number | undefined;
}

/**
 * The options read and checked once.
 *
 * @example
 * ```ts
 * readRedisStoreOptions({ url: 'redis://localhost:6379' }, 'RedisSessionStore').prefix; // 'conversation-memory:session:'
 * ```
 */
export interface RedisStoreSettings {
  readonly source: { readonly url: string } | { readonly client: RedisSessionClient };
  readonly prefix: string;
  readonly ttl: number | undefined;
  readonly now: () => number;
  readonly timeoutMs: number;
}

const kind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/**
 * Reads the store's options once, refusing what cannot work.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readRedisStoreOptions({}, 'RedisSessionStore'); // throws: pass options.url … or options.client …
 * ```
 */
export const readRedisStoreOptions = (options: unknown, api: string): RedisStoreSettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${kind(options)}`,
    );
  }
  const { url, client, prefix, commandTimeoutMs, defaultTtl, now } =
    options as RedisSessionStoreOptions;
  if ((url === undefined) === (client === undefined)) {
    throw new MemoryArgumentError(
      api,
      'pass exactly one of options.url (the store connects and owns the client) or options.client (a connected node-redis client)',
    );
  }
  if (url !== undefined && (typeof url !== 'string' || url === '')) {
    throw new MemoryArgumentError(api, `options.url must be a redis:// URL, received ${kind(url)}`);
  }
  if (
    client !== undefined &&
    (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function')
  ) {
    throw new MemoryArgumentError(
      api,
      `options.client must be a node-redis client (with sendCommand), received ${kind(client)}`,
    );
  }
  const chosenPrefix = prefix ?? DEFAULT_REDIS_SESSION_PREFIX;
  if (typeof chosenPrefix !== 'string' || !isRedisSafeText(chosenPrefix)) {
    throw new MemoryArgumentError(
      api,
      `options.prefix must be a string of well-formed Unicode, received ${kind(chosenPrefix)}`,
    );
  }
  const timeoutMs = commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new MemoryArgumentError(
      api,
      `options.commandTimeoutMs must be a positive number of milliseconds, received ${String(timeoutMs)}`,
    );
  }
  return {
    source: url !== undefined ? { url } : { client: client as RedisSessionClient },
    prefix: chosenPrefix,
    ttl: sessionTtlOf(defaultTtl, api),
    now: sessionClockOf(now, api),
    timeoutMs,
  };
};
