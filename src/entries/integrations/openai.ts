/**
 * The openai adapter subpath (`conversation-memory/openai`): a `Provider` for OpenAI's Chat
 * Completions, and an embedder for OpenAI's embeddings API, through the official `openai` client
 * (an optional peer dependency).
 *
 * @packageDocumentation
 * @module conversation-memory/openai
 */
export { openaiProvider } from './openaiProvider';
export type { OpenAIProviderOptions } from './openaiProvider';
export { createOpenAIEmbedder } from './openaiEmbedder';
export type { OpenAIEmbedder, PrepareEmbeddingsOptions } from './openaiEmbedder';
export type { OpenAIEmbedderOptions } from './embedderOptions';
export { EMBEDDING_CACHE_FORMAT } from './embeddingCache';
export type { EmbeddingCacheDict, EmbeddingCacheEntry } from './embeddingCache';
export { EmbeddingNotPreparedError, EmbeddingRequestError } from '../../library';
