import { namespaceKeys, type StoreCall } from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { countAll, deleteKey, removedBy, removeScanned } from './retention';
import type { RedisKeyLayout } from './schema';
import { runScript, SWEEP_SCRIPT } from './scripts';

/**
 * What `sweep` and `deleteNamespace` of `RedisSessionStore` need from their store.
 *
 * @example
 * ```ts
 * const context: RedisSessionRetention = { connection, layout, ttl: 3600, now: () => Date.now() / 1000 };
 * ```
 */
export interface RedisSessionRetention {
  readonly connection: RedisConnection;
  readonly layout: RedisKeyLayout;
  readonly ttl: number | undefined;
  readonly now: () => number;
}

/**
 * Removes the sessions expired by the store's clock and TTL, one script per session hash found by
 * SCAN (see `removeScanned`): each decides again on the server, so a session saved since the
 * SCAN saw it stays. Without a TTL it removes nothing (a key saved with a Redis expiry by an
 * earlier configuration still vanishes at that expiry, by Redis). Resolves to how many sessions.
 *
 * @example
 * ```ts
 * await sweepRedisSessions(context, call); // 12
 * ```
 */
export const sweepRedisSessions = async (
  { connection, layout, ttl, now }: RedisSessionRetention,
  call: StoreCall,
): Promise<number> => {
  if (ttl === undefined) return 0;
  return removeScanned(connection, layout.sessionPattern(), call, (names) =>
    countAll(names, async (name) => {
      if (layout.sessionKeyOf(name) === undefined) return 0;
      const reply = await runScript(
        connection,
        SWEEP_SCRIPT,
        [name],
        [String(now()), String(ttl)],
        call.api,
      );
      const removed = removedBy(reply);
      if (removed > 0) await connection.confirmWrite(name, call.api);
      return removed;
    }),
  );
};

/**
 * Removes every session of `namespace` (live, expired or damaged), and the damaged copies saves
 * moved aside, nothing else: the keys are found by SCAN with the namespace's key prefix and each
 * is checked with `namespaceKeys` before its `DEL` (one key each, see `removeScanned`). Resolves
 * to how many sessions (aside copies are not counted).
 *
 * @example
 * ```ts
 * await deleteRedisSessionNamespace(context, 'tenant-42', call); // 3
 * ```
 */
export const deleteRedisSessionNamespace = async (
  { connection, layout }: RedisSessionRetention,
  namespace: string,
  call: StoreCall,
): Promise<number> => {
  const keys = namespaceKeys(namespace);
  const remove = (name: string, key: string | undefined): Promise<number> =>
    key === undefined || !keys.includes(key)
      ? Promise.resolve(0)
      : deleteKey(connection, name, call.api);
  const sessions = await removeScanned(
    connection,
    layout.sessionPattern(keys.prefix),
    call,
    (names) => countAll(names, (name) => remove(name, layout.sessionKeyOf(name))),
  );
  await removeScanned(connection, layout.asidePattern(keys.prefix), call, (names) =>
    countAll(names, (name) => remove(name, layout.asideKeyOf(name))),
  );
  return sessions;
};
