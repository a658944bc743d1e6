import {
  isConversationMemoryError,
  type RemovedCount,
  type LoadedSession,
  MemoryArgumentError,
  type MemoryState,
  type SaveOptions,
  type SavedSession,
  type SearchOptions,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  toDict,
} from 'conversation-memory';
import {
  checkSessionOptions,
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  isSessionExpired,
  namespaceOf,
  namespaceToDeleteOf,
  searchLimitOf,
  searchTerms,
  sessionAddressOf,
  type SessionKey,
  sessionKeyOf,
  type StoreCall,
} from 'conversation-memory/store-kit';
import { naming } from '../environmentFailure';
import { PostgresConnection } from './connection';
import { type PostgresSessionStoreOptions, readSessionStoreOptions } from './options';
import { loadedFromRow, readMemoryJson, readSessionRowMeta } from './sessionRow';
import { type SessionContent, savePostgresRow } from './sessionSave';
import { searchSessions, sessionSearchText } from './sessionSearch';
import {
  deleteRowNamespace,
  type RowRetentionStatements,
  rowRetentionStatements,
  sweepRows,
} from './rowRetention';
import { SESSION_SCHEMA, type SessionStatements, sessionStatements } from './sessionStatements';
import { StoreCalls } from '../storeCalls';

export { DEFAULT_POSTGRES_SCHEMA } from './options';
export type { PostgresConnectionOptions, PostgresSessionStoreOptions } from './options';
export type { PostgresPool, PostgresPoolClient, PostgresQuery, PostgresResult } from './pool';

const API = 'PostgresSessionStore';

/**
 * A {@link SessionStore} on PostgreSQL (node-postgres `pg` 8.11 or later 8.x, an optional peer
 * loaded only when the store makes its own pool), shared by any number of processes.
 *
 * Give it your `pg.Pool` as `pool` (the store uses it and never ends it) or a `connectionString`
 * (the store makes its own pool, ended by `close()`). Its tables live in `schema` (default
 * `conversation_memory`), made on first use in one transaction under an advisory lock, so
 * processes that start at once all succeed; `schema_versions` records their version.
 *
 * One row per session, keyed by the kit's injective storage key (`ns:id`), with the `toDict` JSON
 * and a digest of it. Every save is one statement (`INSERT … ON CONFLICT DO UPDATE … WHERE` the
 * revision matches, or a conditional `UPDATE`): a stale `expectedRevision` rejects with
 * `SessionConflictError` and writes nothing, and of concurrent savers exactly one wins. A row
 * whose memory this store did not write is decoded before a save replaces it; one that does not
 * decode makes `load` reject with `SessionCorruptError`, is skipped by `list` and `search`,
 * reported by `exists`, and is copied into `sessions_corrupt` by the save or delete that meets
 * it. The TTL is the reference's sliding TTL, by the store's clock: an expired session is absent
 * everywhere, and the next save over it starts again at revision 1.
 *
 * `search` finds candidates with PostgreSQL full-text search (a GIN index of `to_tsvector`) and
 * scores them as the reference's scan does, so terms match whole words. A server that cannot be
 * reached, or a connection lost mid-call, fails the call with `StoreUnavailableError`
 * (`mayHaveWritten` when a write may have committed).
 *
 * `sweep()` removes the expired sessions and `deleteNamespace(namespace)` a namespace's sessions
 * and their `sessions_corrupt` copies, each `SWEEP_BATCH` rows a statement (a transaction).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PostgresSessionStore } from 'conversation-memory/node';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = new PostgresSessionStore({ pool, defaultTtl: 86_400 });
 * const loaded = await store.load('thread-7', { namespace: 'user-42' });
 * await store.save('thread-7', next, { namespace: 'user-42', expectedRevision: loaded?.revision ?? 0 });
 * await store.close(); // the pool stays open: it is yours
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  /** The schema the store's tables are in. */
  readonly schema: string;
  readonly #connection: PostgresConnection;
  readonly #sql: SessionStatements;
  readonly #retention: RowRetentionStatements;
  readonly #ttl: number | undefined;
  readonly #clock: () => number;
  /** The closed-store guard and each call's name (failures are already ours: `postgresFailure`). */
  readonly #calls = new StoreCalls(API, (error) => error);

  constructor(options: PostgresSessionStoreOptions) {
    const settings = readSessionStoreOptions(options, API);
    this.#connection = new PostgresConnection(settings, API);
    this.schema = settings.schema;
    this.#sql = sessionStatements(this.#connection.quotedSchema);
    this.#retention = rowRetentionStatements(this.#connection.quotedSchema, {
      table: 'sessions',
      key: 'session_key',
      aside: 'sessions_corrupt',
    });
    this.#ttl = settings.ttl;
    this.#clock = settings.now;
  }

  /** The tables, made on first use; then `stillOpen` again (the wait may have seen a close). */
  async #ready(call: StoreCall): Promise<void> {
    await this.#connection.ready(SESSION_SCHEMA, call.api);
    call.stillOpen();
  }

  #expired(updatedAt: number, now: number): boolean {
    return isSessionExpired(updatedAt, this.#ttl, now);
  }

  #location(key: string): string {
    return `postgres:${this.schema}.sessions#${key}`;
  }

  #content(api: string, state: unknown): SessionContent {
    try {
      const typed = state as MemoryState;
      const json = JSON.stringify(toDict(typed));
      return { json, messageCount: typed.messages.length, searchText: sessionSearchText(typed) };
    } catch (error) {
      if (isConversationMemoryError(error) && error.code === 'CM_ARGUMENT') {
        throw new MemoryArgumentError(api, error.detail, { cause: error });
      }
      throw error;
    }
  }

  async #save(call: StoreCall, where: SessionKey, state: unknown, options: unknown) {
    const expected = expectedRevisionOf(options, call.api);
    const content = this.#content(call.api, state);
    await this.#ready(call);
    const context = {
      connection: this.#connection,
      sql: this.#sql,
      ttl: this.#ttl,
      now: () => this.#clock(),
    };
    const revision = await savePostgresRow(context, where, content, expected, call.api);
    return Object.freeze({ revision });
  }

  async #load(call: StoreCall, where: SessionKey): Promise<LoadedSession | null> {
    await this.#ready(call);
    const [row] = await this.#connection.query(call.api, false, this.#sql.selectRow, [where.key]);
    if (row === undefined) return null;
    const loaded = loadedFromRow(row, call.api, this.#location(where.key));
    return this.#expired(loaded.updatedAt, this.#clock()) ? null : loaded;
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    return naming(sessionId, async () => {
      const call = this.#calls.open('save');
      checkSessionOptions(options, 'save', call.api);
      return this.#save(call, sessionKeyOf(sessionId, options, call.api), state, options);
    });
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    return naming(sessionId, async () => {
      const call = this.#calls.open('load');
      checkSessionOptions(options, 'load', call.api);
      return this.#load(call, sessionKeyOf(sessionId, options, call.api));
    });
  }

  async list(): Promise<readonly SessionMetadata[]> {
    const call = this.#calls.open('list');
    await this.#ready(call);
    const rows = await this.#connection.query(call.api, false, this.#sql.selectLive, [
      this.#clock(),
      this.#ttl ?? null,
    ]);
    const out: SessionMetadata[] = [];
    for (const row of rows) {
      const read = readSessionRowMeta(row);
      if (!('meta' in read)) continue;
      // A memory this store did not write is decoded before it is listed.
      const unverified = row['unverified'];
      if (unverified !== null && !('state' in readMemoryJson(unverified, 'heuristic'))) continue;
      const { key, messageCount, createdAt, updatedAt } = read.meta;
      out.push(
        Object.freeze({
          sessionId: key,
          ...sessionAddressOf(key),
          messageCount,
          createdAt,
          updatedAt,
        }),
      );
    }
    return Object.freeze(out.sort((a, b) => compareCodePoints(a.sessionId, b.sessionId)));
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return naming(sessionId, async () => {
      const call = this.#calls.open('delete');
      checkSessionOptions(options, 'delete', call.api);
      const where = sessionKeyOf(sessionId, options, call.api);
      await this.#ready(call);
      const now = this.#clock();
      const [gone] = await this.#connection.query(call.api, true, this.#sql.delete, [
        where.key,
        now,
      ]);
      if (gone === undefined) return false;
      const updatedAt = Number(gone['updated_at']);
      return !(Number.isFinite(updatedAt) && this.#expired(updatedAt, now));
    });
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return naming(sessionId, async () => {
      const call = this.#calls.open('exists');
      checkSessionOptions(options, 'exists', call.api);
      const where = sessionKeyOf(sessionId, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, false, this.#sql.selectUpdatedAt, [
        where.key,
      ]);
      if (row === undefined) return false;
      // A damaged row exists (a save of it would move it aside); an expired one does not.
      const updatedAt = Number(row['updated_at']);
      return !(Number.isFinite(updatedAt) && this.#expired(updatedAt, this.#clock()));
    });
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    return naming(newId, async () => {
      const call = this.#calls.open('branch');
      checkSessionOptions(options, 'branch', call.api);
      const source = sessionKeyOf(sourceId, options, call.api);
      const target = sessionKeyOf(newId, options, call.api);
      expectedRevisionOf(options, call.api);
      const loaded = await this.#load(call, source);
      if (loaded === null) {
        throw new MemoryArgumentError(call.api, `session ${describeValue(source.key)} not found`);
      }
      return this.#save(call, target, loaded.state, options);
    });
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    const call = this.#calls.open('search');
    // Read once: the search sees the copy.
    const given = checkSessionOptions(options, 'search', call.api);
    const terms = searchTerms(query);
    const limit = searchLimitOf(given.limit);
    const namespace = namespaceOf(given.namespace, call.api);
    if (terms.length === 0 || limit <= 0) return Object.freeze([]);
    await this.#ready(call);
    const search = { terms, limit, namespace, now: this.#clock(), ttl: this.#ttl };
    return searchSessions(this.#connection, this.#sql, search, call.api);
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) => {
      await this.#ready(call);
      const removed = await sweepRows(
        this.#connection,
        this.#retention,
        call.api,
        this.#ttl,
        this.#clock(),
      );
      return Object.freeze({ removed });
    });
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      await this.#ready(call);
      const removed = await deleteRowNamespace(
        this.#connection,
        this.#retention,
        call.api,
        checked,
      );
      return Object.freeze({ removed });
    });
  }

  /**
   * How many damaged rows saves and deletes have moved to the `sessions_corrupt` table (kept for
   * inspection: delete them with your SQL client when done).
   *
   * @example
   * ```ts
   * await store.asideCount(); // 0
   * ```
   */
  async asideCount(): Promise<number> {
    const call = this.#calls.open('asideCount');
    await this.#ready(call);
    const [row] = await this.#connection.query(call.api, false, this.#sql.countAside, []);
    return Number(row?.['n'] ?? 0);
  }

  /** Ends the pool the store made from `connectionString`; a pool given as `pool` stays open. */
  async close(): Promise<void> {
    if (!this.#calls.close()) return;
    await this.#connection.close();
  }
}
