import type { EncodingName } from './encodings';

/**
 * The encodings a memory counts with, the ones `loadTokenizer` loads (`p50k_base` and
 * `r50k_base` serve `estimateTokens` for legacy models, in Node).
 *
 * @example
 * ```ts
 * const name: MemoryEncoding = 'o200k_base';
 * ```
 * @internal
 */
export type MemoryEncoding = Extract<EncodingName, 'o200k_base' | 'cl100k_base'>;

/**
 * Tells the encodings a memory counts with from every other name.
 *
 * @param name - any value
 * @returns `true` for `'o200k_base'` and `'cl100k_base'`
 * @example
 * ```ts
 * isMemoryEncoding('o200k_base'); // true
 * isMemoryEncoding('p50k_base'); // false
 * ```
 * @internal
 */
export const isMemoryEncoding = (name: unknown): name is MemoryEncoding =>
  name === 'o200k_base' || name === 'cl100k_base';
