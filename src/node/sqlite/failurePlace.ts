import { type FailurePlace, storageKeyOf } from '../environmentFailure';
import { type FailedCall, StoreCalls, unavailableAt } from '../storeCalls';

/** What a SQLite store tells {@link sqliteFailurePlace} about itself. */
export interface SqliteStorePlace {
  /** The store's class (`SqliteSessionStore`). */
  readonly store: string;
  /** Its database file. */
  readonly path: string;
  /** What the file holds, for the message (`session database`). */
  readonly label: string;
  /** The corrupt-record error of the key `key` (`ns:id`) for a damaged file. */
  readonly corrupt: (api: string, key: string, problem: string, cause: unknown) => Error;
}

/**
 * Where a SQLite store's call met an environment failure (see `asUnavailable`): the store's
 * database file, and for a call about one session, stream or record, its corrupt-record error
 * when the file is damaged. One place for the three SQLite stores.
 *
 * @param place - the store, its file and its corrupt-record error
 * @param call - the method (`load`, named in errors as `Store.method`), the session, stream or
 *   record it is about (if any), whether it writes, and its options (their namespace makes the key)
 * @returns the failure place
 * @example
 * ```ts
 * asUnavailable(error, sqliteFailurePlace(place, { method: 'load', id, options, writes: false }));
 * ```
 * @internal
 */
export const sqliteFailurePlace = (place: SqliteStorePlace, call: FailedCall): FailurePlace => {
  const api = `${place.store}.${call.method}`;
  const { id, options, writes } = call;
  return {
    api,
    store: place.store,
    id,
    writes,
    database: { path: place.path, label: place.label },
    corrupt:
      id === undefined
        ? undefined
        : (problem, cause) => place.corrupt(api, storageKeyOf(id, options, api), problem, cause),
  };
};

/**
 * The calls of a SQLite store (see `StoreCalls`): the closed-store guard, and an environment
 * failure as `StoreUnavailableError` naming the store's database file (or, for a damaged file,
 * the record's corrupt-record error; see {@link sqliteFailurePlace}).
 *
 * @param place - the store, its file and its corrupt-record error
 * @returns the store's calls
 * @example
 * ```ts
 * const calls = sqliteStoreCalls({ store: 'SqliteEventStore', path, label: 'event database', corrupt });
 * await calls.run('load', { id, options }, async ({ api, stillOpen }) => read(api, stillOpen));
 * await calls.write('save', { id, options }, async ({ api, stillOpen }) => write(api, stillOpen));
 * ```
 * @internal
 */
export const sqliteStoreCalls = (place: SqliteStorePlace): StoreCalls =>
  new StoreCalls(
    place.store,
    unavailableAt((call) => sqliteFailurePlace(place, call)),
  );
