import { configureStore, findNonSerializableValue } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  createMemory,
  getPositions,
  InvalidMessageError,
  memoryActions,
  MemoryArgumentError,
  MemoryConfigError,
  memoryTransition,
  type MemoryState,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
import { assistant, call, contents, system, tool, user } from '../helpers';
import { makeChatStore, warningsBesidesTiming } from '../support/reduxStore';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The conversations record of the store's slice. */
const conversationsOf = (setup: ReturnType<typeof makeChatStore>) =>
  setup.store.getState().conversations.conversations;

const memoryOf = (setup: ReturnType<typeof makeChatStore>, id: string): MemoryState => {
  const memory = conversationsOf(setup)[id];
  if (memory === undefined) throw new Error(`no conversation ${id}`);
  return memory;
};

describe('createConversationsSlice: creating conversations', () => {
  it('starts empty, with the slice name as action prefix and reducer path', () => {
    const { chats, store } = makeChatStore();
    expect(chats.name).toBe('conversations');
    expect(chats.reducerPath).toBe('conversations');
    expect(chats.actions.messageAdded.type).toBe('conversations/messageAdded');
    expect(store.getState()).toEqual({ conversations: { conversations: {} } });
    expect(createConversationsSlice({ name: 'chat' }).actions.cleared.type).toBe('chat/cleared');
  });

  it("a conversation's config overrides the slice's defaultConfig, key by key", () => {
    const setup = makeChatStore({ maxMessages: 3, tokenizer: 'heuristic', pinSystem: true });
    const { chats, store } = setup;
    const action = chats.actions.conversationCreated({
      conversationId: 'a',
      config: { maxMessages: 5, maxTokens: undefined },
    });
    // The action carries the whole checked config, so it replays the same under other defaults.
    expect(action.payload.config).toEqual(
      createMemory({ maxMessages: 5, tokenizer: 'heuristic', pinSystem: true }).config,
    );
    store.dispatch(action);
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'b' }));
    expect(memoryOf(setup, 'a')).toEqual(
      createMemory({ maxMessages: 5, tokenizer: 'heuristic', pinSystem: true }),
    );
    expect(memoryOf(setup, 'b').config).toEqual(
      createMemory({ maxMessages: 3, tokenizer: 'heuristic', pinSystem: true }).config,
    );
  });

  it('an invalid config throws from the creator (MemoryConfigError) and nothing is dispatched', () => {
    const { chats, store } = makeChatStore();
    const before = store.getState();
    expect(() =>
      store.dispatch(
        chats.actions.conversationCreated({ conversationId: 'a', config: { maxMessages: 0 } }),
      ),
    ).toThrow(MemoryConfigError);
    // The error names the action the caller made, not the internal createMemory (#17 §4).
    expect(() =>
      chats.actions.conversationCreated({ conversationId: 'a', config: { maxMessages: 0 } }),
    ).toThrow('conversations/conversationCreated: config.maxMessages must be');
    expect(() =>
      chats.actions.conversationCreated({ conversationId: 'a', config: 'big' as never }),
    ).toThrow('conversations/conversationCreated: config must be an object');
    expect(() =>
      chats.actions.conversationCreated({
        conversationId: 'a',
        config: JSON.parse('{"__proto__": {"maxMessages": 1}}') as never,
      }),
    ).toThrow(MemoryConfigError);
    expect(store.getState()).toBe(before);
  });

  it('a raw action with an invalid config throws from dispatch; the state is kept and the store works on', () => {
    const { chats, store } = makeChatStore();
    const before = store.getState();
    const raw = {
      type: chats.actions.conversationCreated.type,
      payload: { conversationId: 'a', config: { maxMessages: -1 } },
    };
    expect(() => store.dispatch(raw)).toThrow(/maxMessages must be at least 1, received -1/);
    expect(store.getState()).toBe(before);
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    expect(Object.keys(store.getState().conversations.conversations)).toEqual(['a']);
  });

  it('an invalid defaultConfig or name throws when the slice is made', () => {
    expect(() => createConversationsSlice({ defaultConfig: { maxTokens: 0 } })).toThrow(
      MemoryConfigError,
    );
    expect(() => createConversationsSlice({ name: '' })).toThrow(MemoryArgumentError);
  });

  it('creating an existing conversation keeps it (nothing is dropped)', () => {
    const setup = makeChatStore();
    const { chats, store } = setup;
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('hi') }));
    const before = store.getState();
    store.dispatch(
      chats.actions.conversationCreated({ conversationId: 'a', config: { maxMessages: 9 } }),
    );
    expect(store.getState()).toBe(before);
    expect(contents(memoryOf(setup, 'a').messages)).toEqual(['hi']);
  });

  it('rejects ids that are not non-empty strings, and __proto__, from creators and raw actions', () => {
    const { chats, store } = makeChatStore();
    for (const id of ['', '__proto__', 42, null, undefined]) {
      expect(() => chats.actions.conversationCreated({ conversationId: id as string })).toThrow(
        MemoryArgumentError,
      );
      expect(() => chats.actions.cleared({ conversationId: id as string })).toThrow(
        /conversations\/cleared: conversationId must be a non-empty string/,
      );
    }
    const before = store.getState();
    for (const payload of [{ conversationId: '__proto__' }, undefined, 'a', []]) {
      expect(() =>
        store.dispatch({ type: chats.actions.conversationCreated.type, payload }),
      ).toThrow(MemoryArgumentError);
      expect(() => store.dispatch({ type: chats.actions.messageAdded.type, payload })).toThrow(
        MemoryArgumentError,
      );
    }
    expect(store.getState()).toBe(before);
    expect(Object.getPrototypeOf(store.getState().conversations.conversations)).toBe(
      Object.prototype,
    );
  });
});

describe('createConversationsSlice: changing conversations', () => {
  const created = (defaults = { maxMessages: 2, tokenizer: 'heuristic' as const }) => {
    const setup = makeChatStore(defaults);
    setup.store.dispatch(setup.chats.actions.conversationCreated({ conversationId: 'a' }));
    setup.store.dispatch(setup.chats.actions.conversationCreated({ conversationId: 'b' }));
    return setup;
  };

  it('messageAdded trims as the conversation config says, exactly as addMessage', () => {
    const setup = created();
    const { chats, store } = setup;
    let expected = createMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    for (const text of ['one', 'two', 'three']) {
      store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user(text) }));
      expected = addMessage(expected, user(text)).state;
    }
    expect(memoryOf(setup, 'a')).toEqual(expected);
    expect(contents(chats.selectors.selectHistory(store.getState(), 'a'))).toEqual([
      'two',
      'three',
    ]);
    expect(chats.selectors.selectPositions(store.getState(), 'a')).toEqual([1, 2]);
  });

  it('messages are validated by the creators (InvalidMessageError) and stored as canonical copies', () => {
    const setup = created();
    const { chats } = setup;
    expect(() =>
      chats.actions.messageAdded({ conversationId: 'a', message: { role: 'USER' } as never }),
    ).toThrow(InvalidMessageError);
    expect(() =>
      chats.actions.messagesAdded({ conversationId: 'a', messages: [user('x'), 5 as never] }),
    ).toThrow(/messages\[1\]/);
    const action = chats.actions.messageAdded({
      conversationId: 'a',
      message: { role: 'user', content: 'hi', toolCallId: undefined },
    });
    expect(action.payload).toEqual({ conversationId: 'a', message: user('hi') });
    expect(Object.isFrozen(action.payload.message)).toBe(true);
    const before = setup.store.getState();
    expect(() =>
      setup.store.dispatch({
        type: chats.actions.messageAdded.type,
        payload: { conversationId: 'a', message: { role: 'USER' } },
      }),
    ).toThrow(InvalidMessageError);
    expect(setup.store.getState()).toBe(before);
  });

  it('messagesAdded, summaryApplied, cleared and memoryActionApplied run their reducers', () => {
    const setup = created({ maxMessages: 3, tokenizer: 'heuristic' });
    const { chats, store } = setup;
    const turn = [user('q'), assistant(null, call('c1')), tool('4', 'c1'), assistant('four')];
    store.dispatch(chats.actions.messagesAdded({ conversationId: 'a', messages: turn }));
    let expected = addMessages(createMemory({ maxMessages: 3, tokenizer: 'heuristic' }), turn);
    expect(memoryOf(setup, 'a')).toEqual(expected.state);
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: 'S' }));
    expected = applySummary(expected.state, 'S');
    expect(memoryOf(setup, 'a')).toEqual(expected.state);
    expect(chats.selectors.selectSummary(store.getState(), 'a')).toBe('S');
    store.dispatch(
      chats.actions.memoryActionApplied({
        conversationId: 'a',
        action: memoryActions.summarySet('T'),
      }),
    );
    expect(chats.selectors.selectSummary(store.getState(), 'a')).toBe('T');
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    expect(memoryOf(setup, 'a').messages).toEqual([]);
    expect(memoryOf(setup, 'a').summary).toBeNull();
    expect(() => chats.actions.summaryApplied({ conversationId: 'a', text: 3 as never })).toThrow(
      /text must be a string, received 3/,
    );
    expect(() =>
      chats.actions.memoryActionApplied({ conversationId: 'a', action: 'cleared' as never }),
    ).toThrow(/action must be a memory action/);
  });

  it('conversations are isolated: a change to one leaves the others the same objects', () => {
    const setup = created();
    const { chats, store } = setup;
    store.dispatch(chats.actions.messageAdded({ conversationId: 'b', message: user('b1') }));
    const b = memoryOf(setup, 'b');
    for (const text of ['a1', 'a2', 'a3']) {
      store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user(text) }));
    }
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    expect(memoryOf(setup, 'b')).toBe(b);
    expect(contents(memoryOf(setup, 'b').messages)).toEqual(['b1']);
  });

  it('conversationRemoved deletes the conversation; created again, it starts afresh', () => {
    const setup = created();
    const { chats, store } = setup;
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('hi') }));
    store.dispatch(chats.actions.conversationRemoved({ conversationId: 'a' }));
    expect(Object.keys(conversationsOf(setup))).toEqual(['b']);
    expect(chats.selectors.selectHistory(store.getState(), 'a')).toEqual([]);
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('again') }));
    expect(chats.selectors.selectPositions(store.getState(), 'a')).toEqual([0]);
  });

  it('an action for a missing conversation changes nothing: the same root state', () => {
    const { chats, store } = created();
    const before = store.getState();
    const message = user('late reply');
    for (const id of ['gone', 'toString', 'constructor', 'hasOwnProperty']) {
      store.dispatch(chats.actions.messageAdded({ conversationId: id, message }));
      store.dispatch(chats.actions.messagesAdded({ conversationId: id, messages: [message] }));
      store.dispatch(chats.actions.summaryApplied({ conversationId: id, text: 'S' }));
      store.dispatch(chats.actions.cleared({ conversationId: id }));
      store.dispatch(chats.actions.conversationRemoved({ conversationId: id }));
    }
    expect(store.getState()).toBe(before);
  });

  it('an action that changes nothing keeps the same root state (reference equality)', () => {
    const { chats, store } = created();
    const before = store.getState();
    store.dispatch(chats.actions.cleared({ conversationId: 'a' }));
    store.dispatch(chats.actions.summaryApplied({ conversationId: 'a', text: '' }));
    store.dispatch(chats.actions.messagesAdded({ conversationId: 'a', messages: [] }));
    store.dispatch({ type: 'other/action' });
    expect(store.getState()).toBe(before);
  });
});

describe('slice.selectors', () => {
  const setupWith = () => {
    const setup = makeChatStore({ maxMessages: 3, tokenizer: 'heuristic' });
    const { chats, store } = setup;
    for (const id of ['a', 'b']) {
      store.dispatch(chats.actions.conversationCreated({ conversationId: id }));
    }
    store.dispatch(
      chats.actions.messagesAdded({
        conversationId: 'a',
        messages: [system('s'), user('abcdefgh')],
      }),
    );
    return setup;
  };

  it('selectHistory returns the state’s own array: the same until the conversation changes', () => {
    const setup = setupWith();
    const { chats, store } = setup;
    const first = chats.selectors.selectHistory(store.getState(), 'a');
    expect(first).toBe(memoryOf(setup, 'a').messages);
    store.dispatch(chats.actions.messageAdded({ conversationId: 'b', message: user('other') }));
    expect(chats.selectors.selectHistory(store.getState(), 'a')).toBe(first);
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('more') }));
    expect(chats.selectors.selectHistory(store.getState(), 'a')).not.toBe(first);
  });

  it('a missing conversation gives one shared frozen empty array, null, 0 or undefined', () => {
    const { chats, store } = setupWith();
    const state = store.getState();
    const empty = chats.selectors.selectHistory(state, 'missing');
    expect(empty).toEqual([]);
    expect(Object.isFrozen(empty)).toBe(true);
    expect(chats.selectors.selectHistory(state, 'toString')).toBe(empty);
    expect(chats.selectors.selectPositions(state, '__proto__')).toBe(empty);
    expect(chats.selectors.selectConversation(state, 'constructor')).toBeUndefined();
    expect(chats.selectors.selectSummary(state, 'missing')).toBeNull();
    expect(chats.selectors.selectTotalTokens(state, 'missing')).toBe(0);
  });

  it('selectConversation, selectPositions and selectTotalTokens read the conversation', () => {
    const setup = setupWith();
    const { chats, store } = setup;
    const state = store.getState();
    expect(chats.selectors.selectConversation(state, 'a')).toBe(memoryOf(setup, 'a'));
    expect(chats.selectors.selectPositions(state, 'a')).toEqual([0, 1]);
    expect(chats.selectors.selectPositions(state, 'a')).toBe(getPositions(memoryOf(setup, 'a')));
    expect(chats.selectors.selectTotalTokens(state, 'a')).toBe(2);
  });

  it('selectConversationIds is the same array while the set of ids stays the same', () => {
    const { chats, store } = setupWith();
    const ids = chats.selectors.selectConversationIds(store.getState());
    expect(ids).toEqual(['a', 'b']);
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('x') }));
    expect(chats.selectors.selectConversationIds(store.getState())).toBe(ids);
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'c' }));
    expect(chats.selectors.selectConversationIds(store.getState())).toEqual(['a', 'b', 'c']);
    store.dispatch(chats.actions.conversationRemoved({ conversationId: 'c' }));
    expect(chats.selectors.selectConversationIds(store.getState())).toEqual(['a', 'b']);
  });

  it('getSelectors works for a slice mounted under another key', () => {
    const chats = createConversationsSlice({ defaultConfig: { tokenizer: 'heuristic' } });
    const store = configureStore({ reducer: { nested: chats.reducer } });
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message: user('hi') }));
    const selectors = chats.getSelectors((root: ReturnType<typeof store.getState>) => root.nested);
    expect(contents(selectors.selectHistory(store.getState(), 'a'))).toEqual(['hi']);
  });
});

describe('plain state: configureStore’s default checks stay silent', () => {
  it('hundreds of actions over several conversations give no serializable or immutable warning', () => {
    // Both checks are on outside production (vitest sets NODE_ENV=test).
    expect(process.env['NODE_ENV']).not.toBe('production');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { chats, store } = makeChatStore({
      maxMessages: 6,
      maxTokens: 40,
      tokenizer: 'heuristic',
    });
    const ids = ['a', 'b', 'c', 'd', 'e'];
    for (const conversationId of ids) {
      store.dispatch(chats.actions.conversationCreated({ conversationId }));
    }
    for (let i = 0; i < 300; i++) {
      const conversationId = ids[i % ids.length] as string;
      const n = String(i);
      switch (i % 6) {
        case 0:
          store.dispatch(
            chats.actions.messagesAdded({
              conversationId,
              messages: [
                user(`question ${n}`),
                assistant(null, call(`c${n}`, 'calc', { x: [i, { y: null }] })),
                tool(`result ${n}`, `c${n}`),
              ],
            }),
          );
          break;
        case 1:
          store.dispatch(chats.actions.summaryApplied({ conversationId, text: `summary ${n}` }));
          break;
        case 2:
          store.dispatch(
            chats.actions.memoryActionApplied({
              conversationId,
              action: memoryActions.summarySet(i % 4 === 0 ? null : n),
            }),
          );
          break;
        case 3:
          if (i % 30 === 3) store.dispatch(chats.actions.cleared({ conversationId }));
          break;
        default:
          store.dispatch(chats.actions.messageAdded({ conversationId, message: user(n) }));
      }
    }
    store.dispatch(chats.actions.conversationRemoved({ conversationId: 'e' }));
    expect(error).not.toHaveBeenCalled();
    expect(warningsBesidesTiming(warn)).toEqual([]);
    expect(findNonSerializableValue(store.getState())).toBe(false);
    expect(JSON.parse(JSON.stringify(store.getState()))).toEqual(store.getState());
    expect(Object.keys(store.getState().conversations.conversations)).toEqual(['a', 'b', 'c', 'd']);

    // The spy sees what the checks report: a non-serializable action is.
    store.dispatch({ type: 'probe/nonSerializable', payload: new Map() });
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/non-serializable value was detected/);
  });

  it('the state each conversation holds equals the fold of memoryTransition over its actions', () => {
    const { chats, store } = makeChatStore({ maxMessages: 2, tokenizer: 'heuristic' });
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    const actions = [
      memoryActions.messageAdded(user('x')),
      memoryActions.messagesAdded([user('y'), user('z')]),
      memoryActions.summaryApplied('S'),
    ];
    for (const action of actions) {
      store.dispatch(chats.actions.memoryActionApplied({ conversationId: 'a', action }));
    }
    const folded = actions.reduce(
      (state, action) => memoryTransition(state, action).state,
      createMemory({ maxMessages: 2, tokenizer: 'heuristic' }),
    );
    expect(store.getState().conversations.conversations['a']).toEqual(folded);
  });
});
