import { SWEEP_BATCH, type StoreCall } from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { scanRedisKeys } from './scan';

/**
 * Removes what one SCAN finds, page by page, for `sweep` and `deleteNamespace` of the Redis
 * stores: the keys matching `pattern` are walked with `SCAN` (never `KEYS`) on every master;
 * each page is handed to `removePage` in slices of at most `SWEEP_BATCH` names, whose scripts
 * each touch one record (one key, or the keys of one stream in one slot), so the server is never
 * held for more than one record at a time and other clients' commands run between them. The
 * store is checked to be open before each slice. Resolves to the sum of what `removePage`
 * counted.
 *
 * @param connection - the store's connection
 * @param pattern - the SCAN pattern of the keys to look at
 * @param call - the store's call (`api` for errors, `stillOpen` between slices)
 * @param removePage - removes what it must of a slice of names; resolves to how many records
 * @example
 * ```ts
 * const removed = await removeScanned(connection, layout.sessionPattern(), call, async (names) =>
 *   (await Promise.all(names.map(sweepOne))).reduce((a, b) => a + b, 0),
 * );
 * ```
 */
export const removeScanned = async (
  connection: RedisConnection,
  pattern: string,
  call: StoreCall,
  removePage: (names: readonly string[]) => Promise<number>,
): Promise<number> => {
  let removed = 0;
  for await (const page of scanRedisKeys(connection, pattern, call.api)) {
    for (let start = 0; start < page.length; start += SWEEP_BATCH) {
      call.stillOpen();
      removed += await removePage(page.slice(start, start + SWEEP_BATCH));
    }
  }
  return removed;
};

/**
 * Runs `remove` on each item at once and sums the counts it resolves to.
 *
 * @example
 * ```ts
 * await countAll(['a', 'b'], async () => 1); // 2
 * ```
 */
export const countAll = async <T>(
  items: readonly T[],
  remove: (item: T) => Promise<number>,
): Promise<number> => (await Promise.all(items.map(remove))).reduce((sum, n) => sum + n, 0);

/**
 * The count a script's or `DEL`'s reply stands for (`1`, `'1'`, `0`, …).
 *
 * @example
 * ```ts
 * removedBy('1'); // 1
 * ```
 */
export const removedBy = (reply: unknown): number => {
  const n = Number(reply);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/**
 * `DEL` of one key (routed to its slot's master), confirmed by replicas as a write: 1 when it was
 * there.
 *
 * @example
 * ```ts
 * await deleteKey(connection, 'app:{u1:s1}s', 'RedisSessionStore.deleteNamespace'); // 1
 * ```
 */
export const deleteKey = async (
  connection: RedisConnection,
  name: string,
  api: string,
): Promise<number> => {
  const removed = removedBy(await connection.send(['DEL', name], api, { key: name, writes: true }));
  if (removed > 0) await connection.confirmWrite(name, api);
  return removed;
};
