import { describe, expect, it, vi } from 'vitest';
import {
  addMessage,
  createMemory,
  isConversationMemoryError,
  MemoryArgumentError,
  TokenizerError,
  userMessage,
} from 'conversation-memory';
import { countMessageTokens, registerTokenizer } from 'conversation-memory/tokens';
import type { MessageTokenCounter } from 'conversation-memory';

/** Registered names are global to the process, so every test here uses its own. */
const words: MessageTokenCounter = (m) => (m.content ?? '').split(/\s+/).filter(Boolean).length;

describe('registerTokenizer: when a taken name may be registered again', () => {
  it('accepts the same function object, bound or not', () => {
    registerTokenizer('reg-same', words);
    expect(() => registerTokenizer('reg-same', words)).not.toThrow();
    const bound = words.bind(null);
    registerTokenizer('reg-same-bound', bound);
    expect(() => registerTokenizer('reg-same-bound', bound)).not.toThrow();
  });

  it('refuses another bound function: every bound function has the source text of native code', () => {
    const constant: MessageTokenCounter = () => 99;
    registerTokenizer('reg-bound', words.bind(null));
    expect(String(words.bind(null))).toBe(String(constant.bind(null)));
    expect(() => registerTokenizer('reg-bound', constant.bind(null))).toThrow(
      'registerTokenizer: "reg-bound" is already registered with another function; choose a new name',
    );
    expect(() => registerTokenizer('reg-bound', words.bind(null))).toThrow(TokenizerError);
    // A bound copy of the registered function is another function too.
    registerTokenizer('reg-bound-of', words);
    expect(() => registerTokenizer('reg-bound-of', words.bind(null))).toThrow(TokenizerError);
  });

  it('refuses another native function with the same source text', () => {
    const toStringOfObject = Object.prototype.toString as unknown as MessageTokenCounter;
    const toStringOfNumber = Number.prototype.toString as unknown as MessageTokenCounter;
    expect(String(toStringOfObject)).toBe(String(toStringOfNumber));
    registerTokenizer('reg-native', toStringOfObject);
    expect(() => registerTokenizer('reg-native', toStringOfObject)).not.toThrow();
    expect(() => registerTokenizer('reg-native', toStringOfNumber)).toThrow(TokenizerError);
    const proxy = new Proxy(words, {});
    registerTokenizer('reg-proxy', proxy);
    expect(() => registerTokenizer('reg-proxy', new Proxy(words, {}))).toThrow(TokenizerError);
  });

  it('refuses a closure from the same factory over different values', () => {
    const perMessage =
      (cost: number): MessageTokenCounter =>
      () =>
        cost;
    registerTokenizer('reg-closure', perMessage(1));
    expect(String(perMessage(1))).toBe(String(perMessage(2)));
    expect(() => registerTokenizer('reg-closure', perMessage(2))).toThrow(TokenizerError);
    // The same definition over the same value behaves the same: accepted, as after a reload.
    expect(() => registerTokenizer('reg-closure', perMessage(1))).not.toThrow();
  });

  it('refuses closures that differ only on tool calls or content parts', () => {
    const toolCost =
      (cost: number): MessageTokenCounter =>
      (m) =>
        (m.content ?? '').length + (m.toolCalls?.length ?? 0) * cost;
    registerTokenizer('reg-tool-closure', toolCost(5));
    expect(() => registerTokenizer('reg-tool-closure', toolCost(6))).toThrow(TokenizerError);
    const partCost =
      (cost: number): MessageTokenCounter =>
      (m) =>
        (m.contentParts?.length ?? 0) * cost;
    registerTokenizer('reg-part-closure', partCost(1));
    expect(() => registerTokenizer('reg-part-closure', partCost(2))).toThrow(TokenizerError);
  });

  it('reads the source with Function.prototype.toString, not the function own toString', () => {
    registerTokenizer('reg-lying', words);
    const impostor = Object.assign((): number => 1, { toString: () => String(words) });
    expect(String(impostor)).toBe(String(words));
    expect(() => registerTokenizer('reg-lying', impostor)).toThrow(TokenizerError);
  });

  it('accepts the same definition again when both throw the same way on a probe', () => {
    const strict = (): MessageTokenCounter => (m) => {
      if (m.content === null) throw new TypeError('no content');
      return m.content.length;
    };
    registerTokenizer('reg-strict', strict());
    expect(() => registerTokenizer('reg-strict', strict())).not.toThrow();
  });

  it('accepts a module that registers its tokenizer when it is loaded twice', async () => {
    await import('../fixtures/registersWordsTokenizer');
    vi.resetModules();
    await expect(import('../fixtures/registersWordsTokenizer')).resolves.toBeDefined();
    const state = addMessage(createMemory({ tokenizer: 'fixture-words' }), userMessage('a b c'));
    expect(state.state.totalTokens).toBe(3);
  });

  it('names the value received through describeValue', () => {
    expect(() => registerTokenizer('heuristic', words)).toThrow(
      'registerTokenizer: "heuristic" is a built-in tokenizer and cannot be replaced',
    );
    const quoted = 'say "hi"';
    registerTokenizer(quoted, words);
    expect(() => registerTokenizer(quoted, () => 1)).toThrow(
      `registerTokenizer: ${JSON.stringify(quoted)} is already registered`,
    );
  });
});

describe('custom counter results', () => {
  it('stores -0 as 0, so the state stays exact through JSON', () => {
    registerTokenizer('reg-negative-zero', () => -0);
    const state = addMessage(
      createMemory({ tokenizer: 'reg-negative-zero' }),
      userMessage('x'),
    ).state;
    expect(Object.is(state.tokenCounts[0], 0)).toBe(true);
    expect(Object.is(state.totalTokens, 0)).toBe(true);
    expect(Object.is(countMessageTokens('reg-negative-zero', userMessage('x')), 0)).toBe(true);
  });

  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [1.5, '1.5'],
    [-1, '-1'],
    ['3', '"3"'],
    [Number.MAX_SAFE_INTEGER + 1, String(Number.MAX_SAFE_INTEGER + 1)],
    [null, 'null'],
  ])('rejects %s, leaving the state alone', (value, shown) => {
    const name = `reg-returns-${shown}`;
    registerTokenizer(name, () => value as number);
    const state = createMemory({ tokenizer: name });
    expect(() => addMessage(state, userMessage('x'))).toThrow(
      `addMessage: tokenizer ${JSON.stringify(name)} must return a non-negative integer, returned ${shown}`,
    );
    expect(state.messages).toEqual([]);
  });

  it('accepts the largest safe integer as one count', () => {
    registerTokenizer('reg-max-safe', () => Number.MAX_SAFE_INTEGER);
    expect(countMessageTokens('reg-max-safe', userMessage('x'))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('wraps what a custom counter throws in a TokenizerError naming it, with the error as cause', () => {
    const boom = new Error('boom');
    registerTokenizer('reg-thrower', () => {
      throw boom;
    });
    const state = createMemory({ tokenizer: 'reg-thrower' });
    let caught: unknown;
    try {
      addMessage(state, userMessage('x'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TokenizerError);
    expect(isConversationMemoryError(caught)).toBe(true);
    expect((caught as TokenizerError).message).toBe(
      '[conversation-memory] addMessage: tokenizer "reg-thrower" threw Error: boom',
    );
    expect((caught as TokenizerError).cause).toBe(boom);
    expect(state.messages).toEqual([]);
    expect(state.totalTokens).toBe(0);
  });

  it('wraps a thrown value that is not an Error', () => {
    registerTokenizer('reg-throws-string', () => {
      throw 'nope';
    });
    expect(() => countMessageTokens('reg-throws-string', userMessage('x'))).toThrow(
      'countMessageTokens: tokenizer "reg-throws-string" threw nope',
    );
  });

  it('rethrows our own errors unchanged', () => {
    const ours = new MemoryArgumentError('myCounter', 'something was wrong');
    registerTokenizer('reg-throws-ours', () => {
      throw ours;
    });
    expect(() =>
      addMessage(createMemory({ tokenizer: 'reg-throws-ours' }), userMessage('x')),
    ).toThrow(ours);
    try {
      countMessageTokens('reg-throws-ours', userMessage('x'));
    } catch (error) {
      expect(error).toBe(ours);
    }
  });
});
