import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  createMemory,
  EventCorruptError,
  EventPrunedError,
  type MemoryConfig,
  type MemoryState,
  type StoredAction,
} from 'conversation-memory';
import {
  applyStoredAction,
  openStoreCall,
  readActionJson,
  readSnapshotJson,
} from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { HEAD_SCRIPT, PAGE_SCRIPT, SNAPSHOT_SCRIPT } from './eventScripts';
import type { RedisEventKeyLayout } from './schema';
import { redisStatusReply, redisText } from './reply';
import { runScript } from './scripts';

/** Actions read per round trip: `read` and `load` never hold more of a stream than this at once. */
const PAGE = 512;

/**
 * A stream's head, read in one step.
 *
 * @example
 * ```ts
 * const head: EventHead | null = await streams.head('RedisEventStore.load', 'u1:s1', undefined);
 * ```
 */
export interface EventHead {
  readonly version: number;
  readonly config: unknown;
  readonly createdAt: unknown;
  readonly incarnation: string;
  readonly snapshotVersion: number;
  readonly snapshot: unknown;
  /** The first version the stream holds (1, or `before` of its last prune). */
  readonly first: number;
}

/**
 * How a walk over a stream's pages ended: `'done'`, `'gone'` (deleted, re-created or expired
 * meanwhile), or the first version of a stream pruned past the walk meanwhile.
 *
 * @example
 * ```ts
 * const end: PagesEnd = 'done';
 * ```
 */
export type PagesEnd = 'done' | 'gone' | { readonly prunedBefore: number };

/**
 * What the reads of a stream judge expiry by: the store's TTL (seconds, `undefined`: none) and
 * its clock (Unix seconds).
 *
 * @example
 * ```ts
 * const expiry: StreamExpiry = { ttl: 3600, now: () => Date.now() / 1000 };
 * ```
 */
export interface StreamExpiry {
  readonly ttl: number | undefined;
  readonly now: () => number;
}

/**
 * The Redis event store's reads of a stream, shared by its methods: the head (with the snapshot
 * a load starts from), the actions page by page, the replay of a version, and the snapshots an
 * append reaches. Every page checks again that the store is open.
 *
 * @example
 * ```ts
 * const streams = new RedisEventStreams(connection, redisEventKeyLayout('app:ev:'), 256, () => closed, { ttl: undefined, now });
 * const head = await streams.head('RedisEventStore.load', 'u1:s1', undefined);
 * ```
 */
export class RedisEventStreams {
  readonly #connection: RedisConnection;
  readonly #layout: RedisEventKeyLayout;
  readonly #snapshotEvery: number;
  readonly #isClosed: () => boolean;
  readonly #expiry: StreamExpiry;

  constructor(
    connection: RedisConnection,
    layout: RedisEventKeyLayout,
    snapshotEvery: number,
    isClosed: () => boolean,
    expiry: StreamExpiry,
  ) {
    this.#connection = connection;
    this.#layout = layout;
    this.#snapshotEvery = snapshotEvery;
    this.#isClosed = isClosed;
    this.#expiry = expiry;
  }

  /** The store's TTL in seconds (`undefined`: streams never expire). */
  get ttl(): number | undefined {
    return this.#expiry.ttl;
  }

  /** The distance between snapshots. */
  get snapshotEvery(): number {
    return this.#snapshotEvery;
  }

  /** The store's clock and TTL as script arguments: now, ttl (`''`: none). */
  expiryArgs(): [string, string] {
    const { ttl, now } = this.#expiry;
    return [String(now()), ttl === undefined ? '' : String(ttl)];
  }

  keys(key: string): [string, string, string] {
    return [this.#layout.stream(key), this.#layout.meta(key), this.#layout.snapshots(key)];
  }

  at(api: string, key: string, version: number) {
    return { key, version, location: `redis:${this.#layout.stream(key)}`, api };
  }

  corrupt(api: string, key: string, why: unknown): EventCorruptError {
    const { location } = this.at(api, key, 0);
    return new EventCorruptError(api, key, 0, location, [`stream: ${String(redisText(why))}`]);
  }

  /** The stream's head, with the snapshot at or below `atVersion`; `null` when absent. */
  async head(api: string, key: string, atVersion: number | undefined): Promise<EventHead | null> {
    const reply = await runScript(
      this.#connection,
      HEAD_SCRIPT,
      this.keys(key),
      [
        atVersion === undefined ? '' : String(atVersion),
        String(this.#snapshotEvery),
        ...this.expiryArgs(),
      ],
      api,
    );
    const { status, rest } = redisStatusReply(reply, api);
    if (status === 'none') return null;
    if (status === 'corrupt') throw this.corrupt(api, key, rest[0]);
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
      first: Number(redisText(rest[6]) ?? 1),
    };
  }

  /**
   * The state at `target` from the head's snapshot (or an earlier one when it does not decode),
   * without the tail; `null` when the stream was deleted or created again meanwhile. A pruned
   * stream starts from a snapshot at or after its first version, never from an empty state.
   *
   * @throws EventCorruptError when a pruned stream has no snapshot there that decodes
   */
  async #snapshotStart(
    api: string,
    key: string,
    head: EventHead,
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
    // Version 0 is the empty state, unless the stream was pruned: then its first version is.
    const floor = head.first > 1 ? head.first : 0;
    while (version > 0 && version >= floor) {
      if (version <= target) {
        const state = readSnapshotJson(json, config, { stream: key, version });
        if (state !== undefined) return { state, version };
      }
      const reply = await runScript(
        this.#connection,
        SNAPSHOT_SCRIPT,
        [this.#layout.meta(key), this.#layout.snapshots(key)],
        [head.incarnation, String(Math.min(version - 1, target)), ...this.expiryArgs()],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      if (status === 'gone') return null;
      version = Number(redisText(rest[0]) ?? 0);
      json = redisText(rest[1]);
    }
    if (floor > 0) {
      const { location } = this.at(api, key, floor);
      throw new EventCorruptError(api, key, floor, location, [
        `snapshot: the stream was pruned before version ${floor}, and its state there is missing or does not decode`,
      ]);
    }
    return { state: createMemory(config), version: 0 };
  }

  /** The actions from `from` to `to` of the incarnation read, page by page (see `PagesEnd`). */
  async *pages(
    api: string,
    key: string,
    incarnation: string,
    from: number,
    to: number,
  ): AsyncGenerator<StoredAction, PagesEnd> {
    const [stream, meta] = this.keys(key);
    for (let next = from; next <= to;) {
      if (next > from) await yieldToLoop();
      openStoreCall(api, this.#isClosed);
      const count = Math.min(PAGE, to - next + 1);
      const reply = await runScript(
        this.#connection,
        PAGE_SCRIPT,
        [stream, meta],
        [incarnation, String(next), String(to), String(count), ...this.expiryArgs()],
        api,
      );
      const { status, rest } = redisStatusReply(reply, api);
      if (status === 'gone') return 'gone';
      if (status === 'pruned') return { prunedBefore: Number(redisText(rest[0])) };
      for (let i = 0; i + 1 < rest.length; i += 2) {
        const version = next + i / 2;
        const id = redisText(rest[i]);
        const at = this.at(api, key, version);
        if (id !== `${version}-0`) {
          throw new EventCorruptError(api, key, version, at.location, [
            `entry id: expected ${version}-0, got ${String(id)}`,
          ]);
        }
        yield Object.freeze({ version, action: readActionJson(redisText(rest[i + 1]), at) });
      }
      const got = rest.length / 2;
      if (got < count) {
        const { location } = this.at(api, key, next + got);
        throw new EventCorruptError(api, key, next + got, location, [
          `entry: missing (the stream holds fewer entries than its version)`,
        ]);
      }
      next += got;
    }
    return 'done';
  }

  /**
   * The state at `target` (snapshot + tail); `null` when the stream went meanwhile.
   *
   * @throws EventPrunedError when a prune meanwhile removed actions the replay needed (the
   *   caller may read the head again)
   */
  async replay(
    api: string,
    key: string,
    head: EventHead,
    config: MemoryConfig,
    target: number,
  ): Promise<MemoryState | null> {
    const start = await this.#snapshotStart(api, key, head, config, target);
    if (start === null) return null;
    let { state } = start;
    const pages = this.pages(api, key, head.incarnation, start.version + 1, target);
    for (;;) {
      const next = await pages.next();
      if (next.done === true) {
        const end = next.value;
        if (end === 'done') return state;
        if (end === 'gone') return null;
        throw new EventPrunedError(api, key, start.version + 1, end.prunedBefore);
      }
      const { version, action } = next.value;
      state = applyStoredAction(state, action, this.at(api, key, version));
    }
  }
}
