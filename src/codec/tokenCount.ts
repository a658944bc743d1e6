import * as t from 'io-ts';
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

/**
 * A token count a reply may leave out by sending `null` (Anthropic's `cache_read_input_tokens`
 * and `cache_creation_input_tokens`, OpenAI's `prompt_tokens_details.cached_tokens`): `null`, or a
 * count by {@link tokenCountProblem} (`-0` as `0`).
 *
 * @internal
 */
export const NullableTokenCount: t.Type<number | null> = /* @__PURE__ */ new t.Type<
  number | null,
  number | null,
  unknown
>(
  'token count or null',
  (u): u is number | null =>
    u === null || (tokenCountProblem(u) === undefined && !Object.is(u, -0)),
  (u, c) => {
    if (u === null) return t.success(null);
    const found = tokenCountProblem(u);
    return found === undefined ? t.success((u as number) + 0) : t.failure(u, c, found);
  },
  t.identity,
);
