import { MemoryArgumentError } from '../errors/memoryErrors';
import { received } from '../util/describeValue';
import { encodingCounter } from './encodings';
import { quarterCodePoints } from './heuristic';
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
  if (typeof text !== 'string') {
    throw new MemoryArgumentError('estimateTokens', `text must be a string, ${received(text)}`);
  }
  if (typeof model !== 'string') {
    throw new MemoryArgumentError('estimateTokens', `model must be a string, ${received(model)}`);
  }
  if (text === '') return 0;
  return encodingCounter(encodingForModel(model), 'estimateTokens')(text);
};

/**
 * The reference's fallback estimate, used there when tiktoken is not installed (its tests assume
 * it): `''` is 0, otherwise `max(1, floor(code points / 4))`. Note that the memory's own
 * `'heuristic'` tokenizer differs: it has no minimum of 1, exactly as the reference memory.
 *
 * @param text - the text
 * @returns the estimate
 * @throws MemoryArgumentError when `text` is not a string
 * @example
 * ```ts
 * estimateTokensFallback('abc'); // 1
 * estimateTokensFallback('Hello, world!'); // 3
 * estimateTokensFallback('a'.repeat(400)); // 100
 * ```
 */
export const estimateTokensFallback = (text: string): number => {
  if (typeof text !== 'string') {
    throw new MemoryArgumentError(
      'estimateTokensFallback',
      `text must be a string, ${received(text)}`,
    );
  }
  return text === '' ? 0 : Math.max(1, quarterCodePoints(text));
};
