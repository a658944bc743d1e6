import { encodingCounter } from './encodings';
import { encodingForModel } from './modelEncodings';

/**
 * Counts the tokens of a text for a model, as the reference's `estimate_tokens(text, model)`:
 * empty text is 0; otherwise the model's real encoding (tiktoken in the reference, gpt-tokenizer
 * here), with `cl100k_base` for unknown models. Text such as `<|endoftext|>` is counted as
 * ordinary text. The reference's `max(1, len // 4)` applies only where tiktoken is missing; a real
 * tokenizer is always present here.
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
