import {
  type AppendOptions,
  type AppendResult,
  EventPrunedError,
  type EventStore,
  type LoadedStream,
  type LoadOptions,
  type MemoryAction,
  type PruneOptions,
  type ReadOptions,
  type RemovedCount,
  type StoredAction,
  type StreamInfo,
  type StreamOptions,
} from 'conversation-memory';
import {
  atVersionOf,
  checkAppend,
  checkAtVersion,
  readConfigJson,
  namespaceOf,
  readRangeOf,
  sessionKeyOf,
  checkEventOptions,
  namespaceToDeleteOf,
  pruneOptionsOf,
} from 'conversation-memory/store-kit';
import { namingTheId, StoreCalls } from '../storeCalls';
import { RedisConnection } from './connection';
import { DELETE_EVENTS_SCRIPT } from './eventRetentionScripts';
import {
  deleteRedisStreamNamespace,
  type RedisEventStoreParts,
  sweepRedisStreams,
} from './eventRetention';
import { listRedisStreams } from './eventListing';
import { pruneStream } from './eventPrune';
import { readEventStoreOptions, type RedisEventStoreOptions } from './options';
import {
  checkSubscription,
  followRedisStream,
  type StreamListener,
  type SubscribeOptions,
  type Unsubscribe,
} from './eventSubscription';
import { type RedisEventKeyLayout, redisEventKeyLayout } from './schema';
import { runScript } from './scripts';
import { RedisEventStreams } from './eventStreams';
import { appendToStream } from './eventAppend';

export type { RedisEventClient, RedisEventStoreOptions } from './options';
export type { StreamListener, SubscribeOptions, Unsubscribe } from './eventSubscription';

const API = 'RedisEventStore';

/** Reads of a stream's head by a `load` that a concurrent prune keeps overtaking. */
const LOAD_ROUNDS = 3;

/**
 * An {@link EventStore} on Redis Streams, one server or a Redis Cluster (node-redis 5 or 6, an
 * optional peer loaded only when the store makes its own client), shared by any number of
 * processes and machines.
 *
 * Layout (see `redisEventKeyLayout`; it cannot collide with the session store's keys, even under
 * one prefix, and a stream's three keys share one Cluster slot): a Redis Stream per conversation
 * at `${prefix}{${key}}ev` whose entry `v-0` holds the action of version `v` (field `a`, its
 * JSON); a hash `${prefix}{${key}}evc` with the stream's config, creation time and incarnation (a
 * random id per creation, so a reader notices a stream deleted and created again); a hash of
 * snapshots `${prefix}{${key}}evs` (field = version).
 *
 * Every append is one Lua script: the version check (the number of entries, and the last id
 * `version-0`), the config written by the creating append, the `XADD`s of the batch with explicit
 * ids and the snapshots it reaches run alone on the server, so of concurrent appends at one
 * expected version exactly one wins and the others write nothing. The snapshot states are
 * computed here beforehand (from the state at the expected version) and written by the script
 * only if the stream is still the one they were computed on. `read` and `load` page through
 * `XRANGE` (512 entries at a time); `streams` walks the meta keys with SCAN on every
 * master. `subscribe` follows a stream live with blocking `XREAD`s on a connection of its own.
 * With `defaultTtl`, every script treats a stream more than that long after its last append (the
 * meta field `updated_at`, by the store's clock) as absent, and its keys share one Redis expiry
 * (the TTL plus a margin) that only collects them. `prune` cuts a stream in one script with its
 * snapshot; the meta field `first` records its first version.
 * Failures to reach Redis reject with `StoreUnavailableError`; with `minReplicas`, an append
 * resolves only once that many replicas hold it.
 *
 * @example
 * ```ts
 * import { RedisEventStore } from 'conversation-memory/node';
 *
 * const store = new RedisEventStore({ url: 'redis://localhost:6379/0' });
 * const loaded = await store.load('thread-7');
 * await store.append('thread-7', [memoryActions.messageAdded(userMessage('hi'))], {
 *   expectedVersion: loaded?.version ?? 0,
 * });
 * const unsubscribe = store.subscribe('thread-7', 0, ({ version, action }) => show(version, action));
 * await unsubscribe();
 * await store.close();
 * ```
 */
export class RedisEventStore implements EventStore {
  /** The prefix in front of every key this store reads or writes. */
  readonly prefix: string;
  readonly #connection: RedisConnection;
  readonly #layout: RedisEventKeyLayout;
  readonly #streams: RedisEventStreams;
  readonly #subscriptions = new Set<Unsubscribe>();
  readonly #calls = new StoreCalls(API, namingTheId);
  /** What the listing, `sweep` and `deleteNamespace` work with. */
  readonly #parts: RedisEventStoreParts;

  constructor(options: RedisEventStoreOptions) {
    const settings = readEventStoreOptions(options, API);
    this.prefix = settings.prefix;
    this.#connection = new RedisConnection(settings.source, settings.connection);
    this.#layout = redisEventKeyLayout(settings.prefix);
    this.#streams = new RedisEventStreams(
      this.#connection,
      this.#layout,
      settings.snapshotEvery,
      () => this.#calls.closed,
      { ttl: settings.ttl, now: settings.now },
    );
    this.#parts = { connection: this.#connection, layout: this.#layout, streams: this.#streams };
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return this.#calls.write('append', { id: streamId }, async ({ api }) => {
      const checked = checkAppend(streamId, actions, options, api);
      return appendToStream(this.#streams, this.#connection, this.#layout, api, checked);
    });
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api } = this.#calls.open('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    try {
      const head = await this.#streams.head(api, key, 0);
      if (head === null) return;
      if (from < head.first) throw new EventPrunedError(api, key, from, head.first);
      const pages = this.#streams.pages(
        api,
        key,
        head.incarnation,
        from,
        Math.min(to, head.version),
      );
      const end = yield* pages;
      // Pruned past the read while it went on: say so rather than end it short.
      if (typeof end === 'object') throw new EventPrunedError(api, key, from, end.prunedBefore);
    } catch (error) {
      // A failure to reach Redis names the stream, as the other methods' do.
      throw this.#calls.failed(error, 'read', { id: streamId });
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    return this.#calls.run('load', { id: streamId }, async ({ api }) => {
      checkEventOptions(options, 'load', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const atVersion = atVersionOf(options, api);
      for (let round = 1; ; round++) {
        const head = await this.#streams.head(api, key, atVersion);
        if (head === null) return null;
        const target = atVersion ?? head.version;
        checkAtVersion(key, target, head.version, api);
        // Below the first version of a pruned stream (version 0 included): gone.
        if (head.first > 1 && target < head.first) {
          throw new EventPrunedError(api, key, target, head.first);
        }
        const config = readConfigJson(head.config, this.#streams.at(api, key, 0));
        try {
          const state = await this.#streams.replay(api, key, head, config, target);
          // The stream was deleted while it was being read: it is absent now.
          return state === null ? null : Object.freeze({ state, version: target });
        } catch (error) {
          // Pruned meanwhile past the snapshot the replay started from: read the head again.
          if (!(error instanceof EventPrunedError) || round >= LOAD_ROUNDS) throw error;
        }
      }
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    const { api } = this.#calls.open('streams');
    // Read once: the listing sees the copy.
    const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
    return listRedisStreams(this.#parts, namespace, api);
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    return this.#calls.write('delete', { id: streamId }, async ({ api }) => {
      checkEventOptions(options, 'delete', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const reply = await runScript(
        this.#connection,
        DELETE_EVENTS_SCRIPT,
        this.#streams.keys(key),
        this.#streams.expiryArgs(),
        api,
      );
      await this.#connection.confirmWrite(this.#layout.stream(key), api);
      return reply === 1 || reply === '1';
    });
  }

  /**
   * Replaces the stream's actions before `options.before` with a snapshot of the state there, in
   * one script with the snapshot write (see `EventStore.prune`); resolves to how many actions
   * were removed. Needs Redis 6.2 or later (`XTRIM MINID`).
   *
   * @example
   * ```ts
   * await store.prune('thread-7', { before: 1_000, namespace: 'user-42' }); // { removed: 999 }
   * ```
   */
  async prune(streamId: string, options: PruneOptions): Promise<RemovedCount> {
    return this.#calls.write('prune', { id: streamId }, async ({ api }) => {
      const { before, namespace } = pruneOptionsOf(options, api);
      const { key } = sessionKeyOf(streamId, { namespace }, api);
      return pruneStream(this.#streams, this.#connection, api, key, before);
    });
  }

  /**
   * Removes the streams that have expired (more than `defaultTtl` seconds after their last
   * append, by the store's clock), each stream's keys in one script as SCAN finds them;
   * `{ removed: 0 }` without a TTL.
   *
   * @example
   * ```ts
   * const { removed } = await store.sweep();
   * ```
   */
  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) =>
      Object.freeze({ removed: await sweepRedisStreams(this.#parts, call) }),
    );
  }

  /**
   * Removes every stream of `namespace` (its actions, config and snapshots; expired, pruned and
   * damaged ones too), and nothing of another namespace; resolves to how many streams.
   *
   * @example
   * ```ts
   * await store.deleteNamespace('user-42'); // { removed: 5 }
   * ```
   */
  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      const removed = await deleteRedisStreamNamespace(this.#parts, checked, call);
      return Object.freeze({ removed });
    });
  }

  /**
   * Follows a stream live, from another process or machine (a UI server, an inspector): calls
   * `listener` with each action after `fromVersion` (already stored or appended later), in order,
   * each once, using blocking `XREAD`s on a connection of its own (made from the URL, or the
   * given client's `duplicate()`). The stream need not exist yet. See {@link SubscribeOptions}
   * for errors. `close()` stops every subscription of the store.
   *
   * @param streamId - the stream's id
   * @param fromVersion - the version already seen (0: from the first action)
   * @param listener - called with `{ version, action }`
   * @param options - `namespace`, `onError`
   * @returns the function that stops the subscription
   * @throws SessionIdError, MemoryArgumentError (a bad `fromVersion`, a closed store, a client
   *   without `duplicate()`)
   * @example
   * ```ts
   * const unsubscribe = store.subscribe('thread-7', loaded.version, ({ version, action }) => {
   *   ui.apply(version, action);
   * }, { onError: (error) => log.warn(error) });
   * // later
   * await unsubscribe();
   * ```
   */
  subscribe(
    streamId: string,
    fromVersion: number,
    listener: StreamListener,
    options?: SubscribeOptions,
  ): Unsubscribe {
    const { api } = this.#calls.open('subscribe');
    // Read once: the subscription sees the copy.
    const given = checkEventOptions(options, 'subscribe', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const onError = checkSubscription(api, streamId, fromVersion, listener, given.onError);
    const stop = followRedisStream(
      {
        connection: this.#connection.dedicated(api),
        name: this.#layout.stream(key),
        meta: this.#layout.meta(key),
        key,
        location: `redis:${this.#layout.stream(key)}`,
        api,
      },
      fromVersion,
      listener,
      onError,
    );
    const unsubscribe: Unsubscribe = async () => {
      this.#subscriptions.delete(unsubscribe);
      await stop();
    };
    this.#subscriptions.add(unsubscribe);
    return unsubscribe;
  }

  /**
   * Stops every subscription and closes the clients the store made from `url`; a client passed
   * as `client` stays open.
   */
  async close(): Promise<void> {
    this.#calls.close();
    await Promise.all([...this.#subscriptions].map((unsubscribe) => unsubscribe()));
    await this.#connection.close();
  }
}
