import { configureStore, createListenerMiddleware, createSlice } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addMessages,
  applySummary,
  clearMemory,
  createMemory,
  isConversationMemoryError,
  ListenerError,
  MemoryArgumentError,
  memoryTransition,
  type MemoryEffect,
  type MemoryState,
} from 'conversation-memory';
import {
  createConversationsSlice,
  startMemoryEffectsListening,
  type MemoryEffectContext,
} from 'conversation-memory/redux';
import { user } from '../helpers';
import { makeChatStore } from '../support/reduxStore';

afterEach(() => {
  vi.restoreAllMocks();
});

type Seen = readonly [conversationId: string, effect: MemoryEffect];

/** A store with conversations 'a' and 'b' (maxMessages 2) and a handler that records effects. */
const listening = (onError = vi.fn()) => {
  const setup = makeChatStore({ maxMessages: 2, tokenizer: 'heuristic' }, onError);
  const { chats, store, listener } = setup;
  for (const conversationId of ['a', 'b']) {
    store.dispatch(chats.actions.conversationCreated({ conversationId }));
  }
  const seen: Seen[] = [];
  const stop = startMemoryEffectsListening(listener, chats, (effect, { conversationId }) => {
    seen.push([conversationId, effect]);
  });
  return { ...setup, seen, stop, onError };
};

const memoryOf = (
  state: { conversations: { conversations: Record<string, MemoryState> } },
  id: string,
) => state.conversations.conversations[id] as MemoryState;

/** Lets pending promise callbacks (the listener's settling) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startMemoryEffectsListening: delivery', () => {
  it('delivers every effect with its conversationId, in order, equal to the reducers’ effects', () => {
    const { chats, store, seen } = listening();
    const expected: Seen[] = [];
    const step = (
      id: string,
      action: Parameters<typeof memoryTransition>[1],
      dispatch: () => void,
    ) => {
      const before = memoryOf(store.getState(), id);
      for (const effect of memoryTransition(before, action).effects) expected.push([id, effect]);
      dispatch();
    };
    step('a', { type: 'memory/messagesAdded', payload: [user('1'), user('2'), user('3')] }, () =>
      store.dispatch(
        chats.actions.messagesAdded({
          conversationId: 'a',
          messages: [user('1'), user('2'), user('3')],
        }),
      ),
    );
    step('b', { type: 'memory/messageAdded', payload: user('b1') }, () =>
      store.dispatch(chats.actions.messageAdded({ conversationId: 'b', message: user('b1') })),
    );
    step('a', { type: 'memory/messageAdded', payload: user('4') }, () =>
      store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('4') })),
    );
    step('a', { type: 'memory/summaryApplied', payload: 'S' }, () =>
      store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' })),
    );
    step('a', { type: 'memory/cleared' }, () =>
      store.dispatch(chats.actions.cleared({ conversationId: 'a' })),
    );
    expect(seen).toEqual(expected);
    expect(seen.map(([id, e]) => `${id}:${e.type}`)).toEqual([
      'a:memory/trimmed',
      'a:memory/trimmed',
      'a:memory/summaryChanged',
      'a:memory/trimmed',
      'a:memory/summaryChanged',
    ]);
    const first = seen[0]?.[1];
    expect(first?.type === 'memory/trimmed' && first.removed).toEqual([user('1')]);
  });

  it('hands the handler the action, dispatch and getState (the state after the action)', () => {
    const { chats, store, listener } = listening();
    const contexts: MemoryEffectContext[] = [];
    let history: unknown;
    startMemoryEffectsListening(listener, chats, (_effect, context) => {
      contexts.push(context);
      history = chats.selectors.selectHistory(
        context.getState() as ReturnType<typeof store.getState>,
        context.conversationId,
      );
    });
    const action = chats.actions.messagesAdded({
      conversationId: 'b',
      messages: [user('x'), user('y'), user('z')],
    });
    store.dispatch(action);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.action).toBe(action);
    expect(history).toEqual([user('y'), user('z')]);
  });

  it('conversationRemoved reports the removed messages as a clear does', () => {
    const { chats, store, seen } = listening();
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('p'), user('q')] }),
    );
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    const before = memoryOf(store.getState(), 'a');
    seen.length = 0;
    store.dispatch(chats.actions.conversationRemoved({ conversationId: 'a' }));
    expect(seen).toEqual(clearMemory(before).effects.map((effect) => ['a', effect]));
    expect(seen.map(([, e]) => e.type)).toEqual(['memory/trimmed', 'memory/summaryChanged']);
  });

  it('no effect for a missing conversation, a no-op, another slice or creation', () => {
    const { chats, store, seen } = listening();
    const other = createSlice({
      name: 'other',
      initialState: 0,
      reducers: { messageAdded: (n) => n + 1 },
    });
    store.dispatch(chats.actions.messageAdded({ conversationId: 'gone', message: user('x') }));
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'c' }));
    store.dispatch(other.actions.messageAdded());
    expect(seen).toEqual([]);
  });

  it('a handler that dispatches gets that action’s effects after the rest of the current one’s', () => {
    const { chats, store, listener } = listening();
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('p'), user('q')] }),
    );
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    const order: string[] = [];
    startMemoryEffectsListening(listener, chats, (effect, { conversationId, dispatch }) => {
      order.push(`${conversationId}:${effect.type}`);
      if (conversationId === 'a' && effect.type === 'memory/trimmed') {
        dispatch(chats.actions.summaryApplied({ conversationId: 'b', text: 'from a' }));
      }
    });
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    expect(order).toEqual([
      'a:memory/trimmed',
      'a:memory/summaryChanged',
      'b:memory/summaryChanged',
    ]);
    expect(memoryOf(store.getState(), 'b').summary).toBe('from a');
  });

  it('two slices in one store: each listener hears its own', () => {
    const listener = createListenerMiddleware();
    const left = createConversationsSlice({ name: 'left', defaultConfig: { maxMessages: 1 } });
    const right = createConversationsSlice({ name: 'right', defaultConfig: { maxMessages: 1 } });
    const store = configureStore({
      reducer: { left: left.reducer, right: right.reducer },
      middleware: (getDefault) => getDefault().prepend(listener.middleware),
    });
    const heard: string[] = [];
    startMemoryEffectsListening(listener, left, (_e, { conversationId }) =>
      heard.push(`left:${conversationId}`),
    );
    startMemoryEffectsListening(listener, right, (_e, { conversationId }) =>
      heard.push(`right:${conversationId}`),
    );
    for (const slice of [left, right]) {
      store.dispatch(slice.actions.conversationCreated({ conversationId: 'x' }));
    }
    store.dispatch(
      left.actions.messagesAdded({ conversationId: 'x', messages: [user('1'), user('2')] }),
    );
    expect(heard).toEqual(['left:x']);
  });
});

describe('startMemoryEffectsListening: failures and unsubscribe', () => {
  it('a handler that throws corrupts nothing, the other effects still arrive, onError gets a ListenerError', async () => {
    const { chats, store, listener, onError } = listening();
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('p'), user('q')] }),
    );
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    const expected = clearMemory(memoryOf(store.getState(), 'a'));
    const boom = new Error('boom');
    const delivered: string[] = [];
    startMemoryEffectsListening(listener, chats, (effect) => {
      delivered.push(effect.type);
      throw boom;
    });
    expect(() => store.dispatch(chats.actions.cleared({ conversationId: 'a' }))).not.toThrow();
    expect(delivered).toEqual(['memory/trimmed', 'memory/summaryChanged']);
    expect(memoryOf(store.getState(), 'a')).toEqual(expected.state);
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, info] = onError.mock.calls[0] as [ListenerError, unknown];
    expect(error).toBeInstanceOf(ListenerError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_LISTENER');
    expect(error.cause).toBe(boom);
    expect(error.message).toMatch(/startMemoryEffectsListening: 2 listener\(s\) threw/);
    expect(error.effects).toEqual(expected.effects);
    expect(info).toEqual({ raisedBy: 'effect' });
    // The store and the listener go on.
    store.dispatch(
      chats.actions.messagesAdded({
        conversationId: 'b',
        messages: [user('1'), user('2'), user('3')],
      }),
    );
    expect(delivered).toHaveLength(3);
  });

  it('a rejected promise is reported once every handler call of the action has settled', async () => {
    const { chats, store, listener, onError, seen } = listening();
    const cause = new Error('summarizer down');
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    startMemoryEffectsListening(listener, chats, async () => {
      await gate;
      throw cause;
    });
    store.dispatch(
      chats.actions.messagesAdded({
        conversationId: 'a',
        messages: [user('1'), user('2'), user('3')],
      }),
    );
    expect(seen).toHaveLength(1);
    await settle();
    expect(onError).not.toHaveBeenCalled();
    release();
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0]?.[0] as ListenerError).cause).toBe(cause);
    expect(contentsOf(memoryOf(store.getState(), 'a'))).toEqual(['2', '3']);
  });

  it('with the default onError, Redux Toolkit logs the ListenerError with console.error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { chats, store, listener } = makeChatStore({ maxMessages: 1, tokenizer: 'heuristic' });
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    startMemoryEffectsListening(listener, chats, () => {
      throw new Error('handler bug');
    });
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('1'), user('2')] }),
    );
    await settle();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toBe('listenerMiddleware/error');
    expect(error.mock.calls[0]?.[1]).toBeInstanceOf(ListenerError);
  });

  it('unsubscribe stops the deliveries, even in the middle of an action’s effects', () => {
    const { chats, store, listener, seen, stop } = listening();
    const other: string[] = [];
    const stopOther = startMemoryEffectsListening(listener, chats, (effect) => {
      other.push(effect.type);
      stopOther();
    });
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('p'), user('q')] }),
    );
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    expect(other).toEqual(['memory/summaryChanged']);
    expect(seen).toHaveLength(3);
    stop();
    store.dispatch(
      chats.actions.messagesAdded({
        conversationId: 'b',
        messages: [user('1'), user('2'), user('3')],
      }),
    );
    expect(seen).toHaveLength(3);
  });

  it('a slice that is not mounted at its reducerPath is reported to onError, naming the path', async () => {
    const onError = vi.fn();
    const listener = createListenerMiddleware({ onError });
    const chats = createConversationsSlice({ defaultConfig: { maxMessages: 1 } });
    const store = configureStore({
      reducer: { elsewhere: chats.reducer },
      middleware: (getDefault) => getDefault().prepend(listener.middleware),
    });
    const handler = vi.fn();
    startMemoryEffectsListening(listener, chats, handler);
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('1'), user('2')] }),
    );
    await settle();
    expect(handler).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(MemoryArgumentError);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/no conversations slice at "conversations"/);
  });

  it('actions dispatched before the listener started are not delivered', () => {
    const { chats, store, listener } = makeChatStore();
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(
      chats.actions.messagesAdded({
        conversationId: 'a',
        messages: [user('1'), user('2'), user('3')],
      }),
    );
    const handler = vi.fn();
    startMemoryEffectsListening(listener, chats, handler);
    expect(handler).not.toHaveBeenCalled();
    const expected = applySummary(
      addMessages(createMemory({ maxMessages: 2, tokenizer: 'heuristic' }), [
        user('1'),
        user('2'),
        user('3'),
      ]).state,
      'S',
    );
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    expect(handler.mock.calls.map(([effect]) => effect as unknown)).toEqual(expected.effects);
  });
});

const contentsOf = (memory: MemoryState) => memory.messages.map((m) => m.content);
