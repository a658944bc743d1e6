import { namespaceKeys, type StoreCall } from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { KNOWLEDGE_SWEEP_SCRIPT } from './knowledgeScripts';
import { countAll, deleteKey, removedBy, removeScanned } from './retention';
import type { RedisKnowledgeKeyLayout } from './schema';
import { runScript } from './scripts';

/**
 * What `sweep` and `deleteNamespace` of `RedisKnowledgeStore` need from their store.
 *
 * @example
 * ```ts
 * const context: RedisKnowledgeRetention = { connection, layout: redisKnowledgeKeyLayout('app:'), ttl: 3600 };
 * ```
 */
export interface RedisKnowledgeRetention {
  readonly connection: RedisConnection;
  readonly layout: RedisKnowledgeKeyLayout;
  readonly ttl: number | undefined;
}

/**
 * Removes the records expired by the store's clock `now` and TTL, one script per record hash
 * found by SCAN (see `removeScanned`), each deciding again on the server. Without a TTL it
 * removes nothing. Resolves to how many records.
 *
 * @example
 * ```ts
 * await sweepRedisKnowledge(context, () => Date.now() / 1000, call); // 4
 * ```
 */
export const sweepRedisKnowledge = async (
  { connection, layout, ttl }: RedisKnowledgeRetention,
  now: () => number,
  call: StoreCall,
): Promise<number> => {
  if (ttl === undefined) return 0;
  return removeScanned(connection, layout.recordPattern(), call, (names) =>
    countAll(names, async (name) => {
      if (layout.recordKeyOf(name) === undefined) return 0;
      const reply = await runScript(
        connection,
        KNOWLEDGE_SWEEP_SCRIPT,
        [name],
        ['', '', String(now()), String(ttl)],
        call.api,
      );
      const removed = removedBy(reply);
      if (removed > 0) await connection.confirmWrite(name, call.api);
      return removed;
    }),
  );
};

/**
 * Removes every record of `namespace` (live, expired or damaged) and the damaged copies moved
 * aside, nothing else: one SCAN with the namespace's key prefix finds both, and each name is
 * checked with `namespaceKeys` before its `DEL` (one key each). Resolves to how many records
 * (aside copies are not counted).
 *
 * @example
 * ```ts
 * await deleteRedisKnowledgeNamespace(context, 'acme', call); // 2
 * ```
 */
export const deleteRedisKnowledgeNamespace = async (
  { connection, layout }: RedisKnowledgeRetention,
  namespace: string,
  call: StoreCall,
): Promise<number> => {
  const keys = namespaceKeys(namespace);
  return removeScanned(connection, layout.anyPattern(keys.prefix), call, (names) =>
    countAll(names, async (name) => {
      const record = layout.recordKeyOf(name);
      const key = record ?? layout.asideKeyOf(name);
      if (key === undefined || !keys.includes(key)) return 0;
      const removed = await deleteKey(connection, name, call.api);
      return record === undefined ? 0 : removed;
    }),
  );
};
