/**
 * The Zustand adapter subpath (`conversation-memory/zustand`): a vanilla store of one
 * conversation's memory driven by memory actions, and a storage for `persist` that writes the
 * versioned envelope and never overwrites a stored value it could not read. `zustand` 5 is an
 * optional peer dependency.
 *
 * @packageDocumentation
 * @module conversation-memory/zustand
 */
export { createMemoryStore } from '../../adapters/zustand/createMemoryStore';
export { memoryStateCreator } from '../../adapters/zustand/memoryStateCreator';
export { memoryPersistStorage } from '../../adapters/zustand/memoryPersistStorage';
export type { MemoryStore, MemoryStoreState, PersistedMemory } from '../../adapters/zustand/types';
export { createIndexedDbStorage } from '../../adapters/zustand/createIndexedDbStorage';
export type { IndexedDbStorageOptions } from '../../adapters/zustand/indexedDbStateStorage';
