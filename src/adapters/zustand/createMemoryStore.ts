import type { MemoryOptions } from 'conversation-memory';
import { createStore } from 'zustand/vanilla';
import { stateCreatorFor } from './memoryStateCreator';
import type { MemoryStore, MemoryStoreState } from './types';

/**
 * Creates a vanilla Zustand store (no React needed) holding one conversation's memory: state
 * `{ memory, lastEffects, dispatch(action) }` (see {@link MemoryStoreState}). For persistence,
 * compose {@link memoryStateCreator} with `persist` and {@link memoryPersistStorage} instead.
 *
 * @param memoryOptions - the memory's options, as for `createMemory`
 * @returns the store
 * @example
 * ```ts
 * const store = createMemoryStore({ maxMessages: 20 });
 * store.subscribe(({ lastEffects }) => lastEffects.forEach(log));
 * store.getState().dispatch(memoryActions.messageAdded(userMessage('hi')));
 * getHistory(store.getState().memory); // [{ role: 'user', content: 'hi' }]
 * ```
 */
export const createMemoryStore = (memoryOptions?: MemoryOptions): MemoryStore =>
  createStore<MemoryStoreState>()(stateCreatorFor('createMemoryStore', memoryOptions));
