import type { KnowledgeState } from '../../model/knowledge';
import type { RevisionedStore } from '../kit/revisionedStore';
import type { RetentionStore } from '../kit/retention';

/**
 * Where a knowledge state lives in a {@link KnowledgeStore}: an optional namespace (a tenant) and
 * its id (a user, an agent), validated exactly like session ids and namespaces (`sessionKeyOf`:
 * not empty, no null byte, at most 512 characters, well-formed Unicode).
 *
 * @example
 * ```ts
 * await store.load('user-42', { namespace: 'acme' });
 * ```
 */
export interface KnowledgeStoreOptions {
  readonly namespace?: string | undefined;
}

/**
 * Options of {@link KnowledgeStore.save}: `expectedRevision` makes the save conditional: `0`
 * saves only when nothing is stored under the id, `n` only when the stored revision is `n`.
 * Omitted, the save is unconditional (last writer wins), which an application sharing knowledge
 * between writers should never use.
 *
 * @example
 * ```ts
 * const loaded = await store.load('user-42');
 * await store.save('user-42', next, { expectedRevision: loaded?.revision ?? 0 });
 * ```
 */
export interface KnowledgeSaveOptions extends KnowledgeStoreOptions {
  readonly expectedRevision?: number | undefined;
}

/**
 * A loaded knowledge state and its revision (pass it as `expectedRevision` to the next save).
 *
 * @example
 * ```ts
 * const loaded: LoadedKnowledge | null = await store.load('user-42');
 * const knowledge = loaded?.state ?? createKnowledge();
 * ```
 */
export interface LoadedKnowledge {
  readonly state: KnowledgeState;
  readonly revision: number;
}

/**
 * What a save returns: the new revision (1 for a new record, then one more per save).
 *
 * @example
 * ```ts
 * const saved: SavedKnowledge = { revision: 1 };
 * ```
 */
export interface SavedKnowledge {
  readonly revision: number;
}

/**
 * What {@link KnowledgeStore.stamp} gives: the record's revision and the time of its last save, by
 * the store's clock (`now`: Unix seconds for the stores of `conversation-memory/node`).
 *
 * @example
 * ```ts
 * const stamp: KnowledgeStamp = { revision: 3, savedAt: 1764500000.5 };
 * ```
 */
export interface KnowledgeStamp {
  readonly revision: number;
  readonly savedAt: number;
}

/**
 * One entry of {@link KnowledgeStore.list}: the `id` and `namespace` (absent when it has none)
 * that load it back, its storage `key` (`ns:id`, as `sessionKeyOf` makes it) and its revision.
 *
 * @example
 * ```ts
 * const listed: KnowledgeListing = { key: 'acme:user-42', id: 'user-42', namespace: 'acme', revision: 3 };
 * await store.load(listed.id, { namespace: listed.namespace });
 * ```
 */
export interface KnowledgeListing {
  readonly key: string;
  readonly id: string;
  readonly namespace?: string;
  readonly revision: number;
}

/**
 * Long-term knowledge that outlives a conversation, shared across sessions and agents: one
 * {@link KnowledgeState} per id (and namespace), with a revision so that two writers never lose
 * an update. The same on every backend (`InMemoryKnowledgeStore`, `SqliteKnowledgeStore`,
 * `RedisKnowledgeStore`), all checked by one conformance suite:
 *
 * - ids and namespaces are validated like session ids (`SessionIdError`);
 * - every method's options are strict (a misspelled key is a `MemoryArgumentError`);
 * - `save` checks the state with `decodeKnowledgeState` (a bad one is a `MemoryArgumentError`,
 *   nothing written); a stale `expectedRevision` fails with `KnowledgeConflictError` and writes
 *   nothing;
 * - a stored record that does not decode makes `load` reject with `KnowledgeCorruptError` naming
 *   its key; `list` skips it; a save or delete over it keeps a copy aside (it counts as absent for
 *   `expectedRevision`): nothing is silently dropped;
 * - after `close()`, every method rejects.
 *
 * It is a {@link RevisionedStore}, the contract it shares with `SessionStore`.
 *
 * @example
 * ```ts
 * const loaded = await store.load('user-42');
 * const next = remembered(loaded?.state ?? createKnowledge(), payload).state;
 * await store.save('user-42', next, { expectedRevision: loaded?.revision ?? 0 });
 * ```
 */
export interface KnowledgeStore
  extends RevisionedStore<KnowledgeState, LoadedKnowledge, KnowledgeListing>, RetentionStore {
  /** The state and its revision, or `null` when nothing is stored; a damaged record rejects. */
  load(id: string, options?: KnowledgeStoreOptions): Promise<LoadedKnowledge | null>;
  /**
   * What tells the stored record's version without reading its state: its `revision` and
   * `savedAt` (the store's clock at its last save), or `null` when nothing live is stored. Two
   * equal stamps mean no save came between them (a delete and a new save at the same revision in
   * the same clock reading excepted), which the revision alone cannot say: a deleted record starts
   * again at revision 1. For a reader that keeps the state it loaded and loads again only when the
   * stamp moved (the MCP server does). A record whose revision cannot be read rejects with
   * `KnowledgeCorruptError`; a record whose state is damaged is stamped all the same (`load`
   * rejects).
   *
   * Optional, so that a store written before it still type-checks; every store of this package
   * has it, and the conformance suite checks it when a store has it.
   *
   * @example
   * ```ts
   * const stamp = await store.stamp?.('user-42'); // { revision: 3, savedAt: 1764500000.5 }
   * ```
   */
  stamp?(id: string, options?: KnowledgeStoreOptions): Promise<KnowledgeStamp | null>;
  /** Writes the state (checked first); resolves to the new revision. */
  save(id: string, state: KnowledgeState, options?: KnowledgeSaveOptions): Promise<SavedKnowledge>;
  /** Removes the record; `true` when there was one. */
  delete(id: string, options?: KnowledgeStoreOptions): Promise<boolean>;
  /** Every readable record (of one namespace when given), sorted by `key`. */
  list(options?: KnowledgeStoreOptions): Promise<readonly KnowledgeListing[]>;
  /** Releases connections (stores that hold none resolve at once). */
  close(): Promise<void>;
}
