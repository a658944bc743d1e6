import {
  checkKnowledgeOptions,
  KnowledgeConflictError,
  KnowledgeCorruptError,
  type KnowledgeListing,
  type KnowledgeSaveOptions,
  type KnowledgeStamp,
  type KnowledgeState,
  type KnowledgeStore,
  type KnowledgeStoreOptions,
  type LoadedKnowledge,
  type SavedKnowledge,
} from 'conversation-memory/knowledge';
import type { RemovedCount } from 'conversation-memory';
import {
  checkKnowledgeRevision,
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  isSessionExpired,
  knowledgeStateToSave,
  listNamespace,
  namespaceOf,
  namespaceToDeleteOf,
  readKnowledgeJson,
  sessionAddressOf,
  type SessionKey,
  sessionKeyOf,
  type StoreCall,
} from 'conversation-memory/store-kit';
import { naming } from '../environmentFailure';
import { PostgresConnection, type PostgresRow } from './connection';
import {
  KNOWLEDGE_SCHEMA,
  type KnowledgeStatements,
  knowledgeStatements,
} from './knowledgeStatements';
import { type PostgresKnowledgeStoreOptions, readKnowledgeStoreOptions } from './options';
import { readRowAddress } from './rowAddress';
import {
  deleteRowNamespace,
  type RowRetentionStatements,
  rowRetentionStatements,
  sweepRows,
} from './rowRetention';
import { StoreCalls } from '../storeCalls';

export type { PostgresKnowledgeStoreOptions } from './options';

const API = 'PostgresKnowledgeStore';

/** Rounds of a save overtaken by other writers, or meeting a row changed by another program. */
const ROUNDS = 10;

const revisionOf = (value: unknown): number | undefined => {
  const revision = typeof value === 'string' && /^\d+$/u.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(revision) && revision >= 1 ? revision : undefined;
};

/** A knowledge row's address, when its key, id and namespace columns agree. */
const addressOf = (row: PostgresRow) =>
  readRowAddress(row['record_key'], row['record_id'], row['namespace']);

/**
 * A {@link KnowledgeStore} on PostgreSQL (node-postgres `pg` 8.11 or later 8.x, an optional peer
 * loaded only when the store makes its own pool). Options as on `PostgresSessionStore`: `pool`
 * (yours, never ended by the store) or `connectionString` (its own pool, ended by `close()`), and
 * `schema` (default `conversation_memory`; the tables are made on first use).
 *
 * One row per record in `knowledge`, keyed by the kit's injective storage key, with the state's
 * JSON and a digest of it. A save is one statement (`INSERT … ON CONFLICT DO UPDATE … WHERE`, or
 * a conditional `UPDATE`): a stale `expectedRevision` rejects with `KnowledgeConflictError` and
 * writes nothing. A record that does not decode makes `load` reject with `KnowledgeCorruptError`,
 * is skipped by `list`, counts as absent for `expectedRevision`, and is copied into
 * `knowledge_corrupt` by the save or delete that meets it. With `defaultTtl`, a record more than
 * that many seconds after its last save (by the store's `now`) is absent everywhere, the next save
 * starts it again at revision 1, and `sweep()` removes it; `deleteNamespace` removes a namespace.
 *
 * @example
 * ```ts
 * import { PostgresKnowledgeStore } from 'conversation-memory/node';
 *
 * const store = new PostgresKnowledgeStore({ pool });
 * const loaded = await store.load('user-42');
 * await store.save('user-42', next, { expectedRevision: loaded?.revision ?? 0 });
 * await store.close();
 * ```
 */
export class PostgresKnowledgeStore implements KnowledgeStore {
  /** The schema the store's tables are in. */
  readonly schema: string;
  readonly #connection: PostgresConnection;
  readonly #sql: KnowledgeStatements;
  readonly #retention: RowRetentionStatements;
  readonly #ttl: number | undefined;
  readonly #clock: () => number;
  /** The closed-store guard and each call's name (failures are already ours: `postgresFailure`). */
  readonly #calls = new StoreCalls(API, (error) => error);

  constructor(options: PostgresKnowledgeStoreOptions) {
    const settings = readKnowledgeStoreOptions(options, API);
    this.#connection = new PostgresConnection(settings, API);
    this.schema = settings.schema;
    this.#sql = knowledgeStatements(this.#connection.quotedSchema);
    this.#retention = rowRetentionStatements(this.#connection.quotedSchema, {
      table: 'knowledge',
      key: 'record_key',
      aside: 'knowledge_corrupt',
    });
    this.#ttl = settings.ttl;
    this.#clock = settings.now;
  }

  /** Whether a row last saved at `updatedAt` (the column's text) has expired by `now`. */
  #expired(updatedAt: unknown, now: number): boolean {
    const at = Number(updatedAt);
    return Number.isFinite(at) && isSessionExpired(at, this.#ttl, now);
  }

  async #ready(call: StoreCall): Promise<void> {
    await this.#connection.ready(KNOWLEDGE_SCHEMA, call.api);
    call.stillOpen();
  }

  /** Where a record is, for `KnowledgeCorruptError`. */
  #location(key: string): string {
    return `postgres:${this.schema}.knowledge#${key}`;
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    return naming(id, async () => {
      const call = this.#calls.open('load');
      checkKnowledgeOptions(options, 'load', call.api);
      const { key } = sessionKeyOf(id, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, false, this.#sql.selectRow, [key]);
      if (row === undefined || this.#expired(row['updated_at'], this.#clock())) return null;
      const read = readKnowledgeJson(row['state_json']);
      const revision = revisionOf(row['revision']);
      const problems = [
        ...('problems' in read ? read.problems : []),
        ...(revision === undefined ? ['revision: expected an integer ≥ 1'] : []),
        ...(addressOf(row) === undefined
          ? ['record_id, namespace: not the record of its key']
          : []),
      ];
      if (!('state' in read) || problems.length > 0) {
        throw new KnowledgeCorruptError(call.api, key, this.#location(key), problems);
      }
      return Object.freeze({ state: read.state, revision: revision as number });
    });
  }

  async stamp(id: string, options?: KnowledgeStoreOptions): Promise<KnowledgeStamp | null> {
    return naming(id, async () => {
      const call = this.#calls.open('stamp');
      checkKnowledgeOptions(options, 'load', call.api);
      const { key } = sessionKeyOf(id, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, false, this.#sql.selectStamp, [key]);
      if (row === undefined || this.#expired(row['updated_at'], this.#clock())) return null;
      const revision = revisionOf(row['revision']);
      if (revision === undefined) {
        throw new KnowledgeCorruptError(call.api, key, this.#location(key), [
          `revision: expected an integer ≥ 1, got ${describeValue(row['revision'])}`,
        ]);
      }
      return Object.freeze({ revision, savedAt: Number(row['updated_at']) });
    });
  }

  async save(
    id: string,
    state: KnowledgeState,
    options?: KnowledgeSaveOptions,
  ): Promise<SavedKnowledge> {
    return naming(id, async () => {
      const call = this.#calls.open('save');
      checkKnowledgeOptions(options, 'save', call.api);
      const where = sessionKeyOf(id, options, call.api);
      const expected = expectedRevisionOf(options, call.api);
      const json = JSON.stringify(knowledgeStateToSave(state, call.api));
      await this.#ready(call);
      return Object.freeze({ revision: await this.#save(call.api, where, json, expected) });
    });
  }

  /** One statement per round; a row changed by another program is decoded, then adopted or set aside. */
  async #save(api: string, where: SessionKey, json: string, expected: number | undefined) {
    const statement =
      expected === undefined || expected === 0 ? this.#sql.upsert : this.#sql.update;
    for (let round = 0; round < ROUNDS; round++) {
      const now = this.#clock();
      const values = [where.key, where.namespace ?? null, where.id, json, now, expected ?? null];
      const [written] = await this.#connection.query(api, true, statement, [
        ...values,
        this.#ttl ?? null,
      ]);
      const revision = revisionOf(written?.['revision']);
      if (revision !== undefined) return revision;
      const [row] = await this.#connection.query(api, false, this.#sql.selectRow, [where.key]);
      if (row === undefined) {
        checkKnowledgeRevision(where.key, expected, 0, api);
        continue; // deleted since: try again
      }
      if (row['sound'] !== 't') {
        const stored = row['state_json'];
        const sound = 'state' in readKnowledgeJson(stored);
        const text = sound ? this.#sql.adopt : this.#sql.setAside;
        await this.#connection.query(
          api,
          true,
          text,
          sound ? [where.key, stored] : [where.key, stored, now],
        );
        continue;
      }
      const live = !this.#expired(row['updated_at'], this.#clock());
      checkKnowledgeRevision(
        where.key,
        expected,
        live ? (revisionOf(row['revision']) ?? 0) : 0,
        api,
      );
    }
    throw new KnowledgeConflictError(api, where.key, expected ?? 0, expected ?? 0);
  }

  async delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean> {
    return naming(id, async () => {
      const call = this.#calls.open('delete');
      checkKnowledgeOptions(options, 'delete', call.api);
      const { key } = sessionKeyOf(id, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, true, this.#sql.delete, [
        key,
        this.#clock(),
        this.#ttl ?? null,
      ]);
      return Number(row?.['n']) > 0;
    });
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    const call = this.#calls.open('list');
    checkKnowledgeOptions(options, 'list', call.api);
    const namespace = namespaceOf(listNamespace(options, call.api), call.api);
    await this.#ready(call);
    const rows = await this.#connection.query(call.api, false, this.#sql.list, [
      namespace ?? null,
      this.#clock(),
      this.#ttl ?? null,
    ]);
    const out: KnowledgeListing[] = [];
    for (const row of rows) {
      const address = addressOf(row);
      const revision = revisionOf(row['revision']);
      if (address === undefined || revision === undefined) continue;
      const unverified = row['unverified'];
      if (unverified !== null && !('state' in readKnowledgeJson(unverified))) continue;
      out.push(Object.freeze({ key: address.key, ...sessionAddressOf(address.key), revision }));
    }
    return Object.freeze(out.sort((a, b) => compareCodePoints(a.key, b.key)));
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) => {
      await this.#ready(call);
      const { api } = call;
      const ttl = this.#ttl;
      const removed = await sweepRows(this.#connection, this.#retention, api, ttl, this.#clock());
      return Object.freeze({ removed });
    });
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      await this.#ready(call);
      const { api } = call;
      const removed = await deleteRowNamespace(this.#connection, this.#retention, api, checked);
      return Object.freeze({ removed });
    });
  }

  /**
   * How many damaged records saves and deletes have moved to `knowledge_corrupt` (kept for
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
