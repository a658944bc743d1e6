import { either as E } from 'fp-ts';
import type { MemoryConfigError } from '../errors/memoryErrors';
import { checkConfig, configError } from '../internal/checkConfig';
import type { MemoryConfig } from '../model/config';

/**
 * Validates memory options from anywhere (a form, a file, an environment variable) and fills the
 * defaults (`maxMessages: 20`, `maxTokens: null`, `tokenizer: 'o200k_base'`). Never throws, even
 * on input whose getters or Proxy traps throw; each own property is read once, inherited ones
 * never.
 *
 * Each problem names the field and the value: `maxMessages must be at least 1, received 0`,
 * `maxTokens must be an integer, received 1.5`, `maxMessages must be a number, received string "20"`.
 * Unlike the reference, which accepts `1.5`, every limit must be an integer ≥ 1. At most 20
 * problems are listed; `left.problemCount` tells how many there were.
 *
 * @param input - `undefined` (all defaults) or an options object
 * @returns `Right(config)` or `Left(MemoryConfigError)` listing every problem
 * @example
 * ```ts
 * decodeConfig({ maxMessages: 10 }); // right({ maxMessages: 10, maxTokens: null, tokenizer: 'o200k_base' })
 * decodeConfig({ maxMessages: 0 }); // left(MemoryConfigError: ... maxMessages must be at least 1, received 0)
 * ```
 */
export const decodeConfig = (input: unknown): E.Either<MemoryConfigError, MemoryConfig> => {
  const checked = checkConfig(input);
  return checked.ok ? E.right(checked.config) : E.left(configError('decodeConfig', checked));
};
