import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import type { PostgresConnection } from './connection';

/**
 * Runs one batch statement of a sweep or a `deleteNamespace` again and again, each run its own
 * transaction (a single statement, committed on its own), until a run picks fewer than
 * `SWEEP_BATCH` rows: no table is held for longer than one batch takes. The statement takes
 * `values(last)`, where `last` is the last key the previous run picked (`null` at first: a cursor
 * for statements that walk a table in key order), and returns one row of `picked` (rows it looked
 * at, at most `SWEEP_BATCH`), `removed` (records it removed) and `last`.
 *
 * @returns how many records the runs removed
 * @example
 * ```ts
 * const removed = await removeInBatches(connection, api, sql.sweepBatch, (last) => [now, ttl, last]);
 * ```
 */
export const removeInBatches = async (
  connection: PostgresConnection,
  api: string,
  text: string,
  values: (last: string | null) => readonly unknown[],
): Promise<number> => {
  let removed = 0;
  let last: string | null = null;
  for (;;) {
    const [row] = await connection.query(api, true, text, values(last));
    removed += Number(row?.['removed'] ?? 0);
    const picked = Number(row?.['picked'] ?? 0);
    last = typeof row?.['last'] === 'string' ? row['last'] : null;
    if (!(picked >= SWEEP_BATCH)) return removed;
  }
};

/** `LIMIT` of every batch statement: `SWEEP_BATCH`, as a literal of the statement's text. */
export const BATCH_LIMIT = String(SWEEP_BATCH);
