import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it, vi } from 'vitest';
import {
  addMessage,
  addMessages,
  assistantMessage,
  createMemory,
  MemoryArgumentError,
  imageMessage,
  TokenizerError,
  userMessage,
} from 'conversation-memory';
import { countHeuristicTokens } from '../../src/tokens/heuristic';
import {
  BUILT_IN_TOKENIZERS,
  countMessageTokens,
  encodingForModel,
  estimateTokens,
  estimateTokensFallback,
  isKnownTokenizer,
  loadTokenizer,
  messageText,
  registerTokenizer,
} from 'conversation-memory/tokens';

describe('heuristic tokenizer (the reference memory formula)', () => {
  it.each([
    ['', 0],
    ['abc', 0],
    ['abcd', 1],
    ['abcdefg', 1],
    ['a'.repeat(400), 100],
    ['Hello, world!', 3],
    ['Kyōto ☀️', 2],
  ])('counts %j as %i', (content, expected) => {
    expect(countHeuristicTokens({ role: 'user', content })).toBe(expected);
  });

  it('counts null content as 0 and ignores everything but content', () => {
    expect(countHeuristicTokens({ role: 'assistant', content: null })).toBe(0);
    expect(
      countHeuristicTokens(imageMessage('https://example.com/a-very-long-url.png', 'abcd')),
    ).toBe(1);
  });
});

describe('gpt-tokenizer encodings', () => {
  it('counts the content with the real o200k and cl100k tables', () => {
    const text = 'Привет, как дела? こんにちは世界 🦊';
    expect(countMessageTokens('o200k_base', userMessage(text))).toBe(o200k(text));
    expect(countMessageTokens('cl100k_base', userMessage(text))).toBe(cl100k(text));
    expect(o200k(text)).not.toBe(cl100k(text));
  });

  it('adds each tool call name and its JSON arguments', () => {
    const parameters = { city: 'Paris', days: [1, 2, 3] };
    const message = assistantMessage('Let me check.', [
      { id: 'c1', name: 'get_weather', parameters },
    ]);
    expect(countMessageTokens('o200k_base', message)).toBe(
      o200k('Let me check.') + o200k('get_weather') + o200k(JSON.stringify(parameters)),
    );
  });

  it('counts text parts instead of content when a message has them', () => {
    const message = imageMessage('https://example.com/cat.png', 'What breed is this cat?');
    expect(messageText(message)).toBe('What breed is this cat?');
    expect(countMessageTokens('o200k_base', message)).toBe(o200k('What breed is this cat?'));
    const twoParts = {
      role: 'user' as const,
      content: 'fallback',
      contentParts: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    };
    expect(messageText(twoParts)).toBe('one two');
    expect(
      messageText({
        role: 'user',
        content: 'fallback',
        contentParts: [{ type: 'image_url', imageUrl: 'u' }],
      }),
    ).toBe('fallback');
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    expect(countMessageTokens('o200k_base', userMessage('a <|endoftext|> b'))).toBeGreaterThan(3);
  });

  it('stores counts in state and keeps the total', () => {
    const state = addMessages(createMemory(), [
      userMessage('Hello, world!'),
      userMessage('Bonjour le monde'),
    ]).state;
    expect(state.tokenCounts).toEqual([o200k('Hello, world!'), o200k('Bonjour le monde')]);
    expect(state.totalTokens).toBe(o200k('Hello, world!') + o200k('Bonjour le monde'));
  });
});

describe('long runs without whitespace', () => {
  // gpt-tokenizer's BPE is quadratic on one long pre-token (4 s for 100,000 "x"); such runs are
  // counted in 256-character pieces. Timings are in the benchmark; these tests check the counts.
  const letters = (n: number): string =>
    Array.from({ length: n }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7919) % 26]).join('');

  it('counts a run of one repeated character exactly', () => {
    expect(countMessageTokens('o200k_base', userMessage('x'.repeat(100_000)))).toBe(12_500);
  });

  it('stays within 0.5% of the one-shot count for random letters, text around them included', () => {
    const text = `Here is the key: ${letters(20_000)} and that is all.`;
    const direct = o200k(text, { disallowedSpecial: new Set() });
    const ours = countMessageTokens('o200k_base', userMessage(text));
    expect(Math.abs(ours - direct) / direct).toBeLessThan(0.005);
  });

  it('never splits a surrogate pair between pieces', () => {
    const astral = '𠀀'.repeat(600); // a CJK letter outside the BMP: 2 UTF-16 units each
    const direct = o200k(astral, { disallowedSpecial: new Set() });
    const ours = countMessageTokens('o200k_base', userMessage(astral));
    expect(Math.abs(ours - direct) / direct).toBeLessThan(0.01);
  });

  it('counts long text with normal spacing exactly, as one piece', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(500);
    expect(countMessageTokens('cl100k_base', userMessage(prose))).toBe(cl100k(prose));
    const base64 = Buffer.from(letters(3000)).toString('base64');
    expect(countMessageTokens('o200k_base', userMessage(base64))).toBe(o200k(base64));
  });
});

describe('estimateTokens (the reference helper)', () => {
  it('returns 0 for empty text', () => {
    expect(estimateTokens('')).toBe(0);
  });

  it('uses the model encoding, gpt-4o by default', () => {
    expect(estimateTokens('Hello, world!')).toBe(o200k('Hello, world!'));
    expect(estimateTokens('Hello, world!', 'gpt-4')).toBe(cl100k('Hello, world!'));
    expect(encodingForModel('gpt-4o')).toBe('o200k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-4o-2024-08-06')).toBe('o200k_base');
    expect(encodingForModel('gpt-4-0613')).toBe('cl100k_base');
    expect(encodingForModel('ft:gpt-4o-mini:org::id')).toBe('o200k_base');
    expect(encodingForModel('text-davinci-003')).toBe('p50k_base');
    expect(encodingForModel('davinci')).toBe('r50k_base');
  });

  it('falls back to cl100k_base for unknown models, as the reference', () => {
    expect(encodingForModel('my-local-llama')).toBe('cl100k_base');
    const text = 'Unknown models are counted with cl100k.';
    expect(estimateTokens(text, 'my-local-llama')).toBe(cl100k(text));
  });
});

describe('estimateTokens: arguments and the reference fallback', () => {
  it('rejects a non-string text or model with our error', () => {
    expect(() => estimateTokens(null as never)).toThrow(MemoryArgumentError);
    expect(() => estimateTokens(null as never)).toThrow(
      'estimateTokens: text must be a string, received null',
    );
    expect(() => estimateTokens('hi', null as never)).toThrow(
      'estimateTokens: model must be a string, received null',
    );
  });

  it('estimateTokensFallback is the reference max(1, len // 4) without tiktoken (verified values)', () => {
    expect(estimateTokensFallback('')).toBe(0);
    expect(estimateTokensFallback('abc')).toBe(1);
    expect(estimateTokensFallback('a'.repeat(400))).toBe(100);
    expect(estimateTokensFallback('Hello, world!')).toBe(3);
    expect(estimateTokensFallback('😀😀😀😀😀😀😀😀')).toBe(2);
    expect(() => estimateTokensFallback(3 as never)).toThrow(MemoryArgumentError);
  });
});

describe('registerTokenizer', () => {
  const words = (m: { content: string | null }) =>
    (m.content ?? '').split(/\s+/).filter(Boolean).length;

  it('makes a custom counter usable by name', () => {
    registerTokenizer('tokens-test-words', words);
    expect(isKnownTokenizer('tokens-test-words')).toBe(true);
    const state = addMessage(
      createMemory({ tokenizer: 'tokens-test-words', maxTokens: 3 }),
      userMessage('one two three'),
    ).state;
    expect(state.totalTokens).toBe(3);
  });

  it('allows registering the same function twice, but not another one under the same name', () => {
    registerTokenizer('tokens-test-twice', words);
    expect(() => registerTokenizer('tokens-test-twice', words)).not.toThrow();
    expect(() => registerTokenizer('tokens-test-twice', () => 1)).toThrow(
      'registerTokenizer: "tokens-test-twice" is already registered with another function; choose a new name',
    );
  });

  it('accepts a new function with the same source text, as when a module is loaded twice', async () => {
    registerTokenizer('tokens-test-same-source', (m) => (m.content ?? '').length);
    expect(() =>
      registerTokenizer('tokens-test-same-source', (m) => (m.content ?? '').length),
    ).not.toThrow();
    await import('../fixtures/registersWordsTokenizer');
    vi.resetModules();
    await expect(import('../fixtures/registersWordsTokenizer')).resolves.toBeDefined();
    expect(
      addMessage(createMemory({ tokenizer: 'fixture-words' }), userMessage('a b c')).state
        .totalTokens,
    ).toBe(3);
  });

  it.each(BUILT_IN_TOKENIZERS)('refuses to replace the built-in %s', (name) => {
    expect(() => registerTokenizer(name, () => 1)).toThrow(TokenizerError);
  });

  it('rejects an empty name and a non-function', () => {
    expect(() => registerTokenizer('', () => 1)).toThrow(
      'name must be a non-empty string, received ""',
    );
    expect(() => registerTokenizer('x', 3 as never)).toThrow(
      'count must be a function, received 3',
    );
  });

  it('rejects a counter result that is not a non-negative integer, leaving the state alone', () => {
    registerTokenizer('tokens-test-bad', () => 1.5);
    const state = createMemory({ tokenizer: 'tokens-test-bad' });
    expect(() => addMessage(state, userMessage('x'))).toThrow(
      'addMessage: tokenizer "tokens-test-bad" must return a non-negative integer, returned 1.5',
    );
    expect(state.messages).toEqual([]);
  });
});

describe('loadTokenizer', () => {
  it('resolves for built-in and registered names', async () => {
    await expect(loadTokenizer('cl100k_base')).resolves.toBeUndefined();
    await expect(loadTokenizer('heuristic')).resolves.toBeUndefined();
  });

  it('rejects an unknown name', async () => {
    await expect(loadTokenizer('nope')).rejects.toThrow('loadTokenizer: unknown tokenizer "nope"');
  });
});
