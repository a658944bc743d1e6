/**
 * The part of a node-redis client (`redis` 5 or 6: `createClient()` from `'redis'` or
 * `'@redis/client'`, RESP2 or RESP3) that the store uses: raw commands. Pass a connected client
 * as `options.client`; the store sends every command with its own type mapping (strings), so a
 * client that maps replies to Buffers works too. A client's `keyPrefix` is not applied to these
 * commands: use the store's `prefix`. Make it with `disableOfflineQueue: true` so that a command
 * sent while the client reconnects fails at once instead of running later.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client: RedisSessionClient = await createClient({ url: 'redis://localhost:6379' }).connect();
 * ```
 */
export interface RedisSessionClient {
  sendCommand(args: readonly string[], options?: { typeMapping?: object }): Promise<unknown>;
}

/**
 * The part of a node-redis cluster client (`createCluster()` from `'redis'`, 5 or 6) that the
 * store uses: raw commands routed by their first key, and the masters' own clients (for `SCAN`,
 * which walks every master, and `WAIT`, sent to the master that took the write). Pass a connected
 * one as `options.client`, or let the store make one from `options.cluster`.
 *
 * @example
 * ```ts
 * import { createCluster } from 'redis';
 * const cluster: RedisClusterClient = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:7000' }] }).connect();
 * ```
 */
export interface RedisClusterClient {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
    options?: { typeMapping?: object },
  ): Promise<unknown>;
  /** The masters, as the client last discovered them. */
  readonly masters: readonly object[];
  /** A master's own client. */
  nodeClient(node: never): unknown;
}

/**
 * Options of a cluster the store connects to and owns (`options.cluster`): `rootNodes`, the
 * addresses to discover the cluster from (`[{ url: 'redis://10.0.0.1:7000' }]`; give several),
 * and `defaults`, the node-redis client options every node connection uses (credentials, TLS),
 * as node-redis's `createCluster` takes them.
 *
 * @example
 * ```ts
 * const cluster: RedisClusterOptions = { rootNodes: [{ url: 'redis://10.0.0.1:7000' }, { url: 'redis://10.0.0.2:7000' }] };
 * ```
 */
export interface RedisClusterOptions {
  readonly rootNodes: readonly { readonly url: string }[];
  readonly defaults?: object | undefined;
}

/**
 * Whether a given client is a node-redis cluster client (it has `masters` and `nodeClient`),
 * whose commands are routed by key.
 *
 * @example
 * ```ts
 * isRedisClusterClient(createCluster({ rootNodes })); // true
 * isRedisClusterClient(createClient()); // false
 * ```
 */
export const isRedisClusterClient = (client: object): client is RedisClusterClient =>
  typeof (client as { nodeClient?: unknown }).nodeClient === 'function' && 'masters' in client;
