import type BetterSqlite3 from 'better-sqlite3';
import { type MemoryDecodeError, type RemovedCount } from 'conversation-memory';
import {
  checkKnowledgeOptions,
  checkKnowledgeRevision,
  KnowledgeConflictError,
  KnowledgeCorruptError,
  type KnowledgeEntry,
  type KnowledgeListing,
  type KnowledgeSaveOptions,
  type KnowledgeStamp,
  type KnowledgeState,
  type KnowledgeStore,
  type KnowledgeStoreOptions,
  knowledgeStateToSave,
  listNamespace,
  type LoadedKnowledge,
  type SavedKnowledge,
} from 'conversation-memory/knowledge';
import {
  compareCodePoints,
  expectedRevisionOf,
  isSessionExpired,
  namespaceKeys,
  namespaceOf,
  namespaceToDeleteOf,
  sessionAddressOf,
  sessionKeyOf,
} from 'conversation-memory/store-kit';
import type { either as E } from 'fp-ts';
import type { StoreCalls } from '../storeCalls';
import { type SqliteStorePlace, sqliteStoreCalls } from './failurePlace';
import { rethrowBusy, retryWhileBusy } from './busyRetry';
import { openDatabase } from './connection';
import {
  type KnowledgeStatements,
  prepareKnowledgeStatements,
  readKnowledgeRow,
  readRevisionColumn,
} from './knowledgeStatements';
import { prepareKnowledgeSchema } from './schema';
import { readSqliteReferenceEntries } from './knowledgeReference';
import { readKnowledgeStoreOptions, type SqliteKnowledgeStoreOptions } from './options';
import type { StoreExpiry } from './options';
import {
  deleteKnowledgeNamespace,
  type KnowledgeRetention,
  sweepKnowledge,
} from './knowledgeRetention';

const API = 'SqliteKnowledgeStore';

export type { SqliteKnowledgeStoreOptions } from './options';

/**
 * A {@link KnowledgeStore} in a SQLite file (better-sqlite3 12.x, an optional peer), shared by
 * any number of processes: table `knowledge_states(key, state_json, revision, updated_at)`, one
 * row per storage key (`ns:id`), WAL mode. Every save is one `BEGIN IMMEDIATE` transaction (the
 * revision check and the write), so writers never lose an update; a stale `expectedRevision`
 * rejects with `KnowledgeConflictError`, and so does a write that waited `lockTimeoutMs` for
 * another connection's lock (never `SQLITE_BUSY`). A row that does not decode makes `load`
 * reject with `KnowledgeCorruptError` naming its key; `list` skips it; a save or delete over it
 * first copies it into `knowledge_states_corrupt`: nothing damaged is deleted without a copy, but
 * by `sweep()` and `deleteNamespace()`, which keep nothing (the latter removes the namespace's
 * copies too). With `defaultTtl`, a record expires that many seconds after its last save (its
 * `updated_at`): absent to `load`, `list` and `delete`, at revision 0 for a save; `sweep()`
 * removes the expired records, `SWEEP_BATCH` a transaction.
 *
 * The same file may hold the reference's `knowledge` table (selectools' `SQLiteKnowledgeStore`
 * entries): {@link SqliteKnowledgeStore.readReferenceEntries} reads it as `KnowledgeEntry` facts;
 * the store never writes it.
 *
 * @example
 * ```ts
 * import { SqliteKnowledgeStore } from 'conversation-memory/node';
 *
 * const store = new SqliteKnowledgeStore({ path: 'knowledge.db' });
 * const loaded = await store.load('user-42', { namespace: 'acme' });
 * await store.save('user-42', next, { namespace: 'acme', expectedRevision: loaded?.revision ?? 0 });
 * await store.close();
 * ```
 */
export class SqliteKnowledgeStore implements KnowledgeStore {
  readonly #db: BetterSqlite3.Database;
  readonly #sql: KnowledgeStatements;
  readonly #path: string;
  readonly #lockTimeoutMs: number;
  readonly #expiry: StoreExpiry;
  readonly #calls: StoreCalls;

  constructor(options: SqliteKnowledgeStoreOptions) {
    const { path, lockTimeoutMs, expiry } = readKnowledgeStoreOptions(options, API);
    this.#path = path;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#expiry = expiry;
    const place: SqliteStorePlace = {
      store: API,
      path,
      label: 'knowledge database',
      corrupt: (api, key, problem, cause) =>
        new KnowledgeCorruptError(api, key, this.#location(key), [problem], { cause }),
    };
    this.#calls = sqliteStoreCalls(place);
    const { db, prepared } = openDatabase(path, lockTimeoutMs, place, (db) => {
      prepareKnowledgeSchema(db, path === ':memory:');
      return prepareKnowledgeStatements(db);
    });
    this.#db = db;
    this.#sql = prepared;
  }

  #location(key: string): string {
    return `sqlite:${this.#path}#${key}`;
  }

  /** Whether a row saved at `updatedAt` has expired at `now` (never without a TTL or a time). */
  #expired(updatedAt: unknown, now: number): boolean {
    return (
      typeof updatedAt === 'number' &&
      Number.isFinite(updatedAt) &&
      isSessionExpired(updatedAt, this.#expiry.ttl, now)
    );
  }

  #retention(stillOpen: () => void): KnowledgeRetention {
    const expired = (updatedAt: unknown, now: number) => this.#expired(updatedAt, now);
    const [db, sql, expiry, lockTimeoutMs] = [
      this.#db,
      this.#sql,
      this.#expiry,
      this.#lockTimeoutMs,
    ];
    return { db, sql, expiry, expired, lockTimeoutMs, stillOpen };
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    return this.#calls.run('load', { id, options }, async ({ api, stillOpen }) => {
      checkKnowledgeOptions(options, 'load', api);
      const { key } = sessionKeyOf(id, options, api);
      const row = await retryWhileBusy(
        () => this.#sql.select.get(key),
        this.#lockTimeoutMs,
        rethrowBusy,
        stillOpen,
      );
      if (row === undefined || this.#expired(row.updated_at, this.#expiry.now())) return null;
      const read = readKnowledgeRow(row);
      if ('problems' in read) {
        throw new KnowledgeCorruptError(api, key, this.#location(key), read.problems);
      }
      return Object.freeze({ state: read.state, revision: read.revision });
    });
  }

  async stamp(id: string, options?: KnowledgeStoreOptions): Promise<KnowledgeStamp | null> {
    return this.#calls.run('stamp', { id, options }, async ({ api, stillOpen }) => {
      checkKnowledgeOptions(options, 'load', api);
      const { key } = sessionKeyOf(id, options, api);
      const row = await retryWhileBusy(
        () => this.#sql.selectStamp.get(key),
        this.#lockTimeoutMs,
        rethrowBusy,
        stillOpen,
      );
      if (row === undefined || this.#expired(row.updated_at, this.#expiry.now())) return null;
      const read = readRevisionColumn(row.revision);
      if ('problems' in read) {
        throw new KnowledgeCorruptError(api, key, this.#location(key), read.problems);
      }
      return Object.freeze({ revision: read.revision, savedAt: Number(row.updated_at) });
    });
  }

  async save(
    id: string,
    state: KnowledgeState,
    options?: KnowledgeSaveOptions,
  ): Promise<SavedKnowledge> {
    return this.#calls.write('save', { id, options }, async ({ api, stillOpen }) => {
      checkKnowledgeOptions(options, 'save', api);
      const { key } = sessionKeyOf(id, options, api);
      const expected = expectedRevisionOf(options, api);
      const json = JSON.stringify(knowledgeStateToSave(state, api));
      const write = this.#db.transaction((): number => {
        const now = this.#expiry.now();
        const row = this.#sql.select.get(key);
        const read = row === undefined ? undefined : readKnowledgeRow(row);
        // An expired record is absent: the save starts a new one (a damaged one is kept aside).
        const live = row !== undefined && !this.#expired(row.updated_at, now);
        const actual = live && read !== undefined && 'revision' in read ? read.revision : 0;
        checkKnowledgeRevision(key, expected, actual, api);
        if (read !== undefined && 'problems' in read) {
          this.#sql.moveAside.run(now, read.problems.join('\n'), key);
        }
        this.#sql.upsert.run(key, json, actual + 1, now);
        return actual + 1;
      });
      const revision = await retryWhileBusy(
        () => write.immediate(),
        this.#lockTimeoutMs,
        (busy) => {
          throw new KnowledgeConflictError(
            api,
            key,
            expected ?? 0,
            expected ?? 0,
            "another writer kept the database locked for longer than the store's lockTimeoutMs",
            { cause: busy },
          );
        },
        stillOpen,
      );
      return Object.freeze({ revision });
    });
  }

  async delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean> {
    return this.#calls.write('delete', { id, options }, async ({ api, stillOpen }) => {
      checkKnowledgeOptions(options, 'delete', api);
      const { key } = sessionKeyOf(id, options, api);
      const remove = this.#db.transaction((): boolean => {
        const row = this.#sql.select.get(key);
        if (row === undefined) return false;
        const now = this.#expiry.now();
        const read = readKnowledgeRow(row);
        if ('problems' in read) this.#sql.moveAside.run(now, read.problems.join('\n'), key);
        this.#sql.remove.run(key);
        // An expired record was not there to delete (its row is removed all the same).
        return !this.#expired(row.updated_at, now);
      });
      return retryWhileBusy(() => remove.immediate(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
    });
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    return this.#calls.run('list', {}, async ({ api, stillOpen }) => {
      checkKnowledgeOptions(options, 'list', api);
      const namespace = namespaceOf(listNamespace(options, api), api);
      const keys = namespaceKeys(namespace);
      const rows = await retryWhileBusy(
        () => this.#sql.selectAll.all(),
        this.#lockTimeoutMs,
        rethrowBusy,
        stillOpen,
      );
      const now = this.#expiry.now();
      const out: KnowledgeListing[] = [];
      for (const row of rows) {
        if (typeof row.key !== 'string' || !keys.includes(row.key)) continue;
        if (this.#expired(row.updated_at, now)) continue;
        const read = readKnowledgeRow(row);
        if ('problems' in read) continue;
        out.push(
          Object.freeze({ key: row.key, ...sessionAddressOf(row.key), revision: read.revision }),
        );
      }
      return Object.freeze(out.sort((a, b) => compareCodePoints(a.key, b.key)));
    });
  }

  /**
   * Reads the reference's `knowledge` table in this file (selectools' `SQLiteKnowledgeStore`:
   * `id, content, category, importance, persistent, ttl_days, created_at, updated_at, metadata`)
   * as `KnowledgeEntry` facts, in insertion order, as `readReferenceKnowledgeRecord` reads each row
   * (`persistent` 0/1 as a boolean, `metadata` JSON text, ISO timestamps). A file without the
   * table has none. Put them into a state with the knowledge reducers (or as its `entries`,
   * `nextId` unchanged: their ids are the reference's uuids).
   *
   * @returns `Right(entries)`, or `Left(MemoryDecodeError)` whose problems name each bad row by
   *   its number and id
   * @example
   * ```ts
   * const store = new SqliteKnowledgeStore({ path: 'knowledge.db' }); // the reference's file
   * const read = await store.readReferenceEntries();
   * if (read._tag === 'Right') console.log(read.right.map((entry) => entry.content));
   * ```
   */
  async readReferenceEntries(): Promise<E.Either<MemoryDecodeError, readonly KnowledgeEntry[]>> {
    return this.#calls.run('readReferenceEntries', {}, async ({ api, stillOpen }) => {
      const read = this.#db.transaction(() => readSqliteReferenceEntries(this.#db, api));
      return retryWhileBusy(() => read.deferred(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
    });
  }

  /**
   * How many damaged rows saves and deletes copied into `knowledge_states_corrupt` (kept for
   * inspection; delete them with your SQLite client when done).
   *
   * @example
   * ```ts
   * await store.asideCount(); // 0
   * ```
   */
  async asideCount(): Promise<number> {
    this.#calls.open('asideCount');
    return this.#sql.asideCount.get()?.n ?? 0;
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async ({ stillOpen }) =>
      Object.freeze({ removed: await sweepKnowledge(this.#retention(stillOpen)) }),
    );
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async ({ api, stillOpen }) => {
      const { prefix } = namespaceKeys(namespaceToDeleteOf(namespace, api));
      const removed = await deleteKnowledgeNamespace(this.#retention(stillOpen), prefix);
      return Object.freeze({ removed });
    });
  }

  async close(): Promise<void> {
    if (this.#calls.close()) this.#db.close();
  }
}
