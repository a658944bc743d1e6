import { randomUUID } from 'node:crypto';
import {
  checkKnowledgeOptions,
  checkKnowledgeRevision,
  KnowledgeCorruptError,
  type KnowledgeListing,
  type KnowledgeSaveOptions,
  type KnowledgeStamp,
  type KnowledgeState,
  type KnowledgeStore,
  type KnowledgeStoreOptions,
  knowledgeStateToSave,
  listNamespace,
  type LoadedKnowledge,
  readKnowledgeJson,
  type SavedKnowledge,
} from 'conversation-memory/knowledge';
import type { RemovedCount } from 'conversation-memory';
import {
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  isSessionExpired,
  namespaceKeys,
  namespaceOf,
  namespaceToDeleteOf,
  sessionAddressOf,
  sessionKeyOf,
} from 'conversation-memory/store-kit';
import { namingTheId, StoreCalls } from '../storeCalls';
import { RedisConnection } from './connection';
import { readKnowledgeStoreOptions, type RedisKnowledgeStoreOptions } from './options';
import { type RedisKnowledgeKeyLayout, redisKnowledgeKeyLayout } from './schema';
import {
  KNOWLEDGE_DELETE_SCRIPT,
  KNOWLEDGE_READ_SCRIPT,
  KNOWLEDGE_STAMP_SCRIPT,
  KNOWLEDGE_SAVE_SCRIPT,
} from './knowledgeScripts';
import { deleteRedisKnowledgeNamespace, sweepRedisKnowledge } from './knowledgeRetention';
import { redisExpirySeconds } from './sessionExpiry';
import { redisStatusReply, redisText } from './reply';
import { scanRedisKeys } from './scan';
import { runScript } from './scripts';

const API = 'RedisKnowledgeStore';

export { DEFAULT_REDIS_KNOWLEDGE_PREFIX, type RedisKnowledgeStoreOptions } from './options';

/** A damaged record, and the version read (its revision and `updated_at` fields). */
interface CorruptRecord {
  readonly kind: 'corrupt';
  readonly problems: readonly string[];
  /** The version read (its revision and `updated_at` fields), for the write scripts. */
  readonly version: readonly [string, string];
}

/** A record as the read script returns it. */
type Record =
  | { readonly kind: 'absent' }
  | { readonly kind: 'live'; readonly state: KnowledgeState; readonly revision: number }
  | CorruptRecord;

/** A record's type, revision and `updated_at`, judged without its state. */
type Stamped =
  | { readonly kind: 'absent' }
  | CorruptRecord
  | {
      readonly kind: 'stamped';
      readonly revision: number;
      readonly savedAt: number;
      readonly version: readonly [string, string];
    };

/**
 * Judges what both scripts read of a record (its key's type, `revision` and `updated_at`):
 * absent, corrupt (not a hash, a bad revision) or stamped; a record more than `ttl` seconds after
 * its `updated_at` (by `now`) is absent, as the write scripts count it.
 */
const readStampFields = (
  status: string,
  revisionText: string | undefined,
  updatedAt: string | undefined,
  ttl: number | undefined,
  now: number,
): Stamped => {
  if (status === 'none') return { kind: 'absent' };
  if (status !== 'hash') {
    return {
      kind: 'corrupt',
      problems: [`(root): expected a hash, got a Redis ${describeValue(status)}`],
      version: ['', ''],
    };
  }
  const version = [revisionText ?? '', updatedAt ?? '-'] as const;
  const revision = Number(revisionText);
  if (revisionText === undefined || !Number.isSafeInteger(revision) || revision < 1) {
    const problem = `revision: expected an integer ≥ 1, got ${describeValue(revisionText ?? null)}`;
    return { kind: 'corrupt', problems: [problem], version };
  }
  const savedAt = Number(updatedAt ?? Number.NaN);
  if (updatedAt !== undefined && Number.isFinite(savedAt) && isSessionExpired(savedAt, ttl, now)) {
    return { kind: 'absent' };
  }
  return { kind: 'stamped', revision, savedAt, version };
};

/**
 * Judges a read script's reply: absent, corrupt (not a hash, a bad revision, a state that does
 * not decode) or live; expiry as {@link readStampFields} counts it.
 */
const readRecord = (reply: unknown, api: string, ttl: number | undefined, now: number): Record => {
  const { status, rest } = redisStatusReply(reply, api);
  const [state, revisionText, updatedAt] = rest.map(redisText);
  const stamped = readStampFields(status, revisionText, updatedAt, ttl, now);
  if (stamped.kind !== 'stamped') return stamped;
  const read = readKnowledgeJson(state ?? null);
  return 'problems' in read
    ? { kind: 'corrupt', problems: read.problems, version: stamped.version }
    : { kind: 'live', state: read.state, revision: stamped.revision };
};

/**
 * A {@link KnowledgeStore} on Redis (one server or a Cluster, node-redis 5 or 6, an optional peer
 * loaded only when the store makes its own client), shared by any number of processes: one hash
 * per storage key at `${prefix}{${key}}k` (the braces are a Cluster hash tag) with the fields
 * `state` (the state's JSON), `revision` and `updated_at` (Unix seconds). Every save is one Lua
 * script, so the revision check and the write are atomic on the server: a stale
 * `expectedRevision` fails with `KnowledgeConflictError` and writes nothing. A record that does
 * not decode makes `load` reject with `KnowledgeCorruptError` naming its key; `list` skips it; a
 * save or delete over it renames it to `${prefix}{${key}}kcorrupt:<time>:<nonce>` first (same
 * slot), so nothing damaged is lost. `list` walks the keys with SCAN (never KEYS) on every master.
 * Connection failures are `StoreUnavailableError`, as for `RedisSessionStore`.
 *
 * @example
 * ```ts
 * import { RedisKnowledgeStore } from 'conversation-memory/node';
 *
 * const store = new RedisKnowledgeStore({ url: 'redis://localhost:6379/0' });
 * const loaded = await store.load('user-42', { namespace: 'acme' });
 * await store.save('user-42', next, { namespace: 'acme', expectedRevision: loaded?.revision ?? 0 });
 * await store.close(); // quits the client it made
 * ```
 */
export class RedisKnowledgeStore implements KnowledgeStore {
  /** The prefix in front of every key this store reads or writes. */
  readonly prefix: string;
  readonly #connection: RedisConnection;
  readonly #layout: RedisKnowledgeKeyLayout;
  readonly #ttl: number | undefined;
  readonly #clock: () => number;
  readonly #calls = new StoreCalls(API, namingTheId);

  constructor(options: RedisKnowledgeStoreOptions) {
    const settings = readKnowledgeStoreOptions(options, API);
    this.prefix = settings.prefix;
    this.#connection = new RedisConnection(settings.source, settings.connection);
    this.#layout = redisKnowledgeKeyLayout(settings.prefix);
    this.#ttl = settings.ttl;
    this.#clock = settings.now;
  }

  #hash(key: string): string {
    return this.#layout.record(key);
  }

  #aside(key: string): string {
    return this.#layout.aside(key, randomUUID().slice(0, 8));
  }

  /** The store's clock and TTL as script arguments: now, ttl (`''`: none). */
  #expiryArgs(): [string, string] {
    return [String(this.#clock()), this.#ttl === undefined ? '' : String(this.#ttl)];
  }

  async #read(key: string, api: string): Promise<Record> {
    const reply = await runScript(
      this.#connection,
      KNOWLEDGE_READ_SCRIPT,
      [this.#hash(key)],
      [],
      api,
    );
    return readRecord(reply, api, this.#ttl, this.#clock());
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    return this.#calls.run('load', { id }, async ({ api }) => {
      checkKnowledgeOptions(options, 'load', api);
      const { key } = sessionKeyOf(id, options, api);
      const record = await this.#read(key, api);
      if (record.kind === 'absent') return null;
      if (record.kind === 'corrupt') {
        throw new KnowledgeCorruptError(api, key, this.#hash(key), record.problems);
      }
      return Object.freeze({ state: record.state, revision: record.revision });
    });
  }

  async stamp(id: string, options?: KnowledgeStoreOptions): Promise<KnowledgeStamp | null> {
    return this.#calls.run('stamp', { id }, async ({ api }) => {
      checkKnowledgeOptions(options, 'load', api);
      const { key } = sessionKeyOf(id, options, api);
      const reply = await runScript(
        this.#connection,
        KNOWLEDGE_STAMP_SCRIPT,
        [this.#hash(key)],
        [],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      const [revisionText, updatedAt] = rest.map(redisText);
      const read = readStampFields(status, revisionText, updatedAt, this.#ttl, this.#clock());
      if (read.kind === 'corrupt') {
        throw new KnowledgeCorruptError(api, key, this.#hash(key), read.problems);
      }
      return read.kind === 'absent'
        ? null
        : Object.freeze({ revision: read.revision, savedAt: read.savedAt });
    });
  }

  async save(
    id: string,
    state: KnowledgeState,
    options?: KnowledgeSaveOptions,
  ): Promise<SavedKnowledge> {
    return this.#calls.write('save', { id }, async ({ api }) => {
      checkKnowledgeOptions(options, 'save', api);
      const { key } = sessionKeyOf(id, options, api);
      const expected = expectedRevisionOf(options, api);
      const json = JSON.stringify(knowledgeStateToSave(state, api));
      // The script cannot decode a state: the client reads first, and names a damaged version.
      const current = await this.#read(key, api);
      const version = current.kind === 'corrupt' ? current.version : ['', ''];
      const hash = this.#hash(key);
      const reply = await runScript(
        this.#connection,
        KNOWLEDGE_SAVE_SCRIPT,
        [hash, this.#aside(key)],
        [
          ...version,
          expected === undefined ? '' : String(expected),
          json,
          ...this.#expiryArgs(),
          String(redisExpirySeconds(this.#ttl) ?? ''),
        ],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      const revision = Number(redisText(rest[0]) ?? rest[0]);
      if (status === 'conflict') checkKnowledgeRevision(key, expected, revision, api);
      if (status !== 'ok' || !Number.isSafeInteger(revision)) {
        throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
      }
      await this.#connection.confirmWrite(hash, api);
      return Object.freeze({ revision });
    });
  }

  async delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean> {
    return this.#calls.write('delete', { id }, async ({ api }) => {
      checkKnowledgeOptions(options, 'delete', api);
      const { key } = sessionKeyOf(id, options, api);
      const current = await this.#read(key, api);
      if (current.kind === 'absent') return false;
      const version = current.kind === 'corrupt' ? current.version : ['', ''];
      const hash = this.#hash(key);
      const reply = await runScript(
        this.#connection,
        KNOWLEDGE_DELETE_SCRIPT,
        [hash, this.#aside(key)],
        [...version, ...this.#expiryArgs()],
        api,
      );
      await this.#connection.confirmWrite(hash, api);
      return Number(reply) === 1;
    });
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    const { api } = this.#calls.open('list');
    checkKnowledgeOptions(options, 'list', api);
    const namespace = namespaceOf(listNamespace(options, api), api);
    const inNamespace = namespaceKeys(namespace);
    const pattern = this.#layout.recordPattern(inNamespace.prefix);
    const out: KnowledgeListing[] = [];
    for await (const batch of scanRedisKeys(this.#connection, pattern, api)) {
      const keys = batch.flatMap((name) => this.#layout.recordKeyOf(name) ?? []);
      const records = await Promise.all(keys.map((key) => this.#read(key, api)));
      for (const [i, record] of records.entries()) {
        const key = keys[i] as string;
        if (record.kind !== 'live' || !inNamespace.includes(key)) continue;
        out.push(Object.freeze({ key, ...sessionAddressOf(key), revision: record.revision }));
      }
    }
    return Object.freeze(out.sort((a, b) => compareCodePoints(a.key, b.key)));
  }

  /**
   * Removes the records that have expired (by the store's `defaultTtl` and clock), each with a
   * script of its own as SCAN finds it; `{ removed: 0 }` without a TTL.
   *
   * @example
   * ```ts
   * const { removed } = await store.sweep();
   * ```
   */
  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) => {
      const context = { connection: this.#connection, layout: this.#layout, ttl: this.#ttl };
      const removed = await sweepRedisKnowledge(context, () => this.#clock(), call);
      return Object.freeze({ removed });
    });
  }

  /**
   * Removes every record of `namespace` (expired and damaged ones too) and the damaged copies
   * moved aside, and nothing of another namespace; resolves to how many records.
   *
   * @example
   * ```ts
   * await store.deleteNamespace('acme'); // { removed: 2 }
   * ```
   */
  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      const context = { connection: this.#connection, layout: this.#layout, ttl: this.#ttl };
      const removed = await deleteRedisKnowledgeNamespace(context, checked, call);
      return Object.freeze({ removed });
    });
  }

  /**
   * The keys of the damaged records that saves and deletes moved aside (kept for inspection;
   * delete them with your Redis client when done), sorted.
   *
   * @example
   * ```ts
   * await store.asideKeys(); // ['conversation-memory:knowledge:{u1}kcorrupt:1764500000000:1a2b3c4d']
   * ```
   */
  async asideKeys(): Promise<readonly string[]> {
    const { api } = this.#calls.open('asideKeys');
    const keys: string[] = [];
    const pattern = this.#layout.asidePattern();
    for await (const batch of scanRedisKeys(this.#connection, pattern, api)) keys.push(...batch);
    return Object.freeze(keys.sort(compareCodePoints));
  }

  /** Closes the client the store made from `url`; a client passed as `client` stays open. */
  async close(): Promise<void> {
    this.#calls.close();
    await this.#connection.close();
  }
}
