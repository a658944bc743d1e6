/**
 * A persisted store whose stored value cannot be decoded, and whose persist options have no
 * onRehydrateStorage, reports it once with console.error (#17 §4): before, the chat was empty and
 * nothing typed was saved, silently. With a handler, the handler gets the error and nothing is
 * logged. Real zustand persist, over a synchronous and an asynchronous storage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { persist, type PersistOptions, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import { getHistory, memoryActions, MemoryDecodeError, userMessage } from 'conversation-memory';
import {
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStoreState,
  type PersistedMemory,
} from 'conversation-memory/zustand';
import { asyncStorage, mapStorage, settle } from '../support/stateStorages';

const CONFIG = { maxMessages: 10, tokenizer: 'heuristic' } as const;
const BROKEN = '{"schema":"conversation-memory","version":1,"kind":"state","data":{"messages":7}}';

const makeStore = (
  storage: StateStorage,
  extra: Partial<PersistOptions<MemoryStoreState, PersistedMemory>> = {},
) =>
  createStore<MemoryStoreState>()(
    persist(memoryStateCreator(CONFIG), {
      name: 'chat',
      storage: memoryPersistStorage(storage),
      partialize: (state) => ({ memory: state.memory }),
      ...extra,
    }),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a stored memory that cannot be restored', () => {
  it.each([
    ['a synchronous storage (localStorage)', () => mapStorage({ chat: BROKEN })],
    ['an asynchronous storage', () => asyncStorage({ chat: BROKEN })],
  ])('without onRehydrateStorage: console.error once (%s)', async (_, storage) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = makeStore(storage());
    await settle();
    // What the user types afterwards is not saved (the stored value is kept): reported once.
    store.getState().dispatch(memoryActions.messageAdded(userMessage('hello')));
    await store.persist.rehydrate();
    await settle();
    expect(errors).toHaveBeenCalledTimes(1);
    const [message, error] = errors.mock.calls[0] as [string, unknown];
    expect(message).toContain('[conversation-memory] memoryPersistStorage:');
    expect(message).toContain('"chat" could not be restored');
    expect(message).toContain('onRehydrateStorage');
    expect(error).toBeInstanceOf(MemoryDecodeError);
  });

  it('with onRehydrateStorage: the handler gets the error and nothing is logged', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: unknown[] = [];
    makeStore(mapStorage({ chat: BROKEN }), {
      onRehydrateStorage: () => (_state, error) => {
        seen.push(error);
      },
    });
    await settle();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(MemoryDecodeError);
    expect(errors).not.toHaveBeenCalled();
  });

  it('a value that decodes, or no value at all, logs nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = mapStorage();
    const first = makeStore(storage);
    first.getState().dispatch(memoryActions.messageAdded(userMessage('kept')));
    await settle();
    const second = makeStore(storage);
    await settle();
    expect(getHistory(second.getState().memory)).toEqual([userMessage('kept')]);
    expect(errors).not.toHaveBeenCalled();
  });
});
