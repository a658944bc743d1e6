/**
 * `conversation-memory/tokens`: counting tokens outside a memory and adding tokenizers. A memory
 * picks its tokenizer by name in its config (`createMemory({ tokenizer: 'o200k_base' })`); this
 * entry is for registering another one, loading one to count with, and estimating a text's tokens
 * as selectools' `estimate_tokens` does.
 *
 * @example
 * ```ts
 * import { estimateTokens, registerTokenizer } from 'conversation-memory/tokens';
 * estimateTokens('Hello, world!'); // 4
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/tokens
 */
export {
  registerTokenizer,
  loadTokenizer,
  isKnownTokenizer,
  countMessageTokens,
  BUILT_IN_TOKENIZERS,
} from '../tokens/registry';
export { estimateTokens, estimateTokensFallback } from '../tokens/estimateTokens';
export { encodingForModel } from '../tokens/modelEncodings';
export { messageText } from '../tokens/messageText';
export { estimateCost } from '../tokens/estimateCost';
export type { TokenPrices } from '../tokens/estimateCost';
export type { MessageTokenCounter } from '../tokens/registry';
export type { EncodingName } from '../tokens/encodings';
export type { TokenizerName } from '../model/config';
