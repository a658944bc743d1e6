import * as t from 'io-ts';
import { describeValue } from '../util/describeValue';

/**
 * The largest `next_position` (and `nextPosition`) a file or a stored state may name: far beyond
 * any conversation (a message a microsecond for eight years), and far enough below
 * `Number.MAX_SAFE_INTEGER` that positions never stop being exact integers as messages are added.
 *
 * @internal
 */
export const MAX_NEXT_POSITION = 2 ** 48;

/**
 * The largest position a file may give a message (held or in the window) or a coverage record:
 * one below {@link MAX_NEXT_POSITION}, since the next position must lie above every position. A
 * state that loads therefore writes (with `toDict`) only numbers that load again.
 *
 * @internal
 */
export const MAX_POSITION = MAX_NEXT_POSITION - 1;

/**
 * Why `value` is not an integer from 0 to `max`, or `undefined` when it is one (`-0` is one).
 * Phrased to follow the field's name.
 *
 * @example
 * ```ts
 * positionProblem(0.5, 2 ** 48, '2^48'); // 'must be an integer from 0 to 2^48, received 0.5'
 * ```
 * @internal
 */
export const positionProblem = (value: unknown, max: number, range: string): string | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max
    ? undefined
    : `must be an integer from 0 to ${range}, received ${describeValue(value)}`;

/**
 * An io-ts codec for a position: valid when `problem` returns `undefined` (otherwise the failure
 * carries its text), and decoded with `-0` as `0`: JSON has no `-0` (`JSON.stringify(-0)` is
 * `"0"`), so what is decoded stays JSON-exact.
 *
 * @param name - the codec's name
 * @param problem - why a value is not a position, or `undefined`
 * @example
 * ```ts
 * positionCodec('position', (u) => positionProblem(u, 9, '9')).decode(-0); // Right(0)
 * ```
 * @internal
 */
export const positionCodec = (
  name: string,
  problem: (value: unknown) => string | undefined,
): t.Type<number> =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => problem(u) === undefined && !Object.is(u, -0),
    (u, c) => {
      const found = problem(u);
      return found === undefined ? t.success((u as number) + 0) : t.failure(u, c, found);
    },
    t.identity,
  );

/**
 * A position in a file: an integer from 0 to {@link MAX_POSITION}.
 *
 * @internal
 */
export const Position = /* @__PURE__ */ positionCodec('position', (u) =>
  positionProblem(u, MAX_POSITION, '2^48 − 1'),
);

/**
 * A file's next position: an integer from 0 to {@link MAX_NEXT_POSITION}.
 *
 * @internal
 */
export const NextPosition = /* @__PURE__ */ positionCodec('next position', (u) =>
  positionProblem(u, MAX_NEXT_POSITION, '2^48'),
);
