import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, TokenizerError, userMessage } from 'conversation-memory';
// The root entry's browser build swaps encodingLoader.ts for this file (tsup.config.ts).
import { loadEncoding, tryEncodingCounter } from '../../src/tokens/encodingLoader.browser';
// The entry of conversation-memory/encodings.
import { loadTokenizer } from 'conversation-memory/encodings';

/**
 * The browser build of the root entry loads no encoding; conversation-memory/encodings loads them
 * and keeps their counters where every copy of the root entry finds them. The loaded encodings are
 * shared by the whole process, so this file runs in its own and loads o200k only through the
 * subpath.
 */
const PLAIN = { disallowedSpecial: new Set<string>() };

describe('the browser build’s loader, and conversation-memory/encodings', () => {
  it('the browser loader has nothing until the subpath loads it, and says where to load it', async () => {
    expect(tryEncodingCounter('o200k_base')).toBeUndefined();
    const failure = loadEncoding('o200k_base');
    // By code: under TEST_DIST the root entry's TokenizerError is dist's, this loader's is src's.
    await expect(failure).rejects.toMatchObject({ code: 'CM_TOKENIZER', name: 'TokenizerError' });
    await expect(failure).rejects.toThrow(
      `[conversation-memory] loadTokenizer: the "o200k_base" encoding is not in the browser build of conversation-memory; import { loadTokenizer } from 'conversation-memory/encodings' and await that one`,
    );
  });

  it('after the subpath’s loadTokenizer, the browser loader and memories count with that table', async () => {
    await loadTokenizer('o200k_base');
    const count = tryEncodingCounter('o200k_base');
    expect(count?.('Hello, world!')).toBe(4);
    await expect(loadEncoding('o200k_base')).resolves.toBeUndefined();
    expect(addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens).toBe(4);
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (text) => {
        expect(count?.(text)).toBe(o200k(text, PLAIN));
      }),
    );
  });

  it('is the root entry’s loadTokenizer for every other name', async () => {
    await expect(loadTokenizer('heuristic')).resolves.toBeUndefined();
    await expect(loadTokenizer('my-words')).rejects.toThrow(
      '[conversation-memory] loadTokenizer: unknown tokenizer "my-words"',
    );
    await expect(loadTokenizer('p50k_base')).rejects.toBeInstanceOf(TokenizerError);
  });
});
