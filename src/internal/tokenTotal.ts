import { TokenizerError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';

/**
 * Adds a message's count to a window's running total, which must stay a safe integer: past
 * `Number.MAX_SAFE_INTEGER` sums stop being exact and `totalTokens` would drift from the sum of
 * `tokenCounts`. Only a custom tokenizer returning huge counts gets there.
 *
 * @throws TokenizerError naming the tokenizer when the total would pass the bound
 * @internal
 */
export const addToTotal = (
  total: number,
  count: number,
  tokenizer: string,
  api: string,
): number => {
  const next = total + count;
  if (next > Number.MAX_SAFE_INTEGER) {
    throw new TokenizerError(
      api,
      `the window's token total with tokenizer ${describeValue(tokenizer)} would pass Number.MAX_SAFE_INTEGER (${Number.MAX_SAFE_INTEGER}); a tokenizer's counts must keep totals exact`,
    );
  }
  return next;
};
