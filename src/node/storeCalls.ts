import { openStoreCall, type StoreCall } from 'conversation-memory/store-kit';
import { asUnavailable, type FailurePlace, withId } from './environmentFailure';

/**
 * What a store's call is about, for the error of a failure: the session, stream or record (none
 * for a listing), and the call's options (their namespace makes the key a corrupt-record error
 * names).
 *
 * @example
 * ```ts
 * const about: CallAbout = { id: 'thread-7', options: { namespace: 'user-42' } };
 * ```
 */
export interface CallAbout {
  readonly id?: string | undefined;
  readonly options?: unknown;
}

/**
 * A call that failed: its method (`load`), what it is about, and whether it writes (a save, a
 * delete, a branch, an append: such a failure may say the write may have happened).
 *
 * @example
 * ```ts
 * const call: FailedCall = { method: 'save', id: 'thread-7', writes: true };
 * ```
 */
export interface FailedCall extends CallAbout {
  readonly method: string;
  readonly writes: boolean;
}

/**
 * What a backend makes of an error thrown by one of its calls: the error the caller sees (see
 * {@link unavailableAt} and {@link namingTheId}).
 *
 * @example
 * ```ts
 * const failure: CallFailure = (error) => error; // passes every error through
 * ```
 */
export type CallFailure = (error: unknown, call: FailedCall) => unknown;

/**
 * The failures of a store on a file system (a folder, a SQLite file): an environment failure
 * becomes `StoreUnavailableError` naming the place `placeOf` describes (see `asUnavailable`);
 * the store's own errors and bugs pass as they are.
 *
 * @param placeOf - the failure place of a call
 * @returns the store's {@link CallFailure}
 * @example
 * ```ts
 * const failure = unavailableAt(({ method, id, writes }) => folder.failurePlace(method, id, writes));
 * ```
 */
export const unavailableAt =
  (placeOf: (call: FailedCall) => FailurePlace): CallFailure =>
  (error, call) =>
    asUnavailable(error, placeOf(call));

/**
 * The failures of a store on a server (Redis): a `StoreUnavailableError` the connection raised
 * without knowing which call it was for gets the call's id (see `withId`); anything else passes.
 *
 * @example
 * ```ts
 * const calls = new StoreCalls('RedisSessionStore', namingTheId);
 * ```
 */
export const namingTheId: CallFailure = (error, { id }) =>
  id === undefined ? error : withId(error, id);

/**
 * The calls of one Node store: its closed flag, the closed-store guard (`openStoreCall`) that
 * opens each call as `Store.method`, and what the backend makes of a call's failure. Every Node
 * store holds one and opens each public method through it, so none repeats the guard, the
 * `Store.method` name or the failure wrapper: `run` (a call that only reads) or `write` for a
 * method that returns a promise, `open` and `failed` for one that cannot be wrapped whole (an
 * async generator, a method whose errors pass as they are).
 *
 * @example
 * ```ts
 * class MyStore {
 *   readonly #calls = new StoreCalls('MyStore', unavailableAt((call) => placeOf(call)));
 *   async load(id: string, options?: SessionOptions) {
 *     return this.#calls.run('load', { id, options }, async ({ api, stillOpen }) => {
 *       const { key } = sessionKeyOf(id, options, api);
 *       return read(key, stillOpen);
 *     });
 *   }
 *   async close() {
 *     if (this.#calls.close()) release();
 *   }
 * }
 * ```
 * @internal
 */
export class StoreCalls {
  readonly #store: string;
  readonly #failure: CallFailure;
  #closed = false;

  /**
   * @param store - the store's class, named in errors (`SqliteSessionStore`)
   * @param failure - what the backend makes of a call's error
   */
  constructor(store: string, failure: CallFailure) {
    this.#store = store;
    this.#failure = failure;
  }

  /** Whether `close()` has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Opens a call of `method` (see `openStoreCall`): `Store.method` and its `stillOpen`.
   *
   * @throws MemoryArgumentError (`Store.method: the store is closed`) after `close()`
   */
  open(method: string): StoreCall {
    return openStoreCall(`${this.#store}.${method}`, () => this.#closed);
  }

  /**
   * Runs a call of `method` that only reads: opens it first (a closed store rejects before
   * anything is read), then `task` with the call; an error `task` throws is what the backend
   * makes of it (see {@link CallFailure}).
   */
  async run<T>(
    method: string,
    about: CallAbout,
    task: (call: StoreCall) => Promise<T>,
  ): Promise<T> {
    return this.#run(method, about, false, task);
  }

  /** Runs a call of `method` that writes (a save, a delete, an append), as `run` does. */
  async write<T>(
    method: string,
    about: CallAbout,
    task: (call: StoreCall) => Promise<T>,
  ): Promise<T> {
    return this.#run(method, about, true, task);
  }

  async #run<T>(
    method: string,
    about: CallAbout,
    writes: boolean,
    task: (call: StoreCall) => Promise<T>,
  ): Promise<T> {
    try {
      return await task(this.open(method));
    } catch (error) {
      throw this.#failure(error, { ...about, method, writes });
    }
  }

  /** The error the caller sees for `error`, thrown by a reading call of `method` (see `run`). */
  failed(error: unknown, method: string, about: CallAbout): unknown {
    return this.#failure(error, { ...about, method, writes: false });
  }

  /** Marks the store closed; `true` the first time (when the store's resources are to be freed). */
  close(): boolean {
    const wasOpen = !this.#closed;
    this.#closed = true;
    return wasOpen;
  }
}
