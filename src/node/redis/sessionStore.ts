import {
  type LoadedSession,
  MemoryArgumentError,
  type MemoryState,
  type SaveOptions,
  type SavedSession,
  type SearchOptions,
  SessionCorruptError,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type RemovedCount,
  type SessionStore,
  toDict,
} from 'conversation-memory';
import {
  compareCodePoints,
  expectedRevisionOf,
  namespaceKeys,
  namespaceOf,
  rankSearchResults,
  scoreSessionMessages,
  searchLimitOf,
  searchTerms,
  sessionAddressOf,
  sessionKeyOf,
  describeValue,
  checkSessionOptions,
  namespaceToDeleteOf,
} from 'conversation-memory/store-kit';
import { namingTheId, StoreCalls } from '../storeCalls';
import { RedisConnection } from './connection';
import { type RedisKeyLayout, redisKeyLayout } from './schema';
import { readRedisMemory, readRedisRecord } from './sessionRecord';
import { saveRedisRecord } from './sessionSave';
import { scanRedisKeys } from './scan';
import { DELETE_SCRIPT, READ_SCRIPT, runScript } from './scripts';
import { readSessionStoreOptions, type RedisSessionStoreOptions } from './options';
import { VerifiedTokens } from './sessionVerifiedTokens';
import {
  deleteRedisSessionNamespace,
  type RedisSessionRetention,
  sweepRedisSessions,
} from './sessionRetention';

export type { RedisClusterClient, RedisClusterOptions, RedisSessionClient } from './clients';
export type { RedisSessionStoreOptions } from './options';

const API = 'RedisSessionStore';

/** A live session found by a scan, decoded. */
interface Found {
  readonly key: string;
  readonly namespace: string | undefined;
  readonly id: string;
  readonly state: MemoryState;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * A {@link SessionStore} on Redis, one server or a Redis Cluster (node-redis 5 or 6, an optional
 * peer loaded only when the store makes its own client), shared by any number of processes and
 * machines.
 *
 * Layout (see `redisKeyLayout`): one hash per session at `${prefix}{${key}}s` (`key` = `ns:id` or
 * the id, `%` and `}` escaped; the braces are a Cluster hash tag) with the fields `memory` (the
 * `toDict` JSON), `revision`, `created_at`, `updated_at` (Unix seconds), `session_id` and
 * `namespace`; a damaged record is renamed to `${prefix}{${key}}corrupt:…`, in the same slot,
 * before a save replaces it. No id can collide with another's key or with an aside key.
 *
 * Every save is one Lua script: the revision check and the write are atomic on the server, so a
 * stale `expectedRevision` fails with `SessionConflictError` and writes nothing. The TTL is the
 * reference's sliding TTL, decided by the store's clock; the key's Redis expiry (the TTL rounded
 * up plus a margin) only collects what is already expired. `list` and `search` walk the keys with
 * SCAN (never KEYS) on every master and decode each record, skipping damaged ones. A server that
 * cannot be reached, does not answer in time or refuses for a while (a failover) fails the call
 * with `StoreUnavailableError`; with `minReplicas`, a write resolves only once that many replicas
 * hold it.
 *
 * @example
 * ```ts
 * const store = new RedisSessionStore({ url: 'redis://localhost:6379/0', defaultTtl: 86_400 });
 * const loaded = await store.load('thread-7', { namespace: 'user-42' });
 * await store.save('thread-7', next, { namespace: 'user-42', expectedRevision: loaded?.revision ?? 0 });
 * await store.close(); // quits the client it made
 * ```
 */
export class RedisSessionStore implements SessionStore {
  /** The prefix in front of every key this store reads or writes. */
  readonly prefix: string;
  readonly #connection: RedisConnection;
  readonly #layout: RedisKeyLayout;
  readonly #ttl: number | undefined;
  readonly #clock: () => number;
  readonly #verified = new VerifiedTokens();
  readonly #calls = new StoreCalls(API, namingTheId);
  /** What `sweep` and `deleteNamespace` work with. */
  readonly #retention: RedisSessionRetention;

  constructor(options: RedisSessionStoreOptions) {
    const settings = readSessionStoreOptions(options, API);
    this.prefix = settings.prefix;
    this.#connection = new RedisConnection(settings.source, settings.connection);
    this.#layout = redisKeyLayout(settings.prefix);
    this.#ttl = settings.ttl;
    this.#clock = settings.now;
    const { ttl, now } = settings;
    this.#retention = { connection: this.#connection, layout: this.#layout, ttl, now };
  }

  /** The store's clock (`sessionClockOf` checks each reading: a NaN would go into records). */
  #now(): number {
    return this.#clock();
  }

  async #read(key: string, withMemory: boolean, api: string) {
    const reply = await runScript(
      this.#connection,
      READ_SCRIPT,
      [this.#layout.session(key)],
      [withMemory ? '1' : '0'],
      api,
    );
    return readRedisRecord(reply, key, this.#ttl, this.#now());
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('save', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'save', api);
      return this.#save(api, sessionId, state, options);
    });
  }

  async #save(
    api: string,
    sessionId: unknown,
    state: unknown,
    options: unknown,
  ): Promise<SavedSession> {
    const where = sessionKeyOf(sessionId, options, api);
    const expected = expectedRevisionOf(options, api);
    const memory = JSON.stringify(toDict(state as MemoryState));
    const context = {
      connection: this.#connection,
      layout: this.#layout,
      ttl: this.#ttl,
      now: () => this.#now(),
      verified: this.#verified,
    };
    const revision = await saveRedisRecord(context, where, memory, expected, api);
    return Object.freeze({ revision });
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    return this.#calls.run('load', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'load', api);
      const where = sessionKeyOf(sessionId, options, api);
      const hash = this.#layout.session(where.key);
      const record = await this.#read(where.key, true, api);
      if (record.kind === 'absent' || record.kind === 'expired') return null;
      if (record.kind === 'corrupt') {
        throw new SessionCorruptError(api, where.key, hash, record.problems);
      }
      const decoded = readRedisMemory(record.memory);
      if (!decoded.ok) {
        throw new SessionCorruptError(api, where.key, hash, decoded.problems, {
          cause: decoded.cause,
        });
      }
      this.#verified.set(hash, record.token);
      return Object.freeze({
        state: decoded.state,
        revision: record.revision,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      });
    });
  }

  /** Every live, decodable session whose key starts with `keyStart`; damaged ones are skipped. */
  async *#scan(keyStart: string, api: string): AsyncGenerator<Found> {
    const pattern = this.#layout.sessionPattern(keyStart);
    for await (const batch of scanRedisKeys(this.#connection, pattern, api)) {
      const keys = batch.flatMap((name) => this.#layout.sessionKeyOf(name) ?? []);
      const records = await Promise.all(keys.map((key) => this.#read(key, true, api)));
      for (const [i, record] of records.entries()) {
        if (record.kind !== 'live') continue;
        const decoded = readRedisMemory(record.memory);
        if (!decoded.ok) continue;
        const { id, namespace, createdAt, updatedAt } = record;
        yield { key: keys[i] as string, id, namespace, state: decoded.state, createdAt, updatedAt };
      }
    }
  }

  async list(): Promise<readonly SessionMetadata[]> {
    const { api } = this.#calls.open('list');
    const out: SessionMetadata[] = [];
    for await (const found of this.#scan('', api)) {
      out.push(
        Object.freeze({
          sessionId: found.key,
          ...sessionAddressOf(found.key),
          messageCount: found.state.messages.length,
          createdAt: found.createdAt,
          updatedAt: found.updatedAt,
        }),
      );
    }
    out.sort((a, b) => compareCodePoints(a.sessionId, b.sessionId));
    return Object.freeze(out);
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return this.#calls.write('delete', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'delete', api);
      const where = sessionKeyOf(sessionId, options, api);
      const hash = this.#layout.session(where.key);
      this.#verified.delete(hash);
      const reply = await runScript(
        this.#connection,
        DELETE_SCRIPT,
        [hash],
        [String(this.#now()), this.#ttl === undefined ? '' : String(this.#ttl)],
        api,
      );
      await this.#connection.confirmWrite(hash, api);
      return reply === 1 || reply === '1';
    });
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return this.#calls.run('exists', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'exists', api);
      const where = sessionKeyOf(sessionId, options, api);
      const record = await this.#read(where.key, false, api);
      return record.kind === 'live' || record.kind === 'corrupt';
    });
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('branch', { id: newId }, async ({ api }) => {
      checkSessionOptions(options, 'branch', api);
      const source = sessionKeyOf(sourceId, options, api);
      sessionKeyOf(newId, options, api);
      const loaded = await this.load(source.id, { namespace: source.namespace });
      if (loaded === null) {
        throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
      }
      return this.#save(api, newId, loaded.state, options);
    });
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    const { api } = this.#calls.open('search');
    // Read once: the search sees the copy.
    const given = checkSessionOptions(options, 'search', api);
    const terms = searchTerms(query);
    const limit = searchLimitOf(given.limit);
    const namespace = namespaceOf(given.namespace, api);
    if (terms.length === 0 || limit <= 0) return Object.freeze([]);
    const results: SessionSearchResult[] = [];
    for await (const found of this.#scan(namespaceKeys(namespace).prefix, api)) {
      if (namespace !== undefined && found.namespace !== namespace) continue;
      const scored = scoreSessionMessages(found.state.messages, terms);
      if (scored === undefined) continue;
      results.push(
        Object.freeze({
          sessionId: namespace === undefined ? found.key : found.id,
          ...sessionAddressOf(found.key),
          score: scored.score,
          matchedMessages: Object.freeze(scored.matchedMessages),
        }),
      );
    }
    return Object.freeze([...rankSearchResults(results, limit)]);
  }

  /**
   * Removes the expired sessions (`defaultTtl`, by the store's clock), each with a script of its
   * own as SCAN finds it; `{ removed: 0 }` without a TTL. Redis's expiry collects them too, later.
   *
   * @example
   * ```ts
   * const { removed } = await store.sweep();
   * ```
   */
  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) =>
      Object.freeze({ removed: await sweepRedisSessions(this.#retention, call) }),
    );
  }

  /**
   * Removes every session of `namespace` (expired and damaged ones too) and the damaged copies
   * saves moved aside, and nothing of any other namespace; resolves to how many sessions.
   *
   * @example
   * ```ts
   * await store.deleteNamespace('tenant-42'); // { removed: 3 }
   * ```
   */
  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      const removed = await deleteRedisSessionNamespace(this.#retention, checked, call);
      return Object.freeze({ removed });
    });
  }

  /**
   * The keys of the damaged records that saves moved aside (kept for inspection; delete them
   * with your Redis client when done), sorted.
   *
   * @example
   * ```ts
   * await store.asideKeys(); // ['conversation-memory:session:corrupt:s1:1764500000:1a2b3c4d']
   * ```
   */
  async asideKeys(): Promise<readonly string[]> {
    const { api } = this.#calls.open('asideKeys');
    const keys: string[] = [];
    for await (const batch of scanRedisKeys(this.#connection, this.#layout.asidePattern(), api)) {
      keys.push(...batch);
    }
    return Object.freeze(keys.sort(compareCodePoints));
  }

  /** Closes the client the store made from `url`; a client passed as `client` stays open. */
  async close(): Promise<void> {
    this.#calls.close();
    await this.#connection.close();
  }
}
