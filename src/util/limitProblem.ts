import { describeValue, received } from './describeValue';

/**
 * Why a limit value is invalid, or `undefined` when it is an integer ≥ 1. The reference's own
 * check (`< 1`) comes before the integer check, so `0.5` reads "must be at least 1" there and here.
 * Phrased to follow the field's name (`maxMessages must be at least 1, received 0`).
 *
 * @internal
 */
export const limitProblem = (value: unknown): string | undefined => {
  if (value === undefined) return 'is required (an integer ≥ 1)';
  if (typeof value !== 'number') return `must be a number, ${received(value)}`;
  if (Number.isNaN(value)) return 'must be a finite integer, received NaN';
  if (value < 1) return `must be at least 1, received ${describeValue(value)}`;
  if (!Number.isFinite(value)) return `must be a finite integer, received ${describeValue(value)}`;
  if (!Number.isInteger(value)) return `must be an integer, received ${describeValue(value)}`;
  if (!Number.isSafeInteger(value))
    return `must be a safe integer, received ${describeValue(value)}`;
  return undefined;
};

/**
 * {@link limitProblem} for a limit that may be `null` (no limit).
 *
 * @internal
 */
export const nullableLimitProblem = (value: unknown): string | undefined =>
  value === null ? undefined : limitProblem(value);
