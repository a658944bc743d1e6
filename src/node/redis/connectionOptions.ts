import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import type { RedisClusterClient, RedisClusterOptions, RedisSessionClient } from './clients';
import type { RedisConnectionSettings, RedisSource } from './connection';
import { checkRedisPrefix } from './schema';

/** The default bound on each Redis command, in milliseconds. */
const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/**
 * How a Redis store reaches Redis: exactly one of `url` (one server; the store makes and owns a
 * client on first use, and `close()` quits it), `cluster` (a Redis Cluster, from its root nodes;
 * the store makes and owns a cluster client likewise) or `client` (a connected node-redis client
 * or cluster client; `close()` leaves it open); `prefix` in front of every key (two stores must
 * not use prefixes one of which starts the other); `commandTimeoutMs`, the longest wait for any
 * one reply (default 10,000), after which the call rejects with a `StoreUnavailableError`;
 * `minReplicas` (default 0), how many replicas must confirm each write (`WAIT`, at most half
 * the command timeout) before it counts as done, so that a failover cannot lose an acknowledged
 * write.
 *
 * @example
 * ```ts
 * const options: RedisConnectionOptions = { cluster: { rootNodes: [{ url: 'redis://10.0.0.1:7000' }] }, minReplicas: 1 };
 * ```
 */
export interface RedisConnectionOptions {
  readonly url?: string | undefined;
  readonly cluster?: RedisClusterOptions | undefined;
  readonly client?: RedisSessionClient | RedisClusterClient | undefined;
  readonly prefix?: string | undefined;
  readonly commandTimeoutMs?: number | undefined;
  readonly minReplicas?: number | undefined;
}

/**
 * The connection options read and checked once.
 *
 * @example
 * ```ts
 * const read: RedisConnectionRead = readRedisConnectionOptions({ url: 'redis://localhost:6379' }, 'app:', 'RedisSessionStore');
 * ```
 */
/**
 * The names of {@link RedisConnectionOptions}, for the check of misspelled options.
 *
 * @internal
 */
export const REDIS_CONNECTION_OPTIONS: readonly string[] = [
  'url',
  'cluster',
  'client',
  'prefix',
  'commandTimeoutMs',
  'minReplicas',
];

export interface RedisConnectionRead {
  readonly source: RedisSource;
  readonly prefix: string;
  readonly connection: RedisConnectionSettings;
}

const kind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Checks `options.cluster`: root nodes with a URL each, and optional client defaults. */
/** The URL schemes node-redis connects with. */
const REDIS_SCHEMES = ['redis:', 'rediss:'];

/**
 * Refuses a URL that node-redis would not connect with (`http://…`, `localhost:6379`), at
 * construction: the store would otherwise fail on its first call, or hang until the timeout.
 */
const checkRedisUrl = (url: string, field: string, api: string): void => {
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && REDIS_SCHEMES.includes(scheme)) return;
  // Only the scheme is echoed when there is one: the rest of a URL may hold a password.
  const received =
    scheme !== undefined
      ? `a ${describeValue(scheme)} URL`
      : url.includes('@')
        ? 'a URL without a scheme'
        : describeValue(url);
  throw new MemoryArgumentError(
    api,
    `${field} must be a redis:// or rediss:// URL (such as redis://localhost:6379), received ${received}`,
  );
};

const clusterOf = (cluster: unknown, api: string): RedisClusterOptions => {
  const { rootNodes, defaults } = (isObject(cluster) ? cluster : {}) as Record<string, unknown>;
  if (!isObject(cluster) || !Array.isArray(rootNodes) || rootNodes.length === 0) {
    throw new MemoryArgumentError(
      api,
      `options.cluster must be an object such as { rootNodes: [{ url: 'redis://10.0.0.1:7000' }] }, received ${kind(cluster)}${isObject(cluster) ? ` whose rootNodes is ${Array.isArray(rootNodes) ? 'empty' : kind(rootNodes)}` : ''}`,
    );
  }
  rootNodes.forEach((node: unknown, i) => {
    const url = isObject(node) ? (node as { url?: unknown }).url : undefined;
    if (typeof url !== 'string' || url === '') {
      throw new MemoryArgumentError(
        api,
        `options.cluster.rootNodes[${i}] must be { url: 'redis://host:port' }, received ${isObject(node) ? `an object whose url is ${kind(url)}` : kind(node)}`,
      );
    }
    checkRedisUrl(url, `options.cluster.rootNodes[${i}].url`, api);
  });
  if (defaults !== undefined && !isObject(defaults)) {
    throw new MemoryArgumentError(
      api,
      `options.cluster.defaults must be node-redis client options (an object), received ${kind(defaults)}`,
    );
  }
  return cluster as RedisClusterOptions;
};

/**
 * Reads a Redis store's connection options once, refusing what cannot work.
 *
 * @param defaultPrefix - the store's prefix when `options.prefix` is not given
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readRedisConnectionOptions({}, 'app:', 'RedisSessionStore'); // throws: pass exactly one of options.url, options.cluster …
 * ```
 */
export const readRedisConnectionOptions = (
  options: RedisConnectionOptions,
  defaultPrefix: string,
  api: string,
): RedisConnectionRead => {
  const { url, cluster, client, prefix, commandTimeoutMs, minReplicas } = options;
  if ([url, cluster, client].filter((given) => given !== undefined).length !== 1) {
    throw new MemoryArgumentError(
      api,
      'pass exactly one of options.url (one server: the store connects and owns the client), options.cluster (a Redis Cluster: the store connects and owns the client) or options.client (a connected node-redis client or cluster client)',
    );
  }
  if (url !== undefined && (typeof url !== 'string' || url === '')) {
    throw new MemoryArgumentError(api, `options.url must be a redis:// URL, received ${kind(url)}`);
  }
  if (typeof url === 'string') checkRedisUrl(url, 'options.url', api);
  if (
    client !== undefined &&
    (!isObject(client) || typeof (client as { sendCommand?: unknown }).sendCommand !== 'function')
  ) {
    throw new MemoryArgumentError(
      api,
      `options.client must be a node-redis client or cluster client (with sendCommand), received ${kind(client)}`,
    );
  }
  const chosenPrefix = checkRedisPrefix(prefix ?? defaultPrefix, api);
  const timeoutMs = commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new MemoryArgumentError(
      api,
      `options.commandTimeoutMs must be a positive number of milliseconds, received ${describeValue(timeoutMs)}`,
    );
  }
  const replicas = minReplicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isSafeInteger(replicas) || replicas < 0) {
    throw new MemoryArgumentError(
      api,
      `options.minReplicas must be an integer ≥ 0 (the replicas that must confirm each write), received ${describeValue(replicas)}`,
    );
  }
  return {
    source:
      url !== undefined
        ? { url }
        : cluster !== undefined
          ? { cluster: clusterOf(cluster, api) }
          : { client: client as RedisSessionClient | RedisClusterClient },
    prefix: chosenPrefix,
    connection: { timeoutMs, minReplicas: replicas },
  };
};
