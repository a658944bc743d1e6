import type BetterSqlite3 from 'better-sqlite3';
import { MemoryArgumentError } from 'conversation-memory';
import { isBusyError, retryWhileBusy, rethrowBusy } from './busyRetry';
import { unindexSession } from './ftsIndex';
import { loadBetterSqlite3 } from './loadBetterSqlite3';
import { prepareSchema } from './schema';
import { decodeMemoryJson, readRowMeta } from './sessionRow';
import { type MetaRow, prepareStatements, type Statements } from './statements';
import { ValidatedRows } from './validatedRows';

/** SQLite's own (blocking) wait before the store's non-blocking retries take over. */
const BUSY_TIMEOUT_MS = 20;

/**
 * What a save finds under its key, inside its transaction: a live session, a row that does not
 * decode (its problems), or nothing (`undefined`, also for an expired row).
 *
 * @example
 * ```ts
 * const current: CurrentRow = { revision: 3, createdAt: 1764500000 };
 * ```
 */
export type CurrentRow =
  | { readonly revision: number; readonly createdAt: number }
  | { readonly problems: readonly string[] }
  | undefined;

/**
 * One connection to a session database, with its statements and the rows it knows to decode:
 * reads in one snapshot, writes in one `BEGIN IMMEDIATE` transaction, both retried while another
 * connection holds the lock (waiting without blocking the event loop, up to `lockTimeoutMs`).
 * The store's methods are built on it.
 *
 * @example
 * ```ts
 * const database = SessionDatabase.open('sessions.db', { fts: true, lockTimeoutMs: 10_000 }, 'SqliteSessionStore');
 * const row = await database.read(() => database.sql.selectRow.get('s1'), () => {});
 * ```
 */
export class SessionDatabase {
  readonly sql: Statements;
  /** The rows this connection knows to decode (see {@link ValidatedRows}). */
  readonly known = new ValidatedRows();
  readonly #db: BetterSqlite3.Database;
  readonly #lockTimeoutMs: number;

  private constructor(db: BetterSqlite3.Database, sql: Statements, lockTimeoutMs: number) {
    this.#db = db;
    this.sql = sql;
    this.#lockTimeoutMs = lockTimeoutMs;
  }

  /**
   * Opens (or creates) the database and prepares its schema and statements. Opening waits for a
   * lock up to the whole timeout, blocking (a constructor cannot wait asynchronously).
   *
   * @throws MemoryArgumentError naming the file when it cannot be opened as a session database
   */
  static open(
    path: string,
    options: { readonly fts: boolean; readonly lockTimeoutMs: number },
    api: string,
  ): SessionDatabase {
    const Database = loadBetterSqlite3(api);
    let db: BetterSqlite3.Database | undefined;
    try {
      db = new Database(path, { timeout: options.lockTimeoutMs });
      const { fts } = prepareSchema(db, options.fts);
      const sql = prepareStatements(db, fts);
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      return new SessionDatabase(db, sql, options.lockTimeoutMs);
    } catch (error) {
      db?.close();
      const reason = error instanceof Error ? error.message : String(error);
      throw new MemoryArgumentError(
        api,
        `could not open the session database ${JSON.stringify(path)}: ${reason}`,
        { cause: error },
      );
    }
  }

  /** Runs `step` in one read snapshot, retrying while busy; after the timeout, the busy error. */
  async read<T>(step: () => T, stillOpen: () => void): Promise<T> {
    const read = this.#db.transaction(() => {
      this.known.sync(this.sql.dataVersion.get() as number);
      return step();
    });
    return retryWhileBusy(() => read.deferred(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
  }

  /** Runs `step` in one `BEGIN IMMEDIATE` transaction, retrying while busy, then `onTimeout`. */
  async write<T>(
    step: () => T,
    onTimeout: (busy: unknown) => never,
    stillOpen: () => void,
  ): Promise<T> {
    const write = this.#db.transaction(() => {
      this.known.sync(this.sql.dataVersion.get() as number);
      return step();
    });
    return retryWhileBusy(() => write.immediate(), this.#lockTimeoutMs, onTimeout, stillOpen);
  }

  /** Whether a row decodes (its columns and its memory); call inside `read` or `write`. */
  decodes(row: MetaRow): boolean {
    const key = row.session_id;
    if ('problems' in readRowMeta(row)) return false;
    if (this.known.has(key)) return true;
    if ('problems' in decodeMemoryJson(this.sql.selectMemory.get(key), 'heuristic')) return false;
    this.known.add(key);
    return true;
  }

  /** What a save finds under `key`; call inside `write`. */
  current(key: string, expired: (updatedAt: unknown) => boolean): CurrentRow {
    const row = this.sql.selectMeta.get(key);
    if (row === undefined || expired(row.updated_at)) return undefined;
    const meta = readRowMeta(row);
    if ('problems' in meta) return { problems: meta.problems };
    if (!this.known.has(key)) {
      const memory = decodeMemoryJson(this.sql.selectMemory.get(key), 'heuristic');
      if ('problems' in memory) return { problems: memory.problems };
      this.known.add(key);
    }
    return { revision: meta.meta.revision, createdAt: meta.meta.createdAt };
  }

  /**
   * Deletes expired rows (and their index) that nobody changed since they were read. Garbage
   * collection only: one attempt, skipped when another connection holds the lock (the rows stay
   * invisible until a later call removes them).
   */
  collect(rows: readonly MetaRow[]): void {
    try {
      this.#db
        .transaction(() => {
          for (const row of rows) {
            const { session_id: key, revision, updated_at: updatedAt } = row;
            if (this.sql.deleteIfUnchanged.run(key, revision, updatedAt).changes === 0) continue;
            if (this.sql.fts !== undefined) unindexSession(this.sql.fts, key);
            this.known.delete(key);
          }
        })
        .immediate();
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
  }

  /** Closes the connection. */
  close(): void {
    this.#db.close();
  }
}
