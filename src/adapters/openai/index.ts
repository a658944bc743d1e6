/**
 * The openai adapter subpath (`conversation-memory/openai`): a `Provider` for OpenAI's Chat
 * Completions through the official `openai` client (an optional peer dependency).
 *
 * @packageDocumentation
 * @module conversation-memory/openai
 */
export { openaiProvider } from './openaiProvider';
export type { OpenAIProviderOptions } from './openaiProvider';
