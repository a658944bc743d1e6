import { describeValue } from '../util/describeValue';
import { unknownOption } from '../util/unknownOption';
import type { MaskToolResults } from './viewTypes';

const MASK_NAMES = ['keepLast', 'keepTurns', 'untilFits'] as const;

/** What a caller probably meant inside `maskToolResults`. */
const MASK_HINTS: Readonly<Record<string, string>> = {
  last: 'keepLast',
  keep: 'keepLast',
  turns: 'keepTurns',
  lastTurns: 'keepTurns',
  fit: 'untilFits',
  toFit: 'untilFits',
  untilFit: 'untilFits',
  onlyToFit: 'untilFits',
};

/**
 * Reads a `maskToolResults` option (of `modelView`, and of the agent's config):
 * `{ keepLast?, keepTurns?, untilFits? }` with at least one, the counts integers ≥ 0, `untilFits`
 * a boolean; absent, `undefined` and `null` mean no masking. A wrong value goes to `fail` with
 * `field` and the value named. (`untilFits` needs a budget; the caller checks that.)
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
  const count = (name: 'keepLast' | 'keepTurns'): number | undefined => {
    const n = (value as Record<string, unknown>)[name];
    if (n === undefined) return undefined;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
    return fail(`${field}.${name} must be an integer ≥ 0, received ${describeValue(n)}`);
  };
  const keepLast = count('keepLast');
  const keepTurns = count('keepTurns');
  const untilFits = (value as Record<string, unknown>)['untilFits'];
  if (untilFits !== undefined && typeof untilFits !== 'boolean') {
    fail(`${field}.untilFits must be true or false, received ${describeValue(untilFits)}`);
  }
  if (keepLast === undefined && keepTurns === undefined && untilFits === undefined) {
    fail(`${field} must give keepLast, keepTurns or untilFits, received {}`);
  }
  return {
    ...(keepLast === undefined ? {} : { keepLast }),
    ...(keepTurns === undefined ? {} : { keepTurns }),
    ...(untilFits === true ? { untilFits } : {}),
  };
};
