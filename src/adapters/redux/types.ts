import type { Dispatch, PayloadAction } from '@reduxjs/toolkit';
import type {
  MemoryAction,
  MemoryEffect,
  MemoryOptions,
  MemoryState,
  Message,
  MessageInput,
} from 'conversation-memory';

/**
 * The state of a conversations slice: one {@link MemoryState} per conversation, keyed by the id
 * the application chose (a chat UI's thread id). Plain, frozen, JSON-serializable data: it passes
 * Redux Toolkit's serializable and immutable checks and shows as is in the Redux DevTools.
 *
 * @example
 * ```ts
 * const state: ConversationsState = { conversations: { 'thread-1': createMemory() } };
 * ```
 */
export interface ConversationsState {
  readonly conversations: Readonly<Record<string, MemoryState>>;
}

/**
 * What `createConversationsSlice` accepts.
 *
 * @example
 * ```ts
 * const options: ConversationsSliceOptions<'chat'> = { name: 'chat', defaultConfig: { maxMessages: 50 } };
 * ```
 */
export interface ConversationsSliceOptions<Name extends string = 'conversations'> {
  /** The slice's name, the prefix of its action types and its key in the root state (default `'conversations'`). */
  readonly name?: Name;
  /** The options of every new conversation, under the config its `conversationCreated` gives. */
  readonly defaultConfig?: MemoryOptions;
}

/**
 * The payload of `conversationCreated`: the new conversation's id and options. The creator stores
 * the whole checked config (the slice's `defaultConfig` with `config` over it), so the action
 * replays the same way whatever the slice's defaults are.
 *
 * @example
 * ```ts
 * const payload: ConversationCreatedPayload = { conversationId: 'a', config: { maxMessages: 4 } };
 * ```
 */
export interface ConversationCreatedPayload {
  readonly conversationId: string;
  readonly config?: MemoryOptions;
}

/**
 * The payload of the actions that name a conversation and nothing else (`cleared`,
 * `conversationRemoved`).
 *
 * @example
 * ```ts
 * const payload: ConversationTarget = { conversationId: 'a' };
 * ```
 */
export interface ConversationTarget {
  readonly conversationId: string;
}

/**
 * The payload of `messageAdded`, as stored: the creator validates the message and keeps a
 * canonical frozen copy (it accepts any `MessageInput`).
 *
 * @example
 * ```ts
 * const payload: MessageAddedPayload = { conversationId: 'a', message: userMessage('hi') };
 * ```
 */
export interface MessageAddedPayload {
  readonly conversationId: string;
  readonly message: Message;
}

/**
 * The payload of `messagesAdded`, as stored (validated canonical copies, as `messageAdded`).
 *
 * @example
 * ```ts
 * const payload: MessagesAddedPayload = { conversationId: 'a', messages: [userMessage('hi')] };
 * ```
 */
export interface MessagesAddedPayload {
  readonly conversationId: string;
  readonly messages: readonly Message[];
}

/**
 * The payload of `summaryApplied`: a summary chunk for the conversation (`applySummary`).
 *
 * @example
 * ```ts
 * const payload: SummaryAppliedPayload = { conversationId: 'a', text: 'User is Alice.' };
 * ```
 */
export interface SummaryAppliedPayload {
  readonly conversationId: string;
  readonly text: string;
}

/**
 * The payload of `memoryActionApplied`: any {@link MemoryAction} (from `memoryActions`), applied
 * to one conversation with `memoryTransition`; the way to reach the reducers the slice has no named
 * action for (`summarySet`, `limitsEnforced`, `trimHeld`, `summaryCommitted`, …).
 *
 * @example
 * ```ts
 * const payload: MemoryActionAppliedPayload = { conversationId: 'a', action: memoryActions.summarySet(null) };
 * ```
 */
export interface MemoryActionAppliedPayload {
  readonly conversationId: string;
  readonly action: MemoryAction;
}

/**
 * The inputs of the slice's action creators that take messages: any `MessageInput`, validated
 * when the action is made.
 *
 * @example
 * ```ts
 * const input: MessageAddedInput = { conversationId: 'a', message: { role: 'user', content: 'hi' } };
 * ```
 */
export interface MessageAddedInput {
  readonly conversationId: string;
  readonly message: MessageInput;
}

/**
 * The input of `messagesAdded` (see {@link MessageAddedInput}).
 *
 * @example
 * ```ts
 * const input: MessagesAddedInput = { conversationId: 'a', messages: [userMessage('hi')] };
 * ```
 */
export interface MessagesAddedInput {
  readonly conversationId: string;
  readonly messages: readonly MessageInput[];
}

/**
 * Any action of a conversations slice, as a handler of `startMemoryEffectsListening` receives it.
 *
 * @example
 * ```ts
 * const describe = (action: ConversationsAction) => action.type; // 'conversations/messageAdded', …
 * ```
 */
export type ConversationsAction =
  | PayloadAction<ConversationCreatedPayload>
  | PayloadAction<ConversationTarget>
  | PayloadAction<MessageAddedPayload>
  | PayloadAction<MessagesAddedPayload>
  | PayloadAction<SummaryAppliedPayload>
  | PayloadAction<MemoryActionAppliedPayload>;

/**
 * What a handler of `startMemoryEffectsListening` gets with each effect: the conversation it
 * happened in, the slice action that caused it, and the store's `dispatch` and `getState` (the
 * state after that action).
 *
 * @example
 * ```ts
 * const handler = (effect: MemoryEffect, { conversationId, dispatch }: MemoryEffectContext) => {
 *   if (effect.type === 'memory/trimmed') dispatch(someAction(conversationId, effect.removed));
 * };
 * ```
 */
export interface MemoryEffectContext<State = unknown, D extends Dispatch = Dispatch> {
  readonly conversationId: string;
  readonly action: ConversationsAction;
  readonly dispatch: D;
  readonly getState: () => State;
}

/**
 * Called once per effect, in the order the reducers emitted them. It may return a promise; a
 * handler that throws or rejects changes no state and does not stop the other effects (see
 * `startMemoryEffectsListening` for where its error goes).
 *
 * @example
 * ```ts
 * const logTrims: MemoryEffectHandler = (effect, { conversationId }) => {
 *   if (effect.type === 'memory/trimmed') console.log(conversationId, effect.removed.length);
 * };
 * ```
 */
export type MemoryEffectHandler<State = unknown, D extends Dispatch = Dispatch> = (
  effect: MemoryEffect,
  context: MemoryEffectContext<State, D>,
) => unknown;
