import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * What the SQLite stores' `sweep` and `deleteNamespace` share: the pause between two batches
 * (each batch is one short transaction of at most `SWEEP_BATCH` rows, and other connections and
 * this process's other calls get their turn between two), and the key range of a prefix.
 */

/**
 * Lets the event loop run (other calls of this process, other connections' writes) and checks
 * that the store is still open, between two batches of a `sweep` or a `deleteNamespace`.
 *
 * @param stillOpen - the call's `stillOpen` (throws once the store is closed)
 * @example
 * ```ts
 * while (await batch()) await betweenBatches(stillOpen);
 * ```
 */
export const betweenBatches = async (stillOpen: () => void): Promise<void> => {
  await yieldToLoop();
  stillOpen();
};

/**
 * The range of text keys that start with `prefix`, for an indexed `key >= lower AND key < upper`
 * (SQLite's default `BINARY` collation compares UTF-8 bytes): `upper` is `prefix` with its last
 * character raised by one. A namespace's keys all start with `…:` (see `namespaceKeyPrefix`), so
 * `upper` ends with `;`.
 *
 * @param prefix - a non-empty prefix whose last character is not the highest code unit
 * @returns the bounds
 * @example
 * ```ts
 * prefixRange('a%3Ab:'); // { lower: 'a%3Ab:', upper: 'a%3Ab;' }
 * ```
 */
export const prefixRange = (prefix: string): { readonly lower: string; readonly upper: string } => {
  const last = prefix.charCodeAt(prefix.length - 1);
  return { lower: prefix, upper: `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}` };
};

/**
 * The bound below which `updated_at` may have expired, for a `updated_at < bound` prefilter: one
 * second of margin over `now - ttl`, so the rounding of the subtraction never leaves out a record
 * that `isSessionExpired` (the one rule) calls expired. Each candidate is then checked with it.
 *
 * @example
 * ```ts
 * expiryBound(1_000, 60); // 941
 * ```
 */
export const expiryBound = (now: number, ttl: number): number => now - ttl + 1;
