/**
 * The Vercel AI SDK adapter (`conversation-memory/ai-sdk`; `ai` 6 is an optional peer
 * dependency): conversions between our messages and the SDK's `ModelMessage`s, and a `Provider`
 * backed by any AI SDK `LanguageModel`.
 *
 * @packageDocumentation
 * @module conversation-memory/ai-sdk
 */
export { toModelMessages } from '../../adapters/ai-sdk/toModelMessages';
export { fromModelMessages } from '../../adapters/ai-sdk/fromModelMessages';
export { aiSdkProvider } from '../../adapters/ai-sdk/aiSdkProvider';
export { toToolSet } from '../../adapters/ai-sdk/toToolSet';
export { toCompletionResult } from '../../adapters/ai-sdk/toCompletionResult';
export type { AiSdkProviderOptions } from '../../adapters/ai-sdk/aiSdkProvider';
export type { GenerateTextOutcome } from '../../adapters/ai-sdk/toCompletionResult';
