import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';

/**
 * What the SQLite retention tests share: a second connection to a store's file (another program,
 * reading and writing the tables directly), a helper that runs a step at every turn of the event
 * loop while a store call runs (a concurrent reader or writer in the same process, which gets the
 * database between two of the call's transactions), and the rule that checks a removal went in
 * bounded batches.
 */

/**
 * Opens a second connection to `file`, closed after the test file.
 *
 * @example
 * ```ts
 * const db = sideConnection(file);
 * db.prepare('SELECT count(*) FROM sessions').pluck().get();
 * ```
 */
export const sideConnection = (file: string): Database.Database => {
  const db = new Database(file);
  // A statement meets a held lock at once (SQLITE_BUSY), so a test sees when it is held.
  db.pragma('busy_timeout = 0');
  afterAll(() => db.close());
  return db;
};

/**
 * Runs `work`, and `step` once before it starts and then at every turn of the event loop until it
 * ends (so between any two of its transactions, which are synchronous); resolves to what `work`
 * resolved to. A step that throws fails the whole (after `work` ends).
 *
 * @example
 * ```ts
 * const seen: number[] = [];
 * await atEveryTurn(() => store.sweep(), () => void seen.push(countRows()));
 * ```
 */
export const atEveryTurn = async <T>(
  work: () => Promise<T>,
  step: () => void | Promise<void>,
): Promise<T> => {
  let done = false;
  const loop = (async () => {
    while (!done) {
      await step();
      await nextTurn();
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await loop;
  }
};

/**
 * Whether a row count seen during a removal of `total` rows is one a removal in batches of exactly
 * `batch` rows (the last one smaller) can show: `total - k × batch` for a whole `k`, or 0.
 *
 * @example
 * ```ts
 * batchStep(1501, 1001, 500); // true
 * batchStep(1501, 1201, 500); // false: 300 rows went in one transaction
 * ```
 */
export const batchStep = (total: number, seen: number, batch: number): boolean =>
  seen === 0 || (seen <= total && (total - seen) % batch === 0);
