import fc from 'fast-check';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, TokenizerError, userMessage } from 'conversation-memory';
import {
  encodingForModel,
  estimateTokens,
  isKnownTokenizer,
  loadTokenizer,
  registerTokenizer,
} from 'conversation-memory/tokens';
// Internal: the model lookup without the cl100k fallback (not exported from the package).
import { knownModelEncoding } from '../../src/tokens/modelEncodings';

/**
 * Names that a plain object answers through its prototype (`{}['constructor']` is a function) must
 * be unknown models and unknown tokenizers like any other string. This file registers them as
 * tokenizers at the end, so it keeps its own process (the registry is global to a process).
 */
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])];
const PLAIN = { disallowedSpecial: new Set<string>() };

describe('Object.prototype names', () => {
  it('includes the names a plain object lookup would find', () => {
    expect(NAMES).toEqual(
      expect.arrayContaining(['constructor', 'toString', 'hasOwnProperty', '__proto__']),
    );
  });

  it('are unknown models: cl100k_base, as any unknown model, and no known encoding', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.string({ maxLength: 40 }), (name, text) => {
        expect(encodingForModel(name)).toBe('cl100k_base');
        expect(knownModelEncoding(name)).toBeUndefined();
        expect(estimateTokens(text, name)).toBe(text === '' ? 0 : cl100k(text, PLAIN));
      }),
    );
  });

  it.each(NAMES)('%s is not a known tokenizer and cannot be loaded', async (name) => {
    expect(isKnownTokenizer(name)).toBe(false);
    await expect(loadTokenizer(name)).rejects.toThrow(TokenizerError);
    await expect(loadTokenizer(name)).rejects.toThrow(
      `loadTokenizer: unknown tokenizer ${JSON.stringify(name)}`,
    );
  });

  it('can each be registered as a new tokenizer name, like any other', () => {
    for (const [index, name] of NAMES.entries()) {
      registerTokenizer(name, () => index + 1);
      expect(isKnownTokenizer(name)).toBe(true);
      const state = addMessage(createMemory({ tokenizer: name }), userMessage('x')).state;
      expect(state.totalTokens).toBe(index + 1);
    }
  });
});

describe('knownModelEncoding', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-2024-08-06', 'o200k_base'],
    ['ft:gpt-4o-mini:org::id', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['text-davinci-003', 'p50k_base'],
    ['davinci', 'r50k_base'],
  ])('recognizes %s as %s', (model, encoding) => {
    expect(knownModelEncoding(model)).toBe(encoding);
  });

  it.each(['my-local-llama', 'o200k_base', 'heuristic', '', 'GPT-4O'])(
    'returns undefined for %j, with no fallback',
    (model) => {
      expect(knownModelEncoding(model)).toBeUndefined();
      expect(encodingForModel(model)).toBe('cl100k_base');
    },
  );
});
