import {
  memoryTransition,
  type MemoryAction,
  type MemoryState,
  type Message,
  type Transition,
} from 'conversation-memory';
import { plainMemory } from './plainMemory';
import { readPayload } from './readPayload';
import type { ConversationsState } from './types';

/**
 * The slice actions that change a conversation's memory, and so may have effects.
 *
 * @internal
 */
export const STEP_ACTIONS = [
  'messageAdded',
  'messagesAdded',
  'summaryApplied',
  'cleared',
  'memoryActionApplied',
  'conversationRemoved',
] as const;

/**
 * One of {@link STEP_ACTIONS}.
 *
 * @internal
 */
export type StepAction = (typeof STEP_ACTIONS)[number];

const CLEARED: MemoryAction = /* @__PURE__ */ Object.freeze({ type: 'memory/cleared' });

/**
 * The memory action each slice action applies to its conversation. A removal is reported as
 * what a clear of the conversation reports (every message that leaves the store appears in a
 * `memory/trimmed` effect), though the reducer simply deletes the conversation.
 */
const MEMORY_ACTION_OF: {
  readonly [K in StepAction]: (fields: Readonly<Record<string, unknown>>) => MemoryAction;
} = {
  messageAdded: (fields) => ({
    type: 'memory/messageAdded',
    payload: fields['message'] as Message,
  }),
  messagesAdded: (fields) => ({
    type: 'memory/messagesAdded',
    payload: fields['messages'] as readonly Message[],
  }),
  summaryApplied: (fields) => ({
    type: 'memory/summaryApplied',
    payload: fields['text'] as string,
  }),
  cleared: () => CLEARED,
  memoryActionApplied: (fields) => fields['action'] as MemoryAction,
  conversationRemoved: () => CLEARED,
};

/**
 * What a slice action does to its conversation in `state`: the transition `memoryTransition` gives,
 * or `undefined` when the conversation does not exist (the action is ignored). The reducers and
 * the effects listener both call this one function, the reducers on the Immer draft of the
 * state before the action, the listener on that same state (`getOriginalState`), so the listener
 * delivers exactly the effects of the transition the reducer stored.
 *
 * @param state - the slice state, or its Immer draft (the conversation's state is unwrapped
 *   before the core reducers see it)
 * @param kind - which slice action
 * @param payload - its payload (checked: a bad id throws `MemoryArgumentError`)
 * @param type - its type, for error messages
 * @returns the conversation and its transition, or `undefined`
 * @internal
 */
export const conversationStep = (
  state: ConversationsState,
  kind: StepAction,
  payload: unknown,
  type: string,
): { readonly conversationId: string; readonly transition: Transition } | undefined => {
  const { fields, conversationId } = readPayload(payload, type);
  const conversations = state.conversations;
  if (!Object.hasOwn(conversations, conversationId)) return undefined;
  const memory = plainMemory(conversations[conversationId] as MemoryState);
  return { conversationId, transition: memoryTransition(memory, MEMORY_ACTION_OF[kind](fields)) };
};
