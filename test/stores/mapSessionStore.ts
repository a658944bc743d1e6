import {
  fromDict,
  MemoryArgumentError,
  type LoadedSession,
  type MemoryState,
  type RemovedCount,
  type SaveOptions,
  type SavedSession,
  type SearchOptions,
  SessionCorruptError,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  type SessionStoreOptions,
  toDict,
} from 'conversation-memory';
import {
  checkExpectedRevision,
  checkSessionOptions,
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  isSessionExpired,
  namespaceKeys,
  namespaceOf,
  namespaceToDeleteOf,
  rankSearchResults,
  readOptionFields,
  scoreSessionMessages,
  searchLimitOf,
  searchTerms,
  sessionAddressOf,
  sessionClockOf,
  sessionKeyOf,
  sessionTtlOf,
} from 'conversation-memory/store-kit';

const API = 'MapSessionStore';

/** What a record holds once it decodes. */
interface Decoded {
  readonly loaded: LoadedSession;
}

/**
 * A session store as a third party writes one, outside the library's sources: it keeps each
 * session as a JSON text in a `Map` (as a key-value database would), built only on the public
 * entries (`conversation-memory` and `conversation-memory/store-kit`). The tests run the published
 * conformance suite against it (`mapSessionStore.test.ts`, and `test/dist/storeKitTesting.mjs`
 * from the packed package). `records` is open so that a test can damage one; a damaged record a
 * save replaces is kept in `aside`, under its key (so that `deleteNamespace` erases it too).
 *
 * @example
 * ```ts
 * const store = new MapSessionStore({ defaultTtl: 3600 });
 * await store.save('s1', state, { expectedRevision: 0 }); // { revision: 1 }
 * ```
 */
export class MapSessionStore implements SessionStore {
  /** The stored texts by storage key (`ns:id` or `id`). */
  readonly records = new Map<string, string>();
  /** Damaged texts a save or delete replaced, with their keys, kept for inspection. */
  readonly aside: { readonly key: string; readonly text: string }[] = [];
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  #closed = false;

  constructor(options: SessionStoreOptions = {}) {
    const { defaultTtl, now } = readOptionFields(options, ['defaultTtl', 'now'], API, {
      example: '{ defaultTtl: 3600 }',
    });
    this.#ttl = sessionTtlOf(defaultTtl, API);
    this.#now = sessionClockOf(now, API);
  }

  #open(method: string): string {
    const api = `${API}.${method}`;
    if (this.#closed) throw new MemoryArgumentError(api, 'the store is closed');
    return api;
  }

  /** The record under `key`: absent (or expired, then dropped), damaged, or decoded. */
  #read(key: string, api: string): Decoded | SessionCorruptError | undefined {
    const text = this.records.get(key);
    if (text === undefined) return undefined;
    const fail = (problem: string) =>
      new SessionCorruptError(api, key, `map:${key}`, [problem], {});
    let record: { revision?: unknown; createdAt?: unknown; updatedAt?: unknown; memory?: unknown };
    try {
      record = JSON.parse(text) as typeof record;
    } catch (error) {
      return fail(`(root): not JSON: ${(error as Error).message}`);
    }
    const { revision, createdAt, updatedAt } = record;
    if (typeof revision !== 'number' || typeof createdAt !== 'number') {
      return fail('(root): expected revision and createdAt');
    }
    if (typeof updatedAt !== 'number') return fail('updatedAt: expected Unix seconds');
    if (isSessionExpired(updatedAt, this.#ttl, this.#now())) {
      this.records.delete(key);
      return undefined;
    }
    const decoded = fromDict(record.memory);
    if (decoded._tag === 'Left') {
      return new SessionCorruptError(api, key, `map:${key}`, decoded.left.problems, {});
    }
    return { loaded: { state: decoded.right, revision, createdAt, updatedAt } };
  }

  /** The decoded record under `key`, or `undefined`; a damaged one rejects. */
  #load(key: string, api: string): Decoded | undefined {
    const found = this.#read(key, api);
    if (found instanceof SessionCorruptError) throw found;
    return found;
  }

  #write(api: string, key: string, state: unknown, expected: number | undefined): SavedSession {
    const memory = toDict(state as MemoryState);
    const found = this.#read(key, api);
    const current = found instanceof SessionCorruptError ? undefined : found?.loaded;
    checkExpectedRevision(key, expected, current?.revision ?? 0, api);
    if (found instanceof SessionCorruptError) this.#setAside(key);
    const now = this.#now();
    const revision = (current?.revision ?? 0) + 1;
    const createdAt = current?.createdAt ?? now;
    this.records.set(key, JSON.stringify({ revision, createdAt, updatedAt: now, memory }));
    return { revision };
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    const api = this.#open('save');
    checkSessionOptions(options, 'save', api);
    const where = sessionKeyOf(sessionId, options, api);
    return this.#write(api, where.key, state, expectedRevisionOf(options, api));
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    const api = this.#open('load');
    checkSessionOptions(options, 'load', api);
    return this.#load(sessionKeyOf(sessionId, options, api).key, api)?.loaded ?? null;
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    const api = this.#open('exists');
    checkSessionOptions(options, 'exists', api);
    return this.#read(sessionKeyOf(sessionId, options, api).key, api) !== undefined;
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    const api = this.#open('delete');
    checkSessionOptions(options, 'delete', api);
    const { key } = sessionKeyOf(sessionId, options, api);
    const found = this.#read(key, api);
    if (found instanceof SessionCorruptError) this.#setAside(key);
    this.records.delete(key);
    return found !== undefined;
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    const api = this.#open('branch');
    checkSessionOptions(options, 'branch', api);
    const source = sessionKeyOf(sourceId, options, api);
    const target = sessionKeyOf(newId, options, api);
    const found = this.#load(source.key, api);
    if (found === undefined) {
      throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
    }
    return this.#write(api, target.key, found.loaded.state, expectedRevisionOf(options, api));
  }

  /** Every live record that decodes, by storage key in code-point order. */
  #sound(api: string): [string, LoadedSession][] {
    const out: [string, LoadedSession][] = [];
    for (const key of [...this.records.keys()].sort(compareCodePoints)) {
      const found = this.#read(key, api);
      if (found !== undefined && !(found instanceof SessionCorruptError)) {
        out.push([key, found.loaded]);
      }
    }
    return out;
  }

  async list(): Promise<readonly SessionMetadata[]> {
    const api = this.#open('list');
    return this.#sound(api).map(([key, loaded]) => ({
      sessionId: key,
      ...sessionAddressOf(key),
      messageCount: loaded.state.messages.length,
      createdAt: loaded.createdAt,
      updatedAt: loaded.updatedAt,
    }));
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    const api = this.#open('search');
    const given = checkSessionOptions(options, 'search', api);
    const terms = searchTerms(query);
    const limit = searchLimitOf(given['limit']);
    const namespace = namespaceOf(given['namespace'], api);
    if (terms.length === 0 || limit <= 0) return [];
    const results: SessionSearchResult[] = [];
    for (const [key, loaded] of this.#sound(api)) {
      const address = sessionAddressOf(key);
      if (namespace !== undefined && address.namespace !== namespace) continue;
      const scored = scoreSessionMessages(loaded.state.messages, terms);
      if (scored === undefined) continue;
      results.push({
        sessionId: namespace === undefined ? key : address.id,
        ...address,
        score: scored.score,
        matchedMessages: scored.matchedMessages,
      });
    }
    return rankSearchResults(results, limit);
  }

  /** Keeps the damaged text under `key` aside. */
  #setAside(key: string): void {
    this.aside.push({ key, text: this.records.get(key) ?? '' });
  }

  async sweep(): Promise<RemovedCount> {
    const api = this.#open('sweep');
    let removed = 0;
    for (const key of [...this.records.keys()]) {
      // `#read` drops an expired record; a damaged one is not expired (its time is unknown).
      if (this.#read(key, api) === undefined) removed++;
    }
    return { removed };
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    const api = this.#open('deleteNamespace');
    const keys = namespaceKeys(namespaceToDeleteOf(namespace, api));
    let removed = 0;
    for (const key of [...this.records.keys()]) {
      if (keys.includes(key) && this.records.delete(key)) removed++;
    }
    // Erasure is of every copy: the damaged texts kept aside too.
    const kept = this.aside.filter((entry) => !keys.includes(entry.key));
    this.aside.splice(0, this.aside.length, ...kept);
    return { removed };
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
