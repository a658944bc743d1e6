import { checkKnowledgeOptions, listNamespace } from '../kit/methodOptions';
import type {
  KnowledgeListing,
  KnowledgeSaveOptions,
  KnowledgeStore,
  KnowledgeStoreOptions,
  LoadedKnowledge,
  SavedKnowledge,
} from './types';
import type { KnowledgeState } from '../../model/knowledge';
import { readOptionFields } from '../../internal/readOptionFields';
import { knowledgeStateToSave } from '../kit/knowledgeRecords';
import { checkKnowledgeRevision, expectedRevisionOf } from '../kit/revision';
import { compareCodePoints } from '../kit/search';
import { openStoreCall, type StoreCall } from '../kit/storeCall';
import { namespaceKeys, namespaceOf, sessionAddressOf, sessionKeyOf } from '../kit/sessionKey';

const API = 'InMemoryKnowledgeStore';

/**
 * A {@link KnowledgeStore} in this process's memory: for tests, single-process servers and the
 * browser (no Node dependency). `save` checks the state with `decodeKnowledgeState` and keeps the
 * decoded, deeply frozen copy, which every `load` returns (no copy, no serialization). Each method
 * does its work in one synchronous step, so concurrent calls never interleave inside one;
 * revisions, namespaces and validation behave exactly as on the SQLite and Redis stores.
 *
 * @example
 * ```ts
 * const store = new InMemoryKnowledgeStore();
 * const { revision } = await store.save('user-42', createKnowledge(), { expectedRevision: 0 }); // 1
 * const loaded = await store.load('user-42'); // { state, revision: 1 }
 * ```
 */
export class InMemoryKnowledgeStore implements KnowledgeStore {
  readonly #records = new Map<string, LoadedKnowledge>();
  #closed = false;

  /** @param options - none yet: pass nothing, or `{}` */
  constructor(options: Record<string, never> = {}) {
    // Read once: a value that is not an object, a key, and options that cannot be read (with the
    // cause) are refused.
    readOptionFields(options, [], API, { example: '{} (it has no options yet)' });
  }

  /** Opens a call of `method` (`openStoreCall`): it rejects once the store is closed. */
  #open(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  async load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null> {
    const { api } = this.#open('load');
    checkKnowledgeOptions(options, 'load', api);
    return this.#records.get(sessionKeyOf(id, options, api).key) ?? null;
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
    const current = this.#records.get(key)?.revision ?? 0;
    checkKnowledgeRevision(key, expected, current, api);
    const revision = current + 1;
    this.#records.set(key, Object.freeze({ state: checked, revision }));
    return Object.freeze({ revision });
  }

  async delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean> {
    const { api } = this.#open('delete');
    checkKnowledgeOptions(options, 'delete', api);
    return this.#records.delete(sessionKeyOf(id, options, api).key);
  }

  async list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]> {
    const { api } = this.#open('list');
    checkKnowledgeOptions(options, 'list', api);
    const namespace = namespaceOf(listNamespace(options, api), api);
    const keys = namespaceKeys(namespace);
    const out: KnowledgeListing[] = [];
    for (const [key, { revision }] of this.#records) {
      if (!keys.includes(key)) continue;
      out.push(Object.freeze({ key, ...sessionAddressOf(key), revision }));
    }
    return Object.freeze(out.sort((a, b) => compareCodePoints(a.key, b.key)));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
