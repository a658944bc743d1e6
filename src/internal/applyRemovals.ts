import type { PositionRun } from '../model/state';

/**
 * The kept ranges of a sequence of `size` items once the `removed` indices (ascending) are taken
 * out, as `[start, end)` pairs: a plan that removes a few messages (a unit behind a pinned system
 * message, an orphan at the tail) keeps a few long ranges, copied with `slice` and `concat`
 * rather than item by item.
 *
 * @internal
 */
export const keptRanges = (size: number, removed: readonly number[]): [number, number][] => {
  const ranges: [number, number][] = [];
  let start = 0;
  for (const index of removed) {
    if (index > start) ranges.push([start, index]);
    start = index + 1;
  }
  if (start < size) ranges.push([start, size]);
  return ranges;
};

/**
 * The items of `held ++ incoming` in the given ranges, in one new array.
 *
 * @internal
 */
export const sliceRanges = <T>(
  held: readonly T[],
  incoming: readonly T[],
  ranges: readonly (readonly [number, number])[],
): T[] => {
  const h = held.length;
  const parts: T[][] = [];
  for (const [start, end] of ranges) {
    if (end <= h) parts.push(held.slice(start, end));
    else if (start >= h) parts.push(incoming.slice(start - h, end - h));
    else parts.push(held.slice(start), incoming.slice(0, end - h));
  }
  const [first, ...rest] = parts;
  return first === undefined ? [] : first.concat(...rest);
};

/**
 * The position runs of the kept ranges: held positions from `runs`, incoming ones from
 * `incomingStart` on. O(ranges × runs).
 *
 * @internal
 */
export const runsOfRanges = (
  runs: readonly PositionRun[],
  heldLength: number,
  incomingStart: number,
  ranges: readonly (readonly [number, number])[],
): PositionRun[] => {
  const out: PositionRun[] = [];
  let index = 0;
  let previous = Number.NaN;
  const take = (position: number, count: number): void => {
    if (position !== previous + 1) out.push(Object.freeze({ index, position }));
    index += count;
    previous = position + count - 1;
  };
  for (const [start, end] of ranges) {
    const heldEnd = Math.min(end, heldLength);
    for (let k = 0; k < runs.length && start < heldEnd; k++) {
      const run = runs[k] as PositionRun;
      const runEnd = k + 1 < runs.length ? (runs[k + 1] as PositionRun).index : heldLength;
      const from = Math.max(start, run.index);
      const to = Math.min(heldEnd, runEnd);
      if (from < to) take(run.position + (from - run.index), to - from);
    }
    const from = Math.max(start, heldLength);
    if (from < end) take(incomingStart + (from - heldLength), end - from);
  }
  return out;
};
