import { sqliteFailurePlace } from './failurePlace';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
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
  checkSameConfig,
  compareCodePoints,
  readActionJson,
  readConfigJson,
  encodeActionJson,
  encodeConfigJson,
  namespaceKeyPrefix,
  namespaceOf,
  readRangeOf,
  sessionAddressOf,
  sessionKeyOf,
  checkEventOptions,
  openStoreCall,
  type StoreCall,
} from 'conversation-memory/store-kit';
import { asUnavailable, type FailurePlace, unavailableOnFailure } from '../environmentFailure';
import { retryWhileBusy, rethrowBusy } from './busyRetry';
import { prepareEventSchema } from './eventSchema';
import { snapshotAtOrBelow, type StreamPlace, writeSnapshots } from './eventSnapshots';
import { EVENT_PAGE, type EventStatements, prepareEventStatements } from './eventStatements';
import { readEventStoreOptions, type SqliteEventStoreOptions } from './options';
import { openDatabase } from './connection';
import { gapBetween, gapFromOf } from './eventStreamGap';
import { checkPage, shapeError, streamShapeOf } from './eventStreamShape';

export type { SqliteEventStoreOptions } from './options';

const API = 'SqliteEventStore';
/** SQLite's own (blocking) wait before the non-blocking retries take over. */
const BUSY_TIMEOUT_MS = 20;

/**
 * A stream's head, checked: its id, its config (unchecked), its version, and where a gap may be
 * (`undefined`: no action was ever removed from it, so it has none).
 */
interface Head {
  readonly id: number;
  readonly config: unknown;
  readonly version: number;
  readonly gapFrom: number | undefined;
}

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
 * deleted or moved (by any program: see `eventSchema`), so `append` and `load` see it without
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
  readonly #path: string;
  readonly #location: string;
  readonly #snapshotEvery: number;
  readonly #lockTimeoutMs: number;
  #closed = false;

  constructor(options: SqliteEventStoreOptions) {
    const settings = readEventStoreOptions(options, API);
    this.#path = settings.path;
    this.#location = `sqlite:${settings.path}`;
    this.#snapshotEvery = settings.snapshotEvery;
    this.#lockTimeoutMs = settings.lockTimeoutMs;
    const { db, prepared } = openDatabase(
      settings.path,
      settings.lockTimeoutMs,
      { api: API, store: API, label: 'event database' },
      (db) => {
        prepareEventSchema(db);
        const statements = prepareEventStatements(db);
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
        return statements;
      },
    );
    this.#db = db;
    this.#sql = prepared;
  }

  /** Where a call's environment failure happened (see `sqliteFailurePlace`). */
  #failurePlace(
    method: string,
    id: string | undefined,
    writes: boolean,
    options?: unknown,
  ): FailurePlace {
    return sqliteFailurePlace(
      {
        store: API,
        path: this.#path,
        label: 'event database',
        corrupt: (api, key, problem, cause) =>
          new EventCorruptError(api, key, 0, this.#location, [problem], { cause }),
      },
      method,
      id,
      writes,
      options,
    );
  }

  /** Opens a call of `method` (see `openStoreCall`): rejects when the store is closed. */
  #call(method: string): StoreCall {
    return openStoreCall(`${API}.${method}`, () => this.#closed);
  }

  /** Runs `step` in one read snapshot (retried while busy). */
  #read<T>(step: () => T, stillOpen: () => void): Promise<T> {
    const read = this.#db.transaction(step);
    return retryWhileBusy(() => read.deferred(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
  }

  #at(api: string, key: string, version: number) {
    return { key, version, location: this.#location, api };
  }

  #place(api: string, key: string, id: number): StreamPlace {
    return { key, id, location: this.#location, api };
  }

  /**
   * The stream's head, checked (inside a transaction): `undefined` when there is no stream.
   *
   * @throws EventCorruptError when its actions do not run from 1 to its version
   */
  #head(api: string, key: string): Head | undefined {
    const row = this.#sql.selectHead.get(key);
    if (row === undefined) return undefined;
    const shape = streamShapeOf(row);
    if ('problem' in shape) throw shapeError(shape, this.#at(api, key, 0));
    return {
      id: row.id,
      config: row.config,
      version: shape.version,
      gapFrom: gapFromOf(row.gap_from),
    };
  }

  /**
   * Rejects when the stream has a gap at or below `to` (inside a transaction). Only a stream whose
   * head records a removed action is looked at (see `gapBetween`); any other is whole.
   *
   * @throws EventCorruptError at the first missing version
   */
  #checkWhole(api: string, key: string, head: Head, to: number): void {
    if (head.gapFrom === undefined || head.gapFrom > to) return;
    const gap = gapBetween(this.#sql, this.#place(api, key, head.id), head.gapFrom, to);
    if (gap !== undefined) throw gap;
  }

  async append(
    streamId: string,
    actions: readonly MemoryAction[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return unavailableOnFailure(this.#failurePlace('append', streamId, true, options), async () => {
      const { api, stillOpen } = this.#call('append');
      const checked = checkAppend(streamId, actions, options, api);
      const { key, expectedVersion } = checked;
      const sql = this.#sql;
      const write = this.#db.transaction((): number => {
        // A damaged stream is reported, never appended to: a gap anywhere, even below a snapshot.
        const head = this.#head(api, key);
        if (head !== undefined) this.#checkWhole(api, key, head, head.version);
        const actual = head?.version ?? 0;
        if (actual !== expectedVersion) {
          throw new EventConflictError(api, key, expectedVersion, actual);
        }
        let config = checked.config;
        let id: number;
        if (head === undefined) {
          config ??= createMemory().config;
          id = Number(
            sql.insertStream.run(key, encodeConfigJson(config), Date.now() / 1000).lastInsertRowid,
          );
        } else {
          id = head.id;
          if (config !== undefined) {
            checkSameConfig(key, readConfigJson(head.config, this.#at(api, key, 0)), config, api);
          }
        }
        checked.actions.forEach((action, i) => {
          sql.insertAction.run(id, actual + i + 1, encodeActionJson(action));
        });
        const version = actual + checked.actions.length;
        sql.setVersion.run(version, id);
        // Snapshots are an optimisation: a config that does not decode means none this time.
        const snapshotConfig = (): MemoryConfig =>
          config ??
          (head === undefined
            ? createMemory().config
            : readConfigJson(head.config, this.#at(api, key, 0)));
        writeSnapshots(this.#sql, this.#place(api, key, id), snapshotConfig, {
          before: actual,
          actions: checked.actions,
          every: this.#snapshotEvery,
        });
        return version;
      });
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

  /**
   * Pages through the actions of stream `id` from `from` to `to`, each page one read; ends early
   * (`false`) when the stream was deleted meanwhile (its id is never reused), and rejects at the
   * first version missing in a stream that is still there.
   */
  async *#pages(
    api: string,
    key: string,
    id: number,
    from: number,
    to: number,
    stillOpen: () => void,
  ): AsyncGenerator<StoredAction, boolean> {
    for (let next = from; next <= to;) {
      if (next > from) await yieldToLoop();
      stillOpen();
      const page = await this.#read(
        () =>
          this.#sql.isLive.get(id) === undefined
            ? undefined
            : this.#sql.page.all(id, next, to, EVENT_PAGE),
        stillOpen,
      );
      if (page === undefined) return false;
      const want = Math.min(EVENT_PAGE, to - next + 1);
      const { sound, gap } = checkPage(page, next, want, this.#at(api, key, next));
      for (const { version, payload } of sound) {
        const at = this.#at(api, key, version as number);
        yield Object.freeze({ version: version as number, action: readActionJson(payload, at) });
      }
      if (gap !== undefined) throw gap;
      next += page.length;
    }
    return true;
  }

  async *read(streamId: string, options?: ReadOptions): AsyncIterable<StoredAction> {
    const { api, stillOpen } = this.#call('read');
    checkEventOptions(options, 'read', api);
    const { key } = sessionKeyOf(streamId, options, api);
    const { from, to } = readRangeOf(options, api);
    try {
      const head = await this.#read(() => this.#head(api, key), stillOpen);
      if (head === undefined) return;
      yield* this.#pages(api, key, head.id, from, Math.min(to, head.version), stillOpen);
    } catch (error) {
      throw asUnavailable(error, this.#failurePlace('read', streamId, false, options));
    }
  }

  async load(streamId: string, options?: LoadOptions): Promise<LoadedStream | null> {
    return unavailableOnFailure(this.#failurePlace('load', streamId, false, options), async () => {
      const { api, stillOpen } = this.#call('load');
      checkEventOptions(options, 'load', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const atVersion = atVersionOf(options, api);
      const start = await this.#read((): LoadStart | null => {
        const head = this.#head(api, key);
        if (head === undefined) return null;
        const target = atVersion ?? head.version;
        checkAtVersion(key, target, head.version, api);
        // The snapshot it starts from may be above a gap: the actions below it are checked too.
        this.#checkWhole(api, key, head, target);
        const config = readConfigJson(head.config, this.#at(api, key, 0));
        const snapshot = snapshotAtOrBelow(
          this.#sql,
          this.#place(api, key, head.id),
          config,
          target,
        );
        return { id: head.id, config, from: snapshot.version, target, state: snapshot.state };
      }, stillOpen);
      if (start === null) return null;
      let { state } = start;
      const pages = this.#pages(api, key, start.id, start.from + 1, start.target, stillOpen);
      for (;;) {
        const next = await pages.next();
        if (next.done === true) {
          // The stream was deleted while it was being read: it is absent now.
          return next.value ? { state, version: start.target } : null;
        }
        const { version, action } = next.value;
        state = applyStoredAction(state, action, this.#at(api, key, version));
      }
    });
  }

  async streams(options?: StreamOptions): Promise<readonly StreamInfo[]> {
    return unavailableOnFailure(this.#failurePlace('streams', undefined, false), async () => {
      const { api, stillOpen } = this.#call('streams');
      // Read once: the listing sees the copy.
      const namespace = namespaceOf(checkEventOptions(options, 'streams', api).namespace, api);
      const prefix = namespace === undefined ? '' : namespaceKeyPrefix(namespace);
      const rows = await this.#read(() => this.#sql.list.all(), stillOpen);
      const found: StreamInfo[] = [];
      for (const row of rows) {
        if (!row.stream.startsWith(prefix)) continue;
        // A damaged stream is left out, as `load` rejects it.
        const shape = streamShapeOf(row);
        if ('problem' in shape) continue;
        const createdAt = typeof row.created_at === 'number' ? row.created_at : Number.NaN;
        found.push(
          Object.freeze({
            streamId: row.stream.slice(prefix.length),
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
    return unavailableOnFailure(this.#failurePlace('delete', streamId, true, options), async () => {
      const { api, stillOpen } = this.#call('delete');
      checkEventOptions(options, 'delete', api);
      const { key } = sessionKeyOf(streamId, options, api);
      const sql = this.#sql;
      const remove = this.#db.transaction((): boolean => {
        const row = sql.selectHead.get(key);
        if (row === undefined) return false;
        // The stream's row first: its actions' removal then records no gap (see eventSchema).
        sql.deleteStream.run(row.id);
        sql.deleteActions.run(row.id);
        sql.deleteSnapshots.run(row.id);
        return true;
      });
      return retryWhileBusy(() => remove.immediate(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
