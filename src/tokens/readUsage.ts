import type { CompletionUsage } from '../model/completion';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';

const hasOwn = Object.prototype.hasOwnProperty;

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * A usage as a plain, frozen `CompletionUsage`, or why it is not one (the field and the value):
 * `inputTokens` and `outputTokens` present, each count an integer from 0 to 2^53 − 1 (the reply
 * decoders' rule), and the cache reads and writes together at most `inputTokens` (they are parts
 * of it). Only own fields are read, each once; other fields are left out; `-0` is read as 0.
 *
 * @param value - a usage from a provider (a custom `Provider` is not checked otherwise) or from a
 *   message's `metadata.usage`
 * @returns the usage, or the problem (`usage.cachedInputTokens: expected an integer from 0 to 2^53 − 1, got -1`)
 * @example
 * ```ts
 * readUsage({ inputTokens: 10, outputTokens: 2, extra: 1 }); // { inputTokens: 10, outputTokens: 2 }
 * readUsage({ inputTokens: 10 }); // 'usage.outputTokens: expected an integer from 0 to 2^53 − 1, got undefined'
 * ```
 * @internal
 */
export const readUsage = (value: unknown): CompletionUsage | string => {
  if (!isPlainObject(value)) return `usage: expected an object, got ${describeValue(value)}`;
  const record = value as Record<string, unknown>;
  const read = (key: string, required: boolean): number | string | undefined => {
    const found = hasOwn.call(record, key) ? record[key] : undefined;
    if (found === undefined && !required) return undefined;
    return isCount(found)
      ? found + 0
      : `usage.${key}: expected an integer from 0 to 2^53 − 1, got ${describeValue(found)}`;
  };
  const inputTokens = read('inputTokens', true);
  const outputTokens = read('outputTokens', true);
  const cachedInputTokens = read('cachedInputTokens', false);
  const cacheWriteTokens = read('cacheWriteTokens', false);
  for (const field of [inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens]) {
    if (typeof field === 'string') return field;
  }
  const input = inputTokens as number;
  const cached = (cachedInputTokens as number | undefined) ?? 0;
  const written = (cacheWriteTokens as number | undefined) ?? 0;
  if (cached + written > input) {
    return `usage.cachedInputTokens + cacheWriteTokens: expected at most inputTokens (${input}), got ${cached + written}`;
  }
  return Object.freeze({
    inputTokens: input,
    outputTokens: outputTokens as number,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens: cached }),
    ...(cacheWriteTokens === undefined ? {} : { cacheWriteTokens: written }),
  });
};
