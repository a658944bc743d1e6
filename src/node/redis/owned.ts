import { MemoryArgumentError } from 'conversation-memory';
import {
  isRedisClusterClient,
  type RedisClusterClient,
  type RedisClusterOptions,
  type RedisSessionClient,
} from './clients';
import { clusterRedisLine, type RedisLine, singleRedisLine } from './line';
import { withRedisTimeout } from './timeout';

/**
 * A client the store made and must close: a node-redis client or cluster client, and its line.
 *
 * @example
 * ```ts
 * const owned: OwnedRedis = await openOwnedRedis({ url: 'redis://127.0.0.1:6379' }, 10_000, 'example');
 * await owned.line.send(['PING'], undefined, {});
 * ```
 */
export interface OwnedRedis {
  readonly line: RedisLine;
  readonly client: OwnedClient;
}

/** What the store needs of a node-redis client or cluster client it made. */
interface OwnedClient {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Where an owned client comes from: a URL (one server), cluster options (`dedicated`: for one
 * subscription, connecting only to the nodes it uses), or a given client to `duplicate()`.
 *
 * @example
 * ```ts
 * const source: OwnedRedisSource = { cluster: { rootNodes: [{ url: 'redis://127.0.0.1:7000' }] }, dedicated: false };
 * ```
 */
export type OwnedRedisSource =
  | { readonly url: string }
  | { readonly cluster: RedisClusterOptions; readonly dedicated: boolean }
  | { readonly duplicateOf: RedisSessionClient | RedisClusterClient };

type Factory = (options: object) => OwnedClient;

/** Delay before the n-th reconnection attempt of an owned client, in milliseconds. */
const reconnectDelay = (retries: number): number => Math.min(100 * 2 ** retries, 2000);

/**
 * How soon after a node connection starts reconnecting an owned cluster client asks the other
 * nodes for the cluster's layout again (node-redis's default is 5 s): a failover is noticed
 * within about this long after it completes.
 */
const TOPOLOGY_REFRESH_MS = 1000;

/** Loads node-redis only now, so importing the store's subpath never requires it. */
const loadFactory = async (api: string, name: 'createClient' | 'createCluster') => {
  try {
    const redis = (await import('redis')) as unknown as Record<string, unknown>;
    if (typeof redis[name] !== 'function') throw new Error(`redis has no ${name}`);
    return redis[name] as Factory;
  } catch (cause) {
    throw new MemoryArgumentError(
      api,
      "options.url and options.cluster need the optional peer package 'redis' (node-redis 5 or 6), which could not be loaded: install it with `npm install redis`, or pass a connected client as options.client",
      { cause },
    );
  }
};

/** Connects a client this store made, within the timeout; a client that fails is destroyed. */
const connectOrDestroy = async (client: OwnedClient, timeoutMs: number): Promise<OwnedClient> => {
  try {
    await withRedisTimeout(client.connect(), timeoutMs);
  } catch (error) {
    client.destroy();
    throw error;
  }
  return client;
};

const lineOf = (client: OwnedClient): RedisLine =>
  isRedisClusterClient(client) ? clusterRedisLine(client) : singleRedisLine(client as never);

const duplicateOf = (api: string, of: object): OwnedClient => {
  const client = (of as { duplicate: (overrides?: object) => unknown }).duplicate(
    isRedisClusterClient(of) ? { minimizeConnections: true } : undefined,
  ) as OwnedClient;
  for (const method of ['connect', 'sendCommand', 'destroy', 'on'] as const) {
    if (typeof (client as unknown as Record<string, unknown>)[method] !== 'function') {
      throw new MemoryArgumentError(
        api,
        `options.client.duplicate() did not return a node-redis client (it has no ${method}())`,
      );
    }
  }
  return client;
};

/**
 * Makes and connects a client the store owns. An owned client fails fast rather than hanging:
 * commands sent while it reconnects reject at once (`disableOfflineQueue`) instead of queueing,
 * and one server's client does not retry its first connection (the next command tries again
 * with a new client).
 *
 * @throws whatever the connection failed with (the store wraps it), or MemoryArgumentError when
 *   `redis` cannot be loaded
 * @example
 * ```ts
 * const owned = await openOwnedRedis({ url: 'redis://127.0.0.1:6379' }, 10_000, 'RedisSessionStore.load');
 * ```
 */
export const openOwnedRedis = async (
  source: OwnedRedisSource,
  timeoutMs: number,
  api: string,
): Promise<OwnedRedis> => {
  let client: OwnedClient;
  if ('duplicateOf' in source) {
    client = duplicateOf(api, source.duplicateOf);
  } else if ('url' in source) {
    let ready = false;
    client = (await loadFactory(api, 'createClient'))({
      url: source.url,
      name: 'conversation-memory',
      disableOfflineQueue: true,
      socket: {
        connectTimeout: timeoutMs,
        // Before the first connection: give up at once (connect rejects with the cause).
        reconnectStrategy: (retries: number, cause: Error) =>
          ready ? reconnectDelay(retries) : cause,
      },
    });
    client.on('ready', () => {
      ready = true;
    });
  } else {
    const defaults = (source.cluster.defaults ?? {}) as { socket?: object };
    client = (await loadFactory(api, 'createCluster'))({
      rootNodes: source.cluster.rootNodes.map((node) => ({ ...node })),
      defaults: {
        ...defaults,
        name: 'conversation-memory',
        disableOfflineQueue: true,
        socket: {
          ...defaults.socket,
          connectTimeout: timeoutMs,
          reconnectStrategy: reconnectDelay,
        },
      },
      minimizeConnections: source.dedicated,
      topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
    });
  }
  // node-redis emits socket errors as events (an unheard one would crash the process); the
  // commands reject with them anyway.
  client.on('error', () => undefined);
  await connectOrDestroy(client, timeoutMs);
  return { line: lineOf(client), client };
};
