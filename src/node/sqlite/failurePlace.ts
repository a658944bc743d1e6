import { type FailurePlace, storageKeyOf } from '../environmentFailure';

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
 * @param method - the method (`load`), named in errors as `Store.method`
 * @param id - the session, stream or record the call is about, if any
 * @param writes - whether the call writes
 * @param options - the call's options (its namespace makes the key)
 * @returns the failure place
 * @example
 * ```ts
 * unavailableOnFailure(sqliteFailurePlace(this.#place, 'load', id, false, options), task);
 * ```
 * @internal
 */
export const sqliteFailurePlace = (
  place: SqliteStorePlace,
  method: string,
  id: string | undefined,
  writes: boolean,
  options?: unknown,
): FailurePlace => {
  const api = `${place.store}.${method}`;
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
