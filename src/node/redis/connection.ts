import { MemoryArgumentError, StoreUnavailableError } from 'conversation-memory';
import {
  isRedisClusterClient,
  type RedisClusterClient,
  type RedisClusterOptions,
  type RedisSessionClient,
} from './clients';
import { redisFailure } from './failure';
import { clusterRedisLine, type RedisLine, singleRedisLine } from './line';
import { type OwnedRedis, openOwnedRedis, type OwnedRedisSource } from './owned';
import { withRedisTimeout } from './timeout';

export type { RedisClusterClient, RedisClusterOptions, RedisSessionClient } from './clients';

/**
 * Where a connection's commands go: a client the caller gave (one server's or a cluster's, used
 * as it is, never closed here), or one the store makes on first use and owns.
 *
 * @example
 * ```ts
 * const source: RedisSource = { cluster: { rootNodes: [{ url: 'redis://127.0.0.1:7000' }] } };
 * ```
 */
export type RedisSource =
  | { readonly url: string }
  | { readonly client: RedisSessionClient | RedisClusterClient }
  | { readonly cluster: RedisClusterOptions; readonly dedicated?: boolean }
  | { readonly duplicateOf: RedisSessionClient | RedisClusterClient };

/**
 * How a connection behaves: the bound on each command, and how many replicas must confirm a write
 * (`WAIT`) before it counts as done.
 *
 * @example
 * ```ts
 * const settings: RedisConnectionSettings = { timeoutMs: 10_000, minReplicas: 0 };
 * ```
 */
export interface RedisConnectionSettings {
  readonly timeoutMs: number;
  readonly minReplicas: number;
}

/**
 * How a command is sent: `key`, the first key it touches (routes it on a cluster; every key of a
 * script is in that key's slot), and whether it `writes` (a failure after sending it may have
 * changed the store).
 *
 * @example
 * ```ts
 * const route: RedisRoute = { key: 'app:{s1}s', writes: true };
 * ```
 */
export interface RedisRoute {
  readonly key?: string | undefined;
  readonly writes?: boolean | undefined;
}

/**
 * The store's line to Redis, one server or a cluster: either a client the caller gave or one made
 * on first use and owned (closed by {@link RedisConnection.close}). Every command is bounded by a
 * timeout (node-redis drops a command still unwritten then, so it cannot run later), and every
 * failure to reach or hear from Redis becomes a `StoreUnavailableError` (see `redisFailure`). An
 * owned client fails fast rather than hanging: a failed first connection is forgotten (the next
 * command tries again with a new client), and while it reconnects commands reject at once.
 *
 * @example
 * ```ts
 * const connection = new RedisConnection({ url: 'redis://127.0.0.1:6379' }, { timeoutMs: 10_000, minReplicas: 0 });
 * await connection.send(['PING'], 'example'); // 'PONG'
 * await connection.close();
 * ```
 */
export class RedisConnection {
  readonly #source: RedisSource;
  readonly #settings: RedisConnectionSettings;
  /** Every reply as strings whatever the client's own `typeMapping`, bounded by the timeout. */
  readonly #options: object;
  readonly #given: RedisLine | undefined;
  /** Where the owned client comes from (`undefined` for a given client). */
  readonly #ownedSource: OwnedRedisSource | undefined;
  #owned: Promise<OwnedRedis> | undefined;
  #closed = false;

  constructor(source: RedisSource, settings: RedisConnectionSettings) {
    this.#source = source;
    this.#settings = settings;
    this.#options = Object.freeze({ typeMapping: Object.freeze({}), timeout: settings.timeoutMs });
    if ('client' in source) {
      this.#given = isRedisClusterClient(source.client)
        ? clusterRedisLine(source.client)
        : singleRedisLine(source.client);
    } else {
      this.#ownedSource =
        'cluster' in source
          ? { cluster: source.cluster, dedicated: source.dedicated === true }
          : source;
    }
  }

  /** The bound on each command, in milliseconds. */
  get timeoutMs(): number {
    return this.#settings.timeoutMs;
  }

  /**
   * A new connection of its own to the same server or cluster, owned (for a blocking command such
   * as `XREAD BLOCK`, which would hold up every other command on a shared one): a client made
   * from the URL or the cluster options, or the given client's `duplicate()`.
   *
   * @throws MemoryArgumentError when the given client has no `duplicate()`
   */
  dedicated(api: string): RedisConnection {
    if (this.#closed) throw new MemoryArgumentError(api, 'the store is closed');
    const source = this.#source;
    if ('url' in source) return new RedisConnection(source, this.#settings);
    if ('cluster' in source) {
      return new RedisConnection({ cluster: source.cluster, dedicated: true }, this.#settings);
    }
    const of = 'client' in source ? source.client : source.duplicateOf;
    if (typeof (of as { duplicate?: unknown }).duplicate !== 'function') {
      throw new MemoryArgumentError(
        api,
        'options.client has no duplicate() method, and a subscription needs a connection of its own: pass a node-redis client, or options.url',
      );
    }
    return new RedisConnection({ duplicateOf: of }, this.#settings);
  }

  /** Sends one command; resolves to its reply (strings, arrays, integers, `null`). */
  async send(args: readonly string[], api: string, route: RedisRoute = {}): Promise<unknown> {
    const line = await this.#line(api);
    try {
      return await withRedisTimeout(line.send(args, route.key, this.#options), this.timeoutMs);
    } catch (error) {
      throw redisFailure(error, api, route.writes === true);
    }
  }

  /**
   * A sender per master (one on a single server), for commands each node answers for its own
   * keys (`SCAN`), bounded and wrapped like {@link RedisConnection.send}.
   */
  async masters(api: string): Promise<readonly ((args: readonly string[]) => Promise<unknown>)[]> {
    const line = await this.#line(api);
    let clients: readonly RedisSessionClient[];
    try {
      clients = await withRedisTimeout(line.masters(), this.timeoutMs);
    } catch (error) {
      throw redisFailure(error, api, false);
    }
    return clients.map((client) => async (args) => {
      try {
        return await withRedisTimeout(client.sendCommand(args, this.#options), this.timeoutMs);
      } catch (error) {
        throw redisFailure(error, api, false);
      }
    });
  }

  /**
   * After a write to `key`'s slot: with `minReplicas` > 0, waits (`WAIT`, at most half the
   * command timeout) until that many replicas of its master hold it, so that a failover cannot
   * lose it; nothing to do otherwise.
   *
   * @throws StoreUnavailableError (`mayHaveWritten`) when fewer replicas confirmed it
   */
  async confirmWrite(key: string, api: string): Promise<void> {
    const wanted = this.#settings.minReplicas;
    if (wanted === 0) return;
    const waitMs = Math.max(1, Math.floor(this.timeoutMs / 2));
    const line = await this.#line(api);
    let reply: unknown;
    try {
      reply = await withRedisTimeout(
        line.sendToKeyNode(key, ['WAIT', String(wanted), String(waitMs)], this.#options),
        this.timeoutMs,
      );
    } catch (error) {
      throw redisFailure(error, api, true);
    }
    const confirmed = Number(reply);
    if (!(confirmed >= wanted)) {
      throw new StoreUnavailableError(
        api,
        `the write was applied, but ${Number.isFinite(confirmed) ? confirmed : 0} of the ${wanted} replicas asked for (options.minReplicas) confirmed it within ${waitMs} ms, so a failover of its master could still lose it`,
        true,
      );
    }
  }

  /** The line to send on: the given client's, or the owned client's (made now if need be). */
  async #line(api: string): Promise<RedisLine> {
    if (this.#closed) throw new MemoryArgumentError(api, 'the store is closed');
    if (this.#given !== undefined) return this.#given;
    try {
      return (await this.#ownedClient(this.#ownedSource as OwnedRedisSource, api)).line;
    } catch (error) {
      throw redisFailure(error, api, false);
    }
  }

  #ownedClient(source: OwnedRedisSource, api: string): Promise<OwnedRedis> {
    if (this.#owned === undefined) {
      const connecting = openOwnedRedis(source, this.timeoutMs, api);
      this.#owned = connecting;
      // A failed first connection is forgotten: the next command tries again.
      connecting.catch(() => {
        if (this.#owned === connecting) this.#owned = undefined;
      });
    }
    return this.#owned;
  }

  /**
   * Drops an owned client at once: its pending commands (a blocking `XREAD`) reject now. Later
   * commands reject as after {@link RedisConnection.close}.
   */
  destroy(): void {
    this.#closed = true;
    const owned = this.#owned;
    this.#owned = undefined;
    owned?.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }

  /** Closes an owned client (waiting for its pending commands); a given client is left open. */
  async close(): Promise<void> {
    this.#closed = true;
    const owned = this.#owned;
    this.#owned = undefined;
    if (owned === undefined) return;
    let client: OwnedRedis['client'];
    try {
      ({ client } = await owned);
    } catch {
      return; // it never connected
    }
    if (!client.isReady) {
      client.destroy();
      return;
    }
    try {
      await withRedisTimeout(client.close(), this.timeoutMs);
    } catch {
      client.destroy();
    }
  }
}
