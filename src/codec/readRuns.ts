import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import type { PositionRun } from '../model/state';
import type { ProblemList } from './budget';
import { MAX_POSITION, positionProblem } from './position';
import { ItemProblem, readItems } from './readItems';

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The `positionRuns` of a stored state, checked: a list of at most one run per message (refused
 * at once when longer, before any run is read), at least one for a non-empty window; each run a
 * `{ index, position }` whose index is 0 for the first run and rises below `length`, and whose
 * position is an integer from 0 to 2^48 − 1 (`-0` reads as `0`). Each field is read once. That
 * the positions rise from run to run is checked afterwards, on the positions they expand to.
 *
 * @param runs - the stored `positionRuns`
 * @param length - how many messages the window holds
 * @param found - the decode call's problems
 * @returns the runs read (complete only when `found` got no new problem)
 * @example
 * ```ts
 * readRuns([{ index: 0, position: 7 }], 2, new ProblemList()); // [{ index: 0, position: 7 }]
 * ```
 * @internal
 */
export const readRuns = (runs: unknown, length: number, found: ProblemList): PositionRun[] => {
  if (!Array.isArray(runs)) {
    found.add(`positionRuns: expected a list of { index, position }, got ${describeValue(runs)}`);
    return [];
  }
  const count = (runs as readonly unknown[]).length;
  if (count > length) {
    found.add(`positionRuns: expected at most one run per message (${length}), received ${count}`);
    return [];
  }
  if (length > 0 && count === 0) {
    found.add('positionRuns: expected at least one run for a non-empty window');
    return [];
  }
  let previous = -1;
  const read = readItems(runs as readonly unknown[], 'positionRuns', found, (run, i) => {
    if (!isPlainObject(run)) {
      throw new ItemProblem(
        `positionRuns[${i}]: expected { index, position }, got ${describeValue(run)}`,
      );
    }
    const index = own(run, 'index');
    const position = own(run, 'position');
    const lowest = i === 0 ? 0 : previous + 1;
    const highest = i === 0 ? 0 : length - 1;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < lowest ||
      index > highest
    ) {
      const range =
        i === 0
          ? 'must be 0 (the first run starts the window)'
          : `must be an integer from ${lowest} to ${highest}`;
      throw new ItemProblem(`positionRuns[${i}].index ${range}, received ${describeValue(index)}`);
    }
    const problem = positionProblem(position, MAX_POSITION, '2^48 − 1');
    if (problem !== undefined) throw new ItemProblem(`positionRuns[${i}].position ${problem}`);
    previous = index;
    return Object.freeze({ index: index + 0, position: (position as number) + 0 });
  });
  return read.items;
};
