import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';

/**
 * The argument checks of the summary reducers, shared with their action creators, so that an
 * action the reducer would refuse is refused where it is made (`memoryActions.summaryApplied(5)`
 * throws at once, not when a store applies it). Each throws `MemoryArgumentError` naming the
 * argument and the value, and returns the value when it is valid.
 */

/**
 * `text` of `applySummary` and `commitSummary`: a string.
 *
 * @example
 * ```ts
 * summaryText('applySummary', 'S'); // 'S'
 * summaryText('applySummary', 5); // throws '… applySummary: text must be a string, received 5'
 * ```
 * @internal
 */
export const summaryText = (api: string, text: unknown): string => {
  if (typeof text !== 'string') {
    throw new MemoryArgumentError(api, `text must be a string, received ${describeValue(text)}`);
  }
  return text;
};

/**
 * `text` of `setSummary`: a string, or `null` to remove the summary.
 *
 * @example
 * ```ts
 * summaryTextOrNull('setSummary', null); // null
 * ```
 * @internal
 */
export const summaryTextOrNull = (api: string, text: unknown): string | null => {
  if (text !== null && typeof text !== 'string') {
    throw new MemoryArgumentError(
      api,
      `text must be a string or null, received ${describeValue(text)}`,
    );
  }
  return text;
};

/**
 * `through` of `commitSummary`: a safe integer (one below every held position commits nothing;
 * `-0` is returned as `0`, so an action that carries it stays JSON-exact). `decodeAction` reads
 * back the same values.
 *
 * @example
 * ```ts
 * summaryThrough('commitSummary', 3); // 3
 * ```
 * @internal
 */
export const summaryThrough = (api: string, through: unknown): number => {
  if (!Number.isSafeInteger(through)) {
    throw new MemoryArgumentError(
      api,
      `through must be an integer position, received ${describeValue(through)}`,
    );
  }
  return (through as number) + 0;
};
