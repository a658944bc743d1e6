import type BetterSqlite3 from 'better-sqlite3';
import {
  checkExpectedRevision,
  compareCodePoints,
  expectedRevisionOf,
  isConversationMemoryError,
  isSessionExpired,
  type LoadedSession,
  MemoryArgumentError,
  MemoryDecodeError,
  type MemoryState,
  namespaceOf,
  rankSearchResults,
  type SavedSession,
  type SaveOptions,
  type SearchOptions,
  searchLimitOf,
  searchTerms,
  SessionConflictError,
  SessionCorruptError,
  sessionClockOf,
  sessionKeyOf,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  type SessionStoreOptions,
  sessionTtlOf,
  toDict,
} from 'conversation-memory';
import { isBusyError, retryWhileBusy } from './busyRetry';
import { backfillIndex, indexSession, matchExpression, unindexSession } from './ftsIndex';
import { type FtsCandidate, scoreMatches } from './ftsScore';
import { loadBetterSqlite3 } from './loadBetterSqlite3';
import { scanSessions } from './scanSearch';
import { prepareSchema } from './schema';
import { decodeMemoryJson, readRowMeta } from './sessionRow';
import { type MetaRow, prepareStatements, type Statements } from './statements';
import { ValidatedRows } from './validatedRows';

const API = 'SqliteSessionStore';

/** How long a call waits for another connection's write lock, by default (milliseconds). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** SQLite's own (blocking) wait before the store's non-blocking retries take over. */
const BUSY_TIMEOUT_MS = 20;

/**
 * Options of {@link SqliteSessionStore}.
 *
 * @example
 * ```ts
 * const options: SqliteSessionStoreOptions = { path: 'sessions.db', defaultTtl: 86_400 };
 * ```
 */
export interface SqliteSessionStoreOptions extends SessionStoreOptions {
  /** The database file (created when missing; a database written by the reference is used as it is). */
  readonly path: string;
  /**
   * `false` searches by scanning the rows (the reference's fallback, scored by term frequency)
   * even when this SQLite has FTS5. By default FTS5 is used when available, with the reference's
   * FTS scoring.
   */
  readonly fts?: boolean | undefined;
  /**
   * How long a call waits for a write lock held by another connection before giving up, in
   * milliseconds (default 10,000). A save that gives up rejects with `SessionConflictError`.
   */
  readonly lockTimeoutMs?: number | undefined;
}

/** What a save found under its key, inside its transaction. */
type Current =
  | { readonly revision: number; readonly createdAt: number }
  | { readonly problems: readonly string[] }
  | undefined;

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const frozenHit = (hit: SessionSearchResult): SessionSearchResult =>
  Object.freeze({
    sessionId: hit.sessionId,
    score: hit.score,
    matchedMessages: Object.freeze([...hit.matchedMessages]),
  });

const optionsOf = (options: unknown): SqliteSessionStoreOptions => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(API, "options must be an object such as { path: 'sessions.db' }");
  }
  const { path, fts, lockTimeoutMs } = options as Record<string, unknown>;
  if (typeof path !== 'string' || path === '') {
    throw new MemoryArgumentError(
      API,
      `options.path must be the database file's path, received ${path === '' ? '""' : typeof path}`,
    );
  }
  if (fts !== undefined && typeof fts !== 'boolean') {
    throw new MemoryArgumentError(API, `options.fts must be a boolean, received ${typeof fts}`);
  }
  if (
    lockTimeoutMs !== undefined &&
    (typeof lockTimeoutMs !== 'number' || !Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0)
  ) {
    throw new MemoryArgumentError(
      API,
      `options.lockTimeoutMs must be a number of milliseconds ≥ 0, received ${String(lockTimeoutMs)}`,
    );
  }
  return options as SqliteSessionStoreOptions;
};

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
 * over it first copies it into the `sessions_corrupt` table.
 *
 * @example
 * ```ts
 * import { SqliteSessionStore } from 'conversation-memory/sessions/node';
 *
 * const store = new SqliteSessionStore({ path: 'sessions.db', defaultTtl: 86_400 });
 * const loaded = await store.load('thread-7', { namespace: 'user-42' });
 * const next = addMessage(loaded?.state ?? createMemory(), userMessage('hi')).state;
 * await store.save('thread-7', next, { namespace: 'user-42', expectedRevision: loaded?.revision ?? 0 });
 * await store.close();
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  readonly #db: BetterSqlite3.Database;
  readonly #sql: Statements;
  readonly #path: string;
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  readonly #lockTimeoutMs: number;
  readonly #known = new ValidatedRows();
  #closed = false;

  constructor(options: SqliteSessionStoreOptions) {
    const checked = optionsOf(options);
    this.#path = checked.path;
    this.#ttl = sessionTtlOf(checked.defaultTtl, API);
    this.#now = sessionClockOf(checked.now, API);
    this.#lockTimeoutMs = checked.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const Database = loadBetterSqlite3(API);
    let db: BetterSqlite3.Database | undefined;
    try {
      // Opening waits up to the whole lock timeout (the constructor cannot wait asynchronously).
      db = new Database(this.#path, { timeout: this.#lockTimeoutMs });
      const { fts } = prepareSchema(db, checked.fts !== false);
      this.#sql = prepareStatements(db, fts);
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    } catch (error) {
      db?.close();
      const reason = error instanceof Error ? error.message : String(error);
      throw new MemoryArgumentError(
        API,
        `could not open the session database ${JSON.stringify(this.#path)}: ${reason}`,
        { cause: error },
      );
    }
    this.#db = db;
  }

  /** Whether `search` uses FTS5 (`false`: it scans, as the reference does without FTS5). */
  get usesFts5(): boolean {
    return this.#sql.fts !== undefined;
  }

  #open(api: string): void {
    if (this.#closed) throw new MemoryArgumentError(`${API}.${api}`, 'the store is closed');
  }

  #expired(updatedAt: unknown, now: number): boolean {
    return isTime(updatedAt) && isSessionExpired(updatedAt, this.#ttl, now);
  }

  #location(key: string): string {
    return `sqlite:${this.#path}#${key}`;
  }

  /** Runs a read (in one snapshot), retrying while the database is busy. */
  async #read<T>(api: string, step: () => T): Promise<T> {
    const read = this.#db.transaction(() => {
      this.#known.sync(this.#sql.dataVersion.get() as number);
      return step();
    });
    return retryWhileBusy(
      () => read.deferred(),
      this.#lockTimeoutMs,
      (busy) => {
        throw busy;
      },
      () => this.#open(api),
    );
  }

  /** Runs a write in one `BEGIN IMMEDIATE` transaction, retrying while the database is busy. */
  async #write<T>(api: string, step: () => T, onTimeout: (busy: unknown) => never): Promise<T> {
    const write = this.#db.transaction(() => {
      this.#known.sync(this.#sql.dataVersion.get() as number);
      return step();
    });
    return retryWhileBusy(
      () => write.immediate(),
      this.#lockTimeoutMs,
      onTimeout,
      () => this.#open(api),
    );
  }

  /** Whether a row decodes (its columns and its memory), checked at most once per version. */
  #decodes(row: MetaRow): boolean {
    const key = row.session_id;
    if ('problems' in readRowMeta(row)) return false;
    if (this.#known.has(key)) return true;
    if ('problems' in decodeMemoryJson(this.#sql.selectMemory.get(key), 'heuristic')) return false;
    this.#known.add(key);
    return true;
  }

  /** What a save finds under `key`: a live session, a corrupt row, or nothing (or expired). */
  #current(key: string, now: number): Current {
    const row = this.#sql.selectMeta.get(key);
    if (row === undefined || this.#expired(row.updated_at, now)) return undefined;
    const meta = readRowMeta(row);
    if ('problems' in meta) return { problems: meta.problems };
    if (!this.#known.has(key)) {
      const memory = decodeMemoryJson(this.#sql.selectMemory.get(key), 'heuristic');
      if ('problems' in memory) return { problems: memory.problems };
      this.#known.add(key);
    }
    return { revision: meta.meta.revision, createdAt: meta.meta.createdAt };
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

  /** The revision check, the write and the re-index, in one transaction. */
  async #save(
    api: string,
    key: string,
    encoded: { json: string; state: MemoryState },
    expected: number | undefined,
  ): Promise<SavedSession> {
    const revision = await this.#write(
      api,
      () => {
        const now = this.#now();
        const current = this.#current(key, now);
        const live = current !== undefined && 'revision' in current ? current : undefined;
        checkExpectedRevision(key, expected, live?.revision ?? 0, `${API}.${api}`);
        if (current !== undefined && 'problems' in current) {
          this.#sql.moveAside.run(now, current.problems.join('\n'), key);
        }
        const next = (live?.revision ?? 0) + 1;
        const { json, state } = encoded;
        this.#sql.upsert.run(key, json, state.messages.length, live?.createdAt ?? now, now, next);
        if (this.#sql.fts !== undefined) indexSession(this.#sql.fts, key, state.messages, now);
        this.#known.add(key);
        return next;
      },
      (busy) => this.#gaveUp(api, key, expected, busy),
    );
    return Object.freeze({ revision });
  }

  /** A save that could not get the write lock in time: a conflict (nothing was written). */
  #gaveUp(api: string, key: string, expected: number | undefined, busy: unknown): never {
    let actual = 0;
    try {
      const row = this.#sql.selectMeta.get(key);
      if (row !== undefined && !this.#expired(row.updated_at, this.#now())) {
        const meta = readRowMeta(row);
        if ('meta' in meta) actual = meta.meta.revision;
      }
    } catch {
      // Still busy: report the revision as unknown (0).
    }
    const error = new SessionConflictError(`${API}.${api}`, key, expected ?? actual, actual);
    Object.defineProperty(error, 'cause', { value: busy, configurable: true, writable: true });
    throw error;
  }

  /** Deletes expired rows that nobody changed since they were read; skipped when busy. */
  #collect(rows: readonly MetaRow[]): void {
    try {
      this.#db
        .transaction(() => {
          for (const row of rows) {
            const gone = this.#sql.deleteIfUnchanged.run(
              row.session_id,
              row.revision,
              row.updated_at,
            );
            if (gone.changes === 0) continue;
            if (this.#sql.fts !== undefined) unindexSession(this.#sql.fts, row.session_id);
            this.#known.delete(row.session_id);
          }
        })
        .immediate();
    } catch (error) {
      // Garbage collection only: an expired row stays invisible until a later call removes it.
      if (!isBusyError(error)) throw error;
    }
  }

  async #load(api: string, key: string): Promise<LoadedSession | null> {
    const row = await this.#read(api, () => this.#sql.selectRow.get(key));
    if (row === undefined) return null;
    if (this.#expired(row.updated_at, this.#now())) {
      this.#collect([row]);
      return null;
    }
    const meta = readRowMeta(row);
    const memory = decodeMemoryJson(row.memory_json);
    if ('meta' in meta && 'state' in memory) {
      this.#known.add(key);
      return Object.freeze({
        state: memory.state,
        revision: meta.meta.revision,
        createdAt: meta.meta.createdAt,
        updatedAt: meta.meta.updatedAt,
      });
    }
    if ('meta' in meta && 'problems' in memory && memory.kind === 'tokenizer') {
      // Sound data whose tokenizer cannot count here: not corrupt, so not a SessionCorruptError.
      throw new MemoryDecodeError(`${API}.${api}`, memory.problems, { kind: 'tokenizer' });
    }
    const problems = [
      ...('problems' in meta ? meta.problems : []),
      ...('problems' in memory ? memory.problems : []),
    ];
    throw new SessionCorruptError(`${API}.${api}`, key, this.#location(key), problems, {
      cause: 'cause' in memory ? memory.cause : undefined,
    });
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    this.#open('save');
    const where = sessionKeyOf(sessionId, options, `${API}.save`);
    const expected = expectedRevisionOf(options, `${API}.save`);
    return this.#save('save', where.key, this.#encode('save', state), expected);
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    this.#open('load');
    const where = sessionKeyOf(sessionId, options, `${API}.load`);
    return this.#load('load', where.key);
  }

  async list(): Promise<readonly SessionMetadata[]> {
    this.#open('list');
    const now = this.#now();
    const expired: MetaRow[] = [];
    const listed = await this.#read('list', () => {
      const out: SessionMetadata[] = [];
      for (const row of this.#sql.selectAllMeta.all()) {
        if (this.#expired(row.updated_at, now)) {
          expired.push(row);
          continue;
        }
        if (!this.#decodes(row)) continue;
        out.push(
          Object.freeze({
            sessionId: row.session_id,
            messageCount: row.message_count as number,
            createdAt: row.created_at as number,
            updatedAt: row.updated_at as number,
          }),
        );
      }
      return out;
    });
    if (expired.length > 0) this.#collect(expired);
    return Object.freeze(listed.sort((a, b) => compareCodePoints(a.sessionId, b.sessionId)));
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    this.#open('delete');
    const { key } = sessionKeyOf(sessionId, options, `${API}.delete`);
    return this.#write(
      'delete',
      () => {
        const row = this.#sql.selectMeta.get(key);
        if (row === undefined) return false;
        this.#sql.deleteRow.run(key);
        if (this.#sql.fts !== undefined) unindexSession(this.#sql.fts, key);
        this.#known.delete(key);
        return !this.#expired(row.updated_at, this.#now());
      },
      (busy) => {
        throw busy;
      },
    );
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    this.#open('exists');
    const { key } = sessionKeyOf(sessionId, options, `${API}.exists`);
    const row = await this.#read('exists', () => this.#sql.selectMeta.get(key));
    return row !== undefined && !this.#expired(row.updated_at, this.#now());
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    this.#open('branch');
    const source = sessionKeyOf(sourceId, options, `${API}.branch`);
    const target = sessionKeyOf(newId, options, `${API}.branch`);
    const expected = expectedRevisionOf(options, `${API}.branch`);
    const loaded = await this.#load('branch', source.key);
    if (loaded === null) {
      throw new MemoryArgumentError(
        `${API}.branch`,
        `session ${JSON.stringify(source.key)} not found`,
      );
    }
    return this.#save('branch', target.key, this.#encode('branch', loaded.state), expected);
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    this.#open('search');
    const terms = searchTerms(query);
    const limit = searchLimitOf(options?.limit);
    const namespace = namespaceOf(options?.namespace, `${API}.search`);
    if (terms.length === 0 || limit <= 0) return Object.freeze([]);
    const now = this.#now();
    const prefix = namespace === undefined ? undefined : `${namespace}:`;
    /** The id to report for a session, or `undefined` when it is expired or elsewhere. */
    const visible = (key: string, updatedAt: unknown): string | undefined => {
      if (!isTime(updatedAt) || this.#expired(updatedAt, now)) return undefined;
      if (prefix === undefined) return key;
      return key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
    };
    const fts = this.#sql.fts;
    if (fts === undefined) {
      const scanned = await this.#read('search', () =>
        scanSessions(this.#sql.selectAllRows.iterate(), terms, (row) =>
          'problems' in readRowMeta(row) ? undefined : visible(row.session_id, row.updated_at),
        ),
      );
      return Object.freeze(rankSearchResults(scanned, limit).map(frozenHit));
    }
    // The reference's lazy backfill, only when some row is not indexed (or indexed before it changed).
    if ((await this.#read('search', () => fts.selectStale.get())) !== undefined) {
      await this.#write(
        'search',
        () => {
          for (const key of backfillIndex(fts, now)) this.#known.add(key);
        },
        (busy) => {
          throw busy;
        },
      );
    }
    const found = await this.#read('search', () => {
      const candidates = scoreMatches(fts.match.iterate(matchExpression(terms)), terms, (row) =>
        visible(row.key, row.updated_at),
      );
      const out: SessionSearchResult[] = [];
      for (const hit of rankSearchResults(candidates, candidates.length)) {
        if (out.length >= limit) break;
        const row = this.#sql.selectMeta.get((hit as FtsCandidate).key);
        if (row !== undefined && this.#decodes(row)) out.push(frozenHit(hit));
      }
      return out;
    });
    return Object.freeze(found);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
