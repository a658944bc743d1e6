import { checkEventOptions } from '../kit/methodOptions';
import { readOptionFields } from '../../internal/readOptionFields';
import { createMemory } from '../../core/createMemory';
import { memoryReducer } from '../../core/memoryTransition';
import { isConversationMemoryError } from '../../errors/errorBrand';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { EventConflictError, EventPrunedError } from '../../errors/eventErrors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { MemoryAction } from '../../model/actions';
import type { MemoryConfig } from '../../model/config';
import type { MemoryState } from '../../model/state';
import { compareCodePoints } from '../kit/search';
import { openStoreCall, type StoreCall } from '../kit/storeCall';
import { namespaceKeys, namespaceOf, sessionAddressOf, sessionKeyOf } from '../kit/sessionKey';
import {
  checkPruneBefore,
  namespaceToDeleteOf,
  pruneOptionsOf,
  type PruneOptions,
  type RemovedCount,
} from '../kit/retention';
import { isSessionExpired, sessionClockOf, sessionTtlOf } from '../kit/ttl';
import {
  atVersionOf,
  checkAppend,
  checkAtVersion,
  readRangeOf,
  snapshotEveryOf,
} from '../kit/eventArgs';
import { applyStoredAction, checkSameConfig } from '../kit/eventRecords';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  EventStoreOptions,
  LoadedStream,
  LoadOptions,
  ReadOptions,
  StoredAction,
  StreamInfo,
  StreamOptions,
} from './types';

const API = 'InMemoryEventStore';
const LOCATION = 'memory';

interface Stream {
  readonly config: MemoryConfig;
  readonly createdAt: number;
  /** When the last append was (Unix seconds, by the store's clock): the TTL runs from it. */
  updatedAt: number;
  /** The first version kept: 1, or `before` of the last prune (its state is a snapshot). */
  first: number;
  /** `actions[v - first]` is the action of version `v` (a prune replaces the array). */
  actions: MemoryAction[];
  /** The state after every `snapshotEvery` actions, and at `first` once pruned, by version. */
  readonly snapshots: Map<number, MemoryState>;
  head: MemoryState;
}

/** A stream's version: the number of actions it has had, pruned ones included. */
const versionOf = (stream: Stream): number => stream.first - 1 + stream.actions.length;

/**
 * An {@link EventStore} in this process's memory (browser-safe): for tests, for a UI that keeps a
 * conversation's log, and as the reference of the semantics every store shares. Actions are kept
 * as `decodeAction` returns them (frozen copies, sharing nothing with the caller); every append
 * applies its actions to the stream's head at once, so an action the reducers cannot apply
 * rejects the whole append. Everything is lost when the process ends.
 *
 * @example
 * ```ts
 * const store = new InMemoryEventStore();
 * await store.append('s1', [memoryActions.messageAdded(userMessage('hi'))], {
 *   expectedVersion: 0,
 *   config: { maxMessages: 50, tokenizer: 'heuristic' },
 * });
 * (await store.load('s1'))?.state.messages.length; // 1
 * ```
 */
export class InMemoryEventStore implements EventStore {
  readonly #streams = new Map<string, Stream>();
  readonly #snapshotEvery: number;
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  #closed = false;

  constructor(options: EventStoreOptions = {}) {
    const { snapshotEvery, defaultTtl, now } = readOptionFields(
      options,
      ['snapshotEvery', 'defaultTtl', 'now'],
      API,
      { example: '{ snapshotEvery: 64 }', hints: { ttl: 'defaultTtl', default_ttl: 'defaultTtl' } },
    );
    this.#snapshotEvery = snapshotEveryOf(snapshotEvery, API);
    this.#ttl = sessionTtlOf(defaultTtl, API);
    this.#now = sessionClockOf(now, API);
  }

  /** Whether `stream` has expired by now (more than `defaultTtl` since its last append). */
  #expired(stream: Stream): boolean {
    return isSessionExpired(stream.updatedAt, this.#ttl, this.#now());
  }

  /** The live stream under `key`; an expired one is dropped (with its actions and snapshots). */
  #live(key: string): Stream | undefined {
    const stream = this.#streams.get(key);
    if (stream === undefined || !this.#expired(stream)) return stream;
    this.#streams.delete(key);
    return undefined;
  }

  /** Opens a call of `method` (`openStoreCall`): it rejects once the store is closed. */
  #open(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const { api } = this.#open('append');
    const checked = checkAppend(streamId, actions, options, api);
    const { key, expectedVersion } = checked;
    const found = this.#live(key);
    const actual = found === undefined ? 0 : versionOf(found);
    if (actual !== expectedVersion) throw new EventConflictError(api, key, expectedVersion, actual);
    if (found !== undefined) checkSameConfig(key, found.config, checked.config, api);
    const config = found?.config ?? createMemory(checked.config).config;
    let head = found?.head ?? createMemory(config);
    const snapshots: [number, MemoryState][] = [];
    // Every action is applied before anything is kept: a reducer that throws rejects the batch.
    checked.actions.forEach((action, i) => {
      const version = actual + i + 1;
      try {
        head = memoryReducer(head, action);
      } catch (error) {
        const reason = isConversationMemoryError(error) ? error.detail : errorText(error);
        throw new MemoryArgumentError(
          api,
          `actions[${i}] cannot be applied to stream ${describeValue(key)} at version ${version - 1}: ${reason}; nothing was written`,
          { cause: error },
        );
      }
      if (version % this.#snapshotEvery === 0) snapshots.push([version, head]);
    });
    const now = this.#now();
    const stream: Stream = found ?? {
      config,
      createdAt: now,
      updatedAt: now,
      first: 1,
      actions: [],
      snapshots: new Map(),
      head,
    };
    stream.actions.push(...checked.actions);
    for (const [version, state] of snapshots) stream.snapshots.set(version, state);
    stream.head = head;
    stream.updatedAt = now;
    this.#streams.set(key, stream);
    return { version: versionOf(stream) };
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api } = this.#open('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    const stream = this.#live(key);
    if (stream === undefined) return;
    // What the read started with: a prune meanwhile replaces the array, an append only adds.
    const { actions, first } = stream;
    if (from < first) throw new EventPrunedError(api, key, from, first);
    const last = Math.min(to, versionOf(stream));
    for (let version = from; version <= last; version++) {
      yield Object.freeze({ version, action: actions[version - first] as MemoryAction });
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    const { api } = this.#open('load');
    checkEventOptions(options, 'load', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const atVersion = atVersionOf(options, api);
    const stream = this.#live(key);
    if (stream === undefined) return null;
    const version = versionOf(stream);
    if (atVersion === undefined || atVersion === version) return { state: stream.head, version };
    checkAtVersion(key, atVersion, version, api);
    return { state: this.#stateAt(stream, key, atVersion, api), version: atVersion };
  }

  /**
   * The state of `stream` at `atVersion` (from its first version to its version): the latest
   * snapshot at or below it (a multiple of `snapshotEvery`, or the prune's at `first`), then the
   * actions after it.
   *
   * @throws EventPrunedError below the first version of a pruned stream
   */
  #stateAt(stream: Stream, key: string, atVersion: number, api: string): MemoryState {
    const { first, actions, snapshots } = stream;
    // Version 0 is createMemory(config) unless the stream was pruned; then `first` is the floor.
    const floor = first === 1 ? 0 : first;
    if (atVersion < floor) throw new EventPrunedError(api, key, atVersion, first);
    let start = atVersion - (atVersion % this.#snapshotEvery);
    while (start > floor && !snapshots.has(start)) start -= this.#snapshotEvery;
    if (start <= floor) start = floor;
    let state = snapshots.get(start) ?? createMemory(stream.config);
    for (let v = start + 1; v <= atVersion; v++) {
      const action = actions[v - first] as MemoryAction;
      state = applyStoredAction(state, action, { key, version: v, location: LOCATION, api });
    }
    return state;
  }

  async prune(streamId: string, options: PruneOptions): Promise<RemovedCount> {
    const { api } = this.#open('prune');
    const { before, namespace } = pruneOptionsOf(options, api);
    const { key } = sessionKeyOf(streamId, { namespace }, api);
    const stream = this.#live(key);
    checkPruneBefore(key, before, stream === undefined ? 0 : versionOf(stream), api);
    // `checkPruneBefore` refused an absent stream; `before` at or below `first` cuts nothing.
    if (stream === undefined || before <= stream.first) return Object.freeze({ removed: 0 });
    const { first, actions, snapshots } = stream;
    // The state at `before` first (a replay that fails changes nothing), then the cut.
    const kept = this.#stateAt(stream, key, before, api);
    snapshots.set(before, kept);
    for (const version of snapshots.keys()) if (version < before) snapshots.delete(version);
    stream.actions = actions.slice(before - first);
    stream.first = before;
    return Object.freeze({ removed: before - first });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    const { api } = this.#open('streams');
    const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
    const keys = namespaceKeys(namespace);
    const found: StreamInfo[] = [];
    for (const key of this.#streams.keys()) {
      const streamId = keys.idOf(key);
      const stream = streamId === undefined ? undefined : this.#live(key);
      if (streamId === undefined || stream === undefined) continue;
      const { createdAt, first } = stream;
      const version = versionOf(stream);
      found.push(
        Object.freeze(
          first === 1
            ? { streamId, ...sessionAddressOf(key), version, createdAt }
            : { streamId, ...sessionAddressOf(key), version, createdAt, prunedBefore: first },
        ),
      );
    }
    return found.sort((a, b) => compareCodePoints(a.streamId, b.streamId));
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    const { api } = this.#open('delete');
    checkEventOptions(options, 'delete', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const live = this.#live(key) !== undefined;
    this.#streams.delete(key);
    return live;
  }

  async sweep(): Promise<RemovedCount> {
    this.#open('sweep');
    return this.#remove((_, stream) => this.#expired(stream));
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    const { api } = this.#open('deleteNamespace');
    const keys = namespaceKeys(namespaceToDeleteOf(namespace, api));
    return this.#remove((key) => keys.includes(key));
  }

  /** Removes every stream `matches` (expired or not), in one synchronous step; counts them. */
  #remove(matches: (key: string, stream: Stream) => boolean): RemovedCount {
    let removed = 0;
    for (const [key, stream] of this.#streams) {
      if (matches(key, stream) && this.#streams.delete(key)) removed++;
    }
    return Object.freeze({ removed });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#streams.clear();
  }
}
