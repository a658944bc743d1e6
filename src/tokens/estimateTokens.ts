import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { encodingCounter, type EncodingName } from './encodings';

const LOADABLE: ReadonlySet<string> = new Set(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base']);

/**
 * The encoding the reference's `estimate_tokens` would use for a model: the model's own
 * encoding when known, else `cl100k_base` (its fallback for unknown models).
 *
 * @param model - a model id such as `'gpt-4o'`
 * @returns an encoding name
 * @example
 * ```ts
 * encodingForModel('gpt-4o'); // 'o200k_base'
 * encodingForModel('my-local-model'); // 'cl100k_base'
 * ```
 */
export const encodingForModel = (model: string): EncodingName => {
  const known = (modelToEncodingMap as Readonly<Record<string, string | undefined>>)[model];
  // Variants share their base table and differ only in special tokens, which we count as text.
  const base = known === 'o200k_harmony' ? 'o200k_base' : known === 'p50k_edit' ? 'p50k_base' : known;
  return base !== undefined && LOADABLE.has(base) ? (base as EncodingName) : 'cl100k_base';
};

/**
 * Counts the tokens of a text for a model, as the reference's `estimate_tokens(text, model)`:
 * empty text is 0; otherwise the model's real encoding (tiktoken in the reference, gpt-tokenizer
 * here), falling back to `cl100k_base` for unknown models. Special-token text such as
 * `<|endoftext|>` is counted as ordinary text.
 *
 * @param text - the text
 * @param model - a model id; default `'gpt-4o'`
 * @returns the token count
 * @example
 * ```ts
 * estimateTokens('Hello, world!'); // 4
 * estimateTokens(''); // 0
 * ```
 */
export const estimateTokens = (text: string, model = 'gpt-4o'): number => {
  if (text === '') return 0;
  return encodingCounter(encodingForModel(model), 'estimateTokens')(text);
};
