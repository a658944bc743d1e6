import type { MemoryEncoding } from './memoryEncoding';
import type { EncodingModule } from './adoptEncoding';

/**
 * Imports the gpt-tokenizer module of an encoding a memory counts with. Bundlers make each a
 * separate chunk. Only the two encodings `loadTokenizer` accepts are here: `p50k_base` and
 * `r50k_base` (used by `estimateTokens` for legacy models) load only through Node's `require`,
 * so no bundle carries their chunks.
 *
 * Used by encodingLoader.ts (which the root entry's browser build leaves out) and by
 * `conversation-memory/encodings`.
 *
 * @param name - `'o200k_base'` or `'cl100k_base'`
 * @returns the encoding's module
 * @example
 * ```ts
 * (await importEncoding('o200k_base')).countTokens('Hello, world!'); // 4
 * ```
 * @internal
 */
export const importEncoding = (name: MemoryEncoding): Promise<EncodingModule> =>
  name === 'o200k_base'
    ? import('gpt-tokenizer/encoding/o200k_base')
    : import('gpt-tokenizer/encoding/cl100k_base');
