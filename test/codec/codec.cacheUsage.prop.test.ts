/**
 * Cache counts in a reply's usage (issue #29 §3): `cachedInputTokens` and `cacheWriteTokens`,
 * read from each provider's own fields, with `inputTokens` meaning the same for all three readers
 * (every input token, cached or not: OpenAI's `prompt_tokens` includes the cached tokens,
 * Anthropic's `input_tokens` excludes them). Every count is hostile: any value is tried, and the
 * verdict is the rule (a safe integer ≥ 0, `null` for "not said" where the provider sends it).
 */
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropicReply,
  fromOpenAIChatCompletion,
  isConversationMemoryError,
} from 'conversation-memory';
import { toCompletionResult } from 'conversation-memory/ai-sdk';

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 53 - 1;

/** Counts, nulls, absences and values that are no count. */
const fieldArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 100_000 }) },
  { weight: 1, arbitrary: fc.maxSafeNat() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(null, undefined, -1, 0.5, -0, 2 ** 53, Number.NaN, '7', true),
  },
);

const anthropic = (usage: Record<string, unknown>) =>
  fromAnthropicReply({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: 'Hi' }],
    stop_reason: 'end_turn',
    usage,
  });

const openai = (usage: Record<string, unknown>) =>
  fromOpenAIChatCompletion({
    choices: [{ message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
    usage,
  });

const defined = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));

describe('Anthropic: cache_read_input_tokens and cache_creation_input_tokens', () => {
  it('inputTokens adds the cached tokens to input_tokens; each count is checked', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000_000 }),
        fieldArb,
        fieldArb,
        fc.nat({ max: 1000 }),
        (input, read, write, output) => {
          const reply = anthropic(
            defined({
              input_tokens: input,
              output_tokens: output,
              cache_read_input_tokens: read,
              cache_creation_input_tokens: write,
            }),
          );
          const ok = (v: unknown) => v === undefined || v === null || isCount(v);
          const sum = input + (isCount(read) ? read : 0) + (isCount(write) ? write : 0);
          const valid = ok(read) && ok(write) && Number.isSafeInteger(sum);
          expect(E.isRight(reply)).toBe(valid);
          if (E.isRight(reply)) {
            expect(reply.right.usage).toEqual({
              inputTokens: sum,
              outputTokens: output,
              ...(isCount(read) ? { cachedInputTokens: read + 0 } : {}),
              ...(isCount(write) ? { cacheWriteTokens: write + 0 } : {}),
            });
          } else {
            expect(reply.left.problems.length).toBeGreaterThan(0);
            expect(reply.left.problems.every((p) => p.startsWith('usage'))).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the refusals, by value', () => {
    const over = anthropic({
      input_tokens: 2 ** 52,
      output_tokens: 1,
      cache_read_input_tokens: 2 ** 52,
      cache_creation_input_tokens: 0,
    });
    expect(E.isLeft(over) && over.left.problems).toEqual([
      'usage: expected input_tokens + cache_read_input_tokens + cache_creation_input_tokens at most 2^53 − 1, got 9007199254740992',
    ]);
    const negative = anthropic({ input_tokens: 3, output_tokens: 1, cache_read_input_tokens: -5 });
    expect(E.isLeft(negative) && negative.left.problems).toEqual([
      'usage.cache_read_input_tokens: expected an integer from 0 to 2^53 − 1, got -5',
    ]);
  });
});

describe('OpenAI: prompt_tokens_details.cached_tokens', () => {
  it('cachedInputTokens is cached_tokens, part of prompt_tokens (inputTokens as given)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fieldArb, fc.boolean(), (prompt, cached, details) => {
        const usage = defined({
          prompt_tokens: prompt,
          completion_tokens: 4,
          prompt_tokens_details: details ? defined({ cached_tokens: cached }) : null,
        });
        const reply = openai(usage);
        const given = details && isCount(cached);
        const valid =
          !details ||
          cached === undefined ||
          cached === null ||
          (isCount(cached) && cached <= prompt);
        expect(E.isRight(reply)).toBe(valid);
        if (E.isRight(reply)) {
          expect(reply.right.usage).toEqual({
            inputTokens: prompt,
            outputTokens: 4,
            ...(given ? { cachedInputTokens: (cached as number) + 0 } : {}),
          });
        } else {
          expect(reply.left.problems).toHaveLength(1);
          expect(reply.left.problems[0]).toMatch(/^usage\.prompt_tokens_details\.cached_tokens: /);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the refusals, by value', () => {
    const more = openai({
      prompt_tokens: 10,
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 12 },
    });
    expect(E.isLeft(more) && more.left.problems).toEqual([
      'usage.prompt_tokens_details.cached_tokens: expected at most prompt_tokens (10), got 12',
    ]);
    const bad = openai({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: 'x' });
    expect(E.isLeft(bad)).toBe(true);
  });
});

describe('AI SDK: inputTokenDetails.cacheReadTokens and cacheWriteTokens', () => {
  const result = (usage: unknown) => toCompletionResult({ text: 'Hi', toolCalls: [], usage });
  const thrown = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (isConversationMemoryError(error)) return error.detail;
      throw error;
    }
    return 'no error';
  };

  it('reads the details (and the deprecated cachedInputTokens); checks each count', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fieldArb, fieldArb, fieldArb, (input, r, w, old) => {
        const usage = defined({
          inputTokens: input,
          outputTokens: 2,
          inputTokenDetails: defined({
            noCacheTokens: undefined,
            cacheReadTokens: r,
            cacheWriteTokens: w,
          }),
          cachedInputTokens: old,
        });
        const ok = (v: unknown) => v === undefined || isCount(v);
        const read = isCount(r) ? r + 0 : r === undefined && isCount(old) ? old + 0 : undefined;
        const written = isCount(w) ? w + 0 : undefined;
        const valid =
          ok(r) && ok(w) && (r !== undefined || ok(old)) && (read ?? 0) + (written ?? 0) <= input;
        if (!valid) {
          expect(thrown(() => result(usage))).toMatch(/^usage\./);
          return;
        }
        expect(result(usage).usage).toEqual({
          inputTokens: input,
          outputTokens: 2,
          ...(read === undefined ? {} : { cachedInputTokens: read }),
          ...(written === undefined ? {} : { cacheWriteTokens: written }),
        });
      }),
      { numRuns: 400 },
    );
  });

  it('the refusals, by value', () => {
    expect(
      thrown(() =>
        result({ inputTokens: 5, outputTokens: 1, inputTokenDetails: { cacheReadTokens: 0.5 } }),
      ),
    ).toBe(
      'usage.inputTokenDetails.cacheReadTokens: expected an integer from 0 to 2^53 − 1, received 0.5',
    );
    expect(thrown(() => result({ inputTokens: 5, outputTokens: 1, inputTokenDetails: 3 }))).toBe(
      'usage.inputTokenDetails: expected an object, received 3',
    );
  });
});
