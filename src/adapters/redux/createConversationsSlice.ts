import { createSlice, type Slice } from '@reduxjs/toolkit';
import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readAdapterOptions } from '../shared/readAdapterOptions';
import { createMemoryAs } from '../shared/createMemoryAs';
import { conversationReducers, type ConversationsCaseReducers } from './conversationReducers';
import { conversationSelectors, type ConversationsSelectors } from './conversationSelectors';
import type { ConversationsSliceOptions, ConversationsState } from './types';

const API = 'createConversationsSlice';

/**
 * A Redux Toolkit slice of many conversations (see {@link createConversationsSlice}).
 *
 * @example
 * ```ts
 * const slice: ConversationsSlice = createConversationsSlice();
 * slice.actions.messageAdded({ conversationId: 'a', message: userMessage('hi') });
 * ```
 */
export type ConversationsSlice<Name extends string = 'conversations'> = Slice<
  ConversationsState,
  ConversationsCaseReducers,
  Name,
  Name,
  ConversationsSelectors
>;

const INITIAL_STATE: ConversationsState = /* @__PURE__ */ Object.freeze({
  conversations: Object.freeze({}),
});

/**
 * Creates a Redux Toolkit slice (`createSlice`) that keeps many conversations keyed by id, each a
 * `MemoryState` changed by the library's reducers. State: `{ conversations: { [id]: MemoryState } }`,
 * plain frozen data that passes `configureStore`'s serializable and immutable checks.
 *
 * Actions (each payload names its `conversationId`):
 * - `conversationCreated({ conversationId, config? })`: a new empty memory with `defaultConfig`
 *   and `config` over it. The creator checks the config (`MemoryConfigError` is thrown by the
 *   creator, before anything is dispatched) and stores the whole checked config in the action. An
 *   id that already exists keeps its conversation (nothing is dropped silently; remove it first to
 *   start again), so dispatching it whenever a thread opens is safe.
 * - `messageAdded({ conversationId, message })`, `messagesAdded({ conversationId, messages })`:
 *   `addMessage` / `addMessages` (trimming as the conversation's config says); messages are
 *   validated by the creator (`InvalidMessageError`).
 * - `summaryApplied({ conversationId, text })`, `cleared({ conversationId })`: `applySummary`,
 *   `clearMemory`.
 * - `memoryActionApplied({ conversationId, action })`: any `memoryActions` action, through
 *   `memoryTransition` (`summarySet`, `limitsEnforced`, `trimHeld`, `summaryCommitted`, …).
 * - `conversationRemoved({ conversationId })`: deletes the conversation (the effects listener
 *   reports its messages as a clear would).
 *
 * An action for a conversation that does not exist changes nothing (the same root state, and no
 * effects): a late reply for a thread the user deleted must not bring it back. Create it first.
 * A raw action with an invalid payload (built by hand, replayed) throws from `dispatch`, and
 * Redux keeps the state it had.
 *
 * Selectors (`slice.selectors.*(rootState, conversationId)`, the slice mounted at its name):
 * `selectConversation` (the `MemoryState` or `undefined`), `selectHistory` (the state's own
 * messages array; a shared frozen empty array when missing), `selectPositions`, `selectSummary`,
 * `selectTotalTokens`, and `selectConversationIds(rootState)`.
 *
 * @param options - `name` (default `'conversations'`) and `defaultConfig` (checked here)
 * @returns the slice: `reducer`, `actions`, `selectors`, …
 * @throws MemoryConfigError for an invalid `defaultConfig`; MemoryArgumentError for a bad name
 * @example
 * ```ts
 * const chats = createConversationsSlice({ defaultConfig: { maxMessages: 20 } });
 * const store = configureStore({ reducer: { [chats.reducerPath]: chats.reducer } });
 * store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
 * store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: userMessage('hi') }));
 * chats.selectors.selectHistory(store.getState(), 'a'); // [{ role: 'user', content: 'hi' }]
 * ```
 */
export function createConversationsSlice<Name extends string = 'conversations'>(
  options: ConversationsSliceOptions<Name> = {},
): ConversationsSlice<Name> {
  // Read once; a misspelled `defaultconfig` would give every conversation the default config.
  const given = readAdapterOptions(options, ['name', 'defaultConfig'], API, {
    example: '{ defaultConfig }',
    error: MemoryArgumentError,
  }) as ConversationsSliceOptions<Name>;
  const name = given.name ?? ('conversations' as Name);
  if (typeof name !== 'string' || name === '') {
    throw new MemoryArgumentError(
      API,
      `name must be a non-empty string, received ${describeValue(name)}`,
    );
  }
  const defaults = createMemoryAs(API, given.defaultConfig, 'options.defaultConfig').config;
  return createSlice({
    name,
    initialState: INITIAL_STATE,
    reducers: conversationReducers(name, defaults),
    selectors: conversationSelectors(),
  });
}
