import { MemoryArgumentError, snapshotEveryOf } from 'conversation-memory';
import type { RedisSessionClient } from './redisConnection';
import { readRedisStoreOptions, type RedisStoreSettings } from './redisStoreOptions';

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
 * A node-redis client for `RedisEventStore` (`options.client`): raw commands, and `duplicate()`
 * for the connection of its own that each `subscribe` opens (a blocking `XREAD` holds up its
 * connection).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client: RedisEventClient = await createClient({ url: 'redis://localhost:6379' }).connect();
 * ```
 */
export interface RedisEventClient extends RedisSessionClient {
  readonly duplicate?: (...args: never[]) => unknown;
}

/**
 * Options of `RedisEventStore`: exactly one of `url` (the store makes and owns its clients) or
 * `client` (a connected node-redis client, left open by `close()`); `prefix` in front of every
 * key (default `'conversation-memory:events:'`); `snapshotEvery` (default 256);
 * `commandTimeoutMs`, the longest wait for any one reply (default 10,000), after which the call
 * rejects with a `TimeoutError`.
 *
 * @example
 * ```ts
 * const options: RedisEventStoreOptions = { url: 'redis://localhost:6379/0', snapshotEvery: 128 };
 * ```
 */
export interface RedisEventStoreOptions {
  readonly url?: string | undefined;
  readonly client?: RedisEventClient | undefined;
  readonly prefix?: string | undefined;
  readonly snapshotEvery?: number | undefined;
  readonly commandTimeoutMs?: number | undefined;
}

/**
 * The options, checked once, with their defaults (the connection options as the session store
 * checks them).
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readRedisEventStoreOptions({ url: 'redis://localhost:6379' }, 'RedisEventStore').snapshotEvery; // 256
 * ```
 */
export const readRedisEventStoreOptions = (
  options: unknown,
  api: string,
): Pick<RedisStoreSettings, 'source' | 'prefix' | 'timeoutMs'> & { snapshotEvery: number } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${options === null ? 'null' : typeof options}`,
    );
  }
  const { url, client, prefix, snapshotEvery, commandTimeoutMs } =
    options as RedisEventStoreOptions;
  const settings = readRedisStoreOptions(
    { url, client, prefix: prefix ?? DEFAULT_REDIS_EVENT_PREFIX, commandTimeoutMs },
    api,
  );
  return {
    source: settings.source,
    prefix: settings.prefix,
    timeoutMs: settings.timeoutMs,
    snapshotEvery: snapshotEveryOf(snapshotEvery, api),
  };
};
