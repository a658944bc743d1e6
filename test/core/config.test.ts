import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  createMemory,
  decodeConfig,
  DEFAULT_CONFIG,
  fromDict,
  isConversationMemoryError,
  MemoryConfigError,
  reconfigure,
  toDict,
} from 'conversation-memory';
import { registerTokenizer } from 'conversation-memory/tokens';

const problemsOf = (input: unknown): readonly string[] => {
  const result = decodeConfig(input);
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left.problems;
};

describe('createMemory', () => {
  it('uses the reference defaults and the GPT-4o tokenizer', () => {
    const state = createMemory();
    expect(state).toEqual({
      config: {
        maxMessages: 20,
        maxTokens: null,
        tokenizer: 'o200k_base',
        toolPairs: 'reference',
        startOn: null,
        pinSystem: false,
        prune: 'oldest',
        pruneThreshold: 0.9,
        embedder: 'lexical',
        trimTo: 1,
      },
      messages: [],
      tokenCounts: [],
      positionRuns: [],
      nextPosition: 0,
      totalTokens: 0,
      summary: null,
      pendingMessages: [],
      pendingPositions: [],
      summaryCoverage: [],
    });
    expect(state.config).toEqual(DEFAULT_CONFIG);
  });

  it('returns a frozen, JSON-serializable record', () => {
    const state = createMemory({ maxMessages: 5, maxTokens: 100, tokenizer: 'heuristic' });
    expect(Object.isFrozen(state)).toBe(true);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('treats undefined fields as defaults and maxTokens null as no limit', () => {
    expect(createMemory({ maxMessages: undefined, maxTokens: null }).config).toEqual(
      DEFAULT_CONFIG,
    );
  });

  it.each([
    [{ maxMessages: 0 }, 'maxMessages must be at least 1, received 0'],
    [{ maxMessages: -3 }, 'maxMessages must be at least 1, received -3'],
    [{ maxTokens: 0 }, 'maxTokens must be at least 1, received 0'],
    [{ maxMessages: 0.5 }, 'maxMessages must be at least 1, received 0.5'],
    [{ maxMessages: 1.5 }, 'maxMessages must be an integer, received 1.5'],
    [{ maxTokens: 2.25 }, 'maxTokens must be an integer, received 2.25'],
    [{ maxMessages: Number.NaN }, 'maxMessages must be a finite integer, received NaN'],
    [
      { maxTokens: Number.POSITIVE_INFINITY },
      'maxTokens must be a finite integer, received Infinity',
    ],
    [
      { maxMessages: Number.NEGATIVE_INFINITY },
      'maxMessages must be at least 1, received -Infinity',
    ],
    [{ maxMessages: '20' }, 'maxMessages must be a number, received string "20"'],
    [{ maxTokens: true }, 'maxTokens must be a number, received true'],
    [{ maxMessages: 2 ** 60 }, 'maxMessages must be a safe integer, received 1152921504606847000'],
  ])('rejects %o with a message naming the field and the value', (options, message) => {
    expect(() => createMemory(options as never)).toThrow(message);
    expect(problemsOf(options)).toEqual([message]);
  });

  it('prefixes the message with the library and the API name', () => {
    expect(() => createMemory({ maxMessages: 0 })).toThrow(
      '[conversation-memory] createMemory: maxMessages must be at least 1, received 0',
    );
  });

  it('throws a RangeError of our own class, recognisable by code', () => {
    let caught: unknown;
    try {
      createMemory({ maxMessages: 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MemoryConfigError);
    expect(caught).toBeInstanceOf(RangeError);
    expect(isConversationMemoryError(caught)).toBe(true);
    expect((caught as MemoryConfigError).code).toBe('CM_CONFIG');
    expect((caught as MemoryConfigError).name).toBe('MemoryConfigError');
  });

  it('reports every problem at once, unknown options with a hint', () => {
    expect(problemsOf({ max_messages: 5, maxMessages: 0, maxTokens: 'x' })).toEqual([
      'max_messages is not an option (did you mean maxMessages?); expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo',
      'maxMessages must be at least 1, received 0',
      'maxTokens must be a number, received string "x"',
    ]);
  });

  it('rejects an unknown tokenizer name', () => {
    expect(() => createMemory({ tokenizer: 'gpt2-bytes' })).toThrow(
      'tokenizer must be "o200k_base", "cl100k_base", "heuristic" or a name registered with registerTokenizer, received "gpt2-bytes"',
    );
  });

  it('accepts a registered tokenizer name', () => {
    registerTokenizer('config-test-words', (m) => (m.content ?? '').split(' ').length);
    expect(createMemory({ tokenizer: 'config-test-words' }).config.tokenizer).toBe(
      'config-test-words',
    );
  });
});

describe('trimTo (issue #29)', () => {
  // The class of refused values: not a number, not above 0, above 1, not finite.
  it.each([
    [0, '0'],
    [-0, '-0'],
    [-0.5, '-0.5'],
    [-Number.MIN_VALUE, '-5e-324'],
    [1.0000000000000002, '1.0000000000000002'],
    [1.5, '1.5'],
    [2, '2'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
    ['0.7', '"0.7"'],
    [null, 'null'],
    [true, 'true'],
    [[0.7], 'an array of length 1'],
  ])('refuses %o everywhere a config is read, naming trimTo and the value', (value, shown) => {
    const problem = `trimTo must be a number above 0 and at most 1, received ${shown}`;
    expect(() => createMemory({ trimTo: value as never })).toThrow(MemoryConfigError);
    expect(() => createMemory({ trimTo: value as never })).toThrow(
      `[conversation-memory] createMemory: ${problem}`,
    );
    expect(problemsOf({ trimTo: value })).toEqual([problem]);
    expect(() => reconfigure(createMemory(), { trimTo: value as never })).toThrow(
      `[conversation-memory] reconfigure: ${problem}`,
    );
    const file = { ...toDict(createMemory()), conversation_memory: { trim_to: value } };
    const decoded = fromDict(file);
    expect(E.isLeft(decoded)).toBe(true);
    if (E.isLeft(decoded)) {
      expect(decoded.left.problems.join('\n')).toMatch(/conversation_memory\.trim_to/);
    }
  });

  it.each([1, 0.7, 0.5, 0.01, Number.MIN_VALUE])('accepts %d, kept in the config', (trimTo) => {
    expect(createMemory({ trimTo }).config.trimTo).toBe(trimTo);
    expect(decodeConfig({ trimTo })).toEqual(E.right({ ...DEFAULT_CONFIG, trimTo }));
  });
});

describe('decodeConfig', () => {
  it('returns Right with defaults filled in', () => {
    expect(decodeConfig({ maxMessages: 3 })).toEqual(
      E.right({ ...DEFAULT_CONFIG, maxMessages: 3 }),
    );
    expect(decodeConfig(undefined)).toEqual(E.right(DEFAULT_CONFIG));
  });

  it.each([null, 42, 'maxMessages=3', [1, 2]])('never throws on %o, returning Left', (input) => {
    const result = decodeConfig(input);
    expect(E.isLeft(result)).toBe(true);
    expect(problemsOf(input)[0]).toMatch(/^options must be an object, received /);
  });

  it('names the API in the error', () => {
    const result = decodeConfig({ maxTokens: 0 });
    expect(E.isLeft(result) && result.left.message).toBe(
      '[conversation-memory] decodeConfig: maxTokens must be at least 1, received 0',
    );
  });
});
