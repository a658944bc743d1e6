/**
 * The encodings subpath (`conversation-memory/encodings`): `loadTokenizer` with gpt-tokenizer's
 * encoding tables behind it, as chunks a bundler code-splits.
 *
 * Bundlers that resolve the package's `"browser"` export condition get a root entry that imports
 * no encoding at all, so that a page counting with `'heuristic'` deploys none of the tables
 * (3.7 MB of JavaScript for o200k and cl100k). A page that counts with `'o200k_base'` (the
 * default) or `'cl100k_base'` awaits this `loadTokenizer` once, before it creates a memory. Node,
 * and any bundle made without the `"browser"` condition, needs nothing from here (`conversation-memory/tokens`'
 * `loadTokenizer` loads the tables itself), but importing it there works the same.
 *
 * @packageDocumentation
 * @module conversation-memory/encodings
 */
import type { TokenizerName } from 'conversation-memory';
import { loadTokenizer as loadKnownTokenizer } from 'conversation-memory/tokens';
import { adoptEncoding } from '../tokens/adoptEncoding';
import { importEncoding } from '../tokens/importEncoding';
import { loadedCounter } from '../tokens/loadedEncodings';
import { isMemoryEncoding } from '../tokens/memoryEncoding';

/**
 * `conversation-memory/tokens`' {@link loadKnownTokenizer | loadTokenizer}, able to load the encodings in every
 * build: it imports the encoding's table (a separate chunk in a bundle) and keeps its counter
 * where every copy of the root entry finds it, so memories then count with it synchronously. `'heuristic'` and registered names resolve at
 * once; an unknown name rejects with a `TokenizerError`, as that one does.
 *
 * @param name - a tokenizer name
 * @returns a promise that settles when the tokenizer can count synchronously
 * @throws TokenizerError (as a rejection) for an unknown name
 * @example
 * ```ts
 * import { addMessage, createMemory, userMessage } from 'conversation-memory';
 * import { loadTokenizer } from 'conversation-memory/encodings';
 *
 * await loadTokenizer('o200k_base'); // once, before the first memory that uses it
 * addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens; // 4
 * ```
 */
export const loadTokenizer = async (name: TokenizerName): Promise<void> => {
  if (isMemoryEncoding(name) && loadedCounter(name) === undefined) {
    adoptEncoding(name, await importEncoding(name));
  }
  return loadKnownTokenizer(name);
};
