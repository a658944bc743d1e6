import type { EncodingName } from './encodings';
import { keepCounter, type EncodingCounter } from './loadedEncodings';
import { countInPieces } from './piecesForCounting';

/**
 * The one function this library needs from a gpt-tokenizer encoding module.
 *
 * @example
 * ```ts
 * const module: EncodingModule = await import('gpt-tokenizer/encoding/o200k_base');
 * ```
 * @internal
 */
export interface EncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

/** Text like `<|endoftext|>` is counted as ordinary text, as tiktoken's `disallowed_special=()`. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Makes the counter of a loaded encoding module (linear on long runs: see piecesForCounting.ts)
 * and keeps it for every later use.
 *
 * @param name - the encoding the module counts
 * @param module - gpt-tokenizer's module of that encoding
 * @returns the counter
 * @example
 * ```ts
 * adoptEncoding('o200k_base', await import('gpt-tokenizer/encoding/o200k_base'))('Hello, world!'); // 4
 * ```
 * @internal
 */
export const adoptEncoding = (name: EncodingName, module: EncodingModule): EncodingCounter => {
  const countPiece = (piece: string): number => module.countTokens(piece, AS_PLAIN_TEXT);
  return keepCounter(name, (text) => countInPieces(countPiece, name, text));
};
