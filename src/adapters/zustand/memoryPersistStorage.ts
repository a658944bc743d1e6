import { encodeEnvelope, MemoryArgumentError, type MemoryState } from 'conversation-memory';
import type { PersistStorage, StateStorage, StorageValue } from 'zustand/middleware';
import { readStoredMemory } from './readStoredMemory';
import { restoreFailed, restoreSucceeded } from './unhandledRestore';
import type { PersistedMemory } from './types';

/** A read or a removal in flight, and the latest write asked for meanwhile. */
interface Pending {
  queued: MemoryState | undefined;
}

/** Whether a key may be written: only once it was read (valid or empty) or removed. */
type Gate = 'open' | 'blocked' | Pending;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

const memoryOf = (value: StorageValue<PersistedMemory>): MemoryState => {
  const state: unknown = (value as { state?: unknown } | null)?.state;
  if (typeof state !== 'object' || state === null || !Object.hasOwn(state, 'memory')) {
    const received =
      state === null ? 'null' : typeof state === 'object' ? 'no memory' : typeof state;
    throw new MemoryArgumentError(
      'memoryPersistStorage',
      `setItem expects persist's { state: { memory } } (keep "memory" in partialize), received ${received}`,
    );
  }
  return (state as PersistedMemory).memory;
};

/**
 * Adapts a `StateStorage` (`localStorage`, `sessionStorage`, an IndexedDB or AsyncStorage
 * wrapper: sync or async) for Zustand's `persist` middleware. The stored string is the memory's
 * versioned envelope (`JSON.stringify(encodeEnvelope(memory))`), readable by `decodeEnvelope`
 * anywhere; only `memory` is stored, so no `partialize` is needed for `dispatch`.
 *
 * - Versions: the envelope's version is the only one. `persist`'s `version` is not written, and
 *   none is reported on read, so `persist` never calls `migrate`: older forms (a bare `toDict`
 *   file, a raw 0.1.0 state, or `persist`'s own `{ state: { memory }, version }` JSON) are
 *   migrated by `decodeEnvelope` on rehydrate.
 * - A stored value that does not decode (corrupt JSON, an invalid message, an envelope newer than
 *   this library, a tokenizer not available here) fails the rehydration with a
 *   `MemoryDecodeError` (`persist` passes it to `onRehydrateStorage`'s callback; its `kind` tells
 *   which), and the key is then never written: the string stays as it was, whatever the store
 *   does, until the application resets it with `store.persist.clearStorage()` (or repairs it and
 *   calls `store.persist.rehydrate()`).
 * - More generally a key is written only after this storage has read it and found it valid or
 *   empty: writes made while an async read is in flight wait for it (and are dropped when the
 *   read finds a stored memory, which then replaces the store's), and with `skipHydration` nothing
 *   is written before `store.persist.rehydrate()`.
 *
 * @param storage - where the strings go
 * @returns a `PersistStorage` for `persist`'s `storage` option
 * @example
 * ```ts
 * const store = createStore<MemoryStoreState>()(
 *   persist(memoryStateCreator(), {
 *     name: 'chat',
 *     storage: memoryPersistStorage(localStorage),
 *     onRehydrateStorage: () => (_state, error) => {
 *       if (error) showBanner('Saved chat could not be loaded; it was left as it is.');
 *     },
 *   }),
 * );
 * ```
 */
export const memoryPersistStorage = (storage: StateStorage): PersistStorage<PersistedMemory> => {
  const gates = new Map<string, Gate>();

  const write = (name: string, memory: MemoryState): unknown =>
    storage.setItem(name, JSON.stringify(encodeEnvelope(memory)));

  /** Starts an operation that decides the key's gate; it supersedes any one in flight. */
  const begin = (name: string): Pending => {
    const gate = gates.get(name);
    const pending: Pending = { queued: typeof gate === 'object' ? gate.queued : undefined };
    gates.set(name, pending);
    return pending;
  };

  /** Ends `pending` (unless a later operation superseded it); `flush` writes what it queued. */
  const settle = (name: string, pending: Pending, gate: 'open' | 'blocked', flush: boolean) => {
    if (gates.get(name) !== pending) return;
    gates.set(name, gate);
    if (gate === 'open' && flush && pending.queued !== undefined) write(name, pending.queued);
  };

  /** Runs `start` on the key, then `done` with its result; a failure blocks the key. */
  const track = <T, R>(
    name: string,
    pending: Pending,
    start: () => T | PromiseLike<T>,
    done: (value: T) => R,
  ): R | Promise<R> => {
    const fail = (error: unknown): never => {
      settle(name, pending, 'blocked', false);
      throw error;
    };
    let result: T | PromiseLike<T>;
    try {
      result = start();
    } catch (error) {
      return fail(error);
    }
    return isThenable(result) ? Promise.resolve(result).then(done, fail) : done(result as T);
  };

  // `self` is the key of the failure reports (see unhandledRestore).
  const self: PersistStorage<PersistedMemory> = {
    getItem: (name) => {
      const pending = begin(name);
      return track(
        name,
        pending,
        () => storage.getItem(name),
        (stored) => {
          // Some storages answer `undefined` for a missing key (as createJSONStorage allows).
          if (stored === null || stored === undefined) {
            settle(name, pending, 'open', true);
            restoreSucceeded(self, name);
            return null;
          }
          let memory: MemoryState;
          try {
            memory = readStoredMemory(name, stored);
          } catch (error) {
            settle(name, pending, 'blocked', false);
            restoreFailed(self, name, error);
            throw error;
          }
          restoreSucceeded(self, name);
          // Writes asked for during the read held the store's state from before it: dropped.
          settle(name, pending, 'open', false);
          return { state: { memory } };
        },
      );
    },
    setItem: (name, value) => {
      const memory = memoryOf(value);
      const gate = gates.get(name);
      if (gate === 'open') return write(name, memory);
      if (typeof gate === 'object') gate.queued = memory;
      return undefined; // blocked, or never read: nothing is written
    },
    removeItem: (name) => {
      const pending = begin(name);
      return track(
        name,
        pending,
        () => storage.removeItem(name),
        (result) => {
          settle(name, pending, 'open', true);
          restoreSucceeded(self, name);
          return result;
        },
      );
    },
  };
  return self;
};
