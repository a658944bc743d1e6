import type { PositionRun } from '../model/state';

/**
 * Positions are stored as runs: most windows hold consecutive positions (every window of the
 * default policy does), so a state keeps one small record per run instead of a number per
 * message, and an add does not copy a third array the size of the window.
 */

const run = (index: number, position: number): PositionRun => Object.freeze({ index, position });

/**
 * The position of window index `i`.
 *
 * @internal
 */
export const positionAt = (runs: readonly PositionRun[], i: number): number => {
  let k = runs.length - 1;
  while (k > 0 && (runs[k] as PositionRun).index > i) k--;
  const found = runs[k] as PositionRun;
  return found.position + (i - found.index);
};

/**
 * The positions of the first `length` messages of a window, in order.
 *
 * @internal
 */
export const positionsOf = (runs: readonly PositionRun[], length: number): number[] => {
  const positions = new Array<number>(length);
  for (let k = 0; k < runs.length; k++) {
    const { index, position } = runs[k] as PositionRun;
    if (index >= length) break;
    const end = Math.min(k + 1 < runs.length ? (runs[k + 1] as PositionRun).index : length, length);
    for (let i = index; i < end; i++) positions[i] = position + (i - index);
  }
  return positions;
};

/**
 * The runs of a list of rising positions.
 *
 * @internal
 */
export const runsOf = (positions: readonly number[]): PositionRun[] => {
  const runs: PositionRun[] = [];
  positions.forEach((position, i) => {
    if (i === 0 || position !== (positions[i - 1] as number) + 1) runs.push(run(i, position));
  });
  return runs;
};

/**
 * Whether the window holds `position`.
 *
 * @internal
 */
export const holdsPosition = (
  runs: readonly PositionRun[],
  length: number,
  position: number,
): boolean =>
  runs.some((current, k) => {
    const end = k + 1 < runs.length ? (runs[k + 1] as PositionRun).index : length;
    return position >= current.position && position < current.position + (end - current.index);
  });

/**
 * The runs of `held[cut..] ++ incoming`, where the incoming messages take positions
 * `incomingStart`, `incomingStart + 1`, …: O(runs). The same array comes back when nothing
 * changes (no cut, and the incoming positions continue the last run).
 *
 * @internal
 */
export const runsAfterPrefixCut = (
  runs: readonly PositionRun[],
  heldLength: number,
  cut: number,
  incomingStart: number,
  incomingCount: number,
): readonly PositionRun[] => {
  if (cut >= heldLength) {
    const kept = heldLength + incomingCount - cut;
    return kept > 0 ? [run(0, incomingStart + (cut - heldLength))] : [];
  }
  let next: readonly PositionRun[] = runs;
  if (cut > 0) {
    let k = runs.length - 1;
    while (k > 0 && (runs[k] as PositionRun).index > cut) k--;
    const first = runs[k] as PositionRun;
    const shifted = [run(0, first.position + (cut - first.index))];
    for (let j = k + 1; j < runs.length; j++) {
      const { index, position } = runs[j] as PositionRun;
      shifted.push(run(index - cut, position));
    }
    next = shifted;
  }
  if (incomingCount === 0) return next;
  const keptHeld = heldLength - cut;
  const last = next[next.length - 1] as PositionRun;
  const lastPosition = last.position + (keptHeld - 1 - last.index);
  if (lastPosition + 1 === incomingStart) return next;
  return [...next, run(keptHeld, incomingStart)];
};
