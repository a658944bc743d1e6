/**
 * Where a record of a {@link RevisionedStore} lives: an optional namespace (a tenant, a user) next
 * to its id, validated as `sessionKeyOf` validates it. `SessionOptions` and
 * `KnowledgeStoreOptions` have this shape.
 *
 * @example
 * ```ts
 * const where: RevisionedRecordOptions = { namespace: 'acme' };
 * await store.load('user-42', where);
 * ```
 */
export interface RevisionedRecordOptions {
  readonly namespace?: string | undefined;
}

/**
 * Options of {@link RevisionedStore.save}: `expectedRevision` makes the save conditional. `0`
 * saves only when nothing is stored under the id, `n` only when the stored revision is `n`;
 * omitted, the save is unconditional (last writer wins). `SaveOptions` and `KnowledgeSaveOptions`
 * have this shape.
 *
 * @example
 * ```ts
 * const loaded = await store.load('user-42');
 * const options: RevisionedSaveOptions = { expectedRevision: loaded?.revision ?? 0 };
 * ```
 */
export interface RevisionedSaveOptions extends RevisionedRecordOptions {
  readonly expectedRevision?: number | undefined;
}

/**
 * A record as {@link RevisionedStore.load} returns it: the state and its revision, which the next
 * save passes as `expectedRevision` (a store may add fields: `LoadedSession` adds its timestamps).
 *
 * @example
 * ```ts
 * const loaded: LoadedRevision<KnowledgeState> = { state: createKnowledge(), revision: 1 };
 * ```
 */
export interface LoadedRevision<State> {
  readonly state: State;
  readonly revision: number;
}

/**
 * What {@link RevisionedStore.save} returns: the new revision (1 for a new record, then one more
 * per save). `SavedSession` and `SavedKnowledge` have this shape.
 *
 * @example
 * ```ts
 * const saved: SavedRevision = { revision: 1 };
 * ```
 */
export interface SavedRevision {
  readonly revision: number;
}

/**
 * The contract the session and knowledge stores share (`SessionStore` and `KnowledgeStore` are
 * declared with it): one state per id and namespace, each save bumping a revision so that two
 * writers never lose an update. `State` is what is stored, `Loaded` what `load` returns (the
 * state, its revision and what else the store keeps), `Listing` one entry of `list`. Code that
 * only loads, saves conditionally, deletes and lists works on either family through it.
 *
 * - `load` resolves to `null` when nothing (live) is stored; a record that does not decode
 *   rejects, naming its key.
 * - `save` with `expectedRevision` writes only over that revision (`0`: only when absent) and
 *   otherwise rejects with the family's conflict error, writing nothing.
 * - after `close()`, every method rejects with `MemoryArgumentError` (`Store.method: the store is
 *   closed`): see `openStoreCall`.
 *
 * @typeParam State - the stored state (`MemoryState`, `KnowledgeState`)
 * @typeParam Loaded - what `load` returns (`LoadedSession`, `LoadedKnowledge`)
 * @typeParam Listing - one entry of `list` (`SessionMetadata`, `KnowledgeListing`)
 * @example
 * ```ts
 * // Works with a SessionStore and with a KnowledgeStore.
 * const update = async <S>(store: RevisionedStore<S>, id: string, change: (s: S) => S) => {
 *   const loaded = await store.load(id);
 *   if (loaded === null) return null;
 *   return store.save(id, change(loaded.state), { expectedRevision: loaded.revision });
 * };
 * ```
 */
export interface RevisionedStore<
  State,
  Loaded extends LoadedRevision<State> = LoadedRevision<State>,
  Listing = unknown,
> {
  /** The state and its revision, or `null` when nothing is stored; a damaged record rejects. */
  load(id: string, options?: RevisionedRecordOptions): Promise<Loaded | null>;
  /** Writes the state; resolves to the new revision. */
  save(id: string, state: State, options?: RevisionedSaveOptions): Promise<SavedRevision>;
  /** Removes the record; `true` when there was one. */
  delete(id: string, options?: RevisionedRecordOptions): Promise<boolean>;
  /**
   * Every readable record, sorted by key. The contract takes no options (`SessionStore.list()`
   * has none); `KnowledgeStore.list` also takes a `namespace`.
   */
  list(): Promise<readonly Listing[]>;
  /** Releases connections (stores that hold none resolve at once). */
  close(): Promise<void>;
}
