import type { MemoryAction } from '../../model/actions';
import type { MemoryOptions } from '../../model/config';
import type { MemoryState } from '../../model/state';
import type { SessionAddress } from '../kit/sessionKey';
import type {
  PruneOptions,
  RemovedCount,
  RetentionStore,
  StoreExpiryOptions,
} from '../kit/retention';

export type { PruneOptions, RemovedCount, RetentionStore, StoreExpiryOptions };

/**
 * Where a stream lives: an optional namespace (a tenant, a user) in front of its id, as for
 * sessions. The stored key is `ns:id` with a namespace, else the bare id.
 *
 * @example
 * ```ts
 * await store.load('thread-7', { namespace: 'user-42' }); // the stream 'user-42:thread-7'
 * ```
 */
export interface StreamOptions {
  readonly namespace?: string | undefined;
}

/**
 * Options of {@link EventStore.append}. `expectedVersion` is required: `0` appends only to an
 * absent (or empty) stream, creating it; `n` only when the stream holds exactly `n` actions.
 * `config` (the `createMemory` options, the tokenizer named) is fixed when the stream is created;
 * a later append may repeat it but not change it.
 *
 * @example
 * ```ts
 * const options: AppendOptions = { expectedVersion: 0, config: { maxMessages: 50, tokenizer: 'heuristic' } };
 * ```
 */
export interface AppendOptions extends StreamOptions {
  readonly expectedVersion: number;
  readonly config?: MemoryOptions | undefined;
}

/**
 * What an append returns: the stream's new version (the number of actions it holds).
 *
 * @example
 * ```ts
 * const { version } = await store.append('s1', [action], { expectedVersion: 0 }); // 1
 * ```
 */
export interface AppendResult {
  readonly version: number;
}

/**
 * Options of {@link EventStore.read}: the versions wanted, both ends included (`fromVersion`
 * defaults to 1, the first action; `toVersion` to the stream's version when the read starts).
 *
 * @example
 * ```ts
 * const options: ReadOptions = { fromVersion: 11, toVersion: 20 };
 * ```
 */
export interface ReadOptions extends StreamOptions {
  readonly fromVersion?: number | undefined;
  readonly toVersion?: number | undefined;
}

/**
 * One stored action and its version: the stream's version once the action is applied (1 for the
 * first action).
 *
 * @example
 * ```ts
 * for await (const { version, action } of store.read('s1')) console.log(version, action.type);
 * ```
 */
export interface StoredAction {
  readonly version: number;
  readonly action: MemoryAction;
}

/**
 * Options of {@link EventStore.load}: `atVersion` (from 0, the initial state, to the stream's
 * version, the default).
 *
 * @example
 * ```ts
 * const options: LoadOptions = { atVersion: 17 };
 * ```
 */
export interface LoadOptions extends StreamOptions {
  readonly atVersion?: number | undefined;
}

/**
 * A loaded stream: the state after its first `version` actions.
 *
 * @example
 * ```ts
 * const loaded: LoadedStream | null = await store.load('s1');
 * ```
 */
export interface LoadedStream {
  readonly state: MemoryState;
  readonly version: number;
}

/**
 * One entry of {@link EventStore.streams}: the stream's id (its storage key, `ns:id`, without a
 * namespace filter, as `sessionKeyOf` makes it; the bare id with one), its `id` and `namespace`
 * (absent when none: what `load` takes back), its version and its creation time (Unix seconds).
 *
 * @example
 * ```ts
 * const info: StreamInfo = { streamId: 's1', id: 's1', version: 12, createdAt: 1764500000.5 };
 * ```
 *
 * A pruned stream also has `prunedBefore`, its first version (the actions before it were
 * replaced by a snapshot, see {@link EventStore.prune}); it is absent on a stream never pruned.
 */
export interface StreamInfo extends SessionAddress {
  readonly streamId: string;
  readonly version: number;
  readonly createdAt: number;
  readonly prunedBefore?: number;
}

/**
 * Options every event store takes: `snapshotEvery`, the distance between snapshots (default
 * 256): the state after every `snapshotEvery` actions is stored with the append that reaches it,
 * so `load` replays at most `snapshotEvery - 1` actions. Snapshots are only an optimisation.
 * `defaultTtl` (seconds after a stream's last append; omitted: forever) and `now`, as on the
 * session stores ({@link StoreExpiryOptions}).
 *
 * @example
 * ```ts
 * new InMemoryEventStore({ snapshotEvery: 64, defaultTtl: 30 * 24 * 3600 });
 * ```
 */
export interface EventStoreOptions extends StoreExpiryOptions {
  readonly snapshotEvery?: number | undefined;
}

/**
 * A durable, append-only log of memory actions, one stream per conversation: the actions are the
 * truth, the state is derived (`memoryReducer` over them, from `createMemory(config)`). The same on
 * every backend. Ids and namespaces are validated like session ids (`SessionIdError`); an append
 * at a stale `expectedVersion` fails with `EventConflictError` and writes nothing; a stored
 * record that does not decode rejects with `EventCorruptError`.
 *
 * @example
 * ```ts
 * const loaded = await store.load('s1');
 * const action = memoryActions.messageAdded(userMessage('hi'));
 * await store.append('s1', [action], { expectedVersion: loaded?.version ?? 0 });
 * ```
 */
export interface EventStore extends RetentionStore {
  /**
   * Appends the actions atomically (all or none), after checking each with `decodeAction`.
   * Resolves to the new version.
   */
  append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  /** The stream's actions in order, with their versions; nothing for an absent stream. */
  read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction>;
  /** The state at a version (the latest by default), or `null` for an absent stream. */
  load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null>;
  /** Every stream (of `namespace`, with bare ids, when given), sorted by id. */
  streams(options?: StreamOptions): Promise<readonly StreamInfo[]>;
  /** Removes the stream, its actions and snapshots; `true` when there was one. */
  delete(streamId: string, options?: StreamOptions): Promise<boolean>;
  /**
   * Replaces the stream's actions before `options.before` with a snapshot of the state at
   * `before` (taken first, in the same transaction or script): `load` and `read` from `before` on
   * are unchanged, and a `read` or `load` below it rejects with `EventPrunedError`. Refuses
   * (`MemoryArgumentError`, nothing changed) an absent stream or a `before` past its version.
   * Resolves to how many actions were removed (`0` when they were already gone).
   */
  prune(streamId: string, options: PruneOptions): Promise<RemovedCount>;
  /** Releases connections; later calls reject. */
  close(): Promise<void>;
}
