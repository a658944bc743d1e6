import {
  checkKnowledgeOptions,
  KnowledgeConflictError,
  KnowledgeCorruptError,
  type KnowledgeListing,
  type KnowledgeSaveOptions,
  type KnowledgeState,
  type KnowledgeStore,
  type KnowledgeStoreOptions,
  type LoadedKnowledge,
  type SavedKnowledge,
} from 'conversation-memory/knowledge';
import {
  checkKnowledgeRevision,
  compareCodePoints,
  expectedRevisionOf,
  knowledgeStateToSave,
  listNamespace,
  namespaceOf,
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
 * `knowledge_corrupt` by the save or delete that meets it.
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
  /** The closed-store guard and each call's name (failures are already ours: `postgresFailure`). */
  readonly #calls = new StoreCalls(API, (error) => error);

  constructor(options: PostgresKnowledgeStoreOptions) {
    const settings = readKnowledgeStoreOptions(options, API);
    this.#connection = new PostgresConnection(settings, API);
    this.schema = settings.schema;
    this.#sql = knowledgeStatements(this.#connection.quotedSchema);
  }

  async #ready(call: StoreCall): Promise<void> {
    await this.#connection.ready(KNOWLEDGE_SCHEMA, call.api);
    call.stillOpen();
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    return naming(id, async () => {
      const call = this.#calls.open('load');
      checkKnowledgeOptions(options, 'load', call.api);
      const { key } = sessionKeyOf(id, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, false, this.#sql.selectRow, [key]);
      if (row === undefined) return null;
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
        throw new KnowledgeCorruptError(
          call.api,
          key,
          `postgres:${this.schema}.knowledge#${key}`,
          problems,
        );
      }
      return Object.freeze({ state: read.state, revision: revision as number });
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
    const values = [
      where.key,
      where.namespace ?? null,
      where.id,
      json,
      Date.now() / 1000,
      expected ?? null,
    ];
    for (let round = 0; round < ROUNDS; round++) {
      const [written] = await this.#connection.query(api, true, statement, values);
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
          sound ? [where.key, stored] : [where.key, stored, Date.now() / 1000],
        );
        continue;
      }
      checkKnowledgeRevision(where.key, expected, revisionOf(row['revision']) ?? 0, api);
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
        Date.now() / 1000,
      ]);
      return Number(row?.['n']) > 0;
    });
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    const call = this.#calls.open('list');
    checkKnowledgeOptions(options, 'list', call.api);
    const namespace = namespaceOf(listNamespace(options, call.api), call.api);
    await this.#ready(call);
    const rows = await this.#connection.query(call.api, false, this.#sql.list, [namespace ?? null]);
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
