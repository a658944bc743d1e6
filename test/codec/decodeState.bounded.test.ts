import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  decodeEnvelope,
  decodeState,
  holdForSummary,
  MemoryDecodeError,
  type MemoryState,
  type TrimmedEffect,
} from 'conversation-memory';
import { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from 'conversation-memory/store-kit';
import { memoryPersistStorage } from 'conversation-memory/zustand';
import { MAX_INSPECTED_PROBLEMS } from '../../src/codec/budget';
import { withCountedGetters, type ReadLog } from '../arbitraries/hostile';
import { messageArb } from '../arbitraries/message';
import { user } from '../helpers';

/**
 * decodeState rejects hostile input with the rules fromDict follows (issue #15, item 5): it stops
 * after 1,000 problems, refuses a sparse list at its first hole and a list longer than its bound
 * before reading it, so rejecting costs time and memory bounded by the cap, not by the input.
 * The same holds through decodeEnvelope's raw-state path and Zustand's persist storage.
 */

const left = <L, R>(result: E.Either<L, R>): L => {
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left;
};

const HUGE = 2 ** 32 - 1;

const sparse = (...items: unknown[]): unknown[] => {
  const holes = [...items];
  holes.length = HUGE;
  return holes;
};

/** A state as JSON gives it back: an empty one, or one with two messages. */
const emptyJson = (): Record<string, unknown> =>
  JSON.parse(JSON.stringify(createMemory({ tokenizer: 'heuristic' }))) as Record<string, unknown>;

/** The JSON text of a state whose messages are `n` copies of `item` (each a bad message). */
const badMessagesText = (n: number, item = '0'): string =>
  JSON.stringify(createMemory({ tokenizer: 'heuristic' })).replace(
    '"messages":[]',
    `"messages":[${`${item},`.repeat(n - 1)}${item}]`,
  );

/**
 * A list of length `length` whose every item is `item`, made without memory: a Proxy of an array
 * (so `Array.isArray` holds) that counts the reads of its items in `reads.count`.
 */
const countedList = (length: number, item: unknown, reads: { count: number }): unknown[] =>
  new Proxy([], {
    get: (target, key) => {
      if (key === 'length') return length;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads.count++;
        return item;
      }
      return Reflect.get(target, key) as unknown;
    },
    has: (target, key) =>
      (typeof key === 'string' && /^\d+$/.test(key) && Number(key) < length) ||
      Reflect.has(target, key),
  });

describe('decodeState stops after 1,000 problems', () => {
  it('a million bad messages (2 MB of JSON): 1,000 problems, 20 listed, the count marked incomplete', () => {
    const error = left(decodeState(JSON.parse(badMessagesText(1_000_000))));
    expect(error).toBeInstanceOf(MemoryDecodeError);
    expect(error.problems).toHaveLength(20);
    expect(error.problems[0]).toBe('messages[0] must be an object, received 0');
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
    expect(error.message).toMatch(
      /… and at least 980 more problems \(stopped looking after 1000\)$/,
    );
  });

  it('reads 1,000 items of a list of 2^32 − 1 bad messages, not one more', () => {
    const reads = { count: 0 };
    const error = left(decodeState({ ...emptyJson(), messages: countedList(HUGE, 0, reads) }));
    expect(reads.count).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
  });

  it('a config with 5,000 unknown keys: 1,000 problems', () => {
    const json = emptyJson();
    const config = { ...(json['config'] as object) } as Record<string, unknown>;
    for (let i = 0; i < 5_000; i++) config[`k${i}`] = i;
    const error = left(decodeState({ ...json, config }));
    expect(error.problems[0]).toBe('config.k0: not a config field');
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
  });

  it('a short list of problems is counted whole', () => {
    const error = left(decodeState(JSON.parse(badMessagesText(30))));
    // 30 messages, then the window's runs and counts: none for 30 messages.
    expect(error.problemCount).toBe(32);
    expect(error.countComplete).toBe(true);
  });

  it('rejecting 2,000,000 bad messages fits in a 256 MB heap (it aborted the process before)', () => {
    const entry = fileURLToPath(
      new URL(
        process.env['TEST_DIST'] === '1' ? '../../dist/index.js' : '../../src/entries/index.ts',
        import.meta.url,
      ),
    );
    const script = `
      import { createMemory, decodeState } from ${JSON.stringify(entry)};
      const item = '0';
      const text = JSON.stringify(createMemory({ tokenizer: 'heuristic' })).replace(
        '"messages":[]',
        '"messages":[' + (item + ',').repeat(2e6 - 1) + item + ']',
      );
      const result = decodeState(JSON.parse(text));
      console.log(JSON.stringify([result._tag, result.left.problemCount, result.left.countComplete]));
    `;
    const output = execFileSync(
      process.execPath,
      ['--max-old-space-size=256', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
    );
    expect(JSON.parse(output)).toEqual(['Left', MAX_INSPECTED_PROBLEMS, false]);
  });

  it('property: whatever junk fills the lists, the problems found stay within the cap', () => {
    const junk = fc.oneof(
      fc.constant(0),
      fc.constant(null),
      fc.constant({ role: 'USER' }),
      fc.constant({ index: 'x' }),
      fc.string({ maxLength: 2 }),
    );
    const list = fc
      .integer({ min: 0, max: 2500 })
      .chain((n) => fc.array(junk, { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(
        fc.record({
          messages: list,
          positionRuns: list,
          pendingMessages: list,
          tokenCounts: list,
          configKeys: fc.integer({ min: 0, max: 1500 }),
        }),
        ({ messages, positionRuns, pendingMessages, tokenCounts, configKeys }) => {
          const json = emptyJson();
          const config = { ...(json['config'] as object) } as Record<string, unknown>;
          for (let i = 0; i < configKeys; i++) config[`k${i}`] = i;
          const input = {
            ...json,
            config,
            messages,
            positionRuns,
            pendingMessages,
            pendingPositions: pendingMessages.map(() => 0),
            tokenCounts,
          };
          const result = decodeState(input);
          const bad = messages.length + pendingMessages.length + configKeys > 0;
          if (!bad) return;
          const error = left(result);
          expect(error.problems.length).toBeLessThanOrEqual(20);
          expect(error.problemCount).toBeLessThanOrEqual(MAX_INSPECTED_PROBLEMS);
          expect(error.countComplete).toBe(error.problemCount < MAX_INSPECTED_PROBLEMS);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('decodeState refuses a sparse or over-long list at once', () => {
  const state = (): Record<string, unknown> =>
    JSON.parse(
      JSON.stringify(addMessages(createMemory({ tokenizer: 'heuristic' }), [user('a')]).state),
    ) as Record<string, unknown>;

  it.each([
    [
      'messages (no items)',
      () => ({ ...emptyJson(), messages: sparse() }),
      'messages: a sparse list (no item at index 0); a stored list has every item',
    ],
    [
      'messages (holes after two valid ones)',
      () => ({ ...emptyJson(), messages: sparse(user('a'), user('b')) }),
      'messages: a sparse list (no item at index 2); a stored list has every item',
    ],
    [
      'positionRuns',
      () => ({ ...state(), positionRuns: sparse({ index: 0, position: 0 }) }),
      'positionRuns: expected at most one run per message (1), received 4294967295',
    ],
    [
      'tokenCounts',
      () => ({ ...state(), tokenCounts: sparse(1) }),
      'tokenCounts: expected 1 counts, received 4294967295',
    ],
    [
      'pendingMessages and pendingPositions',
      () => ({ ...emptyJson(), pendingMessages: sparse(), pendingPositions: sparse() }),
      `pendingMessages: at most ${MAX_PENDING_MESSAGES} held messages, received 4294967295`,
    ],
    [
      'pendingPositions alone',
      () => ({ ...emptyJson(), pendingPositions: sparse() }),
      'pendingMessages, pendingPositions: expected two lists of the same length',
    ],
    [
      'summaryCoverage',
      () => ({ ...emptyJson(), summaryCoverage: sparse() }),
      `summaryCoverage: at most ${MAX_SUMMARY_COVERAGE} records, received 4294967295`,
    ],
  ])('a sparse list of length 2^32 − 1 in %s', (_, build, problem) => {
    const error = left(decodeState(build()));
    expect(error.problems).toEqual([problem]);
    expect(error.countComplete).toBe(true);
  });

  it('reads no item of a list over its bound (runs, counts, held messages, coverage)', () => {
    const reads = { count: 0 };
    const huge = () => countedList(HUGE, 0, reads);
    for (const input of [
      { ...emptyJson(), positionRuns: huge() },
      { ...emptyJson(), tokenCounts: huge() },
      { ...emptyJson(), pendingMessages: huge(), pendingPositions: huge() },
      { ...emptyJson(), summaryCoverage: huge() },
    ]) {
      expect(left(decodeState(input)).problems).toHaveLength(1);
    }
    expect(reads.count).toBe(0);
  });
});

describe('an empty window still has its tokenCounts and totalTokens checked', () => {
  it.each([
    [null, 'tokenCounts: expected a list of 0 counts, got null'],
    [{}, 'tokenCounts: expected a list of 0 counts, got an object'],
    ['x', 'tokenCounts: expected a list of 0 counts, got "x"'],
    [[3], 'tokenCounts: expected 0 counts, received 1'],
  ])('tokenCounts %j is refused', (tokenCounts, problem) => {
    expect(left(decodeState({ ...emptyJson(), tokenCounts })).problems).toEqual([problem]);
  });

  it('totalTokens other than 0 is refused', () => {
    expect(left(decodeState({ ...emptyJson(), totalTokens: 4 })).problems).toEqual([
      'totalTokens: expected 0, received 4',
    ]);
    expect(E.isRight(decodeState(emptyJson()))).toBe(true);
  });
});

describe('decodeState reads each field of its input once', () => {
  it('property: a state whose every property is a counting getter decodes as the plain one', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (messages, max) => {
          const added = addMessages(
            createMemory({ maxMessages: max, tokenizer: 'heuristic' }),
            messages,
          );
          let state: MemoryState = added.state;
          for (const effect of added.effects) {
            if (effect.type === 'memory/trimmed') {
              state = holdForSummary(state, effect as TrimmedEffect).state;
            }
          }
          const json: unknown = JSON.parse(JSON.stringify(state));
          const log: ReadLog = new Map();
          const counted = withCountedGetters(json, { role: 'USER' }, log);
          expect(decodeState(counted)).toEqual(decodeState(json));
          expect([...log.values()].every((reads) => reads <= 1)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the same bounds through decodeEnvelope and Zustand persistence', () => {
  it('decodeEnvelope, raw state (migrate, then decodeState): a million bad messages, a sparse list', () => {
    const error = left(decodeEnvelope(JSON.parse(badMessagesText(1_000_000))));
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
    expect(left(decodeEnvelope({ ...emptyJson(), messages: sparse() })).problems).toEqual([
      'messages: a sparse list (no item at index 0); a stored list has every item',
    ]);
  });

  it('decodeEnvelope, a 0.1.0 state (no positionRuns): a sparse list fails at its first hole', () => {
    const { config } = emptyJson();
    expect(left(decodeEnvelope({ config, messages: sparse() })).problems).toEqual([
      'messages[0] must be an object, received undefined',
    ]);
  });

  it('memoryPersistStorage: a stored state of a million bad messages fails the read, bounded', () => {
    const text = badMessagesText(1_000_000);
    const storage = memoryPersistStorage({
      getItem: () => text,
      setItem: () => undefined,
      removeItem: () => undefined,
    });
    let thrown: unknown;
    try {
      storage.getItem('chat');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemoryDecodeError);
    const error = thrown as MemoryDecodeError;
    expect(error.problems[0]).toBe('messages[0] must be an object, received 0');
    expect(error.problemCount).toBe(MAX_INSPECTED_PROBLEMS);
    expect(error.countComplete).toBe(false);
  });
});
