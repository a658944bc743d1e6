import { checkEventOptions } from '../kit/methodOptions';
import { readOptionFields } from '../../internal/readOptionFields';
import { createMemory } from '../../core/createMemory';
import { memoryReducer } from '../../core/memoryTransition';
import { isConversationMemoryError } from '../../errors/errorBrand';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { EventConflictError } from '../../errors/eventErrors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { MemoryAction } from '../../model/actions';
import type { MemoryConfig } from '../../model/config';
import type { MemoryState } from '../../model/state';
import { compareCodePoints } from '../kit/search';
import { openStoreCall, type StoreCall } from '../kit/storeCall';
import { namespaceKeys, namespaceOf, sessionAddressOf, sessionKeyOf } from '../kit/sessionKey';
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
  /** `actions[v - 1]` is the action of version `v`. */
  readonly actions: MemoryAction[];
  /** The state after every `snapshotEvery` actions, by version. */
  readonly snapshots: Map<number, MemoryState>;
  head: MemoryState;
}

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
  #closed = false;

  constructor(options: EventStoreOptions = {}) {
    const { snapshotEvery } = readOptionFields(options, ['snapshotEvery'], API, {
      example: '{ snapshotEvery: 64 }',
    });
    this.#snapshotEvery = snapshotEveryOf(snapshotEvery, API);
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
    const found = this.#streams.get(key);
    const actual = found?.actions.length ?? 0;
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
    const stream: Stream = found ?? {
      config,
      createdAt: Date.now() / 1000,
      actions: [],
      snapshots: new Map(),
      head,
    };
    stream.actions.push(...checked.actions);
    for (const [version, state] of snapshots) stream.snapshots.set(version, state);
    stream.head = head;
    this.#streams.set(key, stream);
    return { version: stream.actions.length };
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api } = this.#open('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    const stream = this.#streams.get(key);
    if (stream === undefined) return;
    const last = Math.min(to, stream.actions.length);
    for (let version = from; version <= last; version++) {
      yield Object.freeze({ version, action: stream.actions[version - 1] as MemoryAction });
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    const { api } = this.#open('load');
    checkEventOptions(options, 'load', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const atVersion = atVersionOf(options, api);
    const stream = this.#streams.get(key);
    if (stream === undefined) return null;
    const version = stream.actions.length;
    if (atVersion === undefined || atVersion === version) return { state: stream.head, version };
    checkAtVersion(key, atVersion, version, api);
    let start = atVersion - (atVersion % this.#snapshotEvery);
    while (start > 0 && !stream.snapshots.has(start)) start -= this.#snapshotEvery;
    let state = stream.snapshots.get(start) ?? createMemory(stream.config);
    for (let v = start + 1; v <= atVersion; v++) {
      const action = stream.actions[v - 1] as MemoryAction;
      state = applyStoredAction(state, action, { key, version: v, location: LOCATION, api });
    }
    return { state, version: atVersion };
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    const { api } = this.#open('streams');
    const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
    const keys = namespaceKeys(namespace);
    const found: StreamInfo[] = [];
    for (const [key, stream] of this.#streams) {
      const streamId = keys.idOf(key);
      if (streamId === undefined) continue;
      found.push(
        Object.freeze({
          streamId,
          ...sessionAddressOf(key),
          version: stream.actions.length,
          createdAt: stream.createdAt,
        }),
      );
    }
    return found.sort((a, b) => compareCodePoints(a.streamId, b.streamId));
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    const { api } = this.#open('delete');
    checkEventOptions(options, 'delete', api);
    const { key } = sessionKeyOf(streamId, options, api);
    return this.#streams.delete(key);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#streams.clear();
  }
}
