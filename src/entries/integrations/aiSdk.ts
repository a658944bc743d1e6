/**
 * The Vercel AI SDK adapter (`conversation-memory/ai-sdk`; `ai` 6 is an optional peer
 * dependency): conversions between our messages and the SDK's `ModelMessage`s, and a `Provider`
 * backed by any AI SDK `LanguageModel`.
 *
 * @packageDocumentation
 * @module conversation-memory/ai-sdk
 */
export { toModelMessages } from './toModelMessages';
export { fromModelMessages } from './fromModelMessages';
export { aiSdkProvider } from './aiSdkProvider';
export { toToolSet } from './toToolSet';
export { toCompletionResult } from './toCompletionResult';
export type { AiSdkProviderOptions } from './aiSdkProvider';
export type { GenerateTextOutcome } from './toCompletionResult';
