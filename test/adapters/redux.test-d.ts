import {
  configureStore,
  createListenerMiddleware,
  type PayloadAction,
  type ThunkDispatch,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  MemoryEffect,
  MemoryOptions,
  MemoryState,
  Message,
  MessageInput,
} from 'conversation-memory';
import {
  createConversationsSlice,
  startMemoryEffectsListening,
  type ConversationsSlice,
  type ConversationsState,
  type MessageAddedPayload,
} from 'conversation-memory/redux';

describe('redux adapter types', () => {
  it('the slice keeps its name in its type, actions and selectors', () => {
    const chats = createConversationsSlice();
    expectTypeOf(chats).toEqualTypeOf<ConversationsSlice<'conversations'>>();
    const named = createConversationsSlice({ name: 'chat', defaultConfig: { maxMessages: 4 } });
    expectTypeOf(named).toEqualTypeOf<ConversationsSlice<'chat'>>();
    expectTypeOf(named.name).toEqualTypeOf<'chat'>();
    expectTypeOf(named.reducerPath).toEqualTypeOf<'chat'>();
    expectTypeOf(named.getInitialState()).toEqualTypeOf<ConversationsState>();
  });

  it('action creators take their payload objects and build typed actions', () => {
    const chats = createConversationsSlice({ name: 'chat' });
    expectTypeOf(chats.actions.messageAdded).parameter(0).toEqualTypeOf<{
      readonly conversationId: string;
      readonly message: MessageInput;
    }>();
    expectTypeOf(
      chats.actions.messageAdded({ conversationId: 'a', message: { role: 'user', content: 'hi' } }),
    ).toEqualTypeOf<PayloadAction<MessageAddedPayload, 'chat/messageAdded'>>();
    expectTypeOf(chats.actions.conversationCreated).parameter(0).toHaveProperty('config');
    expectTypeOf<
      ReturnType<typeof chats.actions.conversationCreated>['payload']['config']
    >().toEqualTypeOf<MemoryOptions | undefined>();
    expectTypeOf(
      chats.actions.cleared({ conversationId: 'a' }).type,
    ).toEqualTypeOf<'chat/cleared'>();
    // @ts-expect-error the id is required
    chats.actions.cleared({});
    // @ts-expect-error a role that does not exist
    chats.actions.messageAdded({ conversationId: 'a', message: { role: 'USER', content: 'x' } });
    // @ts-expect-error messagesAdded takes a list
    chats.actions.messagesAdded({ conversationId: 'a', messages: { role: 'user', content: 'x' } });
    // @ts-expect-error summaryApplied takes text
    chats.actions.summaryApplied({ conversationId: 'a', text: null });
    // @ts-expect-error an unknown option
    chats.actions.conversationCreated({ conversationId: 'a', config: { maxMessage: 3 } });
  });

  it('selectors take the root state with the slice at its name, and the id', () => {
    const chats = createConversationsSlice({ name: 'chat' });
    const store = configureStore({ reducer: { chat: chats.reducer } });
    const state = store.getState();
    expectTypeOf(chats.selectors.selectHistory(state, 'a')).toEqualTypeOf<readonly Message[]>();
    expectTypeOf(chats.selectors.selectPositions(state, 'a')).toEqualTypeOf<readonly number[]>();
    expectTypeOf(chats.selectors.selectConversation(state, 'a')).toEqualTypeOf<
      MemoryState | undefined
    >();
    expectTypeOf(chats.selectors.selectSummary(state, 'a')).toEqualTypeOf<string | null>();
    expectTypeOf(chats.selectors.selectTotalTokens(state, 'a')).toEqualTypeOf<number>();
    expectTypeOf(chats.selectors.selectConversationIds(state)).toEqualTypeOf<readonly string[]>();
    // @ts-expect-error the id is required
    chats.selectors.selectHistory(state);
    // @ts-expect-error a root state without the slice
    chats.selectors.selectHistory({ other: 1 }, 'a');
  });

  it('the handler gets a MemoryEffect and a context typed by the listener middleware', () => {
    const chats = createConversationsSlice();
    interface Root {
      readonly conversations: ConversationsState;
    }
    const listener = createListenerMiddleware<Root>();
    const stop = startMemoryEffectsListening(listener, chats, (effect, context) => {
      expectTypeOf(effect).toEqualTypeOf<MemoryEffect>();
      expectTypeOf(context.conversationId).toEqualTypeOf<string>();
      expectTypeOf(context.getState()).toEqualTypeOf<Root>();
      expectTypeOf(context.dispatch).toEqualTypeOf<ThunkDispatch<Root, unknown, UnknownAction>>();
      expectTypeOf(context.action.payload.conversationId).toEqualTypeOf<string>();
    });
    expectTypeOf(stop).toEqualTypeOf<() => void>();
    // Handlers may be async, or return anything.
    startMemoryEffectsListening(createListenerMiddleware(), chats, async () => undefined);
    startMemoryEffectsListening(createListenerMiddleware(), chats, (effect) => effect.type.length);
    // @ts-expect-error the slice must be a conversations slice
    startMemoryEffectsListening(createListenerMiddleware(), { name: 'x' }, () => undefined);
  });
});
