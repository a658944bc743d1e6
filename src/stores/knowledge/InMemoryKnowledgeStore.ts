import { checkKnowledgeOptions, listNamespace } from '../kit/methodOptions';
import type {
  KnowledgeListing,
  KnowledgeSaveOptions,
  KnowledgeStamp,
  KnowledgeStore,
  KnowledgeStoreOptions,
  LoadedKnowledge,
  SavedKnowledge,
} from './types';
import type { KnowledgeState } from '../../model/knowledge';
import { readOptionFields } from '../../internal/readOptionFields';
import { knowledgeStateToSave } from '../kit/knowledgeRecords';
import { namespaceToDeleteOf, type RemovedCount, type StoreExpiryOptions } from '../kit/retention';
import { checkKnowledgeRevision, expectedRevisionOf } from '../kit/revision';
import { compareCodePoints } from '../kit/search';
import { openStoreCall, type StoreCall } from '../kit/storeCall';
import { namespaceKeys, namespaceOf, sessionAddressOf, sessionKeyOf } from '../kit/sessionKey';
import { isSessionExpired, sessionClockOf, sessionTtlOf } from '../kit/ttl';

const API = 'InMemoryKnowledgeStore';

/** A kept record: what `load` returns, and when it was last saved (Unix seconds). */
interface Kept {
  readonly loaded: LoadedKnowledge;
  readonly updatedAt: number;
}

/**
 * A {@link KnowledgeStore} in this process's memory: for tests, single-process servers and the
 * browser (no Node dependency). `save` checks the state with `decodeKnowledgeState` and keeps the
 * decoded, deeply frozen copy, which every `load` returns (no copy, no serialization). Each method
 * does its work in one synchronous step, so concurrent calls never interleave inside one;
 * revisions, namespaces, validation and the TTL (`defaultTtl` seconds after the last save; `now`,
 * the clock) behave exactly as on the SQLite and Redis stores.
 *
 * @example
 * ```ts
 * const store = new InMemoryKnowledgeStore({ defaultTtl: 90 * 24 * 3600 });
 * const { revision } = await store.save('user-42', createKnowledge(), { expectedRevision: 0 }); // 1
 * const loaded = await store.load('user-42'); // { state, revision: 1 }
 * ```
 */
export class InMemoryKnowledgeStore implements KnowledgeStore {
  readonly #records = new Map<string, Kept>();
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  #closed = false;

  /** @param options - `defaultTtl` (seconds after the last save; omitted: forever) and `now` */
  constructor(options: StoreExpiryOptions = {}) {
    // Read once: a value that is not an object, a misspelled key, and options that cannot be read
    // (with the cause) are refused.
    const { defaultTtl, now } = readOptionFields(options, ['defaultTtl', 'now'], API, {
      example: '{ defaultTtl: 3600 }',
      hints: { ttl: 'defaultTtl', default_ttl: 'defaultTtl' },
    });
    this.#ttl = sessionTtlOf(defaultTtl, API);
    this.#now = sessionClockOf(now, API);
  }

  /** Opens a call of `method` (`openStoreCall`): it rejects once the store is closed. */
  #open(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  /** Whether a kept record has expired by now. */
  #expired(kept: Kept): boolean {
    return isSessionExpired(kept.updatedAt, this.#ttl, this.#now());
  }

  /** The live record under `key`; an expired one is dropped. */
  #live(key: string): LoadedKnowledge | undefined {
    const kept = this.#records.get(key);
    if (kept === undefined) return undefined;
    if (!this.#expired(kept)) return kept.loaded;
    this.#records.delete(key);
    return undefined;
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    const { api } = this.#open('load');
    checkKnowledgeOptions(options, 'load', api);
    return this.#live(sessionKeyOf(id, options, api).key) ?? null;
  }

  async stamp(id: string, options?: KnowledgeStoreOptions): Promise<KnowledgeStamp | null> {
    const { api } = this.#open('stamp');
    checkKnowledgeOptions(options, 'load', api);
    const { key } = sessionKeyOf(id, options, api);
    if (this.#live(key) === undefined) return null;
    const kept = this.#records.get(key) as Kept;
    return Object.freeze({ revision: kept.loaded.revision, savedAt: kept.updatedAt });
  }

  async save(
    id: string,
    state: KnowledgeState,
    options?: KnowledgeSaveOptions,
  ): Promise<SavedKnowledge> {
    const { api } = this.#open('save');
    checkKnowledgeOptions(options, 'save', api);
    const { key } = sessionKeyOf(id, options, api);
    const expected = expectedRevisionOf(options, api);
    const checked = knowledgeStateToSave(state, api);
    const current = this.#live(key)?.revision ?? 0;
    checkKnowledgeRevision(key, expected, current, api);
    const revision = current + 1;
    const loaded = Object.freeze({ state: checked, revision });
    this.#records.set(key, { loaded, updatedAt: this.#now() });
    return Object.freeze({ revision });
  }

  async delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean> {
    const { api } = this.#open('delete');
    checkKnowledgeOptions(options, 'delete', api);
    const { key } = sessionKeyOf(id, options, api);
    const live = this.#live(key) !== undefined;
    this.#records.delete(key);
    return live;
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    const { api } = this.#open('list');
    checkKnowledgeOptions(options, 'list', api);
    const namespace = namespaceOf(listNamespace(options, api), api);
    const keys = namespaceKeys(namespace);
    const out: KnowledgeListing[] = [];
    for (const key of this.#records.keys()) {
      const revision = keys.includes(key) ? this.#live(key)?.revision : undefined;
      if (revision === undefined) continue;
      out.push(Object.freeze({ key, ...sessionAddressOf(key), revision }));
    }
    return Object.freeze(out.sort((a, b) => compareCodePoints(a.key, b.key)));
  }

  async sweep(): Promise<RemovedCount> {
    this.#open('sweep');
    return this.#remove((_, kept) => this.#expired(kept));
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    const { api } = this.#open('deleteNamespace');
    const keys = namespaceKeys(namespaceToDeleteOf(namespace, api));
    return this.#remove((key) => keys.includes(key));
  }

  /** Removes every record `matches` (expired or not), in one synchronous step; counts them. */
  #remove(matches: (key: string, kept: Kept) => boolean): RemovedCount {
    let removed = 0;
    for (const [key, kept] of this.#records) {
      if (matches(key, kept) && this.#records.delete(key)) removed++;
    }
    return Object.freeze({ removed });
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
