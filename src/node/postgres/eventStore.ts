import { createHash } from 'node:crypto';
import {
  type AppendOptions,
  type AppendResult,
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
  checkEventOptions,
  compareCodePoints,
  namespaceOf,
  namespaceToDeleteOf,
  pruneOptionsOf,
  readRangeOf,
  sessionAddressOf,
  sessionKeyOf,
  type StoreCall,
} from 'conversation-memory/store-kit';
import { naming, withId } from '../environmentFailure';
import { PostgresConnection } from './connection';
import { appendToStream, type PostgresAppendContext } from './eventAppend';
import { type PruneContext, pruneStatements, pruneStream } from './eventPrune';
import {
  deleteStreamNamespace,
  type EventRetentionStatements,
  eventRetentionStatements,
  sweepStreams,
} from './eventRetention';
import { EVENT_SCHEMA, type EventStatements, eventStatements } from './eventStatements';
import { StreamReader } from './eventReader';
import { headProblem, readStreamHead } from './eventStreams';
import {
  checkSubscribe,
  followPostgresStream,
  type PostgresStreamListener,
  type PostgresSubscribeOptions,
} from './eventSubscription';
import { type PostgresEventStoreOptions, readEventStoreOptions } from './options';
import { StoreCalls } from '../storeCalls';

export type { PostgresEventStoreOptions } from './options';
export type { PostgresStreamListener, PostgresSubscribeOptions } from './eventSubscription';

const API = 'PostgresEventStore';

const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * An {@link EventStore} on PostgreSQL (node-postgres `pg` 8.11 or later 8.x, an optional peer
 * loaded only when the store makes its own pool), shared by any number of processes. Options as
 * on `PostgresSessionStore` (`pool` or `connectionString`, `schema`, `defaultTtl`, `now`) plus
 * `snapshotEvery`.
 *
 * Three tables (see `eventStatements.ts`): `event_streams` (a never-reused id per stream, its
 * config, creation time and version), `event_actions` (primary key `(stream, version)`) and
 * `event_snapshots`. An append is one statement: the version check on the stream's row, the
 * actions (the key makes a second action at a version impossible), the snapshots it reaches and a
 * `NOTIFY` commit together or not at all, and of concurrent appends at one version exactly one
 * wins (the others get `EventConflictError`, writing nothing). `read` pages through the actions;
 * `load` starts from the latest sound snapshot in one consistent read. An action or config that
 * does not decode, a stream with an action removed by another program (a trigger records it) or
 * one past its version is an `EventCorruptError` for `append`, `read` and `load`, and left out by
 * `streams()`; a snapshot that does not decode or is bound to another stream or version is passed
 * over. `subscribe` follows a stream with `LISTEN`/`NOTIFY` and a catch-up read.
 *
 * Retention: with `defaultTtl` a stream more than that many seconds after its last append (by
 * `now`) is absent everywhere, and an append at version 0 starts it afresh under a new id.
 * `prune` keeps the state at `before` as a snapshot and removes the actions below it in one
 * transaction holding the stream's row (`EventPrunedError` below it). `sweep` and
 * `deleteNamespace` take streams away whole (row deleted, id listed in `event_removals`, one
 * statement), then remove their actions and snapshots `SWEEP_BATCH` rows a transaction.
 *
 * @example
 * ```ts
 * import { PostgresEventStore } from 'conversation-memory/node';
 *
 * const store = new PostgresEventStore({ connectionString: process.env.DATABASE_URL });
 * const loaded = await store.load('thread-7');
 * await store.append('thread-7', [memoryActions.messageAdded(userMessage('hi'))], {
 *   expectedVersion: loaded?.version ?? 0,
 * });
 * await store.close();
 * ```
 */
export class PostgresEventStore implements EventStore {
  /** The schema the store's tables are in. */
  readonly schema: string;
  readonly #connection: PostgresConnection;
  readonly #sql: EventStatements;
  readonly #retention: EventRetentionStatements;
  readonly #reader: StreamReader;
  readonly #prune: PruneContext;
  readonly #snapshotEvery: number;
  readonly #ttl: number | undefined;
  readonly #clock: () => number;
  readonly #location: string;
  readonly #channel: string;
  readonly #subscriptions = new Set<() => Promise<void>>();
  /** The closed-store guard and each call's name (failures are already ours: `postgresFailure`). */
  readonly #calls = new StoreCalls(API, (error) => error);

  constructor(options: PostgresEventStoreOptions) {
    const settings = readEventStoreOptions(options, API);
    this.#connection = new PostgresConnection(settings, API);
    this.schema = settings.schema;
    this.#sql = eventStatements(this.#connection.quotedSchema);
    this.#retention = eventRetentionStatements(this.#connection.quotedSchema);
    this.#snapshotEvery = settings.snapshotEvery;
    this.#ttl = settings.ttl;
    this.#clock = settings.now;
    this.#location = `postgres:${settings.schema}.event_actions`;
    this.#reader = new StreamReader(this.#connection, this.#sql, {
      location: this.#location,
      ttl: settings.ttl,
      now: settings.now,
    });
    this.#prune = {
      connection: this.#connection,
      sql: pruneStatements(this.#connection.quotedSchema),
      reader: this.#reader,
    };
    this.#channel = `cm_events_${digestOf(settings.schema).slice(0, 24)}`;
  }

  async #ready(call: StoreCall): Promise<void> {
    await this.#connection.ready(EVENT_SCHEMA, call.api);
    call.stillOpen();
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return naming(streamId, async () => {
      const call = this.#calls.open('append');
      const checked = checkAppend(streamId, actions, options, call.api);
      const { namespace } = sessionKeyOf(streamId, options, call.api);
      await this.#ready(call);
      const context: PostgresAppendContext = {
        connection: this.#connection,
        sql: this.#sql,
        snapshotEvery: this.#snapshotEvery,
        ttl: this.#ttl,
        now: this.#clock,
        channel: this.#channel,
        digest: digestOf,
        location: this.#location,
        stateBefore: async (key, version) => {
          const found = await this.#reader.loadAt(call.api, key, version);
          if (found?.state === undefined || found.config === undefined) return undefined;
          return { id: found.head.id, config: found.config, state: found.state };
        },
      };
      return appendToStream(context, call.api, checked, namespace);
    });
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const call = this.#calls.open('read');
    try {
      checkEventOptions(options, 'read', call.api);
      const { key } = sessionKeyOf(streamId, options, call.api);
      const { from, to } = readRangeOf(options, call.api);
      await this.#ready(call);
      yield* this.#reader.entries(call.api, key, from, to);
    } catch (error) {
      throw withId(error, streamId);
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    return naming(streamId, async () => {
      const call = this.#calls.open('load');
      checkEventOptions(options, 'load', call.api);
      const { key } = sessionKeyOf(streamId, options, call.api);
      const atVersion = atVersionOf(options, call.api);
      await this.#ready(call);
      const found = await this.#reader.loadAt(call.api, key, atVersion);
      if (found === undefined) return null;
      checkAtVersion(key, found.target, found.head.version, call.api);
      if (found.state === undefined) return null;
      return Object.freeze({ state: found.state, version: found.target });
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    const call = this.#calls.open('streams');
    // Read once: the listing sees the copy.
    const namespace = namespaceOf(
      checkEventOptions(options, 'streams', call.api).namespace,
      call.api,
    );
    await this.#ready(call);
    const rows = await this.#connection.query(call.api, false, this.#sql.list, [
      namespace ?? null,
      this.#clock(),
      this.#ttl ?? null,
    ]);
    const found: StreamInfo[] = [];
    for (const row of rows) {
      const read = readStreamHead(row);
      // A damaged stream is left out, as `load` rejects it.
      if ('problem' in read || headProblem(read.head) !== undefined) continue;
      const { key, version, createdAt, first } = read.head;
      const address = sessionAddressOf(key);
      if (namespace !== undefined && address.namespace !== namespace) continue;
      const streamId = namespace === undefined ? key : address.id;
      const info = { streamId, ...address, version, createdAt };
      found.push(Object.freeze(first > 1 ? { ...info, prunedBefore: first } : info));
    }
    return Object.freeze(found.sort((a, b) => compareCodePoints(a.streamId, b.streamId)));
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    return naming(streamId, async () => {
      const call = this.#calls.open('delete');
      checkEventOptions(options, 'delete', call.api);
      const { key } = sessionKeyOf(streamId, options, call.api);
      await this.#ready(call);
      const [row] = await this.#connection.query(call.api, true, this.#sql.delete, [
        key,
        this.#clock(),
        this.#ttl ?? null,
      ]);
      return Number(row?.['n']) > 0;
    });
  }

  async prune(streamId: string, options: PruneOptions): Promise<RemovedCount> {
    return naming(streamId, async () => {
      const call = this.#calls.open('prune');
      const { before, namespace } = pruneOptionsOf(options, call.api);
      const { key } = sessionKeyOf(streamId, { namespace }, call.api);
      await this.#ready(call);
      return Object.freeze({ removed: await pruneStream(this.#prune, call.api, key, before) });
    });
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async (call) => {
      await this.#ready(call);
      const now = this.#clock();
      const { api } = call;
      const removed = await sweepStreams(this.#connection, this.#retention, api, this.#ttl, now);
      return Object.freeze({ removed });
    });
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async (call) => {
      const checked = namespaceToDeleteOf(namespace, call.api);
      await this.#ready(call);
      const { api } = call;
      const removed = await deleteStreamNamespace(this.#connection, this.#retention, api, checked);
      return Object.freeze({ removed });
    });
  }

  /**
   * Follows a stream live: `listener` gets each action after `fromVersion`, in order, each once,
   * including those appended by other processes (`LISTEN`/`NOTIFY` on a connection of the pool
   * held by the subscription, and a catch-up read); after a lost connection it connects again and
   * resumes after the last action delivered, without a gap or a repeat. Failures go to
   * `options.onError`. `close()` stops every subscription of the store.
   *
   * @param streamId - the stream's id
   * @param fromVersion - the version already seen (0: from the first action)
   * @param listener - called with `{ version, action }`
   * @param options - `namespace`, `onError`
   * @returns the function that stops the subscription
   * @throws SessionIdError, MemoryArgumentError (a bad `fromVersion` or listener, a closed store)
   * @example
   * ```ts
   * const unsubscribe = store.subscribe('thread-7', loaded.version, ({ version, action }) => {
   *   ui.apply(version, action);
   * }, { onError: (error) => log.warn(error) });
   * await unsubscribe();
   * ```
   */
  subscribe(
    streamId: string,
    fromVersion: number,
    listener: PostgresStreamListener,
    options?: PostgresSubscribeOptions,
  ): () => Promise<void> {
    const call = this.#calls.open('subscribe');
    const { key, onError } = checkSubscribe(streamId, fromVersion, listener, options, call.api);
    const stop = followPostgresStream(
      {
        connection: this.#connection,
        api: call.api,
        channel: this.#channel,
        payload: digestOf(key),
        after: (version) => this.#followed(call, key, version),
      },
      fromVersion,
      listener,
      onError,
    );
    const unsubscribe = async () => {
      this.#subscriptions.delete(unsubscribe);
      await stop();
    };
    this.#subscriptions.add(unsubscribe);
    return unsubscribe;
  }

  async *#followed(call: StoreCall, key: string, after: number): AsyncGenerator<StoredAction> {
    await this.#ready(call);
    yield* this.#reader.entries(call.api, key, after + 1, Number.MAX_SAFE_INTEGER);
  }

  /** Stops every subscription, and ends the pool the store made from `connectionString`. */
  async close(): Promise<void> {
    if (!this.#calls.close()) return;
    await Promise.all([...this.#subscriptions].map((unsubscribe) => unsubscribe()));
    await this.#connection.close();
  }
}
