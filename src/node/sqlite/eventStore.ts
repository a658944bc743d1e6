import type BetterSqlite3 from 'better-sqlite3';
import {
  type AppendOptions,
  type AppendResult,
  EventConflictError,
  EventCorruptError,
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
  compareCodePoints,
  namespaceKeys,
  namespaceOf,
  namespaceToDeleteOf,
  pruneOptionsOf,
  readRangeOf,
  sessionAddressOf,
  sessionKeyOf,
  checkEventOptions,
} from 'conversation-memory/store-kit';
import type { StoreCalls } from '../storeCalls';
import { type SqliteStorePlace, sqliteStoreCalls } from './failurePlace';
import { retryWhileBusy, rethrowBusy } from './busyRetry';
import { prepareEventSchema } from './eventSchema';
import { type EventStatements, prepareEventStatements } from './eventStatements';
import {
  type EventRetentionStatements,
  prepareEventRetentionStatements,
} from './eventRetentionStatements';
import { type EventRetention, deleteStreamNamespace, sweepStreams } from './eventRetention';
import { readEventStoreOptions, type SqliteEventStoreOptions } from './options';
import { openDatabase } from './connection';
import { SqliteEventStreams, streamExpired } from './eventStreams';
import { appendRows } from './eventAppend';
import { loadStream } from './eventLoad';
import { pruneStream } from './eventPrune';
import { streamShapeOf } from './eventStreamShape';

export type { SqliteEventStoreOptions } from './options';

const API = 'SqliteEventStore';

/**
 * An {@link EventStore} in a SQLite file (better-sqlite3 12.x, an optional peer, loaded when a
 * store is made), in WAL mode. Four tables: `event_streams` (a never-reused id per stream, its
 * config, its creation time, its version, the time of its last append and, once pruned, its
 * first version), `event_actions` (one row per action, primary key `(stream, version)`),
 * `event_snapshots` (every `snapshotEvery` actions, and at a prune's first version, the state's
 * envelope bound to the stream's key and the version) and `event_removals` (streams whose rows
 * are being removed).
 *
 * An append is one `BEGIN IMMEDIATE` transaction: the version check, the action rows (the primary
 * key makes a second action at a version impossible) and the snapshots it reaches commit together
 * or not at all, so writers in other processes never lose or duplicate an action. A writer that
 * finds the database locked waits without blocking the event loop and, after `lockTimeoutMs`,
 * fails with `EventConflictError` (never `SQLITE_BUSY`). `read` and `load` page through the
 * actions (`EVENT_PAGE` = 512 at a time), never holding a whole stream. A snapshot that does not decode,
 * or is bound to another stream or version, is passed over (the actions are the truth); an action
 * or config that does not decode rejects with `EventCorruptError`, and so does a stream whose
 * actions do not run from 1 to its version without a gap (see `streamShapeOf`): `append`, `read`
 * and `load` reject, writing nothing, and `streams()` leaves out a stream whose head shows it. A
 * gap between the first and the last action is recorded by the schema's triggers when a row is
 * deleted or moved (by any program: see `prepareEventSchema`), so `append` and `load` see it without
 * reading the actions, even below the snapshot a load starts from; only a stream with a recorded
 * removal is searched for its gap. `read` finds it when it pages over it, and a `load` of a
 * version below the gap still succeeds.
 *
 * Retention: with `defaultTtl`, a stream expires that many seconds after its last append and is
 * absent from then on (an append expecting version 0 starts a new stream under its key, with a
 * new id, so nothing of the old one is reachable). `sweep()` and `deleteNamespace()` take a
 * stream's row and queue its id in one transaction (it vanishes at once), `SWEEP_BATCH` streams a
 * transaction, then remove the queued streams' actions and snapshots `SWEEP_BATCH` rows a
 * transaction; a removal cut short (a crash) is finished by the next `sweep()`. `prune()` is one
 * transaction: the snapshot at `before`, then the cut.
 *
 * @example
 * ```ts
 * import { SqliteEventStore } from 'conversation-memory/node';
 *
 * const store = new SqliteEventStore({ path: 'events.db' });
 * const loaded = await store.load('thread-7');
 * await store.append('thread-7', [memoryActions.messageAdded(userMessage('hi'))], {
 *   expectedVersion: loaded?.version ?? 0,
 * });
 * await store.close();
 * ```
 */
export class SqliteEventStore implements EventStore {
  readonly #db: BetterSqlite3.Database;
  readonly #sql: EventStatements;
  readonly #retention: EventRetentionStatements;
  readonly #snapshotEvery: number;
  readonly #lockTimeoutMs: number;
  readonly #streams: SqliteEventStreams;
  readonly #calls: StoreCalls;

  constructor(options: SqliteEventStoreOptions) {
    const settings = readEventStoreOptions(options, API);
    const location = `sqlite:${settings.path}`;
    this.#snapshotEvery = settings.snapshotEvery;
    this.#lockTimeoutMs = settings.lockTimeoutMs;
    const place: SqliteStorePlace = {
      store: API,
      path: settings.path,
      label: 'event database',
      corrupt: (api, key, problem, cause) =>
        new EventCorruptError(api, key, 0, location, [problem], { cause }),
    };
    this.#calls = sqliteStoreCalls(place);
    const { db, prepared } = openDatabase(settings.path, settings.lockTimeoutMs, place, (db) => {
      prepareEventSchema(db, settings.expiry.now);
      return { sql: prepareEventStatements(db), retention: prepareEventRetentionStatements(db) };
    });
    this.#db = db;
    this.#sql = prepared.sql;
    this.#retention = prepared.retention;
    this.#streams = new SqliteEventStreams(
      db,
      prepared.sql,
      location,
      settings.lockTimeoutMs,
      settings.expiry,
    );
  }

  /** Runs `step` in one `BEGIN IMMEDIATE` transaction, retried while busy (then `onTimeout`). */
  async #write<T>(
    step: () => T,
    onTimeout: (busy: unknown) => never,
    stillOpen: () => void,
  ): Promise<T> {
    const write = this.#db.transaction(step);
    return retryWhileBusy(() => write.immediate(), this.#lockTimeoutMs, onTimeout, stillOpen);
  }

  #retentionOf(stillOpen: () => void): EventRetention {
    const { expiry } = this.#streams;
    const lockTimeoutMs = this.#lockTimeoutMs;
    return { db: this.#db, sql: this.#retention, expiry, lockTimeoutMs, stillOpen };
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return this.#calls.write('append', { id: streamId, options }, async ({ api, stillOpen }) => {
      const checked = checkAppend(streamId, actions, options, api);
      const { key, expectedVersion } = checked;
      const version = await this.#write(
        () =>
          appendRows(this.#streams, this.#sql, this.#retention, api, checked, this.#snapshotEvery),
        (busy) => {
          throw new EventConflictError(
            api,
            key,
            expectedVersion,
            expectedVersion,
            `another writer kept the database locked for longer than lockTimeoutMs (${this.#lockTimeoutMs} ms)`,
            { cause: busy },
          );
        },
        stillOpen,
      );
      return { version };
    });
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api, stillOpen } = this.#calls.open('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    try {
      const head = await this.#streams.read(() => {
        const found = this.#streams.head(api, key);
        // Below a prune, nothing is yielded: the read rejects at once.
        if (found !== undefined) this.#streams.checkNotPruned(api, key, found, from);
        return found;
      }, stillOpen);
      if (head === undefined) return;
      yield* this.#streams.pages(api, key, head.id, from, Math.min(to, head.version), stillOpen);
    } catch (error) {
      throw this.#calls.failed(error, 'read', { id: streamId, options });
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    return this.#calls.run('load', { id: streamId, options }, async ({ api, stillOpen }) => {
      checkEventOptions(options, 'load', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const atVersion = atVersionOf(options, api);
      return loadStream(this.#streams, this.#sql, { api, key, stillOpen }, atVersion);
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    return this.#calls.run('streams', {}, async ({ api, stillOpen }) => {
      // Read once: the listing sees the copy.
      const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
      const keys = namespaceKeys(namespace);
      const rows = await this.#streams.read(() => this.#sql.list.all(), stillOpen);
      const { expiry } = this.#streams;
      const now = expiry.now();
      const found: StreamInfo[] = [];
      for (const row of rows) {
        const streamId = keys.idOf(row.stream);
        if (streamId === undefined || streamExpired(row.updated_at, expiry, now)) continue;
        // A damaged stream is left out, as `load` rejects it.
        const shape = streamShapeOf(row);
        if ('problem' in shape) continue;
        const createdAt = typeof row.created_at === 'number' ? row.created_at : Number.NaN;
        const info = {
          streamId,
          ...sessionAddressOf(row.stream),
          version: shape.version,
          createdAt,
        };
        const first = row.first_version;
        found.push(
          Object.freeze(first === null ? info : { ...info, prunedBefore: first as number }),
        );
      }
      return found.sort((a, b) => compareCodePoints(a.streamId, b.streamId));
    });
  }

  async delete(streamId: string, options?: StreamOptions): Promise<boolean> {
    return this.#calls.write('delete', { id: streamId, options }, async ({ api, stillOpen }) => {
      checkEventOptions(options, 'delete', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const sql = this.#sql;
      return this.#write(
        (): boolean => {
          const row = sql.selectHead.get(key);
          if (row === undefined) return false;
          // The stream's row first: its actions' removal then records no gap (see prepareEventSchema).
          sql.deleteStream.run(row.id);
          sql.deleteActions.run(row.id);
          sql.deleteSnapshots.run(row.id);
          // An expired stream was not there to delete (its rows are removed all the same).
          return !streamExpired(row.updated_at, this.#streams.expiry, this.#streams.expiry.now());
        },
        rethrowBusy,
        stillOpen,
      );
    });
  }

  async prune(streamId: string, options: PruneOptions): Promise<RemovedCount> {
    return this.#calls.write('prune', { id: streamId, options }, async ({ api, stillOpen }) => {
      const { before, namespace } = pruneOptionsOf(options, api);
      const { key } = sessionKeyOf(streamId, { namespace }, api);
      const removed = await this.#write(
        () => pruneStream(this.#streams, this.#sql, this.#retention, api, { key, before }),
        rethrowBusy,
        stillOpen,
      );
      return Object.freeze({ removed });
    });
  }

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async ({ stillOpen }) =>
      Object.freeze({ removed: await sweepStreams(this.#retentionOf(stillOpen)) }),
    );
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async ({ api, stillOpen }) => {
      const { prefix } = namespaceKeys(namespaceToDeleteOf(namespace, api));
      const removed = await deleteStreamNamespace(this.#retentionOf(stillOpen), prefix);
      return Object.freeze({ removed });
    });
  }

  async close(): Promise<void> {
    if (this.#calls.close()) this.#db.close();
  }
}
