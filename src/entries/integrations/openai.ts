/**
 * The openai adapter subpath (`conversation-memory/openai`): a `Provider` for OpenAI's Chat
 * Completions, and an embedder for OpenAI's embeddings API, through the official `openai` client
 * (an optional peer dependency).
 *
 * @packageDocumentation
 * @module conversation-memory/openai
 */
export { openaiProvider } from '../../adapters/openai/openaiProvider';
export type { OpenAIProviderOptions } from '../../adapters/openai/openaiProvider';
export { createOpenAIEmbedder } from '../../adapters/openai/openaiEmbedder';
export type {
  OpenAIEmbedder,
  PrepareEmbeddingsOptions,
} from '../../adapters/openai/openaiEmbedder';
export type { OpenAIEmbedderOptions } from '../../adapters/openai/embedderOptions';
export { EMBEDDING_CACHE_FORMAT } from '../../adapters/openai/embeddingCache';
export type { EmbeddingCacheDict, EmbeddingCacheEntry } from '../../adapters/openai/embeddingCache';
export { EmbeddingNotPreparedError, EmbeddingRequestError } from '../../library';
