import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  createMemory,
  memoryReducer,
  type MemoryEffect,
  type MemoryOptions,
} from 'conversation-memory';
import {
  createMemoryStore,
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStoreState,
} from 'conversation-memory/zustand';
import { anyActionArb } from '../arbitraries/actions';
import { asyncStorage, mapStorage, type RecordingStorage } from '../support/stateStorages';

const CONFIG: MemoryOptions = { maxMessages: 4, tokenizer: 'heuristic', toolPairs: 'strict' };

const persistedStore = (storage: RecordingStorage) =>
  createStore<MemoryStoreState>()(
    persist(memoryStateCreator(CONFIG), {
      name: 'chat',
      storage: memoryPersistStorage(storage),
    }),
  );

describe('zustand memory store (properties)', () => {
  it('dispatching actions equals folding memoryReducer; notifies exactly when the state changes', () => {
    fc.assert(
      fc.property(fc.array(anyActionArb, { maxLength: 30 }), (actions) => {
        const store = createMemoryStore(CONFIG);
        let notified = 0;
        store.subscribe(() => notified++);
        let changes = 0;
        let last: readonly MemoryEffect[] = store.getState().lastEffects;
        for (const action of actions) {
          const before = store.getState();
          const effects = before.dispatch(action);
          if (store.getState() !== before) {
            changes++;
            last = effects;
          } else {
            expect(effects).toEqual([]);
          }
        }
        expect(store.getState().memory).toEqual(
          actions.reduce(memoryReducer, createMemory(CONFIG)),
        );
        expect(store.getState().lastEffects).toBe(last);
        expect(notified).toBe(changes);
      }),
    );
  });

  it('persist, then a new store on the same storage rehydrates the same memory (sync)', () => {
    fc.assert(
      fc.property(fc.array(anyActionArb, { maxLength: 20 }), (actions) => {
        const storage = mapStorage();
        const store = persistedStore(storage);
        actions.forEach((action) => store.getState().dispatch(action));
        expect(persistedStore(storage).getState().memory).toEqual(store.getState().memory);
      }),
    );
  });

  it('persist, then a new store on the same storage rehydrates the same memory (async)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyActionArb, { maxLength: 20 }), async (actions) => {
        const storage = asyncStorage();
        const store = persistedStore(storage);
        await store.persist.rehydrate();
        actions.forEach((action) => store.getState().dispatch(action));
        await new Promise((resolve) => setTimeout(resolve, 2));
        const reloaded = persistedStore(storage);
        await reloaded.persist.rehydrate();
        expect(reloaded.getState().memory).toEqual(store.getState().memory);
      }),
      { numRuns: 30 },
    );
  });
});
