/**
 * The usage counts of a provider's reply (issue #27 §16): `fromOpenAIChatCompletion` and
 * `fromAnthropicReply` return the same `ProviderReply`, so they apply one rule to its counts, an
 * integer from 0 to 2^53 − 1 (a safe integer: counts and their sums stay exact). Over any numbers
 * (fractions, negatives, past `MAX_SAFE_INTEGER`, `NaN`, `±Infinity`, `-0`) and values that are
 * not numbers, both decoders give the same verdict, the verdict is that rule, an accepted count is
 * the number given (`-0` as `0`, as JSON would carry it), and a refused one is named by its path
 * and value.
 */
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import { fromAnthropicReply, fromOpenAIChatCompletion } from 'conversation-memory';

/** Any count a reply might hold: mostly numbers at and around the edges of the rule. */
const countArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.nat({ max: 1_000_000 }),
  fc.integer({ min: -1_000, max: -1 }),
  fc.maxSafeNat(),
  fc.integer({ min: 1, max: 1_000 }).map((k) => Number.MAX_SAFE_INTEGER + k),
  fc.double({ noNaN: false }),
  fc.constantFrom(
    0,
    -0,
    0.5,
    -1,
    2 ** 53 - 1,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 64,
    1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.EPSILON,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
  fc.constantFrom('12', null, true, [3], { n: 1 }, 10n),
);

/** The rule, stated apart from the code under test. */
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 53 - 1;

const openai = (input: unknown, output: unknown) =>
  fromOpenAIChatCompletion({
    choices: [{ message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: 0 },
  });

const anthropic = (input: unknown, output: unknown) =>
  fromAnthropicReply({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: 'Hi' }],
    stop_reason: 'stop',
    usage: { input_tokens: input, output_tokens: output },
  });

describe('usage counts: one rule for both reply decoders', () => {
  it('both give the same verdict, and it is "an integer from 0 to 2^53 − 1"', () => {
    fc.assert(
      fc.property(countArb, countArb, (input, output) => {
        const fromOpenAI = openai(input, output);
        const fromAnthropic = anthropic(input, output);
        const valid = isCount(input) && isCount(output);
        expect(E.isRight(fromOpenAI)).toBe(valid);
        expect(E.isRight(fromAnthropic)).toBe(valid);
        if (E.isRight(fromOpenAI) && E.isRight(fromAnthropic)) {
          // The same ProviderReply, with the counts given (-0 read as 0).
          expect(fromOpenAI.right).toEqual(fromAnthropic.right);
          const usage = fromAnthropic.right.usage;
          // toEqual tells -0 from 0: `+ 0` turns -0 into 0 and keeps every other count.
          expect(usage).toEqual({
            inputTokens: (input as number) + 0,
            outputTokens: (output as number) + 0,
          });
          return;
        }
        // A refused count is named by its path and the value, in the same words by both.
        const problems = (reply: typeof fromOpenAI) =>
          E.isLeft(reply) ? reply.left.problems.filter((p) => p.startsWith('usage.')) : [];
        const expected = (names: readonly [string, string]) =>
          (
            [
              [names[0], input],
              [names[1], output],
            ] as const
          )
            .filter(([, value]) => !isCount(value))
            .map(([name]) => `usage.${name}: expected an integer from 0 to 2^53 − 1, got `);
        const strip = (list: readonly string[]) => list.map((p) => p.replace(/got .*$/, 'got '));
        expect(strip(problems(fromOpenAI))).toEqual(
          expected(['prompt_tokens', 'completion_tokens']),
        );
        expect(strip(problems(fromAnthropic))).toEqual(expected(['input_tokens', 'output_tokens']));
        expect(problems(fromOpenAI).map((p) => p.replace(/^[^:]*:/, ''))).toEqual(
          problems(fromAnthropic).map((p) => p.replace(/^[^:]*:/, '')),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('the edges, by value: 2^53 − 1 is a count; 2^53 and 1e308 are not, for either decoder', () => {
    for (const [value, valid] of [
      [2 ** 53 - 1, true],
      [2 ** 53, false],
      [1e308, false],
      [-0, true],
      [0.5, false],
      [Number.NaN, false],
      [Number.POSITIVE_INFINITY, false],
    ] as const) {
      expect([E.isRight(openai(value, 1)), E.isRight(anthropic(value, 1))]).toEqual([valid, valid]);
    }
    const refused = anthropic(2 ** 53, 1e308);
    expect(E.isLeft(refused) && refused.left.problems).toEqual([
      'usage.input_tokens: expected an integer from 0 to 2^53 − 1, got 9007199254740992',
      'usage.output_tokens: expected an integer from 0 to 2^53 − 1, got 1e+308',
    ]);
  });
});
