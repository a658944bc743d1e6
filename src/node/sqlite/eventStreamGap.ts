import type { EventCorruptError } from 'conversation-memory';
import { EVENT_PAGE, type EventStatements } from './eventStatements';
import type { StreamPlace } from './eventSnapshots';
import { checkPage } from './eventStreamShape';

/**
 * Where a stream's gap may start, from its head's `gap_from` (the lowest version of an action
 * removed from it, recorded by the schema's triggers): `undefined` when none was removed, so the
 * stream is whole; else that version, or 1 when the column holds something else.
 *
 * @example
 * ```ts
 * gapFromOf(null); // undefined
 * gapFromOf(7); // 7
 * gapFromOf('x'); // 1
 * ```
 */
export const gapFromOf = (column: unknown): number | undefined => {
  if (column === null || column === undefined) return undefined;
  return typeof column === 'number' && Number.isFinite(column)
    ? Math.max(1, Math.floor(column))
    : 1;
};

/**
 * The first version missing from stream `place.id` between `from` and `to` (inside a
 * transaction), as the error `read` gives when it pages over it, or `undefined` when its actions
 * run whole there. Reads the version column only, a page at a time: called only for a stream
 * whose head records a removed action (see {@link gapFromOf}).
 *
 * @example
 * ```ts
 * const gap = gapBetween(sql, place, 3, 12);
 * if (gap !== undefined) throw gap;
 * ```
 */
export const gapBetween = (
  sql: EventStatements,
  place: StreamPlace,
  from: number,
  to: number,
): EventCorruptError | undefined => {
  for (let next = from; next <= to; next += EVENT_PAGE) {
    const want = Math.min(EVENT_PAGE, to - next + 1);
    const rows = sql.versions.all(place.id, next, to, EVENT_PAGE);
    const { gap } = checkPage(rows, next, want, { ...place, version: next });
    if (gap !== undefined) return gap;
  }
  return undefined;
};
