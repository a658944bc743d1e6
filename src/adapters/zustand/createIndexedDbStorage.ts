import type { PersistStorage } from 'zustand/middleware';
import { indexedDbStateStorage, type IndexedDbStorageOptions } from './indexedDbStateStorage';
import { memoryPersistStorage } from './memoryPersistStorage';
import type { PersistedMemory } from './types';

/**
 * A storage for Zustand's `persist` in IndexedDB: one record per conversation (persist's `name`
 * is the key) holding the versioned envelope, with `memoryPersistStorage`'s validated restore and
 * its rule that a record it could not read is never overwritten. Writes are batched and flushed
 * on `pagehide`/hidden; a failed write (a full quota) goes to `onError` (or `console.error`), the
 * store's state is unchanged and the next write retries. Async: `persist` hydrates after creation.
 *
 * @param options - database and store names, batching delay, error report
 * @throws MemoryArgumentError for an unknown option or a value of the wrong kind
 * @returns a `PersistStorage` for `persist`'s `storage` option
 * @example
 * ```ts
 * const store = createStore<MemoryStoreState>()(
 *   persist(memoryStateCreator(), { name: 'chat', storage: createIndexedDbStorage() }),
 * );
 * ```
 */
export const createIndexedDbStorage = (
  options: IndexedDbStorageOptions = {},
): PersistStorage<PersistedMemory> => memoryPersistStorage(indexedDbStateStorage(options));
