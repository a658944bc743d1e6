import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  decodeConfig,
  fromDict,
  InvalidMessageError,
  userMessage,
  DEFAULT_CONFIG,
} from 'conversation-memory';
import { memoryDictArb, poisonArb, withCountedGetters, type ReadLog } from '../arbitraries/hostile';
import { messageArb } from '../arbitraries/message';

/**
 * Every field of input is read once: what is validated is what is stored. A getter that answers
 * one value to the check and another afterwards must not get the second one into a state.
 */

/** An object with a getter for `key` that answers `first`, then `later` on every other read. */
const flipFlop = <T extends object>(base: T, key: string, first: unknown, later: unknown): T => {
  let reads = 0;
  return Object.defineProperty({ ...base }, key, {
    get: () => (reads++ === 0 ? first : later),
    enumerable: true,
  });
};

describe('read once: the issue examples', () => {
  it('fromDict keeps the max_messages it validated', () => {
    const input = flipFlop({}, 'max_messages', 5, 0);
    const result = fromDict(input, { tokenizer: 'heuristic' });
    expect(E.isRight(result) && result.right.config.maxMessages).toBe(5);
  });

  it('fromDict keeps the role and content it validated', () => {
    const message = flipFlop(flipFlop({}, 'role', 'user', 'USER'), 'content', 'hi', { a: 1 });
    const result = fromDict({ max_messages: 5, messages: [message] }, { tokenizer: 'heuristic' });
    expect(E.isRight(result) && result.right.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('decodeConfig keeps the maxMessages it validated', () => {
    expect(decodeConfig(flipFlop({}, 'maxMessages', 5, 0))).toEqual(
      E.right({ ...DEFAULT_CONFIG, maxMessages: 5 }),
    );
  });

  it('addMessage stores the role, content and tool call it validated', () => {
    const state = createMemory({ tokenizer: 'heuristic' });
    const call = flipFlop({ id: 'c1', parameters: {} }, 'name', 'calc', 42);
    const message = flipFlop(
      flipFlop({ content: null }, 'role', 'assistant', 'USER'),
      'toolCalls',
      [call],
      'not a list',
    );
    const stored = addMessage(state, message as never).state.messages[0];
    expect(stored).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'calc', parameters: {} }],
    });
    // The other way round, a value that turns valid after the check is still rejected.
    expect(() =>
      addMessage(state, flipFlop({ content: 'x' }, 'role', 'USER', 'user') as never),
    ).toThrow(InvalidMessageError);
  });
});

const expectReadAtMostOnce = (log: ReadLog): void => {
  const twice = [...log].filter(([, reads]) => reads > 1);
  expect(twice).toEqual([]);
};

describe('read once: properties', () => {
  it('fromDict of a dict whose every field and item answers poison after its first read equals fromDict of the plain dict, and reads each once', () => {
    fc.assert(
      fc.property(memoryDictArb, poisonArb, (dict, poison) => {
        const log: ReadLog = new Map();
        const wrapped = withCountedGetters(dict, poison, log);
        expect(fromDict(wrapped)).toEqual(fromDict(dict));
        expectReadAtMostOnce(log);
      }),
    );
  });

  it('addMessage of a message whose every field answers poison after its first read stores the plain message, and reads each once', () => {
    const state = createMemory({ tokenizer: 'heuristic' });
    fc.assert(
      fc.property(messageArb, poisonArb, (message, poison) => {
        const log: ReadLog = new Map();
        const wrapped = withCountedGetters(message, poison, log);
        expect(addMessage(state, wrapped as never).state.messages).toEqual([message]);
        expectReadAtMostOnce(log);
      }),
    );
  });

  it('decodeConfig reads each option once', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            maxMessages: fc.integer({ min: 1, max: 50 }),
            maxTokens: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
            tokenizer: fc.constantFrom('heuristic', 'o200k_base', 'cl100k_base'),
          },
          { requiredKeys: [] },
        ),
        poisonArb,
        (options, poison) => {
          const log: ReadLog = new Map();
          expect(decodeConfig(withCountedGetters(options, poison, log))).toEqual(
            decodeConfig(options),
          );
          expectReadAtMostOnce(log);
        },
      ),
    );
  });

  it('a canonical message is reused without reading it again', () => {
    const message = userMessage('hi');
    const state = addMessage(createMemory({ tokenizer: 'heuristic' }), message).state;
    expect(state.messages[0]).toBe(message);
  });
});
