import { isConversationMemoryError, StoreUnavailableError } from 'conversation-memory';

/** Node's errno codes of a file system that cannot serve a call (not a bug of the caller). */
const FILE_SYSTEM_CODES: ReadonlySet<string> = new Set([
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'ENOENT',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'EMFILE',
  'ENFILE',
  'ELOOP',
  'ENAMETOOLONG',
  'EBUSY',
  'EISDIR',
  'EAGAIN',
]);

/** SQLite's result codes of a database file that cannot be opened, read or written. */
const SQLITE_CODES = /^SQLITE_(CANTOPEN|READONLY|IOERR|FULL|PERM|BUSY|LOCKED)/u;

/**
 * Whether `error` is a failure of the environment (a folder that cannot be written, a file that
 * cannot be opened, a full disk), by its Node errno or SQLite code.
 *
 * @internal
 */
export const isEnvironmentFailure = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (FILE_SYSTEM_CODES.has(code) || SQLITE_CODES.test(code));
};

/** Where an environment failure happened: the call, the store, the session or stream. */
export interface FailurePlace {
  readonly api: string;
  readonly store: string;
  readonly id?: string | undefined;
  /** Whether the call writes (a save, a delete, a branch, an append). */
  readonly writes: boolean;
}

/**
 * `error` as the caller should see it: a failure of the environment becomes one
 * `StoreUnavailableError` naming the call, the store, the session or stream and the cause;
 * our own errors and anything else (a bug) are returned as they are.
 *
 * @example
 * ```ts
 * try { await readFile(path) } catch (e) { throw asUnavailable(e, { api, store, id, writes: false }) }
 * ```
 * @internal
 */
export const asUnavailable = (error: unknown, place: FailurePlace): unknown => {
  if (isConversationMemoryError(error) || !isEnvironmentFailure(error)) return error;
  const what =
    place.store === 'JsonFileSessionStore'
      ? 'the session folder cannot be used'
      : 'the database file cannot be used';
  // Files are replaced atomically (a temporary file renamed over the record) and SQLite commits
  // atomically, so a failure means nothing changed; except a folder's fsync after the rename,
  // when the new record is in place but may not be on disk yet.
  const syscall = (error as { syscall?: unknown }).syscall;
  const mayHaveWritten = place.writes && syscall === 'fsync';
  return new StoreUnavailableError(place.api, what, mayHaveWritten, {
    cause: error,
    store: place.store,
    ...(place.id === undefined ? {} : { id: place.id }),
  });
};

/**
 * Runs `task`, turning an environment failure into `StoreUnavailableError` (see
 * {@link asUnavailable}).
 *
 * @internal
 */
export const unavailableOnFailure = async <T>(
  place: FailurePlace,
  task: () => Promise<T>,
): Promise<T> => {
  try {
    return await task();
  } catch (error) {
    throw asUnavailable(error, place);
  }
};

/**
 * Runs `task`; a `StoreUnavailableError` it throws without the session or stream (the Redis
 * connection reports failures without knowing which call they were for) gets `id`.
 *
 * @internal
 */
export const naming = async <T>(id: string, task: () => Promise<T>): Promise<T> => {
  try {
    return await task();
  } catch (error) {
    throw withId(error, id);
  }
};

/**
 * `error`, given the session or stream `id` when it is a `StoreUnavailableError` without one
 * (our own error, made during a call about `id`: the Redis connection reports failures without
 * knowing which call they were for); any other error as it is.
 *
 * @example
 * ```ts
 * onError(withId(error, streamId));
 * ```
 * @internal
 */
export const withId = (error: unknown, id: string): unknown => {
  if (
    isConversationMemoryError(error) &&
    error.code === 'CM_STORE_UNAVAILABLE' &&
    (error as StoreUnavailableError).id === undefined
  ) {
    Object.defineProperty(error, 'id', { value: id, enumerable: true });
  }
  return error;
};
