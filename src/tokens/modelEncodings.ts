import type { EncodingName } from './encodings';
import { exactModelEncoding, prefixModelEncoding } from './modelFamilies';
import { tableModelEncoding } from './tableModels';

/**
 * The encoding of a model this library recognizes (an exact model id, gpt-tokenizer's model
 * table, or a dated or fine-tuned variant by prefix), or `undefined` for any other string: no
 * fallback. A memory's config check uses `tokenizerOfModel` instead, which gives the same answer
 * for the encodings a memory counts with and keeps the legacy models out of a chat UI's bundle.
 *
 * @param model - any string
 * @returns the model's encoding, or `undefined` when the model is not recognized
 * @example
 * ```ts
 * knownModelEncoding('gpt-4o-2024-08-06'); // 'o200k_base'
 * knownModelEncoding('my-local-model'); // undefined
 * ```
 * @internal
 */
export const knownModelEncoding = (model: string): EncodingName | undefined =>
  exactModelEncoding(model) ?? tableModelEncoding(model) ?? prefixModelEncoding(model);

/**
 * The encoding the reference's `estimate_tokens` would use for a model (tiktoken's
 * `encoding_for_model`): an exact model id, then a known prefix (dated and fine-tuned variants),
 * and `cl100k_base` for anything unknown, which is the reference's fallback.
 *
 * @param model - a model id such as `'gpt-4o'` or `'gpt-4o-2024-08-06'`
 * @returns an encoding name
 * @example
 * ```ts
 * encodingForModel('gpt-4o'); // 'o200k_base'
 * encodingForModel('gpt-4-0613'); // 'cl100k_base'
 * encodingForModel('my-local-model'); // 'cl100k_base'
 * ```
 */
export const encodingForModel = (model: string): EncodingName =>
  knownModelEncoding(model) ?? 'cl100k_base';
