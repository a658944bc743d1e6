import type { SessionKey } from 'conversation-memory/store-kit';
import type BetterSqlite3 from 'better-sqlite3';
import { isBusyError, retryWhileBusy, rethrowBusy } from './busyRetry';
import { unindexSession } from './sessionFtsIndex';
import { type DatabaseOpener, openDatabase } from './connection';
import { referenceRowKey } from './sessionReferenceRows';
import { prepareSessionSchema } from './schema';
import { readMemoryJson, readRowMeta } from './sessionRow';
import {
  prepareSessionRetentionStatements,
  type SessionRetentionStatements,
} from './sessionRetentionStatements';
import { type MetaRow, prepareStatements, type Statements } from './sessionStatements';
import { ValidatedRows } from './sessionValidatedRows';

/**
 * What a save finds under its key, inside its transaction: a live session, a row that does not
 * decode (its problems, expired or not), or nothing (`undefined`, also for an expired sound row).
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
 * const database = SessionDatabase.open('sessions.db', { fts: true, lockTimeoutMs: 10_000 }, {
 *   store: 'SqliteSessionStore',
 *   label: 'session database',
 * });
 * const row = await database.read(() => database.sql.selectRow.get('s1'), () => {});
 * ```
 */
export class SessionDatabase {
  readonly sql: Statements;
  /** The statements of `sweep` and `deleteNamespace`. */
  readonly retention: SessionRetentionStatements;
  /** The rows this connection knows to decode (see {@link ValidatedRows}). */
  readonly known = new ValidatedRows();
  readonly #db: BetterSqlite3.Database;
  readonly #lockTimeoutMs: number;

  private constructor(
    db: BetterSqlite3.Database,
    prepared: { readonly sql: Statements; readonly retention: SessionRetentionStatements },
    lockTimeoutMs: number,
  ) {
    this.#db = db;
    this.sql = prepared.sql;
    this.retention = prepared.retention;
    this.#lockTimeoutMs = lockTimeoutMs;
  }

  /**
   * Opens (or creates) the database and prepares its schema and statements. Opening waits for a
   * lock up to the whole timeout, blocking (a constructor cannot wait asynchronously).
   *
   * @throws StoreUnavailableError naming the file when it cannot be opened, written or used (see
   *   `openDatabase`)
   */
  static open(
    path: string,
    options: { readonly fts: boolean; readonly lockTimeoutMs: number },
    opener: DatabaseOpener,
  ): SessionDatabase {
    const { db, prepared } = openDatabase(path, options.lockTimeoutMs, opener, (db) => {
      const { fts } = prepareSessionSchema(db, options.fts);
      return {
        sql: prepareStatements(db, fts),
        retention: prepareSessionRetentionStatements(db, fts),
      };
    });
    return new SessionDatabase(db, prepared, options.lockTimeoutMs);
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

  /**
   * What is wrong with a row (its columns, then its memory), or `undefined` when it decodes; call
   * inside `read` or `write`.
   */
  problemsOf(row: MetaRow): readonly string[] | undefined {
    const key = row.session_id;
    const meta = readRowMeta(row);
    if ('problems' in meta) return meta.problems;
    if (this.known.has(key)) return undefined;
    const memory = readMemoryJson(this.sql.selectMemory.get(key), 'heuristic');
    if ('problems' in memory) return memory.problems;
    this.known.add(key);
    return undefined;
  }

  /** Whether a row decodes (its columns and its memory); call inside `read` or `write`. */
  decodes(row: MetaRow): boolean {
    return this.problemsOf(row) === undefined;
  }

  /**
   * What a save finds under `key`; call inside `write`. A damaged row is reported even when it
   * is expired, so that the save copies it aside before replacing it.
   */
  current(key: string, expired: (updatedAt: unknown) => boolean): CurrentRow {
    const row = this.sql.selectMeta.get(key);
    if (row === undefined) return undefined;
    const problems = this.problemsOf(row);
    if (problems !== undefined) return { problems };
    const meta = readRowMeta(row);
    if (!('meta' in meta) || expired(row.updated_at)) return undefined;
    return { revision: meta.meta.revision, createdAt: meta.meta.createdAt };
  }

  /**
   * Removes the row of `key` and its index; call inside `write`. A row that does not decode is
   * first copied into `sessions_corrupt` with its problems: nothing damaged is deleted without a
   * copy.
   */
  remove(row: MetaRow, now: number): void {
    const key = row.session_id;
    const problems = this.problemsOf(row);
    if (problems !== undefined) this.sql.moveAside.run(now, problems.join('\n'), key);
    this.sql.deleteRow.run(key);
    if (this.sql.fts !== undefined) unindexSession(this.sql.fts, key);
    this.known.delete(key);
  }

  /**
   * Deletes expired rows (and their index) that nobody changed since they were read, copying a
   * damaged one into `sessions_corrupt` first (see {@link remove}). Garbage collection only: one
   * attempt, skipped when another connection holds the lock (the rows stay invisible until a
   * later call removes them).
   */
  collect(rows: readonly MetaRow[], now: number): void {
    try {
      this.#db
        .transaction(() => {
          this.known.sync(this.sql.dataVersion.get() as number);
          for (const row of rows) {
            const { session_id: key, revision, updated_at: updatedAt } = row;
            const still = this.sql.selectMetaIfUnchanged.get(key, revision, updatedAt);
            if (still !== undefined) this.remove(still, now);
          }
        })
        .immediate();
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
  }

  /**
   * The key of the row that holds a pair's session (call inside a transaction): its storage key,
   * or the row the reference wrote under its reference key when ours is absent (see
   * {@link referenceRowKey}); `undefined` when neither is there.
   */
  rowKeyOf(where: SessionKey): string | undefined {
    const { selectMeta } = this.sql;
    if (selectMeta.get(where.key) !== undefined) return where.key;
    const legacy = referenceRowKey(where);
    return legacy !== undefined && selectMeta.get(legacy) !== undefined ? legacy : undefined;
  }

  /** Closes the connection. */
  close(): void {
    this.#db.close();
  }
}
