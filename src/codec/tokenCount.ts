import { describeValue } from '../util/describeValue';
import { positionCodec } from './position';

/**
 * Why `value` is not a token count of a provider's reply (its `usage`), or `undefined` when it
 * is one: an integer from 0 to `Number.MAX_SAFE_INTEGER` (2^53 − 1), so counts and their sums stay
 * exact. The one rule of both reply decoders, `fromOpenAIChatCompletion` and `fromAnthropicReply`:
 * they return the same `ProviderReply`, so the same counts get the same verdict from both.
 *
 * @param value - the count as the reply gives it
 * @returns the problem (`expected an integer from 0 to 2^53 − 1, got 1e+308`), or `undefined`
 * @example
 * ```ts
 * tokenCountProblem(12); // undefined
 * tokenCountProblem(2 ** 53); // 'expected an integer from 0 to 2^53 − 1, got 9007199254740992'
 * ```
 * @internal
 */
export const tokenCountProblem = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? undefined
    : `expected an integer from 0 to 2^53 − 1, got ${describeValue(value)}`;

/**
 * A token count of a reply's `usage` ({@link tokenCountProblem}), decoded with `-0` as `0` (JSON
 * has no `-0`; `JSON.parse('-0')` makes one).
 *
 * @internal
 */
export const TokenCount = /* @__PURE__ */ positionCodec('token count', tokenCountProblem);
