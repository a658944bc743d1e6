import type { PositionRun } from '../model/state';

/** The run holding index `i` (the last run starting at or before it), by binary search. */
const runOfIndex = (runs: readonly PositionRun[], i: number): PositionRun => {
  let low = 0;
  let high = runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((runs[middle] as PositionRun).index <= i) low = middle;
    else high = middle - 1;
  }
  return runs[low] as PositionRun;
};

/**
 * The position of the window's message at index `i`, in O(log runs) (a window trimmed in the
 * middle, as redundancy pruning does, has many runs).
 *
 * @internal
 */
export const positionAtIndex = (runs: readonly PositionRun[], i: number): number => {
  const run = runOfIndex(runs, i);
  return run.position + (i - run.index);
};

/**
 * The index of the window's message at `position`, or -1 when the window (of `length` messages)
 * does not hold it; O(log runs).
 *
 * @internal
 */
export const indexOfPosition = (
  runs: readonly PositionRun[],
  length: number,
  position: number,
): number => {
  if (runs.length === 0) return -1;
  let low = 0;
  let high = runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((runs[middle] as PositionRun).position <= position) low = middle;
    else high = middle - 1;
  }
  const run = runs[low] as PositionRun;
  if (run.position > position) return -1;
  const end = low + 1 < runs.length ? (runs[low + 1] as PositionRun).index : length;
  const index = run.index + (position - run.position);
  return index < end ? index : -1;
};
