import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import type { StateStorage } from 'zustand/middleware';
import { readAdapterOptions } from '../shared/readAdapterOptions';

/**
 * Options of `createIndexedDbStorage`.
 *
 * @example
 * ```ts
 * const options: IndexedDbStorageOptions = { databaseName: 'chat', batchDelayMs: 100 };
 * ```
 */
export interface IndexedDbStorageOptions {
  /** The database's name; `'conversation-memory'` by default. */
  readonly databaseName?: string;
  /** The object store's name (one record per conversation, keyed by persist's `name`); `'conversations'` by default. */
  readonly storeName?: string;
  /** How long writes are batched, in milliseconds: the last value per key in one transaction; 50 by default. */
  readonly batchDelayMs?: number;
  /** Called with a failed write (a `QuotaExceededError` among others); `console.error` by default. The value stays queued and is retried by the next write. */
  readonly onError?: (error: unknown, name: string) => void;
}

/*
 * The parts of IndexedDB this storage uses, typed here: the package's declarations are built
 * without the DOM library, so they name no DOM type.
 */
interface IdbRequest<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbObjectStore {
  put(value: string, key: string): unknown;
  delete(key: string): unknown;
  get(key: string): IdbRequest<unknown>;
}
interface IdbTransaction {
  readonly error: unknown;
  objectStore(name: string): IdbObjectStore;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}
interface IdbDatabase {
  transaction(storeName: string, mode: 'readonly' | 'readwrite'): IdbTransaction;
  createObjectStore(name: string): unknown;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null;
}
/** What the page offers: `indexedDB`, and its events. */
const page = globalThis as unknown as {
  readonly indexedDB?: { open(name: string, version: number): IdbOpenRequest };
  readonly addEventListener?: (type: string, listener: () => void) => void;
  readonly document?: { readonly visibilityState?: string };
};

const requestResult = <T>(request: IdbRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

const reportToConsole = (error: unknown, name: string): void => {
  // eslint-disable-next-line no-console -- the adapter's documented failure report
  console.error(
    `[conversation-memory] createIndexedDbStorage(${JSON.stringify(name)}): the conversation could not be saved; it is kept in memory and the next change retries`,
    error,
  );
};

const API = 'createIndexedDbStorage';

const refuse = (key: string, must: string, value: unknown): never => {
  throw new MemoryArgumentError(
    API,
    `options.${key} must be ${must}, received ${describeValue(value)}`,
  );
};

/** The options read once and checked, with their defaults: a bad one is named before any I/O. */
const checkOptions = (options: unknown) => {
  const given = readAdapterOptions(
    options,
    ['databaseName', 'storeName', 'batchDelayMs', 'onError'],
    API,
    { example: "{ databaseName: 'chat' }", error: MemoryArgumentError },
  );
  const name = (key: 'databaseName' | 'storeName', fallback: string): string => {
    const value = given[key] ?? fallback;
    return typeof value === 'string' && value !== ''
      ? value
      : refuse(key, 'a non-empty string', value);
  };
  const delay = given.batchDelayMs ?? 50;
  if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) {
    refuse('batchDelayMs', 'a number of milliseconds, 0 or more', delay);
  }
  const onError = given.onError ?? reportToConsole;
  if (typeof onError !== 'function') refuse('onError', 'a function', onError);
  return {
    databaseName: name('databaseName', 'conversation-memory'),
    storeName: name('storeName', 'conversations'),
    delay: delay as number,
    onError: onError as (error: unknown, name: string) => void,
  };
};

/**
 * A `StateStorage` over IndexedDB: one record per key, writes batched (several `setItem` calls
 * within `batchDelayMs` become one transaction holding the last value per key) and flushed on
 * `pagehide` and when the page becomes hidden. A failed write (a full quota) is reported to
 * `onError` and kept: the next write retries it.
 *
 * @param options - database and store names, batching delay, error report
 * @returns a `StateStorage` (async) for `memoryPersistStorage`
 * @throws MemoryArgumentError for an unknown option or a value of the wrong kind
 * @example
 * ```ts
 * const storage = memoryPersistStorage(indexedDbStateStorage({ databaseName: 'chat' }));
 * ```
 */
export const indexedDbStateStorage = (options: IndexedDbStorageOptions = {}): StateStorage => {
  const { databaseName, storeName, delay, onError } = checkOptions(options);
  let database: Promise<IdbDatabase> | undefined;
  const open = (): Promise<IdbDatabase> => {
    database ??= new Promise((resolve, reject) => {
      if (page.indexedDB === undefined) {
        reject(
          new Error(
            '[conversation-memory] createIndexedDbStorage: IndexedDB is not available here',
          ),
        );
        return;
      }
      const request = page.indexedDB.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return database;
  };
  const queued = new Map<string, string | undefined>(); // undefined: a removal
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (queued.size === 0) return flushing;
    const batch = new Map(queued);
    queued.clear();
    flushing = flushing.then(async () => {
      const db = await open();
      try {
        await new Promise<void>((resolve, reject) => {
          const transaction = db.transaction(storeName, 'readwrite');
          const store = transaction.objectStore(storeName);
          for (const [key, value] of batch) {
            if (value === undefined) store.delete(key);
            else store.put(value, key);
          }
          transaction.oncomplete = () => resolve();
          transaction.onerror = () => reject(transaction.error);
          transaction.onabort = () => reject(transaction.error);
        });
      } catch (error) {
        // Kept for a retry, unless a newer value was asked for meanwhile.
        for (const [key, value] of batch) if (!queued.has(key)) queued.set(key, value);
        for (const key of batch.keys()) onError(error, key);
      }
    });
    return flushing;
  };
  const schedule = (): void => {
    timer ??= setTimeout(() => void flush(), delay);
  };
  if (typeof page.addEventListener === 'function') {
    page.addEventListener('pagehide', () => void flush());
    page.addEventListener('visibilitychange', () => {
      if (page.document?.visibilityState === 'hidden') void flush();
    });
  }

  return {
    getItem: async (name) => {
      if (queued.has(name)) return queued.get(name) ?? null;
      await flushing;
      const db = await open();
      const value: unknown = await requestResult(
        db.transaction(storeName, 'readonly').objectStore(storeName).get(name),
      );
      return value === undefined ? null : (value as string);
    },
    setItem: (name, value) => {
      queued.set(name, value);
      schedule();
    },
    removeItem: (name) => {
      queued.set(name, undefined);
      return flush();
    },
  };
};
