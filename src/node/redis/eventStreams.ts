import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  createMemory,
  EventCorruptError,
  type MemoryAction,
  type MemoryConfig,
  type MemoryState,
  memoryReducer,
  type StoredAction,
} from 'conversation-memory';
import {
  applyStoredAction,
  encodeSnapshotJson,
  openStoreCall,
  readActionJson,
  readConfigJson,
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
}

/**
 * The Redis event store's reads of a stream, shared by its methods: the head (with the snapshot
 * a load starts from), the actions page by page, the replay of a version, and the snapshots an
 * append reaches. Every page checks again that the store is open.
 *
 * @example
 * ```ts
 * const streams = new RedisEventStreams(connection, redisEventKeyLayout('app:ev:'), 256, () => closed);
 * const head = await streams.head('RedisEventStore.load', 'u1:s1', undefined);
 * ```
 */
export class RedisEventStreams {
  readonly #connection: RedisConnection;
  readonly #layout: RedisEventKeyLayout;
  readonly #snapshotEvery: number;
  readonly #isClosed: () => boolean;

  constructor(
    connection: RedisConnection,
    layout: RedisEventKeyLayout,
    snapshotEvery: number,
    isClosed: () => boolean,
  ) {
    this.#connection = connection;
    this.#layout = layout;
    this.#snapshotEvery = snapshotEvery;
    this.#isClosed = isClosed;
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
      [atVersion === undefined ? '' : String(atVersion), String(this.#snapshotEvery)],
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
    };
  }

  /**
   * The state at `target` from the head's snapshot (or an earlier one when it does not decode),
   * without the tail; `null` when the stream was deleted or created again meanwhile.
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
  async *pages(
    api: string,
    key: string,
    incarnation: string,
    from: number,
    to: number,
  ): AsyncGenerator<StoredAction, boolean> {
    const [stream, meta] = this.keys(key);
    for (let next = from; next <= to;) {
      if (next > from) await yieldToLoop();
      openStoreCall(api, this.#isClosed);
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
    return true;
  }

  /**
   * The snapshots an append reaches (versions and envelopes, as script arguments) and the
   * incarnation they were computed on. Only an optimisation: when the state before the batch
   * cannot be rebuilt (a stale version, a corrupt record) or an action cannot be applied, none.
   */
  async snapshotsOf(
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
      const head = await this.head(api, key, before);
      if (head === null) {
        if (before !== 0) return none;
        const config = given ?? createMemory().config;
        start = { state: createMemory(config), incarnation, config };
      } else {
        if (head.version !== before) return none;
        const config = readConfigJson(head.config, this.at(api, key, 0));
        const loaded = await this.replay(api, key, head, config, before);
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
      if (next.done === true) return next.value ? state : null;
      const { version, action } = next.value;
      state = applyStoredAction(state, action, this.at(api, key, version));
    }
  }
}
