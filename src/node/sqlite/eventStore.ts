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
  type MemoryConfig,
  type MemoryState,
  type ReadOptions,
  type StoredAction,
  type StreamInfo,
  type StreamOptions,
} from 'conversation-memory';
import {
  applyStoredAction,
  atVersionOf,
  checkAppend,
  checkAtVersion,
  compareCodePoints,
  readConfigJson,
  namespaceKeys,
  namespaceOf,
  readRangeOf,
  sessionAddressOf,
  sessionKeyOf,
  checkEventOptions,
} from 'conversation-memory/store-kit';
import type { StoreCalls } from '../storeCalls';
import { type SqliteStorePlace, sqliteStoreCalls } from './failurePlace';
import { retryWhileBusy, rethrowBusy } from './busyRetry';
import { prepareEventSchema } from './schema';
import { snapshotAtOrBelow } from './eventSnapshots';
import { type EventStatements, prepareEventStatements } from './eventStatements';
import { readEventStoreOptions, type SqliteEventStoreOptions } from './options';
import { openDatabase } from './connection';
import { SqliteEventStreams } from './eventStreams';
import { appendRows } from './eventAppend';
import { streamShapeOf } from './eventStreamShape';

export type { SqliteEventStoreOptions } from './options';

const API = 'SqliteEventStore';

/** Where `load` starts: the stream, its config, the state at `from` and the wanted version. */
interface LoadStart {
  readonly id: number;
  readonly config: MemoryConfig;
  readonly from: number;
  readonly target: number;
  readonly state: MemoryState;
}

/**
 * An {@link EventStore} in a SQLite file (better-sqlite3 12.x, an optional peer, loaded when a
 * store is made), in WAL mode. Three tables: `event_streams` (a never-reused id per stream, its
 * config, its creation time, its version), `event_actions` (one row per action, primary key
 * `(stream, version)`) and `event_snapshots` (every `snapshotEvery` actions, the state's envelope
 * bound to the stream's key and the version).
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
      prepareEventSchema(db);
      return prepareEventStatements(db);
    });
    this.#db = db;
    this.#sql = prepared;
    this.#streams = new SqliteEventStreams(db, prepared, location, settings.lockTimeoutMs);
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return this.#calls.write('append', { id: streamId, options }, async ({ api, stillOpen }) => {
      const checked = checkAppend(streamId, actions, options, api);
      const { key, expectedVersion } = checked;
      const write = this.#db.transaction(() =>
        appendRows(this.#streams, this.#sql, api, checked, this.#snapshotEvery),
      );
      const version = await retryWhileBusy(
        () => write.immediate(),
        this.#lockTimeoutMs,
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
      const head = await this.#streams.read(() => this.#streams.head(api, key), stillOpen);
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
      const start = await this.#streams.read((): LoadStart | null => {
        const head = this.#streams.head(api, key);
        if (head === undefined) return null;
        const target = atVersion ?? head.version;
        checkAtVersion(key, target, head.version, api);
        // The snapshot it starts from may be above a gap: the actions below it are checked too.
        this.#streams.checkWhole(api, key, head, target);
        const config = readConfigJson(head.config, this.#streams.at(api, key, 0));
        const snapshot = snapshotAtOrBelow(
          this.#sql,
          this.#streams.place(api, key, head.id),
          config,
          target,
        );
        return { id: head.id, config, from: snapshot.version, target, state: snapshot.state };
      }, stillOpen);
      if (start === null) return null;
      let { state } = start;
      const pages = this.#streams.pages(
        api,
        key,
        start.id,
        start.from + 1,
        start.target,
        stillOpen,
      );
      for (;;) {
        const next = await pages.next();
        if (next.done === true) {
          // The stream was deleted while it was being read: it is absent now.
          return next.value ? { state, version: start.target } : null;
        }
        const { version, action } = next.value;
        state = applyStoredAction(state, action, this.#streams.at(api, key, version));
      }
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    return this.#calls.run('streams', {}, async ({ api, stillOpen }) => {
      // Read once: the listing sees the copy.
      const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
      const keys = namespaceKeys(namespace);
      const rows = await this.#streams.read(() => this.#sql.list.all(), stillOpen);
      const found: StreamInfo[] = [];
      for (const row of rows) {
        const streamId = keys.idOf(row.stream);
        if (streamId === undefined) continue;
        // A damaged stream is left out, as `load` rejects it.
        const shape = streamShapeOf(row);
        if ('problem' in shape) continue;
        const createdAt = typeof row.created_at === 'number' ? row.created_at : Number.NaN;
        found.push(
          Object.freeze({
            streamId,
            ...sessionAddressOf(row.stream),
            version: shape.version,
            createdAt,
          }),
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
      const remove = this.#db.transaction((): boolean => {
        const row = sql.selectHead.get(key);
        if (row === undefined) return false;
        // The stream's row first: its actions' removal then records no gap (see prepareEventSchema).
        sql.deleteStream.run(row.id);
        sql.deleteActions.run(row.id);
        sql.deleteSnapshots.run(row.id);
        return true;
      });
      return retryWhileBusy(() => remove.immediate(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
    });
  }

  async close(): Promise<void> {
    if (this.#calls.close()) this.#db.close();
  }
}
