import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  type AppendOptions,
  type AppendResult,
  createMemory,
  EventConflictError,
  EventCorruptError,
  type EventStore,
  type LoadedStream,
  type LoadOptions,
  type MemoryAction,
  MemoryArgumentError,
  type MemoryConfig,
  type MemoryState,
  type ReadOptions,
  memoryReducer,
  type StoredAction,
  type StreamInfo,
  type StreamOptions,
} from 'conversation-memory';
import {
  applyStoredAction,
  atVersionOf,
  checkAppend,
  checkAtVersion,
  checkSameConfig,
  compareCodePoints,
  readActionJson,
  readConfigJson,
  readSnapshotJson,
  encodeActionJson,
  encodeConfigJson,
  encodeSnapshotJson,
  namespaceKeyPrefix,
  namespaceOf,
  readRangeOf,
  sessionAddressOf,
  sessionKeyOf,
  checkEventOptions,
  describeValue,
  openStoreCall,
  type StoreCall,
} from 'conversation-memory/store-kit';
import { naming, withId } from '../environmentFailure';
import { RedisConnection } from './connection';
import {
  APPEND_SCRIPT,
  DELETE_EVENTS_SCRIPT,
  HEAD_SCRIPT,
  INFO_SCRIPT,
  PAGE_SCRIPT,
  SNAPSHOT_SCRIPT,
} from './eventScripts';
import { readEventStoreOptions, type RedisEventStoreOptions } from './options';
import {
  followRedisStream,
  type StreamListener,
  type SubscribeOptions,
  type Unsubscribe,
} from './eventSubscription';
import { type RedisEventKeyLayout, redisEventKeyLayout } from './schema';
import { redisStatusReply, redisText } from './reply';
import { scanRedisKeys } from './scan';
import { runScript } from './scripts';

export type { RedisEventClient, RedisEventStoreOptions } from './options';
export type { StreamListener, SubscribeOptions, Unsubscribe } from './eventSubscription';

const API = 'RedisEventStore';
/** Actions read per round trip: `read` and `load` never hold more of a stream than this at once. */
const PAGE = 512;
/** Rounds of an append whose config check meets a config stored in another spelling. */
const CONFIG_ROUNDS = 3;

/** A stream's head, read in one step. */
interface Head {
  readonly version: number;
  readonly config: unknown;
  readonly createdAt: unknown;
  readonly incarnation: string;
  readonly snapshotVersion: number;
  readonly snapshot: unknown;
}

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
  readonly #snapshotEvery: number;
  readonly #subscriptions = new Set<Unsubscribe>();
  #closed = false;

  constructor(options: RedisEventStoreOptions) {
    const settings = readEventStoreOptions(options, API);
    this.prefix = settings.prefix;
    this.#connection = new RedisConnection(settings.source, settings.connection);
    this.#layout = redisEventKeyLayout(settings.prefix);
    this.#snapshotEvery = settings.snapshotEvery;
  }

  /** Opens a call of `method` (see `openStoreCall`): rejects when the store is closed. */
  #call(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  #keys(key: string): [string, string, string] {
    return [this.#layout.stream(key), this.#layout.meta(key), this.#layout.snapshots(key)];
  }

  #at(api: string, key: string, version: number) {
    return { key, version, location: `redis:${this.#layout.stream(key)}`, api };
  }

  #corrupt(api: string, key: string, why: unknown): EventCorruptError {
    const { location } = this.#at(api, key, 0);
    return new EventCorruptError(api, key, 0, location, [`stream: ${String(redisText(why))}`]);
  }

  /** The stream's head, with the snapshot at or below `atVersion`; `null` when absent. */
  async #head(api: string, key: string, atVersion: number | undefined): Promise<Head | null> {
    const reply = await runScript(
      this.#connection,
      HEAD_SCRIPT,
      this.#keys(key),
      [atVersion === undefined ? '' : String(atVersion), String(this.#snapshotEvery)],
      api,
    );
    const { status, rest } = redisStatusReply(reply, api);
    if (status === 'none') return null;
    if (status === 'corrupt') throw this.#corrupt(api, key, rest[0]);
    const version = Number(redisText(rest[0]));
    if (status !== 'ok' || !Number.isSafeInteger(version)) {
      throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
    }
    return {
      version,
      config: redisText(rest[1]),
      createdAt: redisText(rest[2]),
      incarnation: redisText(rest[3]) ?? '',
      snapshotVersion: Number(redisText(rest[4]) ?? 0),
      snapshot: redisText(rest[5]),
    };
  }

  /**
   * The state at `target` from the head's snapshot (or an earlier one when it does not decode),
   * without the tail; `null` when the stream was deleted or created again meanwhile.
   */
  async #snapshotStart(
    api: string,
    key: string,
    head: Head,
    config: MemoryConfig,
    target: number,
  ): Promise<{ state: MemoryState; version: number } | null> {
    let version = head.snapshotVersion;
    let json = head.snapshot;
    // The head script picked a snapshot ≤ the stream's version; for a lower target look again.
    if (version > target) {
      version = target + 1;
      json = undefined;
    }
    while (version > 0) {
      if (version <= target) {
        const state = readSnapshotJson(json, config, { stream: key, version });
        if (state !== undefined) return { state, version };
      }
      const reply = await runScript(
        this.#connection,
        SNAPSHOT_SCRIPT,
        [this.#layout.meta(key), this.#layout.snapshots(key)],
        [head.incarnation, String(Math.min(version - 1, target))],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      if (status === 'gone') return null;
      version = Number(redisText(rest[0]) ?? 0);
      json = redisText(rest[1]);
    }
    return { state: createMemory(config), version: 0 };
  }

  /** The actions from `from` to `to` of the incarnation read, page by page; `false` when gone. */
  async *#pages(
    api: string,
    key: string,
    incarnation: string,
    from: number,
    to: number,
  ): AsyncGenerator<StoredAction, boolean> {
    const [stream, meta] = this.#keys(key);
    for (let next = from; next <= to;) {
      if (next > from) await yieldToLoop();
      openStoreCall(api, () => this.#closed);
      const count = Math.min(PAGE, to - next + 1);
      const reply = await runScript(
        this.#connection,
        PAGE_SCRIPT,
        [stream, meta],
        [incarnation, String(next), String(to), String(count)],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      if (status === 'gone') return false;
      for (let i = 0; i + 1 < rest.length; i += 2) {
        const version = next + i / 2;
        const id = redisText(rest[i]);
        const at = this.#at(api, key, version);
        if (id !== `${version}-0`) {
          throw new EventCorruptError(api, key, version, at.location, [
            `entry id: expected ${version}-0, got ${String(id)}`,
          ]);
        }
        yield Object.freeze({ version, action: readActionJson(redisText(rest[i + 1]), at) });
      }
      const got = rest.length / 2;
      if (got < count) {
        const { location } = this.#at(api, key, next + got);
        throw new EventCorruptError(api, key, next + got, location, [
          `entry: missing (the stream holds fewer entries than its version)`,
        ]);
      }
      next += got;
    }
    return true;
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return naming(streamId, async () => {
      const { api } = this.#call('append');
      const checked = checkAppend(streamId, actions, options, api);
      const { key, expectedVersion } = checked;
      const given = checked.config === undefined ? undefined : createMemory(checked.config).config;
      const incarnation = randomUUID();
      const snapshots = await this.#snapshotsOf(api, key, given, incarnation, checked);
      const encoded = checked.actions.map(encodeActionJson);
      let configCheck = given === undefined ? '' : encodeConfigJson(given);
      for (let round = 0; round < CONFIG_ROUNDS; round++) {
        const reply = await runScript(
          this.#connection,
          APPEND_SCRIPT,
          this.#keys(key),
          [
            String(expectedVersion),
            configCheck,
            encodeConfigJson(given ?? createMemory().config),
            String(Date.now() / 1000),
            incarnation,
            snapshots.incarnation,
            String(encoded.length),
            ...encoded,
            ...snapshots.pairs,
          ],
          api,
        );
        const { status, rest } = redisStatusReply(reply, api);
        if (status === 'ok') {
          await this.#connection.confirmWrite(this.#layout.stream(key), api);
          return Object.freeze({ version: Number(redisText(rest[0])) });
        }
        if (status === 'conflict') {
          throw new EventConflictError(api, key, expectedVersion, Number(redisText(rest[0])));
        }
        if (status === 'corrupt') throw this.#corrupt(api, key, rest[0]);
        if (status !== 'config' || given === undefined) break;
        // The stored config is spelt differently: compare the decoded ones, then require that text.
        const stored = redisText(rest[0]);
        checkSameConfig(key, readConfigJson(stored, this.#at(api, key, 0)), given, api);
        configCheck = stored ?? '';
      }
      throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
    });
  }

  /**
   * The snapshots an append reaches (versions and envelopes, as script arguments) and the
   * incarnation they were computed on. Only an optimisation: when the state before the batch
   * cannot be rebuilt (a stale version, a corrupt record) or an action cannot be applied, none.
   */
  async #snapshotsOf(
    api: string,
    key: string,
    given: MemoryConfig | undefined,
    incarnation: string,
    {
      expectedVersion: before,
      actions,
    }: { expectedVersion: number; actions: readonly MemoryAction[] },
  ): Promise<{ incarnation: string; pairs: string[] }> {
    const every = this.#snapshotEvery;
    const none = { incarnation: '', pairs: [] };
    if (Math.floor((before + actions.length) / every) === Math.floor(before / every)) return none;
    try {
      let start: { state: MemoryState; incarnation: string; config: MemoryConfig };
      const head = await this.#head(api, key, before);
      if (head === null) {
        if (before !== 0) return none;
        const config = given ?? createMemory().config;
        start = { state: createMemory(config), incarnation, config };
      } else {
        if (head.version !== before) return none;
        const config = readConfigJson(head.config, this.#at(api, key, 0));
        const loaded = await this.#replay(api, key, head, config, before);
        if (loaded === null) return none;
        start = { state: loaded, incarnation: head.incarnation, config };
      }
      let { state } = start;
      const pairs: string[] = [];
      actions.forEach((action, i) => {
        state = memoryReducer(state, action);
        const version = before + i + 1;
        if (version % every === 0) {
          const at = { stream: key, version, config: start.config };
          pairs.push(String(version), encodeSnapshotJson(state, at));
        }
      });
      return { incarnation: start.incarnation, pairs };
    } catch {
      return none;
    }
  }

  /** The state at `target` (snapshot + tail); `null` when the stream went meanwhile. */
  async #replay(
    api: string,
    key: string,
    head: Head,
    config: MemoryConfig,
    target: number,
  ): Promise<MemoryState | null> {
    const start = await this.#snapshotStart(api, key, head, config, target);
    if (start === null) return null;
    let { state } = start;
    const pages = this.#pages(api, key, head.incarnation, start.version + 1, target);
    for (;;) {
      const next = await pages.next();
      if (next.done === true) return next.value ? state : null;
      const { version, action } = next.value;
      state = applyStoredAction(state, action, this.#at(api, key, version));
    }
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api } = this.#call('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    try {
      const head = await this.#head(api, key, 0);
      if (head === null) return;
      yield* this.#pages(api, key, head.incarnation, from, Math.min(to, head.version));
    } catch (error) {
      // A failure to reach Redis names the stream, as the other methods' do.
      throw withId(error, streamId);
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    return naming(streamId, async () => {
      const { api } = this.#call('load');
      checkEventOptions(options, 'load', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const atVersion = atVersionOf(options, api);
      const head = await this.#head(api, key, atVersion);
      if (head === null) return null;
      const target = atVersion ?? head.version;
      checkAtVersion(key, target, head.version, api);
      const config = readConfigJson(head.config, this.#at(api, key, 0));
      const state = await this.#replay(api, key, head, config, target);
      // The stream was deleted while it was being read: it is absent now.
      return state === null ? null : Object.freeze({ state, version: target });
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    const { api } = this.#call('streams');
    // Read once: the listing sees the copy.
    const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
    const start = namespace === undefined ? '' : namespaceKeyPrefix(namespace);
    const found: StreamInfo[] = [];
    for await (const batch of scanRedisKeys(
      this.#connection,
      this.#layout.metaPattern(start),
      api,
    )) {
      const keys = batch.flatMap((name) => this.#layout.streamKeyOf(name) ?? []);
      const replies = await Promise.all(
        keys.map((key) =>
          runScript(this.#connection, INFO_SCRIPT, this.#keys(key).slice(0, 2), [], api),
        ),
      );
      replies.forEach((reply, i) => {
        const { status, rest } = redisStatusReply(reply, api);
        if (status !== 'ok') return; // gone meanwhile, or damaged: `load` reports those
        found.push(
          Object.freeze({
            streamId: (keys[i] as string).slice(start.length),
            ...sessionAddressOf(keys[i] as string),
            version: Number(redisText(rest[0])),
            createdAt: Number(redisText(rest[1]) ?? Number.NaN),
          }),
        );
      });
    }
    return Object.freeze(found.sort((a, b) => compareCodePoints(a.streamId, b.streamId)));
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    return naming(streamId, async () => {
      const { api } = this.#call('delete');
      checkEventOptions(options, 'delete', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const reply = await runScript(
        this.#connection,
        DELETE_EVENTS_SCRIPT,
        this.#keys(key),
        [],
        api,
      );
      await this.#connection.confirmWrite(this.#layout.stream(key), api);
      return reply === 1 || reply === '1';
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
    const { api } = this.#call('subscribe');
    // Read once: the subscription sees the copy.
    const given = checkEventOptions(options, 'subscribe', api);
    const { key } = sessionKeyOf(streamId, options, api);
    if (typeof fromVersion !== 'number' || !Number.isSafeInteger(fromVersion) || fromVersion < 0) {
      throw new MemoryArgumentError(
        api,
        `fromVersion must be an integer ≥ 0 (0: from the first action), received ${describeValue(fromVersion)}`,
      );
    }
    if (typeof listener !== 'function') {
      throw new MemoryArgumentError(
        api,
        `listener must be a function, received ${typeof listener}`,
      );
    }
    const report = given.onError;
    if (report !== undefined && typeof report !== 'function') {
      throw new MemoryArgumentError(api, 'options.onError must be a function');
    }
    // A lost connection, reported while following, names the stream as the other methods do.
    const onError: SubscribeOptions['onError'] =
      report === undefined
        ? undefined
        : (error, entry) =>
            (report as NonNullable<SubscribeOptions['onError']>)(withId(error, streamId), entry);
    const stop = followRedisStream(
      {
        connection: this.#connection.dedicated(api),
        name: this.#layout.stream(key),
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
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((unsubscribe) => unsubscribe()));
    await this.#connection.close();
  }
}
