import { TokenizerError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { loadAdvice, tryEncodingCounter } from './encodingLoader';
import type { EncodingCounter } from './loadedEncodings';

/**
 * The gpt-tokenizer encodings this library can load. Each one is a large table (o200k is 2.4 MB of
 * JavaScript, about 100 ms to load), so none is loaded until a memory or `estimateTokens` uses it.
 *
 * @example
 * ```ts
 * const name: EncodingName = 'cl100k_base';
 * ```
 */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base';

/**
 * Returns the counter of an encoding, or throws a {@link TokenizerError} that says how to load it.
 *
 * @param name - an encoding name
 * @param api - the public function to name in the error
 * @returns its counter
 * @example
 * ```ts
 * encodingCounter('cl100k_base', 'estimateTokens')('Hello, world!'); // 4
 * ```
 * @internal
 */
export const encodingCounter = (name: EncodingName, api: string): EncodingCounter => {
  const count = tryEncodingCounter(name);
  if (count !== undefined) return count;
  throw new TokenizerError(
    api,
    `the ${describeValue(name)} encoding is not loaded and this runtime cannot load it synchronously; ` +
      `before using it, ${loadAdvice(name)}`,
  );
};
