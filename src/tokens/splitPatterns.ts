import type { EncodingName } from './encodings';

/**
 * The pre-tokenizer regexes of gpt-tokenizer 4 (its `encodingParams/constants`), copied as facts:
 * the BPE runs on each match separately, so these decide where text may be cut without changing
 * its count. A test asserts that they equal gpt-tokenizer's own. p50k uses r50k's.
 */
const O200K =
  /[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
const CL100K =
  /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/gu;
const R50K = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

/**
 * The pre-tokenizer regex of an encoding (global and unicode; reset `lastIndex` before use).
 *
 * @param encoding - an encoding name
 * @returns the regex gpt-tokenizer splits that encoding's text with
 * @example
 * ```ts
 * 'Hello world'.match(splitPattern('o200k_base')); // ['Hello', ' world']
 * ```
 * @internal
 */
export const splitPattern = (encoding: EncodingName): RegExp => {
  switch (encoding) {
    case 'o200k_base':
      return O200K;
    case 'cl100k_base':
      return CL100K;
    case 'p50k_base':
    case 'r50k_base':
      return R50K;
  }
};
