import type { RedisConnection } from './connection';
import { redisText as text } from './reply';

/** Keys asked of each SCAN step (a hint to the server, as in the reference). */
const SCAN_COUNT = '100';

/**
 * The keys matching a glob `pattern`, by `SCAN … MATCH pattern COUNT 100` (never `KEYS`, which
 * blocks the server) on every master in turn (the server itself when it is one), in batches as
 * the servers return them, each key once: SCAN may return a key twice (and a cluster moving a
 * slot may hold a key on two nodes for a moment), and keys added or removed while it runs may or
 * may not be seen. A master that cannot be reached fails the whole walk (`StoreUnavailableError`)
 * rather than leaving its keys out.
 *
 * @example
 * ```ts
 * for await (const batch of scanRedisKeys(connection, 'app:s:*', 'RedisSessionStore.list')) {
 *   console.log(batch);
 * }
 * ```
 */
export async function* scanRedisKeys(
  connection: RedisConnection,
  pattern: string,
  api: string,
): AsyncGenerator<readonly string[]> {
  const seen = new Set<string>();
  for (const send of await connection.masters(api)) {
    let cursor = '0';
    do {
      const reply = await send(['SCAN', cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT]);
      const next = Array.isArray(reply) ? text(reply[0]) : undefined;
      const keys: unknown = Array.isArray(reply) ? reply[1] : undefined;
      if (next === undefined || !Array.isArray(keys)) {
        throw new Error(`[conversation-memory] ${api}: unexpected SCAN reply from Redis`);
      }
      const batch: string[] = [];
      for (const raw of keys) {
        const key = text(raw);
        if (key === undefined || seen.has(key)) continue;
        seen.add(key);
        batch.push(key);
      }
      if (batch.length > 0) yield batch;
      cursor = next;
    } while (cursor !== '0');
  }
}
