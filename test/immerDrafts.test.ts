import {
  configureStore,
  createSlice,
  current,
  original,
  type Draft,
  type PayloadAction,
} from '@reduxjs/toolkit';
import { castDraft, produce } from 'immer';
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { immer } from 'zustand/middleware/immer';
import { createStore } from 'zustand/vanilla';
import {
  addMessage,
  addMessages,
  applySummary,
  clearMemory,
  ConversationMemory,
  createMemory,
  enforceLimits,
  fixToolPairBoundary,
  getHistory,
  getPositions,
  getRecent,
  getSummary,
  memoryActions,
  MemoryArgumentError,
  memoryTransition,
  type MemoryState,
  type Message,
  memoryReducer,
  setSummary,
  toDict,
  getTotalTokens,
  userMessage,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
import { memoryStateCreator, type MemoryStoreState } from 'conversation-memory/zustand';

/**
 * The core reducers do not accept Immer drafts (a Redux Toolkit case reducer's `state.memory`):
 * a state built from a draft would hold proxies that Immer revokes when its producer returns,
 * and unwrapping drafts in the core would put Immer into every bundle. A draft is rejected with
 * an error that says how to fix the call; `current(draft)` / `original(draft)` (exported by immer
 * and by Redux Toolkit) give the plain state, and the Redux and Zustand adapters unwrap their own.
 */
interface Chat {
  readonly title: string;
  readonly memory: MemoryState;
}

const CONFIG = { maxMessages: 2, tokenizer: 'heuristic' } as const;
const base: Chat = {
  title: 'chat',
  memory: addMessage(createMemory(CONFIG), userMessage('first')).state,
};

/** Every object reachable from `value` (own enumerable keys), proxies included. */
const objectsIn = (value: unknown, seen = new Set<object>()): Set<object> => {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    // A revoked proxy throws on any read: it is collected before being read.
    if (!types.isProxy(value)) for (const item of Object.values(value)) objectsIn(item, seen);
  }
  return seen;
};

const expectNoProxies = (value: unknown): void => {
  const proxies = [...objectsIn(value)].filter((object) => types.isProxy(object));
  expect(proxies).toHaveLength(0);
};

/** What the error tells the caller to do. */
const DRAFT_FIX =
  /received an Immer draft.*current\(draft\).*original\(draft\).*@reduxjs\/toolkit.*conversation-memory\/redux/s;

/** A call of each function that reads a state, on `state`. */
const READERS: Record<string, (state: MemoryState) => unknown> = {
  addMessage: (state) => addMessage(state, userMessage('x')),
  addMessages: (state) => addMessages(state, [userMessage('x')]),
  applySummary: (state) => applySummary(state, 'text'),
  setSummary: (state) => setSummary(state, 'text'),
  clearMemory: (state) => clearMemory(state),
  enforceLimits: (state) => enforceLimits(state),
  fixToolPairBoundary: (state) => fixToolPairBoundary(state),
  memoryTransition: (state) => memoryTransition(state, memoryActions.cleared()),
  memoryReducer: (state) => memoryReducer(state, memoryActions.cleared()),
  getHistory: (state) => getHistory(state),
  getRecent: (state) => getRecent(state, 1),
  getSummary: (state) => getSummary(state),
  getPositions: (state) => getPositions(state),
  getTotalTokens: (state) => getTotalTokens(state),
  toDict: (state) => toDict(state),
  'ConversationMemory.fromState': (state) => ConversationMemory.fromState(state),
};

describe('a draft given to the core is rejected with the fix', () => {
  it.each(Object.keys(READERS))('%s', (api) => {
    const read = READERS[api] as (state: MemoryState) => unknown;
    let thrown: unknown;
    const next = produce(base, (draft) => {
      try {
        read(draft.memory as MemoryState);
      } catch (error) {
        thrown = error;
      }
    });
    expect(thrown).toBeInstanceOf(MemoryArgumentError);
    // memoryTransition and memoryReducer name the reducer the action runs (here clearMemory).
    const named = api === 'memoryTransition' || api === 'memoryReducer' ? 'clearMemory' : api;
    expect((thrown as Error).message).toContain(`${named}: state must be a MemoryState`);
    expect((thrown as Error).message).toMatch(DRAFT_FIX);
    // Nothing was written through the draft: the producer gives back the very same state.
    expect(next).toBe(base);
    expect(getHistory(base.memory)).toEqual([userMessage('first')]);
  });

  it('so is a copy of a draft, whose arrays are drafts', () => {
    produce(base, (draft) => {
      const copy = { ...draft.memory } as MemoryState;
      expect(() => addMessage(copy, userMessage('x'))).toThrow(DRAFT_FIX);
    });
  });

  it('in a Redux Toolkit case reducer, the dispatch throws and the store keeps its state', () => {
    const slice = createSlice({
      name: 'chat',
      initialState: base,
      reducers: {
        added(state, action: PayloadAction<Message>) {
          state.memory = castDraft(addMessage(state.memory as MemoryState, action.payload).state);
        },
      },
    });
    const store = configureStore({ reducer: slice.reducer });
    const before = store.getState();
    expect(() => store.dispatch(slice.actions.added(userMessage('second')))).toThrow(DRAFT_FIX);
    expect(store.getState()).toBe(before);
  });
});

/** The README's pattern: unwrap the draft once, run the reducers on plain states, assign back. */
const chatSlice = createSlice({
  name: 'chat',
  initialState: base,
  reducers: {
    addedWithCurrent(state, action: PayloadAction<Message>) {
      state.memory = castDraft(addMessage(current(state.memory), action.payload).state);
    },
    addedWithOriginal(state, action: PayloadAction<Message>) {
      state.memory = castDraft(
        addMessage(original(state.memory) as MemoryState, action.payload).state,
      );
    },
    retitledThenAdded(state, action: PayloadAction<Message>) {
      // Changes made earlier in the same case reducer, to the root and to the memory's draft.
      state.title = 'renamed';
      (state.memory as Draft<{ summary: string | null }>).summary = 'edited in the draft';
      state.memory = castDraft(addMessage(current(state.memory), action.payload).state);
    },
    clearedThenAdded(state, action: PayloadAction<Message>) {
      let memory: MemoryState = current(state.memory);
      memory = clearMemory(memory).state;
      memory = addMessage(memory, action.payload).state;
      state.memory = castDraft(memory);
    },
  },
});

const chatStore = () => configureStore({ reducer: chatSlice.reducer });

describe('current/original in a real Redux Toolkit slice', () => {
  it('current of an untouched draft is the state itself, and the new state is plain', () => {
    const store = chatStore();
    const before = store.getState();
    store.dispatch(chatSlice.actions.addedWithCurrent(userMessage('second')));
    const { memory } = store.getState();
    expect(getHistory(memory)).toEqual([userMessage('first'), userMessage('second')]);
    expect(getHistory(before.memory)).toEqual([userMessage('first')]);
    expectNoProxies(store.getState());
    expect(JSON.parse(JSON.stringify(memory))).toEqual(memory);
  });

  it('original of an untouched draft works alike, and trims as usual', () => {
    const store = chatStore();
    for (const text of ['second', 'third'])
      store.dispatch(chatSlice.actions.addedWithOriginal(userMessage(text)));
    expect(getHistory(store.getState().memory).map((m) => m.content)).toEqual(['second', 'third']);
    expect(getPositions(store.getState().memory)).toEqual([1, 2]);
    expectNoProxies(store.getState());
  });

  it('current of a draft modified earlier in the case reducer keeps the modification', () => {
    const store = chatStore();
    store.dispatch(chatSlice.actions.retitledThenAdded(userMessage('second')));
    const state = store.getState();
    expect(state.title).toBe('renamed');
    expect(getSummary(state.memory)).toBe('edited in the draft');
    expect(getHistory(state.memory)).toEqual([userMessage('first'), userMessage('second')]);
    expectNoProxies(state);
    expect(base.memory.summary).toBeNull();
  });

  it('chains reducers on the unwrapped state, then assigns once', () => {
    const store = chatStore();
    store.dispatch(chatSlice.actions.clearedThenAdded(userMessage('again')));
    expect(getHistory(store.getState().memory)).toEqual([userMessage('again')]);
    expectNoProxies(store.getState());
  });
});

describe('the adapters unwrap their own drafts', () => {
  it("the conversations slice's case reducers, composed after a change to the draft", () => {
    const chats = createConversationsSlice({ defaultConfig: CONFIG });
    const created = chats.reducer(
      undefined,
      chats.actions.conversationCreated({ conversationId: 'a' }),
    );
    // An application reducer that changes the memory's draft, then runs the slice's reducer.
    const next = produce(created, (draft) => {
      (draft.conversations['a'] as Draft<{ summary: string | null }>).summary = 'edited';
      chats.caseReducers.messageAdded(
        draft,
        chats.actions.messageAdded({ conversationId: 'a', message: userMessage('hi') }),
      );
    });
    const memory = next.conversations['a'] as MemoryState;
    expect(getHistory(memory)).toEqual([userMessage('hi')]);
    expect(getSummary(memory)).toBe('edited');
    expectNoProxies(next);
  });

  it("the conversations slice's selectors, called on a draft", () => {
    const chats = createConversationsSlice({ defaultConfig: CONFIG });
    const selectors = chats.getSelectors();
    let state = chats.reducer(
      undefined,
      chats.actions.conversationCreated({ conversationId: 'a' }),
    );
    state = chats.reducer(
      state,
      chats.actions.messageAdded({ conversationId: 'a', message: userMessage('hi') }),
    );
    produce(state, (draft) => {
      const history = selectors.selectHistory(draft, 'a');
      expect(history).toBe(state.conversations['a']?.messages);
      expect(selectors.selectConversation(draft, 'a')).toBe(state.conversations['a']);
      expect(selectors.selectTotalTokens(draft, 'a')).toBe(state.conversations['a']?.totalTokens);
      expectNoProxies(history);
    });
  });

  it('a Zustand store made with the immer middleware', () => {
    const store = createStore<MemoryStoreState>()(immer(memoryStateCreator(CONFIG)));
    for (const text of ['a', 'b', 'c'])
      store.getState().dispatch(memoryActions.messageAdded(userMessage(text)));
    expect(getHistory(store.getState().memory).map((m) => m.content)).toEqual(['b', 'c']);
    expectNoProxies(store.getState().memory);
  });
});
