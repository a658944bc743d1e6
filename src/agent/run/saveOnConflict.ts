import { isConversationMemoryError } from '../../errors/errorBrand';
import type {
  LoadedRevision,
  RevisionedRecordOptions,
  RevisionedStore,
} from '../../stores/kit/revisionedStore';

/**
 * One record a run saves with the revision it read: its store (a session or knowledge store, both
 * a `RevisionedStore`), `id` and options (`namespace`; passed as given to `load` and, with
 * `expectedRevision`, to `save`), the code of the store's conflict error, and how many saves are
 * tried before a conflict rejects.
 *
 * @example
 * ```ts
 * const record: RevisionedRecord<MemoryState> = {
 *   store: sessions, id: 'thread-7', options: { namespace: 'user-42' },
 *   conflict: 'CM_SESSION_CONFLICT', attempts: 2,
 * };
 * ```
 * @internal
 */
export interface RevisionedRecord<State> {
  readonly store: RevisionedStore<State, LoadedRevision<State>>;
  readonly id: string;
  readonly options: RevisionedRecordOptions;
  readonly conflict: 'CM_SESSION_CONFLICT' | 'CM_KNOWLEDGE_CONFLICT';
  readonly attempts: number;
}

/**
 * The agent's one retry-on-conflict loop (the session save at the end of a run, a knowledge
 * module's commit): saves `state` expecting `revision`; when another writer saved in between (the
 * store's conflict error), `redo` loads the latest record (through the `load` it is given) and
 * makes the run's change again on it, and that is saved expecting the revision loaded, up to
 * `record.attempts` saves in all. `redo` resolving to `undefined` means nothing is left to save
 * (the other writer already saved the same facts).
 *
 * @param record - the store, the record and the retry policy
 * @param state - the state to save first
 * @param revision - the revision the run read (`0`: nothing was stored)
 * @param redo - the run's change made again on the latest record, which it reads with `load`
 *   (`null`: none is stored now) when it is ready to
 * @returns the state saved and its new revision, or `undefined` when a `redo` had nothing to save
 * @throws the store's error; its conflict error after `record.attempts` conflicting saves
 * @example
 * ```ts
 * const saved = await saveOnConflict(record, memory.state, loaded.revision, async (load) => {
 *   const latest = await load();
 *   return reapplyRun(latest?.state ?? createMemory(), added, false);
 * });
 * ```
 * @internal
 */
export const saveOnConflict = async <State>(
  record: RevisionedRecord<State>,
  state: State,
  revision: number,
  redo: (load: () => Promise<LoadedRevision<State> | null>) => Promise<State | undefined>,
): Promise<{ readonly state: State; readonly revision: number } | undefined> => {
  const { store, id, options } = record;
  let next = state;
  let expected = revision;
  const load = async (): Promise<LoadedRevision<State> | null> => {
    const latest = await store.load(id, options);
    expected = latest?.revision ?? 0;
    return latest;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const saved = await store.save(id, next, { ...options, expectedRevision: expected });
      return { state: next, revision: saved.revision };
    } catch (error) {
      const conflict = isConversationMemoryError(error) && error.code === record.conflict;
      if (!conflict || attempt >= record.attempts) throw error;
    }
    const again = await redo(load);
    if (again === undefined) return undefined;
    next = again;
  }
};
