import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import { EventPrunedError, type StoredAction } from 'conversation-memory';
import { isSessionExpired, readActionJson } from 'conversation-memory/store-kit';
import { rethrowBusy, retryWhileBusy } from './busyRetry';
import type { StreamPlace } from './eventSnapshots';
import { EVENT_PAGE, type EventStatements } from './eventStatements';
import { gapBetween, gapFromOf } from './eventStreamGap';
import { checkPage, shapeError, streamShapeOf } from './eventStreamShape';
import type { StoreExpiry } from './options';

/**
 * Whether a stream last appended to at `updatedAt` (its `updated_at` column) has expired at `now`:
 * more than the TTL ago. A stream without a number there never expires.
 *
 * @example
 * ```ts
 * streamExpired(1_000, { ttl: 60, now: () => 1_061 }, 1_061); // true
 * ```
 */
export const streamExpired = (updatedAt: unknown, expiry: StoreExpiry, now: number): boolean =>
  typeof updatedAt === 'number' &&
  Number.isFinite(updatedAt) &&
  isSessionExpired(updatedAt, expiry.ttl, now);

/**
 * A stream's head, checked: its id, its config (unchecked), its version, its first version (1, or
 * where a prune cut it), and where a gap may be (`undefined`: no action was ever removed from it
 * but by a prune, so it has none).
 */
export interface EventHead {
  readonly id: number;
  readonly config: unknown;
  readonly version: number;
  readonly first: number;
  readonly gapFrom: number | undefined;
}

/**
 * The SQLite event store's reads of a stream, shared by its methods: one read snapshot (retried
 * while busy), the head (checked; an expired stream has none), the check that no action is
 * missing, and the actions page by page.
 *
 * @example
 * ```ts
 * const streams = new SqliteEventStreams(db, sql, 'sqlite:events.db', 10_000, expiry);
 * const head = await streams.read(() => streams.head('SqliteEventStore.load', 'u1:s1'), stillOpen);
 * ```
 */
export class SqliteEventStreams {
  readonly #db: BetterSqlite3.Database;
  readonly #sql: EventStatements;
  readonly #location: string;
  readonly #lockTimeoutMs: number;
  /** The store's TTL and clock. */
  readonly expiry: StoreExpiry;

  constructor(
    db: BetterSqlite3.Database,
    sql: EventStatements,
    location: string,
    lockTimeoutMs: number,
    expiry: StoreExpiry,
  ) {
    this.#db = db;
    this.#sql = sql;
    this.#location = location;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.expiry = expiry;
  }

  /** Runs `step` in one read snapshot (retried while busy). */
  read<T>(step: () => T, stillOpen: () => void): Promise<T> {
    const read = this.#db.transaction(step);
    return retryWhileBusy(() => read.deferred(), this.#lockTimeoutMs, rethrowBusy, stillOpen);
  }

  at(api: string, key: string, version: number) {
    return { key, version, location: this.#location, api };
  }

  place(api: string, key: string, id: number): StreamPlace {
    return { key, id, location: this.#location, api };
  }

  /**
   * The stream's head, checked (inside a transaction): `undefined` when there is no stream, or
   * when it has expired at `now` (it is absent to every read from then on; `sweep` removes it).
   *
   * @throws EventCorruptError when its actions do not run from its first version to its version
   */
  head(api: string, key: string, now = this.expiry.now()): EventHead | undefined {
    const row = this.#sql.selectHead.get(key);
    if (row === undefined || streamExpired(row.updated_at, this.expiry, now)) return undefined;
    const shape = streamShapeOf(row);
    if ('problem' in shape) throw shapeError(shape, this.at(api, key, 0));
    return {
      id: row.id,
      config: row.config,
      version: shape.version,
      first: row.first_version === null ? 1 : (row.first_version as number),
      gapFrom: gapFromOf(row.gap_from),
    };
  }

  /**
   * Rejects when the stream has a gap at or below `to` (inside a transaction). Only a stream whose
   * head records a removed action is looked at (see `gapBetween`), from its first version; any
   * other is whole.
   *
   * @throws EventCorruptError at the first missing version
   */
  checkWhole(api: string, key: string, head: EventHead, to: number): void {
    if (head.gapFrom === undefined) return;
    const from = Math.max(head.gapFrom, head.first);
    if (from > to) return;
    const gap = gapBetween(this.#sql, this.place(api, key, head.id), from, to);
    if (gap !== undefined) throw gap;
  }

  /**
   * Rejects a read or load of `version` below the stream's first version (a pruned stream).
   *
   * @throws EventPrunedError naming the version asked for and the first version
   */
  checkNotPruned(api: string, key: string, head: EventHead, version: number): void {
    if (version < head.first) throw new EventPrunedError(api, key, version, head.first);
  }

  /**
   * Pages through the actions of stream `id` from `from` to `to`, each page one read; ends early
   * (`false`) when the stream was deleted meanwhile (its id is never reused), rejects with
   * `EventPrunedError` when a prune meanwhile removed the next page, and rejects at the first
   * version missing in a stream that is still there.
   */
  async *pages(
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
      const page = await this.read(() => {
        const first = this.#sql.firstVersion.get(id);
        if (first === undefined) return undefined;
        if (typeof first === 'number' && first > next) {
          throw new EventPrunedError(api, key, next, first);
        }
        return this.#sql.page.all(id, next, to, EVENT_PAGE);
      }, stillOpen);
      if (page === undefined) return false;
      const want = Math.min(EVENT_PAGE, to - next + 1);
      const { sound, gap } = checkPage(page, next, want, this.at(api, key, next));
      for (const { version, payload } of sound) {
        const at = this.at(api, key, version as number);
        yield Object.freeze({ version: version as number, action: readActionJson(payload, at) });
      }
      if (gap !== undefined) throw gap;
      next += page.length;
    }
    return true;
  }
}
