import { isConversationMemoryError, StoreUnavailableError } from 'conversation-memory';
import { sessionKeyOf } from 'conversation-memory/store-kit';
import { databaseFailure, folderFailure, type LastingFailure, quotePath } from './lastingFailure';

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
  // A folder to make where a file is (mkdir).
  'EEXIST',
]);

/** SQLite's result codes of a database file that cannot be opened, read or written. */
const SQLITE_CODES = /^SQLITE_(CANTOPEN|READONLY|IOERR|FULL|PERM|BUSY|LOCKED|NOTADB|CORRUPT)/u;

/** SQLite's result codes of a damaged database file. */
const DAMAGE_CODES = /^SQLITE_CORRUPT/u;

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

/**
 * Where an environment failure happened: the call, the store, the session or stream, and the
 * store's place (its folder or database file), looked at to say what is wrong with it.
 */
export interface FailurePlace {
  readonly api: string;
  readonly store: string;
  readonly id?: string | undefined;
  /** Whether the call writes (a save, a delete, a branch, an append). */
  readonly writes: boolean;
  /** A JSON file store's folder (absolute), and whether the store was made already. */
  readonly folder?: { readonly path: string; readonly made: boolean } | undefined;
  /** A SQLite store's database file and its kind (`session database`). */
  readonly database?: { readonly path: string; readonly label: string } | undefined;
  /**
   * The corrupt-record error of the session or stream (`SessionCorruptError`, …) for a damaged
   * database (`SQLITE_CORRUPT`), given the problem; without it, or without `id`, a damaged
   * database is a `StoreUnavailableError` that says so.
   */
  readonly corrupt?: ((problem: string, cause: unknown) => Error) | undefined;
}

/**
 * The storage key (`ns:id`) of a session or stream, for the corrupt-record error of a damaged
 * database: `id` itself when it is not a valid id (a damaged file is only met after the id was
 * checked, so this is a fallback).
 *
 * @example
 * ```ts
 * storageKeyOf('s1', { namespace: 'u1' }, 'SqliteSessionStore.load'); // 'u1:s1'
 * ```
 * @internal
 */
export const storageKeyOf = (id: string, options: unknown, api: string): string => {
  try {
    return sessionKeyOf(id, options, api).key;
  } catch {
    return id;
  }
};

/** What lasts in the failure at `place`, if anything (see `folderFailure`, `databaseFailure`). */
const lastingAt = (error: unknown, place: FailurePlace): LastingFailure | undefined => {
  if (place.folder !== undefined) {
    return folderFailure(place.folder.path, error, place.folder.made);
  }
  if (place.database !== undefined) {
    return databaseFailure(place.database.path, error, 'use');
  }
  return undefined;
};

/** The place as a message names it: `the session folder "/srv/s"`, or the store's default. */
const placeName = (place: FailurePlace): string => {
  if (place.folder !== undefined) return `the session folder ${quotePath(place.folder.path)}`;
  if (place.database !== undefined) {
    return `the ${place.database.label} ${quotePath(place.database.path)}`;
  }
  return place.store === 'JsonFileSessionStore' ? 'the session folder' : 'the database file';
};

/**
 * `error` as the caller should see it: a failure of the environment becomes one
 * `StoreUnavailableError` naming the call, the store, the session or stream and the cause; when
 * it lasts (a path that names a file, a missing folder, no permission, a file that is not a
 * database) the message says what is wrong and what to do instead of "try again later", and
 * `transient` is `false`; a damaged database is the session's or stream's corrupt-record error
 * when `place.corrupt` and `place.id` are given. Our own errors and anything else (a bug) are
 * returned as they are.
 *
 * @example
 * ```ts
 * try { await readFile(path) } catch (e) { throw asUnavailable(e, { api, store, id, writes: false }) }
 * ```
 * @internal
 */
export const asUnavailable = (error: unknown, place: FailurePlace): unknown => {
  if (isConversationMemoryError(error) || !isEnvironmentFailure(error)) return error;
  const lasting = lastingAt(error, place);
  const code = (error as { code?: unknown }).code;
  if (
    lasting !== undefined &&
    place.corrupt !== undefined &&
    place.id !== undefined &&
    typeof code === 'string' &&
    DAMAGE_CODES.test(code)
  ) {
    return place.corrupt(`database: ${lasting.reason}: ${lasting.remedy}`, error);
  }
  // Files are replaced atomically (a temporary file renamed over the record) and SQLite commits
  // atomically, so a failure means nothing changed; except a folder's fsync after the rename,
  // when the new record is in place but may not be on disk yet.
  const syscall = (error as { syscall?: unknown }).syscall;
  const mayHaveWritten = place.writes && syscall === 'fsync';
  return new StoreUnavailableError(
    place.api,
    `${placeName(place)} cannot be used${lasting === undefined ? '' : `: ${lasting.reason}`}`,
    mayHaveWritten,
    {
      cause: error,
      store: place.store,
      ...(place.id === undefined ? {} : { id: place.id }),
      ...(lasting === undefined ? {} : { remedy: lasting.remedy }),
    },
  );
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
 * `error`, about the session or stream `id` when it is a `StoreUnavailableError` that names none
 * (our own error, made during a call about `id`: the Redis connection reports failures without
 * knowing which call they were for): the same failure, with `id` in its field and its message
 * (`forId`); any other error as it is.
 *
 * @example
 * ```ts
 * onError(withId(error, streamId));
 * ```
 * @internal
 */
export const withId = (error: unknown, id: string): unknown =>
  isConversationMemoryError(error) && error.code === 'CM_STORE_UNAVAILABLE'
    ? (error as StoreUnavailableError).forId(id)
    : error;
