import { describe, expectTypeOf, it } from 'vitest';
import { devtools, persist, type PersistStorage, type StateStorage } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { memoryActions, type MemoryEffect, type MemoryState } from 'conversation-memory';
import {
  createMemoryStore,
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStore,
  type MemoryStoreState,
  type PersistedMemory,
} from 'conversation-memory/zustand';

const asyncStorage: StateStorage<Promise<void>> = {
  getItem: async () => null,
  setItem: async () => undefined,
  removeItem: async () => undefined,
};

describe('zustand adapter types', () => {
  it('createMemoryStore returns a vanilla store of { memory, lastEffects, dispatch }', () => {
    const store = createMemoryStore({ maxMessages: 5 });
    expectTypeOf(store).toEqualTypeOf<MemoryStore>();
    expectTypeOf(store).toEqualTypeOf<StoreApi<MemoryStoreState>>();
    expectTypeOf(store.getState().memory).toEqualTypeOf<MemoryState>();
    expectTypeOf(store.getState().lastEffects).toEqualTypeOf<readonly MemoryEffect[]>();
    expectTypeOf(store.getState().dispatch(memoryActions.cleared())).toEqualTypeOf<
      readonly MemoryEffect[]
    >();
    // @ts-expect-error: a payload of the wrong type is not a memory action
    store.getState().dispatch({ type: 'memory/messageAdded', payload: 42 });
    // @ts-expect-error: memory options are checked
    createMemoryStore({ maxMessages: '5' });
  });

  it('the storage fits persist, sync or async, and persists only { memory }', () => {
    const storage = memoryPersistStorage(asyncStorage);
    expectTypeOf(storage).toEqualTypeOf<PersistStorage<PersistedMemory>>();
    const store = createStore<MemoryStoreState>()(
      persist(memoryStateCreator(), { name: 'chat', storage }),
    );
    expectTypeOf(store.persist.clearStorage).toEqualTypeOf<() => void>();
    expectTypeOf(store.getState()).toEqualTypeOf<MemoryStoreState>();
    createStore<MemoryStoreState>()(
      persist(memoryStateCreator(), {
        name: 'chat',
        storage,
        partialize: (state) => ({ memory: state.memory }),
      }),
    );
    createStore<MemoryStoreState>()(
      persist(memoryStateCreator(), {
        name: 'chat',
        storage,
        // @ts-expect-error: the storage persists the memory; a partialize without it is refused
        partialize: (state) => ({ lastEffects: state.lastEffects }),
      }),
    );
  });

  it('the state creator composes with other middleware', () => {
    const store = createStore<MemoryStoreState>()(
      devtools(
        persist(memoryStateCreator(), {
          name: 'chat',
          storage: memoryPersistStorage(asyncStorage),
        }),
      ),
    );
    expectTypeOf(store.persist.rehydrate).toEqualTypeOf<() => Promise<void>>();
  });
});
