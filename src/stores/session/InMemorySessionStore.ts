import { checkSessionOptions } from '../kit/methodOptions';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { readOptionFields } from '../../internal/readOptionFields';
import { readState } from '../../internal/readState';
import type { MemoryState } from '../../model/state';
import { checkExpectedRevision, expectedRevisionOf } from '../kit/revision';
import {
  compareCodePoints,
  rankSearchResults,
  scoreSessionMessages,
  searchLimitOf,
  searchTerms,
} from '../kit/search';
import { namespaceToDeleteOf, type RemovedCount } from '../kit/retention';
import { namespaceKeys, namespaceOf, sessionAddressOf, sessionKeyOf } from '../kit/sessionKey';
import { openStoreCall, type StoreCall } from '../kit/storeCall';
import { isSessionExpired, sessionClockOf, sessionTtlOf } from '../kit/ttl';
import type {
  LoadedSession,
  SaveOptions,
  SavedSession,
  SearchOptions,
  SessionMetadata,
  SessionOptions,
  SessionSearchResult,
  SessionStore,
  SessionStoreOptions,
} from './types';

interface Entry {
  readonly id: string;
  readonly namespace: string | undefined;
  readonly loaded: LoadedSession;
}

const API = 'InMemorySessionStore';

/**
 * A {@link SessionStore} in this process's memory: for tests, single-process servers and the
 * browser (it has no Node dependency). States are immutable, so it keeps the very objects it is
 * given, and `load` returns them: no copy, no serialization. Every method does its work in one
 * synchronous step, so concurrent calls never interleave inside one; revisions, TTL, namespaces,
 * validation and search behave exactly as on the other stores. An expired session is dropped
 * when a read meets it, or by `sweep()`; `deleteNamespace` drops a namespace's sessions at once.
 *
 * @example
 * ```ts
 * const store = new InMemorySessionStore({ defaultTtl: 3600 });
 * const { revision } = await store.save('s1', state, { expectedRevision: 0 }); // 1
 * const loaded = await store.load('s1'); // { state, revision: 1, createdAt, updatedAt }
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  #closed = false;

  constructor(options: SessionStoreOptions = {}) {
    // A misspelled option would be ignored: `{ ttl: 60 }` would keep sessions forever.
    const { defaultTtl, now } = readOptionFields(options, ['defaultTtl', 'now'], API, {
      example: '{ defaultTtl: 3600 }',
      hints: { ttl: 'defaultTtl', default_ttl: 'defaultTtl' },
    });
    this.#ttl = sessionTtlOf(defaultTtl, API);
    this.#now = sessionClockOf(now, API);
  }

  /** The live entry under `key`; an expired one is dropped. */
  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (isSessionExpired(entry.loaded.updatedAt, this.#ttl, this.#now())) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Opens a call of `method` (`openStoreCall`): it rejects once the store is closed. */
  #open(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    const { api } = this.#open('save');
    checkSessionOptions(options, 'save', api);
    return this.#save(api, sessionId, state, options);
  }

  /** The write of `save` and `branch`, in the call `api` opened (its options checked). */
  #save(api: string, sessionId: unknown, state: unknown, options: unknown): SavedSession {
    const where = sessionKeyOf(sessionId, options, api);
    const expected = expectedRevisionOf(options, api);
    const checked = readState(state, api);
    const current = this.#live(where.key);
    checkExpectedRevision(where.key, expected, current?.loaded.revision ?? 0, api);
    const now = this.#now();
    const revision = (current?.loaded.revision ?? 0) + 1;
    this.#entries.set(where.key, {
      id: where.id,
      namespace: where.namespace,
      loaded: Object.freeze({
        state: checked,
        revision,
        createdAt: current?.loaded.createdAt ?? now,
        updatedAt: now,
      }),
    });
    return Object.freeze({ revision });
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    const { api } = this.#open('load');
    checkSessionOptions(options, 'load', api);
    const where = sessionKeyOf(sessionId, options, api);
    return this.#live(where.key)?.loaded ?? null;
  }

  async list(): Promise<readonly SessionMetadata[]> {
    this.#open('list');
    const out: SessionMetadata[] = [];
    for (const key of [...this.#entries.keys()].sort(compareCodePoints)) {
      const entry = this.#live(key);
      if (entry === undefined) continue;
      out.push(
        Object.freeze({
          sessionId: key,
          ...sessionAddressOf(key),
          messageCount: entry.loaded.state.messages.length,
          createdAt: entry.loaded.createdAt,
          updatedAt: entry.loaded.updatedAt,
        }),
      );
    }
    return Object.freeze(out);
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    const { api } = this.#open('delete');
    checkSessionOptions(options, 'delete', api);
    const where = sessionKeyOf(sessionId, options, api);
    const live = this.#live(where.key) !== undefined;
    this.#entries.delete(where.key);
    return live;
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    const { api } = this.#open('exists');
    checkSessionOptions(options, 'exists', api);
    const where = sessionKeyOf(sessionId, options, api);
    return this.#live(where.key) !== undefined;
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    const { api } = this.#open('branch');
    checkSessionOptions(options, 'branch', api);
    const source = sessionKeyOf(sourceId, options, api);
    sessionKeyOf(newId, options, api);
    const entry = this.#live(source.key);
    if (entry === undefined) {
      throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
    }
    return this.#save(api, newId, entry.loaded.state, options);
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    const { api } = this.#open('search');
    const given = checkSessionOptions(options, 'search', api);
    const terms = searchTerms(query);
    const limit = searchLimitOf(given.limit);
    const namespace = namespaceOf(given.namespace, api);
    if (terms.length === 0 || limit <= 0) return Object.freeze([]);
    const results: SessionSearchResult[] = [];
    for (const key of [...this.#entries.keys()]) {
      const entry = this.#live(key);
      if (entry === undefined) continue;
      if (namespace !== undefined && entry.namespace !== namespace) continue;
      const scored = scoreSessionMessages(entry.loaded.state.messages, terms);
      if (scored === undefined) continue;
      results.push(
        Object.freeze({
          sessionId: namespace === undefined ? key : entry.id,
          ...sessionAddressOf(key),
          score: scored.score,
          matchedMessages: Object.freeze(scored.matchedMessages),
        }),
      );
    }
    return Object.freeze([...rankSearchResults(results, limit)]);
  }

  async sweep(): Promise<RemovedCount> {
    this.#open('sweep');
    return this.#remove((_, entry) =>
      isSessionExpired(entry.loaded.updatedAt, this.#ttl, this.#now()),
    );
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    const { api } = this.#open('deleteNamespace');
    const keys = namespaceKeys(namespaceToDeleteOf(namespace, api));
    return this.#remove((key) => keys.includes(key));
  }

  /** Removes every entry `matches` (expired or not), in one synchronous step; counts them. */
  #remove(matches: (key: string, entry: Entry) => boolean): RemovedCount {
    let removed = 0;
    for (const [key, entry] of this.#entries) {
      if (matches(key, entry) && this.#entries.delete(key)) removed++;
    }
    return Object.freeze({ removed });
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
