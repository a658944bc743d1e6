import type { Draft, PayloadAction } from '@reduxjs/toolkit';
import {
  MemoryArgumentError,
  memoryActions,
  type MemoryConfig,
  type MemoryState,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { createMemoryAs } from '../shared/createMemoryAs';
import { conversationStep, type StepAction } from './conversationStep';
import { readPayload } from './readPayload';
import type {
  ConversationCreatedPayload,
  ConversationTarget,
  ConversationsState,
  MemoryActionAppliedPayload,
  MessageAddedInput,
  MessageAddedPayload,
  MessagesAddedInput,
  MessagesAddedPayload,
  SummaryAppliedPayload,
} from './types';
import { withDefaults } from './withDefaults';

type State = Draft<ConversationsState>;

/** A state the core made, as the draft's type (for TypeScript only: it stays a plain value). */
const asDraft = (memory: MemoryState): Draft<MemoryState> => memory as Draft<MemoryState>;

/**
 * A case reducer that applies its slice action's memory action to the conversation with the core
 * reducers (`memoryTransition`): {@link conversationStep} hands them the conversation's plain state,
 * never the Immer draft (the core rejects drafts), and the frozen state they return is assigned
 * back. A state they return unchanged is the draft's own original, which Immer does not count as
 * a change, so a no-op action keeps the very same root state. A missing conversation is left alone.
 */
const stepReducer =
  <P>(kind: StepAction) =>
  (state: State, action: PayloadAction<P>): void => {
    const step = conversationStep(state as ConversationsState, kind, action.payload, action.type);
    if (step !== undefined) {
      state.conversations[step.conversationId] = asDraft(step.transition.state);
    }
  };

/**
 * The case reducers of a conversations slice, with the `prepare` callbacks that check each
 * payload where the action is made (so an invalid config, message or id throws from the action
 * creator, before anything is dispatched). The reducers check raw actions again (hand-built,
 * replayed from a log or the DevTools): an invalid one throws from `dispatch`, and Redux keeps the
 * state it had.
 *
 * @param name - the slice's name (the prefix of the action types, for error messages)
 * @param defaults - the checked config of new conversations
 * @returns the `reducers` option of `createSlice`
 * @internal
 */
export const conversationReducers = (name: string, defaults: MemoryConfig) => ({
  conversationCreated: {
    reducer(state: State, action: PayloadAction<ConversationCreatedPayload>): void {
      const { fields, conversationId } = readPayload(action.payload, action.type);
      const config = withDefaults(defaults, fields['config']);
      const memory = createMemoryAs(action.type, config, 'payload.config');
      if (Object.hasOwn(state.conversations, conversationId)) return;
      state.conversations[conversationId] = asDraft(memory);
    },
    prepare(input: ConversationCreatedPayload): { payload: ConversationCreatedPayload } {
      const type = `${name}/conversationCreated`;
      const { fields, conversationId } = readPayload(input, type);
      const { config } = createMemoryAs(type, withDefaults(defaults, fields['config']), 'config');
      return { payload: { conversationId, config } };
    },
  },
  messageAdded: {
    reducer: stepReducer<MessageAddedPayload>('messageAdded'),
    prepare(input: MessageAddedInput): { payload: MessageAddedPayload } {
      const { fields, conversationId } = readPayload(input, `${name}/messageAdded`);
      const message = memoryActions.messageAdded(fields['message'] as MessageAddedInput['message']);
      return { payload: { conversationId, message: message.payload } };
    },
  },
  messagesAdded: {
    reducer: stepReducer<MessagesAddedPayload>('messagesAdded'),
    prepare(input: MessagesAddedInput): { payload: MessagesAddedPayload } {
      const { fields, conversationId } = readPayload(input, `${name}/messagesAdded`);
      const messages = memoryActions.messagesAdded(
        fields['messages'] as MessagesAddedInput['messages'],
      );
      return { payload: { conversationId, messages: messages.payload } };
    },
  },
  summaryApplied: {
    reducer: stepReducer<SummaryAppliedPayload>('summaryApplied'),
    prepare(input: SummaryAppliedPayload): { payload: SummaryAppliedPayload } {
      const type = `${name}/summaryApplied`;
      const { fields, conversationId } = readPayload(input, type);
      const text = fields['text'];
      if (typeof text !== 'string') {
        throw new MemoryArgumentError(
          type,
          `text must be a string, received ${describeValue(text)}`,
        );
      }
      return { payload: { conversationId, text } };
    },
  },
  cleared: {
    reducer: stepReducer<ConversationTarget>('cleared'),
    prepare: (input: ConversationTarget) => target(input, `${name}/cleared`),
  },
  memoryActionApplied: {
    reducer: stepReducer<MemoryActionAppliedPayload>('memoryActionApplied'),
    prepare(input: MemoryActionAppliedPayload): { payload: MemoryActionAppliedPayload } {
      const type = `${name}/memoryActionApplied`;
      const { fields, conversationId } = readPayload(input, type);
      const action = fields['action'] as MemoryActionAppliedPayload['action'] | null | undefined;
      if (typeof action !== 'object' || action === null || typeof action.type !== 'string') {
        throw new MemoryArgumentError(
          type,
          `action must be a memory action (made by memoryActions), received ${describeValue(action)}`,
        );
      }
      return { payload: { conversationId, action } };
    },
  },
  conversationRemoved: {
    reducer(state: State, action: PayloadAction<ConversationTarget>): void {
      const { conversationId } = readPayload(action.payload, action.type);
      if (Object.hasOwn(state.conversations, conversationId)) {
        Reflect.deleteProperty(state.conversations, conversationId);
      }
    },
    prepare: (input: ConversationTarget) => target(input, `${name}/conversationRemoved`),
  },
});

/** The prepare callback of the actions that carry an id alone: checked, copied. */
const target = (input: ConversationTarget, type: string): { payload: ConversationTarget } => ({
  payload: { conversationId: readPayload(input, type).conversationId },
});

/**
 * The case reducers of a conversations slice (a type parameter of {@link ConversationsSlice};
 * applications use `slice.actions` and `slice.caseReducers`).
 *
 * @example
 * ```ts
 * type Names = keyof ConversationsCaseReducers; // 'conversationCreated' | 'messageAdded' | …
 * ```
 */
export type ConversationsCaseReducers = ReturnType<typeof conversationReducers>;
