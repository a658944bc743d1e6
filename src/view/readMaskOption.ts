import { describeValue } from '../util/describeValue';
import { unknownOption } from '../util/unknownOption';
import type { MaskToolResults } from './viewTypes';

const MASK_NAMES = ['keepLast', 'keepTurns'] as const;

/** What a caller probably meant inside `maskToolResults`. */
const MASK_HINTS: Readonly<Record<string, string>> = {
  last: 'keepLast',
  keep: 'keepLast',
  turns: 'keepTurns',
  lastTurns: 'keepTurns',
};

/**
 * Reads a `maskToolResults` option (of `modelView`, and of the agent's config):
 * `{ keepLast?, keepTurns? }` with at least one, each an integer ≥ 0; absent, `undefined` and
 * `null` mean no masking. A wrong value goes to `fail` with `field` and the value named.
 *
 * @internal
 */
export const readMaskOption = (
  value: unknown,
  field: string,
  fail: (what: string) => never,
): MaskToolResults | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    return fail(
      `${field} must be an object such as { keepLast: 3 }, received ${describeValue(value)}`,
    );
  }
  const unknown = unknownOption(value, MASK_NAMES, field, MASK_HINTS);
  if (unknown !== undefined) fail(unknown);
  const count = (name: (typeof MASK_NAMES)[number]): number | undefined => {
    const n = (value as Record<string, unknown>)[name];
    if (n === undefined) return undefined;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
    return fail(`${field}.${name} must be an integer ≥ 0, received ${describeValue(n)}`);
  };
  const keepLast = count('keepLast');
  const keepTurns = count('keepTurns');
  if (keepLast === undefined && keepTurns === undefined) {
    fail(`${field} must give keepLast, keepTurns or both (integers ≥ 0), received {}`);
  }
  return {
    ...(keepLast === undefined ? {} : { keepLast }),
    ...(keepTurns === undefined ? {} : { keepTurns }),
  };
};
