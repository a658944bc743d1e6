import { MemoryArgumentError } from '../../errors/memoryErrors';

/**
 * One call of a store's method, as {@link openStoreCall} opens it: the name the call's errors
 * use, and the check to run again after each wait.
 *
 * @example
 * ```ts
 * let closed = false;
 * const { api, stillOpen }: StoreCall = openStoreCall('MyStore.load', () => closed);
 * api; // 'MyStore.load'
 * stillOpen(); // passes: the store is open
 * ```
 */
export interface StoreCall {
  /** The method's name for errors: `Store.method`. */
  readonly api: string;
  /**
   * Throws `MemoryArgumentError` (`Store.method: the store is closed`) when the store has been
   * closed since the call began: run it after an `await`, or before each retry.
   */
  readonly stillOpen: () => void;
}

/**
 * The closed-store guard of every store (in-memory and Node, and a custom one): each public method
 * opens its call with it first, so a method called after `close()` rejects with
 * `MemoryArgumentError` (`Store.method: the store is closed`) before it reads its arguments or
 * touches storage. It returns the call, `api` (as given, so that one line opens and names the call)
 * and `stillOpen`, the same check for later: a method that waits (a connection, a busy database)
 * runs it again before it goes on.
 *
 * @param api - the method's name for errors, `Store.method` (`'SqliteSessionStore.load'`)
 * @param isClosed - reads the store's closed flag (called now, and by each `stillOpen()`)
 * @returns the call: `api` and `stillOpen`
 * @throws MemoryArgumentError when the store is closed
 * @example
 * ```ts
 * class MyStore {
 *   #closed = false;
 *   async load(id: string) {
 *     const { api, stillOpen } = openStoreCall('MyStore.load', () => this.#closed);
 *     const { key } = sessionKeyOf(id, undefined, api);
 *     await new Promise((resolve) => setTimeout(resolve, 10)); // a wait
 *     stillOpen(); // rejects here when close() ran meanwhile
 *     return key;
 *   }
 *   async close() {
 *     this.#closed = true;
 *   }
 * }
 * ```
 */
export const openStoreCall = (api: string, isClosed: () => boolean): StoreCall => {
  const stillOpen = (): void => {
    if (isClosed()) throw new MemoryArgumentError(api, 'the store is closed');
  };
  stillOpen();
  return { api, stillOpen };
};
