import { describe, expect, it, vi } from 'vitest';
import { persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  createMemory,
  createEventLog,
  encodeEnvelope,
  InvalidMessageError,
  isConversationMemoryError,
  memoryActions,
  MemoryArgumentError,
  MemoryConfigError,
  MemoryDecodeError,
  memoryTransition,
  memoryReducer,
  toDict,
  type MemoryAction,
  type MemoryOptions,
  type MemoryState,
} from 'conversation-memory';
import {
  createMemoryStore,
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStoreState,
} from 'conversation-memory/zustand';
import { user } from '../helpers';
import {
  asyncStorage,
  gatedStorage,
  mapStorage,
  settle,
  type RecordingStorage,
} from '../support/stateStorages';

const CONFIG: MemoryOptions = { maxMessages: 2, tokenizer: 'heuristic' };
const add = (text: string) => memoryActions.messageAdded(user(text));
const stateOf = (...texts: string[]): MemoryState =>
  texts.map(add).reduce(memoryReducer, createMemory(CONFIG));
const envelopeOf = (state: MemoryState) => JSON.stringify(encodeEnvelope(state));

/** A persisted memory store, as an application makes one, recording its rehydration errors. */
const persisted = (storage: StateStorage, options: { skipHydration?: boolean } = {}) => {
  const errors: unknown[] = [];
  let hydrated!: () => void;
  const done = new Promise<void>((resolve) => (hydrated = resolve));
  const store = createStore<MemoryStoreState>()(
    persist(memoryStateCreator(CONFIG), {
      name: 'chat',
      storage: memoryPersistStorage(storage),
      ...options,
      onRehydrateStorage: () => (_state, error) => {
        if (error !== undefined) errors.push(error);
        hydrated();
      },
    }),
  );
  return { store, errors, done };
};

describe('createMemoryStore', () => {
  it('dispatch applies the action, stores its effects in lastEffects, notifies once, returns them', () => {
    const store = createMemoryStore(CONFIG);
    const seen: MemoryStoreState[] = [];
    store.subscribe((state) => seen.push(state));
    expect(store.getState().lastEffects).toEqual([]);
    expect(store.getState().dispatch(add('a'))).toEqual([]);
    store.getState().dispatch(add('b'));
    const effects = store.getState().dispatch(add('c'));
    expect(effects).toMatchObject([{ type: 'memory/trimmed', removed: [user('a')] }]);
    expect(store.getState().lastEffects).toBe(effects);
    expect(store.getState().memory).toEqual(stateOf('a', 'b', 'c'));
    expect(seen).toHaveLength(3);
    expect(seen[2]).toBe(store.getState());
  });

  it('an action that changes nothing keeps the same state object and notifies no one', () => {
    const store = createMemoryStore(CONFIG);
    ['a', 'b', 'c'].forEach((t) => store.getState().dispatch(add(t)));
    const before = store.getState();
    let calls = 0;
    store.subscribe(() => calls++);
    const other = { type: 'todos/added', payload: 1 } as unknown as MemoryAction;
    expect(before.dispatch(other)).toEqual([]);
    expect(before.dispatch(memoryActions.limitsEnforced())).toEqual([]);
    expect(store.getState()).toBe(before);
    expect(store.getState().lastEffects).toHaveLength(1); // the last change's effects, kept
    expect(calls).toBe(0);
  });

  it('an invalid payload throws and leaves the store untouched', () => {
    const store = createMemoryStore(CONFIG);
    store.getState().dispatch(add('a'));
    const before = store.getState();
    let calls = 0;
    store.subscribe(() => calls++);
    const bad = { type: 'memory/messageAdded', payload: { role: 'USER', content: 'x' } };
    expect(() => before.dispatch(bad as unknown as MemoryAction)).toThrow(InvalidMessageError);
    expect(() => before.dispatch(memoryActions.summaryApplied(42 as never))).toThrow();
    expect(store.getState()).toBe(before);
    expect(calls).toBe(0);
  });

  it('checks the memory options when the store is made', () => {
    expect(() => createMemoryStore({ maxMessages: 0 })).toThrow(MemoryConfigError);
    expect(createMemoryStore().getState().memory).toEqual(createMemory());
  });

  it('matches memoryTransition step by step, effects included', () => {
    const store = createMemoryStore(CONFIG);
    let memory = createMemory(CONFIG);
    for (const action of [add('a'), add('b'), add('c'), memoryActions.cleared()]) {
      const expected = memoryTransition(memory, action);
      expect(store.getState().dispatch(action)).toEqual(expected.effects);
      memory = expected.state;
      expect(store.getState().memory).toEqual(memory);
    }
  });
});

describe('memoryPersistStorage: round trips', () => {
  it.each([
    ['sync', mapStorage],
    ['async', asyncStorage],
  ])('%s: stores the envelope of memory only, and a new store rehydrates it', async (_, make) => {
    const storage = make();
    const first = persisted(storage);
    await first.done;
    ['a', 'b', 'c'].forEach((t) => first.store.getState().dispatch(add(t)));
    await settle();
    const stored = storage.items.get('chat');
    expect(stored).toBe(envelopeOf(stateOf('a', 'b', 'c')));
    expect(stored).not.toMatch(/dispatch|lastEffects/);

    const second = persisted(storage);
    await second.done;
    expect(second.errors).toEqual([]);
    expect(second.store.persist.hasHydrated()).toBe(true);
    expect(second.store.getState().memory).toEqual(first.store.getState().memory);
    expect(typeof second.store.getState().dispatch).toBe('function');
  });

  it('takes undefined from a storage for a missing key, as null', () => {
    const storage = mapStorage();
    const loose: StateStorage = {
      ...storage,
      getItem: (name) => storage.items.get(name) as string,
    };
    const { store, errors } = persisted(loose);
    expect(errors).toEqual([]);
    store.getState().dispatch(add('a'));
    expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('a')));
  });

  it('rehydrates a sync storage at once, when the store is made', () => {
    const storage = mapStorage({ chat: envelopeOf(stateOf('a')) });
    const { store } = persisted(storage);
    expect(store.getState().memory).toEqual(stateOf('a'));
  });

  it.each([
    ['a bare toDict file', JSON.stringify(toDict(stateOf('x')))],
    [
      'a raw 0.1.0 state',
      JSON.stringify({
        config: { maxMessages: 2, maxTokens: null, tokenizer: 'heuristic' },
        messages: [{ role: 'user', content: 'x' }],
        tokenCounts: [0],
        totalTokens: 0,
        summary: null,
      }),
    ],
    [
      "persist's own JSON of a 0.1.0 state",
      JSON.stringify({
        state: {
          memory: {
            config: { maxMessages: 2, maxTokens: null, tokenizer: 'heuristic' },
            messages: [{ role: 'user', content: 'x' }],
            tokenCounts: [0],
            totalTokens: 0,
            summary: null,
          },
          lastEffects: [],
        },
        version: 0,
      }),
    ],
  ])('migrates %s, then writes the envelope on the next change', (_, old) => {
    const storage = mapStorage({ chat: old });
    const { store, errors } = persisted(storage);
    expect(errors).toEqual([]);
    expect(store.getState().memory).toEqual(stateOf('x'));
    expect(storage.items.get('chat')).toBe(old); // reading writes nothing
    store.getState().dispatch(add('y'));
    expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('x', 'y')));
  });
});

const NEWER = JSON.stringify({ ...encodeEnvelope(stateOf('a')), version: 99 });
const INVALID = envelopeOf(stateOf('a')).replace('"role":"user"', '"role":"USER"');
const FAILURES = [
  [
    'corrupt JSON',
    '{"schema":"conversation-memory","vers',
    'data',
    /^\(root\): the stored string is not JSON/,
  ],
  ['an invalid message', INVALID, 'data', /^data\.messages\[0\]\.role: .*"USER"/],
  ['a newer envelope', NEWER, 'version', /^version: written by a newer conversation-memory/],
  [
    'a log',
    JSON.stringify(encodeEnvelope(createEventLog(CONFIG))),
    'data',
    /^kind: expected "state"/,
  ],
] as const;

describe('memoryPersistStorage: a stored value that does not decode', () => {
  for (const [kindOfStorage, make] of [
    ['sync', mapStorage],
    ['async', asyncStorage],
  ] as const) {
    it.each(FAILURES)(
      `${kindOfStorage}: %s is reported, left untouched through dispatches, until clearStorage`,
      async (_, stored, kind, problem) => {
        const storage: RecordingStorage = make({ chat: stored });
        const { store, errors, done } = persisted(storage);
        await done;
        expect(errors).toHaveLength(1);
        const error = errors[0] as MemoryDecodeError;
        expect(error).toBeInstanceOf(MemoryDecodeError);
        expect(isConversationMemoryError(error) && error.kind).toBe(kind);
        expect(error.message).toMatch(/^\[conversation-memory\] memoryPersistStorage\("chat"\)/);
        expect(error.problems[0]).toMatch(problem);
        expect(store.persist.hasHydrated()).toBe(false);

        // The store works in memory, but nothing reaches the storage.
        ['b', 'c', 'd'].forEach((t) => store.getState().dispatch(add(t)));
        store.setState({ memory: stateOf('z') });
        await settle();
        expect(store.getState().memory).toEqual(stateOf('z'));
        expect(storage.items.get('chat')).toBe(stored);
        expect(storage.writes).toEqual([]);

        // The application resets it: then persistence works as usual.
        store.persist.clearStorage();
        await settle();
        expect(storage.items.has('chat')).toBe(false);
        store.getState().dispatch(add('e'));
        await settle();
        expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('z', 'e')));
        const reloaded = persisted(storage);
        await reloaded.done;
        expect(reloaded.errors).toEqual([]);
        expect(reloaded.store.getState().memory).toEqual(stateOf('z', 'e'));
      },
    );
  }

  it("reports a tokenizer that cannot count here with kind 'tokenizer', and keeps the value", async () => {
    const dict = { ...toDict(stateOf('a')), conversation_memory: { tokenizer: 'not-registered' } };
    const stored = JSON.stringify({ ...encodeEnvelope(stateOf('a')), data: dict });
    const storage = mapStorage({ chat: stored });
    const { store, errors } = persisted(storage);
    expect((errors[0] as MemoryDecodeError).kind).toBe('tokenizer');
    store.getState().dispatch(add('b'));
    expect(storage.items.get('chat')).toBe(stored);
  });

  it('names the path under state.memory for a value in persist-wrapped JSON', () => {
    const wrapped = JSON.stringify({ state: { memory: { config: 1 } }, version: 0 });
    const { errors } = persisted(mapStorage({ chat: wrapped }));
    expect((errors[0] as MemoryDecodeError).problems[0]).toMatch(/^state\.memory/);
  });

  it('a storage that fails to read blocks writes too, and the error reaches the callback', () => {
    const broken = mapStorage();
    const failing: StateStorage = {
      ...broken,
      getItem: () => {
        throw new Error('storage unavailable');
      },
    };
    const { store, errors } = persisted(failing);
    expect(errors).toEqual([new Error('storage unavailable')]);
    store.getState().dispatch(add('a'));
    expect(broken.writes).toEqual([]);
  });

  it('a repaired value is read again by rehydrate, which reopens the key', async () => {
    const storage = mapStorage({ chat: NEWER });
    const { store, errors } = persisted(storage);
    expect(errors).toHaveLength(1);
    storage.items.set('chat', envelopeOf(stateOf('a')));
    await store.persist.rehydrate();
    expect(store.getState().memory).toEqual(stateOf('a'));
    store.getState().dispatch(add('b'));
    expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('a', 'b')));
  });
});

describe('memoryPersistStorage: writes only after reading', () => {
  it('drops writes made while a read is in flight when the read finds a stored memory', async () => {
    const storage = gatedStorage({ chat: envelopeOf(stateOf('saved')) });
    const { store, done } = persisted(storage);
    store.getState().dispatch(add('early'));
    storage.release();
    await done;
    expect(store.getState().memory).toEqual(stateOf('saved'));
    expect(storage.writes).toEqual([]);
    store.getState().dispatch(add('later'));
    expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('saved', 'later')));
  });

  it('writes the latest of them once the read finds nothing', async () => {
    const storage = gatedStorage();
    const { store, done } = persisted(storage);
    store.getState().dispatch(add('a'));
    store.getState().dispatch(add('b'));
    expect(storage.writes).toEqual([]);
    storage.release();
    await done;
    expect(storage.writes).toEqual([['chat', envelopeOf(stateOf('a', 'b'))]]);
    expect(store.getState().memory).toEqual(stateOf('a', 'b'));
  });

  it('drops them when the read fails', async () => {
    const storage = gatedStorage({ chat: NEWER });
    const { store, done, errors } = persisted(storage);
    store.getState().dispatch(add('a'));
    storage.release();
    await done;
    expect(errors).toHaveLength(1);
    expect(storage.items.get('chat')).toBe(NEWER);
    expect(storage.writes).toEqual([]);
  });

  it('a write asked for while clearStorage is in flight is made once the key is removed', async () => {
    const storage = asyncStorage({ chat: NEWER });
    const { store, done } = persisted(storage);
    await done;
    store.persist.clearStorage();
    store.getState().dispatch(add('a'));
    expect(storage.writes).toEqual([]);
    // The remove and then the write each wait a timer: on a loaded machine a fixed pause can
    // end between them, so wait for the write itself (it fails if the write never comes).
    await vi.waitFor(() => expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('a'))));
  });

  it('with skipHydration, writes nothing before rehydrate', async () => {
    const storage = mapStorage({ chat: envelopeOf(stateOf('saved')) });
    const { store } = persisted(storage, { skipHydration: true });
    store.getState().dispatch(add('early'));
    expect(storage.writes).toEqual([]);
    await store.persist.rehydrate();
    expect(store.getState().memory).toEqual(stateOf('saved'));
    store.getState().dispatch(add('b'));
    expect(storage.items.get('chat')).toBe(envelopeOf(stateOf('saved', 'b')));
  });

  it('refuses a write without memory, naming partialize', () => {
    const storage = memoryPersistStorage(mapStorage());
    storage.getItem('k');
    expect(() => storage.setItem('k', { state: {} as never })).toThrow(MemoryArgumentError);
    expect(() => storage.setItem('k', { state: {} as never })).toThrow(
      'setItem expects persist\'s { state: { memory } } (keep "memory" in partialize), received no memory',
    );
    expect(() => storage.setItem('k', { state: null as never })).toThrow(/received null$/);
  });
});
