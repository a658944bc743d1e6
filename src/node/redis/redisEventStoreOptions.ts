import { MemoryArgumentError } from 'conversation-memory';
import { snapshotEveryOf, readOptionFields } from 'conversation-memory/store-kit';
import type { RedisClusterClient, RedisSessionClient } from './clients';
import {
  type RedisConnectionOptions,
  type RedisConnectionRead,
  readRedisConnectionOptions,
  REDIS_CONNECTION_OPTIONS,
} from './connectionOptions';

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
 * `minReplicas`) and `snapshotEvery` (default 256).
 *
 * @example
 * ```ts
 * const options: RedisEventStoreOptions = { url: 'redis://localhost:6379/0', snapshotEvery: 128 };
 * ```
 */
export interface RedisEventStoreOptions extends RedisConnectionOptions {
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
 * readRedisEventStoreOptions({ url: 'redis://localhost:6379' }, 'RedisEventStore').snapshotEvery; // 256
 * ```
 */
export const readRedisEventStoreOptions = (
  options: unknown,
  api: string,
): RedisConnectionRead & { snapshotEvery: number } => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { url: 'redis://localhost:6379' }, received ${options === null ? 'null' : typeof options}`,
    );
  }
  // Read once: the checks below see the copy.
  const given = readOptionFields(options, [...REDIS_CONNECTION_OPTIONS, 'snapshotEvery'], api);
  const { snapshotEvery } = given;
  return {
    ...readRedisConnectionOptions(given, DEFAULT_REDIS_EVENT_PREFIX, api),
    snapshotEvery: snapshotEveryOf(snapshotEvery, api),
  };
};
