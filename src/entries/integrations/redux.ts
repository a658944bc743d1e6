/**
 * The Redux Toolkit adapter subpath (`conversation-memory/redux`): a slice of many conversations
 * (`createConversationsSlice`) and the delivery of their effects through Redux Toolkit's listener
 * middleware (`startMemoryEffectsListening`). `@reduxjs/toolkit` 2 is an optional peer dependency.
 *
 * @packageDocumentation
 * @module conversation-memory/redux
 */
export { createConversationsSlice } from './createConversationsSlice';
export { startMemoryEffectsListening } from './startMemoryEffectsListening';
export type { ConversationsSlice } from './createConversationsSlice';
export type { ConversationsCaseReducers } from './conversationReducers';
export type { ConversationsSelectors } from './conversationSelectors';
export type {
  ConversationsState,
  ConversationsSliceOptions,
  ConversationCreatedPayload,
  ConversationTarget,
  MessageAddedPayload,
  MessagesAddedPayload,
  SummaryAppliedPayload,
  MemoryActionAppliedPayload,
  MessageAddedInput,
  MessagesAddedInput,
  ConversationsAction,
  MemoryEffectContext,
  MemoryEffectHandler,
} from './types';
