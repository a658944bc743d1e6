/**
 * `estimateCost(usage, prices)` (issue #29 §3): prices per million tokens for plain input, cached
 * input, cache writes and output; the input tokens neither read nor written are the plain ones.
 * Hostile prices and usages are a `MemoryArgumentError` naming the field and the value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from 'conversation-memory';
import { estimateCost, type TokenPrices } from 'conversation-memory/tokens';

const sonnet: TokenPrices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };

const detail = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (isConversationMemoryError(error) && error.code === 'CM_ARGUMENT') return error.detail;
    throw error;
  }
  throw new Error('expected a MemoryArgumentError');
};

describe('estimateCost', () => {
  it('prices each part of the input at its own rate', () => {
    const usage = {
      inputTokens: 10_000,
      cachedInputTokens: 8_000,
      cacheWriteTokens: 1_000,
      outputTokens: 500,
    };
    expect(estimateCost(usage, sonnet)).toBeCloseTo(0.01665, 12);
    // Without cache counts, every input token is plain input.
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 0 }, sonnet)).toBe(3);
    expect(estimateCost({ inputTokens: 0, outputTokens: 1_000_000 }, sonnet)).toBe(15);
  });

  it('property: the cost is linear in each count, and a cache read costs cachedInput, not input', () => {
    const count = fc.nat({ max: 10_000_000 });
    fc.assert(
      fc.property(count, count, count, count, (plain, cached, written, output) => {
        const usage = {
          inputTokens: plain + cached + written,
          cachedInputTokens: cached,
          cacheWriteTokens: written,
          outputTokens: output,
        };
        const expected = (plain * 3 + cached * 0.3 + written * 3.75 + output * 15) / 1e6;
        expect(estimateCost(usage, sonnet)).toBeCloseTo(expected, 9);
        // Reading from the cache never costs more than sending the tokens plainly.
        const uncached = { inputTokens: usage.inputTokens, outputTokens: output };
        expect(estimateCost(usage, { ...sonnet, cacheWrite: 3 })).toBeLessThanOrEqual(
          estimateCost(uncached, sonnet) + 1e-9,
        );
      }),
    );
  });

  it('refuses hostile prices, naming the field and the value', () => {
    const usage = { inputTokens: 1, outputTokens: 1 };
    const cases: readonly [unknown, string][] = [
      [null, 'prices must be an object, received null'],
      [
        { ...sonnet, input: -1 },
        'prices.input must be a finite number of at least 0 (per million tokens), received -1',
      ],
      [
        { ...sonnet, cachedInput: Number.NaN },
        'prices.cachedInput must be a finite number of at least 0 (per million tokens), received NaN',
      ],
      [
        { ...sonnet, cacheWrite: '3.75' },
        'prices.cacheWrite must be a finite number of at least 0 (per million tokens), received "3.75"',
      ],
      [
        { input: 3, cachedInput: 0.3, cacheWrite: 3.75 },
        'prices.output must be a finite number of at least 0 (per million tokens), received undefined',
      ],
      [
        { ...sonnet, output: Number.POSITIVE_INFINITY },
        'prices.output must be a finite number of at least 0 (per million tokens), received Infinity',
      ],
    ];
    for (const [prices, text] of cases) {
      expect(detail(() => estimateCost(usage, prices as TokenPrices))).toBe(text);
    }
  });

  it('refuses a usage that is not one', () => {
    expect(detail(() => estimateCost({ inputTokens: -3, outputTokens: 1 }, sonnet))).toBe(
      'usage.inputTokens: expected an integer from 0 to 2^53 − 1, got -3',
    );
    expect(
      detail(() => estimateCost({ inputTokens: 5, cachedInputTokens: 6, outputTokens: 1 }, sonnet)),
    ).toBe('usage.cachedInputTokens + cacheWriteTokens: expected at most inputTokens (5), got 6');
  });
});
