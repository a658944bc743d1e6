import type BetterSqlite3 from 'better-sqlite3';
import { isConversationMemoryError, StoreUnavailableError } from 'conversation-memory';
import { databaseFailure, type DatabasePhase, quotePath } from '../lastingFailure';
import { loadBetterSqlite3 } from './loadBetterSqlite3';

/** SQLite's own (blocking) wait before a store's non-blocking retries take over. */
const BUSY_TIMEOUT_MS = 20;

/**
 * Which store opens a database, for its errors: the store's class (also the constructor's name in
 * them) and its kind of database (`session database`). A `SqliteStorePlace` is one.
 *
 * @example
 * ```ts
 * const opener: DatabaseOpener = { store: 'SqliteSessionStore', label: 'session database' };
 * ```
 */
export interface DatabaseOpener {
  readonly store: string;
  readonly label: string;
}

const unableToOpen = (
  error: unknown,
  path: string,
  opener: DatabaseOpener,
  phase: DatabasePhase,
): unknown => {
  if (isConversationMemoryError(error)) return error;
  // Preparing runs SQL only: anything but a SQLite error there is a bug, shown as it is.
  const code = (error as { code?: unknown } | null)?.code;
  if (phase === 'prepare' && !(typeof code === 'string' && code.startsWith('SQLITE_'))) {
    return error;
  }
  const lasting = databaseFailure(path, error, phase);
  return new StoreUnavailableError(
    opener.store,
    `could not open the ${opener.label} ${quotePath(path)}${lasting === undefined ? '' : `: ${lasting.reason}`}`,
    false,
    {
      cause: error,
      store: opener.store,
      ...(lasting === undefined ? {} : { remedy: lasting.remedy }),
    },
  );
};

/**
 * Opens (or creates) a SQLite store's database file and prepares it with `prepare` (its tables
 * and statements). Whatever stops it is a `StoreUnavailableError` naming the file: one that lasts
 * says what is wrong and what to do (the path is a folder, its folder does not exist, the file is
 * not a SQLite database, is damaged, holds another program's tables under the store's names, or
 * may not be written: see `databaseFailure`); any other says "try again later" (a lock held for
 * longer than the timeout, an I/O error). The connection is closed when `prepare` fails. Once
 * prepared, SQLite's own blocking wait for a lock is cut to 20 ms: the store's calls wait
 * without blocking (see `retryWhileBusy`).
 *
 * @param path - the file (`':memory:'` for a private database)
 * @param lockTimeoutMs - how long opening waits for another connection's lock (blocking)
 * @param opener - the store, for the errors
 * @param prepare - prepares the open connection
 * @returns the connection and what `prepare` returned
 * @example
 * ```ts
 * const { db, prepared: sql } = openDatabase('events.db', 10_000, opener, (db) => {
 *   prepareEventSchema(db);
 *   return prepareEventStatements(db);
 * });
 * ```
 */
export const openDatabase = <T>(
  path: string,
  lockTimeoutMs: number,
  opener: DatabaseOpener,
  prepare: (db: BetterSqlite3.Database) => T,
): { readonly db: BetterSqlite3.Database; readonly prepared: T } => {
  const Database = loadBetterSqlite3(opener.store);
  let db: BetterSqlite3.Database;
  try {
    db = new Database(path, { timeout: lockTimeoutMs });
  } catch (error) {
    throw unableToOpen(error, path, opener, 'open');
  }
  try {
    const prepared = prepare(db);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return { db, prepared };
  } catch (error) {
    db.close();
    throw unableToOpen(error, path, opener, 'prepare');
  }
};
