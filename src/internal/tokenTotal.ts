import { describeValue } from './describeValue';

/**
 * Why a window cannot take more tokens: its total would pass `Number.MAX_SAFE_INTEGER`, where
 * sums stop being exact and `totalTokens` would drift from the sum of `tokenCounts`. Only a
 * custom tokenizer returning huge counts gets there.
 *
 * @internal
 */
export const totalTooLarge = (tokenizer: string): string =>
  `the window's token total with tokenizer ${describeValue(tokenizer)} would pass Number.MAX_SAFE_INTEGER (${Number.MAX_SAFE_INTEGER}); a tokenizer's counts must keep totals exact`;
