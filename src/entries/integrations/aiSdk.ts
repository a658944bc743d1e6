/**
 * The Vercel AI SDK adapter (`conversation-memory/ai-sdk`; `ai` 6 is an optional peer
 * dependency): conversions between our messages and the SDK's `ModelMessage`s, and a `Provider`
 * backed by any AI SDK `LanguageModel`; for chat UIs on `useChat`, conversions between our
 * messages and the SDK's `UIMessage`s, the agent's run as a UI message stream, and a store that
 * keeps a running stream for a client that reconnects (resume) or a request that stops it.
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
export { fromUIMessages } from '../../adapters/ai-sdk/ui/fromUIMessages';
export { toUIMessages } from '../../adapters/ai-sdk/ui/toUIMessages';
export { toUIMessageStream } from '../../adapters/ai-sdk/ui/toUIMessageStream';
export { toUIMessageStreamResponse } from '../../adapters/ai-sdk/ui/toUIMessageStreamResponse';
export {
  resumeUIMessageStream,
  resumeUIMessageStreamResponse,
} from '../../adapters/ai-sdk/ui/resumeUIMessageStream';
export { createMemoryUIMessageStreamStore } from '../../adapters/ai-sdk/ui/createMemoryUIMessageStreamStore';
export type {
  ToUIMessageStreamOptions,
  UIMessageStreamFinish,
} from '../../adapters/ai-sdk/ui/toUIMessageStream';
export type { ToUIMessageStreamResponseOptions } from '../../adapters/ai-sdk/ui/toUIMessageStreamResponse';
export type { ResumeUIMessageStreamOptions } from '../../adapters/ai-sdk/ui/resumeUIMessageStream';
export type { UIMessageStreamStore } from '../../adapters/ai-sdk/ui/uiMessageStreamStore';
export type { UIMessageStreamStoreOptions } from '../../adapters/ai-sdk/ui/streamStoreOptions';
