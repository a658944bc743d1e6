import { namespaceKeys, type StoreCall } from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { DELETE_EVENTS_SCRIPT, SWEEP_EVENTS_SCRIPT } from './eventRetentionScripts';
import type { RedisEventStreams } from './eventStreams';
import { countAll, removedBy, removeScanned } from './retention';
import type { RedisEventKeyLayout } from './schema';
import { type RedisScript, runScript } from './scripts';

/**
 * The parts of a `RedisEventStore` its listing, `sweep` and `deleteNamespace` work with.
 *
 * @example
 * ```ts
 * const context: RedisEventStoreParts = { connection, layout, streams };
 * ```
 */
export interface RedisEventStoreParts {
  readonly connection: RedisConnection;
  readonly layout: RedisEventKeyLayout;
  readonly streams: RedisEventStreams;
}

/** Runs a script that removes one whole stream (its three keys at once); its count. */
const removeStream = async (
  { connection, streams }: RedisEventStoreParts,
  script: RedisScript,
  key: string,
  args: readonly string[],
  api: string,
): Promise<number> => {
  const [stream] = streams.keys(key);
  const removed = removedBy(await runScript(connection, script, streams.keys(key), args, api));
  if (removed > 0) await connection.confirmWrite(stream, api);
  return removed;
};

/**
 * Removes the streams expired by the store's clock and TTL (their actions, config and snapshots
 * at once), one script per meta key found by SCAN (see `removeScanned`), each deciding again on
 * the server. Without a TTL it removes nothing. Resolves to how many streams.
 *
 * @example
 * ```ts
 * await sweepRedisStreams(context, call); // 3
 * ```
 */
export const sweepRedisStreams = async (
  context: RedisEventStoreParts,
  call: StoreCall,
): Promise<number> => {
  const { connection, layout, streams } = context;
  if (streams.ttl === undefined) return 0;
  return removeScanned(connection, layout.metaPattern(), call, (names) =>
    countAll(names, async (name) => {
      const key = layout.streamKeyOf(name);
      if (key === undefined) return 0;
      return removeStream(context, SWEEP_EVENTS_SCRIPT, key, streams.expiryArgs(), call.api);
    }),
  );
};

/**
 * Removes every stream of `namespace` (live, expired, pruned or damaged: any of its keys found),
 * nothing else: one SCAN with the namespace's key prefix finds the streams' keys, each is checked
 * with `namespaceKeys`, and each stream's three keys go in one script. Resolves to how many
 * streams.
 *
 * @example
 * ```ts
 * await deleteRedisStreamNamespace(context, 'tenant-42', call); // 5
 * ```
 */
export const deleteRedisStreamNamespace = async (
  context: RedisEventStoreParts,
  namespace: string,
  call: StoreCall,
): Promise<number> => {
  const { connection, layout, streams } = context;
  const keys = namespaceKeys(namespace);
  return removeScanned(connection, layout.anyPattern(keys.prefix), call, (names) => {
    const found = new Set(names.flatMap((name) => layout.streamKeyOfAny(name) ?? []));
    const inNamespace = [...found].filter((key) => keys.includes(key));
    // No TTL: an expired stream not yet swept counts as one removed.
    const [now] = streams.expiryArgs();
    return countAll(inNamespace, (key) =>
      removeStream(context, DELETE_EVENTS_SCRIPT, key, [now, ''], call.api),
    );
  });
};
