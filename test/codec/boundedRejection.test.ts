import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  decodeConfig,
  fromDict,
  InvalidMessageError,
  MemoryDecodeError,
} from 'conversation-memory';
import { MAX_INSPECTED_PROBLEMS, ProblemBudget } from '../../src/codec/budget';
import { persistedMemoryCodec } from '../../src/codec/persisted';

/**
 * Rejecting input costs time linear in its size and memory bounded by a cap, whatever the input:
 * a decoder stops inspecting list items after 1,000 failures instead of building an error for each
 * of a million (or of the 2^32 − 1 holes of a sparse array). Errors list the first 20 real problems
 * and say how many there were.
 */

const left = <L, R>(result: E.Either<L, R>): L => {
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left;
};

const sparse = (): unknown[] => {
  const holes: unknown[] = [];
  holes.length = 2 ** 32 - 1;
  return holes;
};

describe('problems are real problems; the total is reported beside them', () => {
  it('50 bad messages: 20 listed, problemCount 50, the message says 30 were left out', () => {
    const error = left(
      fromDict({ max_messages: 5, messages: Array.from({ length: 50 }, (_, i) => ({ role: i })) }),
    );
    expect(error.problems).toHaveLength(20);
    expect(error.problems.every((line) => /^messages\[\d+\]\.role: expected /.test(line))).toBe(
      true,
    );
    expect(error.problemCount).toBe(50);
    expect(error.countComplete).toBe(true);
    expect(error.message.endsWith('\n  … and 30 more problems (50 in all)')).toBe(true);
  });

  it('a short list has no closing line and problemCount equals its length', () => {
    const error = left(fromDict({ max_messages: 0, messages: [{ role: 'USER' }] }));
    expect(error.problems).toHaveLength(2);
    expect(error.problemCount).toBe(2);
    expect(error.message).not.toMatch(/more problem/);
  });

  it('decodeConfig lists 20 of 30 unknown keys and counts all of them', () => {
    const options = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const error = left(decodeConfig(options));
    expect(error.problems).toHaveLength(20);
    expect(error.problems.every((line) => /^k\d+ is not an option/.test(line))).toBe(true);
    expect(error.problemCount).toBe(30);
    expect(error.message).toMatch(/; … and 10 more problems \(30 in all\)$/);
  });
});

describe('rejection stops at the cap', () => {
  it('a million bad messages (1.9 MB of JSON) are rejected after 1,000 failures', () => {
    const input = JSON.parse(`{"max_messages":5,"messages":[${'0,'.repeat(999_999)}0]}`);
    const error = left(fromDict(input));
    expect(error).toBeInstanceOf(MemoryDecodeError);
    expect(error.problems).toHaveLength(20);
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
    expect(error.message).toMatch(
      /… and at least 980 more problems \(stopped looking after 1000\)$/,
    );
  });

  it.each([
    ['messages', (holes: unknown[]) => ({ max_messages: 5, messages: holes })],
    [
      'tool_calls',
      (holes: unknown[]) => ({
        max_messages: 5,
        messages: [{ role: 'assistant', tool_calls: holes }],
      }),
    ],
    [
      'content_parts',
      (holes: unknown[]) => ({
        max_messages: 5,
        messages: [{ role: 'user', content_parts: holes }],
      }),
    ],
    [
      'parameters',
      (holes: unknown[]) => ({
        max_messages: 5,
        messages: [{ role: 'assistant', tool_calls: [{ name: 'f', parameters: { a: holes } }] }],
      }),
    ],
  ])('a sparse array of length 2^32 − 1 in %s is rejected at once', (_, build) => {
    const error = left(fromDict(build(sparse())));
    expect(error.problems.length).toBeGreaterThan(0);
    expect(error.problems.length).toBeLessThanOrEqual(20);
  });

  it('addMessages stops at the first hole of a sparse list', () => {
    expect(() => addMessages(createMemory({ tokenizer: 'heuristic' }), sparse() as never)).toThrow(
      InvalidMessageError,
    );
    expect(() => addMessages(createMemory({ tokenizer: 'heuristic' }), sparse() as never)).toThrow(
      'addMessages: messages[0] must be an object, received undefined',
    );
  });

  it('rejecting 10 MB of JSON (5e6 bad tool calls) fits in a 160 MB heap', () => {
    const entry = fileURLToPath(
      new URL(
        process.env['TEST_DIST'] === '1' ? '../../dist/index.js' : '../../src/entries/index.ts',
        import.meta.url,
      ),
    );
    const script = `
      import { fromDict } from ${JSON.stringify(entry)};
      const text = '{"max_messages":5,"messages":[{"role":"assistant","tool_calls":[' + '0,'.repeat(5e6 - 1) + '0]}]}';
      const result = fromDict(JSON.parse(text));
      console.log(JSON.stringify([result._tag, result.left.problems.length, result.left.countComplete]));
    `;
    const output = execFileSync(
      process.execPath,
      ['--max-old-space-size=160', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
    );
    expect(JSON.parse(output)).toEqual(['Left', 20, false]);
  });

  it('property: whatever junk fills the lists, a decode collects a bounded number of errors', () => {
    const junk = fc.oneof(
      fc.constant(0),
      fc.constant(null),
      fc.string({ maxLength: 3 }),
      fc.constant({ role: 'USER' }),
      fc.constant({ name: 1 }),
      fc.constant({ type: [] }),
      fc.constant({ role: 'assistant', tool_calls: [0, 0, 0] }),
    );
    const list = (n: number) => fc.array(junk, { minLength: n, maxLength: n });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }).chain((n) =>
          fc.record({
            messages: list(n),
            calls: list(Math.ceil(n / 3)),
            parts: list(Math.ceil(n / 7)),
          }),
        ),
        ({ messages, calls, parts }) => {
          const input = {
            max_messages: 5,
            messages: [
              ...messages,
              { role: 'assistant', tool_calls: calls },
              { role: 'user', content_parts: parts },
            ],
          };
          const decoded = persistedMemoryCodec(new ProblemBudget()).decode(input);
          const errors = E.isLeft(decoded) ? decoded.left.length : 0;
          // At most 1,000 failing items are inspected, each with a bounded number of errors.
          expect(errors).toBeLessThanOrEqual(MAX_INSPECTED_PROBLEMS * 16);
          const error = left(fromDict(input));
          expect(error.problems.length).toBeLessThanOrEqual(20);
          expect(error.problemCount).toBeLessThanOrEqual(MAX_INSPECTED_PROBLEMS * 16);
        },
      ),
      { numRuns: 60 },
    );
  });
});
