/**
 * The Redux Toolkit adapter subpath (`conversation-memory/redux`): a slice of many conversations
 * (`createConversationsSlice`) and the delivery of their effects through Redux Toolkit's listener
 * middleware (`startMemoryEffectsListening`). `@reduxjs/toolkit` 2 is an optional peer dependency.
 *
 * @packageDocumentation
 * @module conversation-memory/redux
 */
export { createConversationsSlice } from '../../adapters/redux/createConversationsSlice';
export { startMemoryEffectsListening } from '../../adapters/redux/startMemoryEffectsListening';
export type { ConversationsSlice } from '../../adapters/redux/createConversationsSlice';
export type { ConversationsCaseReducers } from '../../adapters/redux/conversationReducers';
export type { ConversationsSelectors } from '../../adapters/redux/conversationSelectors';
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
} from '../../adapters/redux/types';
