import { isMemoryEncoding, type MemoryEncoding } from './memoryEncoding';
import { exactModelEncoding, prefixModelEncoding } from './modelFamilies';
import { countedTableModelEncoding } from './tableModels';

/**
 * The tokenizer a memory would count a model's tokens with, for a model id written where a
 * tokenizer name belongs (`createMemory({ tokenizer: 'gpt-4o' })`): `'o200k_base'` or
 * `'cl100k_base'`, or `undefined` for any other string, including models of the older encodings.
 * The same answer as `knownModelEncoding` for those two encodings, without the legacy models.
 *
 * @param model - any string
 * @returns the tokenizer name to suggest, or `undefined`
 * @example
 * ```ts
 * tokenizerOfModel('gpt-4o-mini-2024-07-18'); // 'o200k_base'
 * tokenizerOfModel('gpt-4'); // 'cl100k_base'
 * tokenizerOfModel('text-davinci-003'); // undefined (p50k_base: not a memory's tokenizer)
 * ```
 * @internal
 */
export const tokenizerOfModel = (model: string): MemoryEncoding | undefined => {
  const encoding =
    exactModelEncoding(model) ?? countedTableModelEncoding(model) ?? prefixModelEncoding(model);
  return isMemoryEncoding(encoding) ? encoding : undefined;
};
