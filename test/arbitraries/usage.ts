import fc from 'fast-check';
import type { Message } from 'conversation-memory';

/**
 * Usages as an assistant message's `metadata.usage` records them (issue #29 §3, `usageOf`): valid
 * ones (`inputTokens` and `outputTokens`, the cache fields optional and within `inputTokens`) and
 * the ways one is not valid (a field out of the count rule or missing, the cache fields over
 * `inputTokens`, not an object at all), as an application's own metadata might hold them. JSON
 * values only: metadata is JSON.
 */

/** A valid usage, with or without the cache fields. */
export const validUsageArb: fc.Arbitrary<Record<string, number>> = fc
  .record({
    inputTokens: fc.nat({ max: 200_000 }),
    outputTokens: fc.nat({ max: 20_000 }),
    cachedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    writeShare: fc.double({ min: 0, max: 1, noNaN: true }),
    cached: fc.boolean(),
    written: fc.boolean(),
  })
  .map(({ inputTokens, outputTokens, cachedShare, writeShare, cached, written }) => {
    const cachedInputTokens = Math.floor(inputTokens * cachedShare);
    const cacheWriteTokens = Math.floor((inputTokens - cachedInputTokens) * writeShare);
    return {
      inputTokens,
      outputTokens,
      ...(cached ? { cachedInputTokens } : {}),
      ...(written ? { cacheWriteTokens } : {}),
    };
  });

/** A value that breaks the count rule (JSON: no NaN, no infinities, no -0 survives JSON). */
const badCountArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -1_000, max: -1 }),
  fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
  fc.integer({ min: 1, max: 1_000 }).map((k) => Number.MAX_SAFE_INTEGER + 2 * k),
  fc.constantFrom('12', null, true, [3], { n: 1 }),
);

const FIELDS = ['inputTokens', 'outputTokens', 'cachedInputTokens', 'cacheWriteTokens'] as const;

/** A usage that is not valid, in each of the ways one can fail. */
export const invalidUsageArb: fc.Arbitrary<unknown> = fc.oneof(
  // One field breaks the count rule.
  fc
    .tuple(validUsageArb, fc.constantFrom(...FIELDS), badCountArb)
    .map(([usage, field, bad]) => ({ ...usage, [field]: bad })),
  // A required field is missing.
  fc
    .tuple(validUsageArb, fc.constantFrom('inputTokens', 'outputTokens'))
    .map(([usage, field]) =>
      Object.fromEntries(Object.entries(usage).filter(([k]) => k !== field)),
    ),
  // The cache reads and writes exceed inputTokens.
  fc
    .record({ inputTokens: fc.nat({ max: 1000 }), extra: fc.integer({ min: 1, max: 1000 }) })
    .map(({ inputTokens, extra }) => ({
      inputTokens,
      outputTokens: 1,
      cachedInputTokens: inputTokens,
      cacheWriteTokens: extra,
    })),
  // Not an object.
  fc.constantFrom(null, 0, 12, 'usage', true, [], [1, 2], { usage: 1 }),
);

/** Mostly valid usages, some invalid. */
export const anyUsageArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: validUsageArb, weight: 3 },
  { arbitrary: invalidUsageArb, weight: 2 },
);

/**
 * A conversation whose messages now and then carry a `metadata.usage`: assistant messages mostly
 * a valid one (as the agent records it), other messages sometimes one too (ignored: only
 * assistant messages record calls), some an invalid one, some other metadata.
 */
export const usageConversationArb = (
  conversation: fc.Arbitrary<Message[]>,
): fc.Arbitrary<Message[]> =>
  conversation.chain((messages) =>
    fc
      .tuple(
        ...messages.map((message) =>
          fc.oneof(
            { arbitrary: fc.constant(undefined), weight: message.role === 'assistant' ? 1 : 6 },
            { arbitrary: validUsageArb, weight: message.role === 'assistant' ? 5 : 1 },
            { arbitrary: invalidUsageArb, weight: 1 },
          ),
        ),
      )
      .map((usages) =>
        messages.map((message, i) =>
          usages[i] === undefined
            ? message
            : { ...message, metadata: { usage: usages[i] as never, note: 'kept' } },
        ),
      ),
  );
