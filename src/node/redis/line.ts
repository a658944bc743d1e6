import type { RedisClusterClient, RedisSessionClient } from './clients';

/**
 * What a connection sends its commands through, the same for one server and for a cluster: a
 * command routed by its first key, the clients to `SCAN` (one per master), and `WAIT` on the
 * connection that took a key's last write.
 *
 * @example
 * ```ts
 * const line: RedisLine = singleRedisLine(client);
 * await line.send(['GET', 'k'], 'k', {});
 * ```
 */
export interface RedisLine {
  /** Sends one command, to the master of `key`'s slot on a cluster. */
  send(args: readonly string[], key: string | undefined, options: object): Promise<unknown>;
  /** A client per master (the client itself on one server): each holds a part of the keys. */
  masters(): Promise<readonly RedisSessionClient[]>;
  /** Sends `args` (a `WAIT`) on the connection that serves `key`'s writes. */
  sendToKeyNode(key: string, args: readonly string[], options: object): Promise<unknown>;
}

/**
 * The line of one server's client.
 *
 * @example
 * ```ts
 * const line = singleRedisLine(await createClient({ url }).connect());
 * ```
 */
export const singleRedisLine = (client: RedisSessionClient): RedisLine => ({
  send: (args, _key, options) => client.sendCommand(args, options),
  masters: async () => [client],
  sendToKeyNode: (_key, args, options) => client.sendCommand(args, options),
});

const asClient = (value: unknown): RedisSessionClient => {
  if (typeof (value as RedisSessionClient | undefined)?.sendCommand !== 'function') {
    throw new Error('the cluster client gave a node client without sendCommand()');
  }
  return value as RedisSessionClient;
};

/**
 * The line of a cluster client: commands go to the master of their first key's slot (node-redis
 * follows `MOVED` and `ASK`); `masters()` connects to each master the client knows now.
 *
 * @example
 * ```ts
 * const line = clusterRedisLine(await createCluster({ rootNodes }).connect());
 * ```
 */
export const clusterRedisLine = (cluster: RedisClusterClient): RedisLine => ({
  send: (args, key, options) => cluster.sendCommand(key, false, [...args], options),
  masters: async () => {
    const masters = [...cluster.masters];
    if (masters.length === 0) {
      throw new Error('the cluster client knows no masters (is it connected?)');
    }
    return Promise.all(
      masters.map(async (node) => asClient(await cluster.nodeClient(node as never))),
    );
  },
  sendToKeyNode: async (key, args, options) => {
    const forKey = (cluster as { getNodeClientForKey?: (key: string) => Promise<unknown> })
      .getNodeClientForKey;
    // node-redis before 6.1 has no getNodeClientForKey, but routes a raw command by its key.
    if (typeof forKey !== 'function') return cluster.sendCommand(key, false, [...args], options);
    return asClient(await forKey.call(cluster, key)).sendCommand(args, options);
  },
});
