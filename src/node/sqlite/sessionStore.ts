import {
  isConversationMemoryError,
  type LoadedSession,
  MemoryArgumentError,
  type MemoryState,
  type SavedSession,
  type SaveOptions,
  type SearchOptions,
  SessionCorruptError,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  type RemovedCount,
  toDict,
} from 'conversation-memory';
import {
  compareCodePoints,
  expectedRevisionOf,
  isSessionExpired,
  namespaceOf,
  searchLimitOf,
  searchTerms,
  type SessionKey,
  sessionKeyOf,
  describeValue,
  checkSessionOptions,
  namespaceToDeleteOf,
} from 'conversation-memory/store-kit';
import type { StoreCalls } from '../storeCalls';
import { rethrowBusy } from './busyRetry';
import { type SqliteStorePlace, sqliteStoreCalls } from './failurePlace';
import { searchRows } from './sessionSearch';
import { referenceRowKey, rowAddressOf, shadowingKeyOf } from './sessionReferenceRows';
import { SessionDatabase } from './sessionDatabase';
import { type SessionClock, saveSessionRow } from './sessionWrite';
import { loadedFromRow } from './sessionRow';
import type { MetaRow } from './sessionStatements';
import { readSessionStoreOptions, type SqliteSessionStoreOptions } from './options';
import { deleteSessionNamespace, sweepSessions } from './sessionRetention';

export type { SqliteSessionStoreOptions } from './options';

const API = 'SqliteSessionStore';

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * A {@link SessionStore} in a SQLite file (better-sqlite3 12.x, an optional peer), in the
 * reference's table: `sessions(session_id, memory_json, message_count, created_at, updated_at)`
 * plus a `revision` column, so databases written by the reference load (their rows as revision 1)
 * and the reference can read ours. WAL mode; FTS5 search with the reference's scoring when this
 * SQLite has FTS5 (its `session_messages_fts` index is reused), else the reference's scan.
 *
 * Every save is one `BEGIN IMMEDIATE` transaction: the revision check, the write and the search
 * re-index, so concurrent writers in other processes never lose an update; a stale
 * `expectedRevision` rejects with `SessionConflictError` and writes nothing. A writer that finds
 * the database locked waits (without blocking the event loop) and, after `lockTimeoutMs`, fails
 * with `SessionConflictError`: never with `SQLITE_BUSY`. A row that does not decode makes `load`
 * reject with `SessionCorruptError`; `list` and `search` skip it, `exists` reports it, and a save
 * or a delete of it first copies it into the `sessions_corrupt` table (such a row counts as absent
 * for `expectedRevision`). Expired rows are deleted when `load` or `list` meets them, as the
 * reference does, a damaged one copied into `sessions_corrupt` first: nothing damaged is deleted
 * without a copy, but by `sweep()` (every expired row) and `deleteNamespace()` (every row and
 * copy of the namespace, with their search index), which keep nothing, in batches of
 * `SWEEP_BATCH` sessions a transaction (see `sweepSessions`).
 *
 * A row the reference wrote under a key this store never makes (its bare id `50%`, ours `50%25`;
 * see `isStorageKey`) is that pair's session until the pair is saved: `load`, `exists`, `branch`
 * and `delete` read it, and a save moves it (and its search index) to the storage key in its
 * transaction. `list` and `search` report it as the pair it is (`ns:id` split at the first `:`).
 *
 * FTS5 scores differ from the scan's, as in the reference: a session scores
 * `Σ 1 + r / (1 + r)` over its matching messages (`r = -bm25`) instead of the number of
 * occurrences, terms match whole tokens (`cat` does not find `cats`) and diacritics fold. Pass
 * `fts: false` for the scan. A program writing rows without this library (the reference itself)
 * does not advance `revision`: share a database between writers of this library only.
 *
 * @example
 * ```ts
 * import { SqliteSessionStore } from 'conversation-memory/node';
 *
 * const store = new SqliteSessionStore({ path: 'sessions.db', defaultTtl: 86_400 });
 * const loaded = await store.load('thread-7', { namespace: 'user-42' });
 * const next = addMessage(loaded?.state ?? createMemory(), userMessage('hi')).state;
 * await store.save('thread-7', next, { namespace: 'user-42', expectedRevision: loaded?.revision ?? 0 });
 * await store.close();
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  readonly #database: SessionDatabase;
  readonly #calls: StoreCalls;
  readonly #path: string;
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  readonly #clock: SessionClock = {
    now: () => this.#now(),
    expired: (updatedAt, now) => this.#expired(updatedAt, now),
  };

  constructor(options: SqliteSessionStoreOptions) {
    const settings = readSessionStoreOptions(options, API);
    const { path } = settings;
    this.#path = path;
    this.#ttl = settings.ttl;
    this.#now = settings.now;
    const place: SqliteStorePlace = {
      store: API,
      path,
      label: 'session database',
      corrupt: (api, key, problem, cause) =>
        new SessionCorruptError(api, key, `sqlite:${path}#${key}`, [problem], { cause }),
    };
    this.#calls = sqliteStoreCalls(place);
    this.#database = SessionDatabase.open(path, settings, place);
  }

  /** Whether `search` uses FTS5 (`false`: it scans, as the reference does without FTS5). */
  get usesFts5(): boolean {
    return this.#database.sql.fts !== undefined;
  }

  #expired(updatedAt: unknown, now: number): boolean {
    return isTime(updatedAt) && isSessionExpired(updatedAt, this.#ttl, now);
  }

  #encode(api: string, state: unknown): { json: string; state: MemoryState } {
    try {
      return { json: JSON.stringify(toDict(state as MemoryState)), state: state as MemoryState };
    } catch (error) {
      if (isConversationMemoryError(error) && error.code === 'CM_ARGUMENT') {
        throw new MemoryArgumentError(`${API}.${api}`, error.detail, { cause: error });
      }
      throw error;
    }
  }

  async #load(
    api: string,
    where: SessionKey,
    stillOpen: () => void,
  ): Promise<LoadedSession | null> {
    const row = await this.#database.read(() => {
      const key = this.#database.rowKeyOf(where);
      return key === undefined ? undefined : this.#database.sql.selectRow.get(key);
    }, stillOpen);
    if (row === undefined) return null;
    const now = this.#now();
    if (this.#expired(row.updated_at, now)) {
      this.#database.collect([row], now);
      return null;
    }
    const key = row.session_id;
    const loaded = loadedFromRow(row, `${API}.${api}`, `sqlite:${this.#path}#${key}`);
    this.#database.known.add(key);
    return loaded;
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('save', { id: sessionId, options }, async ({ api, stillOpen }) => {
      checkSessionOptions(options, 'save', api);
      const where = sessionKeyOf(sessionId, options, api);
      const expected = expectedRevisionOf(options, api);
      return saveSessionRow(
        this.#database,
        this.#clock,
        api,
        where,
        this.#encode('save', state),
        expected,
        stillOpen,
      );
    });
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    return this.#calls.run('load', { id: sessionId, options }, async ({ api, stillOpen }) => {
      checkSessionOptions(options, 'load', api);
      const where = sessionKeyOf(sessionId, options, api);
      return this.#load('load', where, stillOpen);
    });
  }

  async list(): Promise<readonly SessionMetadata[]> {
    return this.#calls.run('list', {}, async ({ stillOpen }) => {
      const now = this.#now();
      const expired: MetaRow[] = [];
      const listed = await this.#database.read(() => {
        const rows = this.#database.sql.selectAllMeta.all();
        const keys = new Set(rows.map((row) => row.session_id));
        /** A reference row whose pair has a row of ours: `load` reads that one. */
        const shadowed = (key: string): boolean => {
          const shadowing = shadowingKeyOf(key);
          return shadowing !== undefined && keys.has(shadowing);
        };
        const out: SessionMetadata[] = [];
        for (const row of rows) {
          if (this.#expired(row.updated_at, now)) expired.push(row);
          else if (!shadowed(row.session_id) && this.#database.decodes(row)) {
            out.push(
              Object.freeze({
                sessionId: row.session_id,
                ...rowAddressOf(row.session_id),
                messageCount: row.message_count as number,
                createdAt: row.created_at as number,
                updatedAt: row.updated_at as number,
              }),
            );
          }
        }
        return out;
      }, stillOpen);
      if (expired.length > 0) this.#database.collect(expired, now);
      return Object.freeze(listed.sort((a, b) => compareCodePoints(a.sessionId, b.sessionId)));
    });
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return this.#calls.write('delete', { id: sessionId, options }, async ({ api, stillOpen }) => {
      checkSessionOptions(options, 'delete', api);
      const where = sessionKeyOf(sessionId, options, api);
      const { sql } = this.#database;
      return this.#database.write(
        () => {
          const now = this.#now();
          // Ours and the reference's row of the pair: a row left behind would come back.
          let live = false;
          for (const key of [where.key, referenceRowKey(where)]) {
            const row = key === undefined ? undefined : sql.selectMeta.get(key);
            if (row === undefined) continue;
            this.#database.remove(row, now);
            live ||= !this.#expired(row.updated_at, now);
          }
          return live;
        },
        rethrowBusy,
        stillOpen,
      );
    });
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return this.#calls.run('exists', { id: sessionId, options }, async ({ api, stillOpen }) => {
      checkSessionOptions(options, 'exists', api);
      const where = sessionKeyOf(sessionId, options, api);
      const row = await this.#database.read(() => {
        const key = this.#database.rowKeyOf(where);
        return key === undefined ? undefined : this.#database.sql.selectMeta.get(key);
      }, stillOpen);
      return row !== undefined && !this.#expired(row.updated_at, this.#now());
    });
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('branch', { id: newId, options }, async ({ api, stillOpen }) => {
      checkSessionOptions(options, 'branch', api);
      const source = sessionKeyOf(sourceId, options, api);
      const target = sessionKeyOf(newId, options, api);
      const expected = expectedRevisionOf(options, api);
      const loaded = await this.#load('branch', source, stillOpen);
      if (loaded === null) {
        throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
      }
      const encoded = this.#encode('branch', loaded.state);
      return saveSessionRow(this.#database, this.#clock, api, target, encoded, expected, stillOpen);
    });
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    return this.#calls.run('search', {}, async ({ api, stillOpen }) => {
      // Read once: the search sees the copy.
      const given = checkSessionOptions(options, 'search', api);
      const terms = searchTerms(query);
      const limit = searchLimitOf(given.limit);
      const namespace = namespaceOf(given.namespace, api);
      if (terms.length === 0 || limit <= 0) return Object.freeze([]);
      const now = this.#now();
      return searchRows(this.#database, {
        terms,
        limit,
        namespace,
        now,
        expired: (updatedAt) => this.#expired(updatedAt, now),
        stillOpen,
      });
    });
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async ({ stillOpen }) => {
      const expiry = { ttl: this.#ttl, now: this.#now, expired: this.#clock.expired };
      return Object.freeze({ removed: await sweepSessions(this.#database, expiry, stillOpen) });
    });
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async ({ api, stillOpen }) => {
      const checked = namespaceToDeleteOf(namespace, api);
      const removed = await deleteSessionNamespace(this.#database, checked, stillOpen);
      return Object.freeze({ removed });
    });
  }

  async close(): Promise<void> {
    if (this.#calls.close()) this.#database.close();
  }
}
