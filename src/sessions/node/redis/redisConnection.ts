import { MemoryArgumentError } from 'conversation-memory';

/**
 * The part of a node-redis client (`redis` 5 or 6: `createClient()` from `'redis'` or
 * `'@redis/client'`, RESP2 or RESP3) that the store uses: raw commands. Pass a connected client
 * as `options.client`; the store sends every command with its own type mapping (strings), so a
 * client that maps replies to Buffers works too. A client's `keyPrefix` is not applied to these
 * commands: use the store's `prefix`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client: RedisSessionClient = await createClient({ url: 'redis://localhost:6379' }).connect();
 * ```
 */
export interface RedisSessionClient {
  sendCommand(args: readonly string[], options?: { typeMapping?: object }): Promise<unknown>;
}

/** What the store needs from a client it creates itself (node-redis's `createClient`). */
interface OwnedClient extends RedisSessionClient {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

type CreateClient = (options: object) => OwnedClient;

/** Every reply as strings, whatever the client's own `typeMapping`. */
const COMMAND_OPTIONS = Object.freeze({ typeMapping: Object.freeze({}) });

/** Delay before the n-th reconnection attempt of an owned client, in milliseconds. */
const reconnectDelay = (retries: number): number => Math.min(100 * 2 ** retries, 2000);

/**
 * Rejects with a `TimeoutError` (the platform's `DOMException`, as `AbortSignal.timeout` gives)
 * when `promise` has not settled within `ms`: node-redis waits for a reply forever once a command
 * is written, so a server that stops answering would otherwise hang every caller.
 */
const withTimeout = <T>(promise: Promise<T>, ms: number, api: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new DOMException(
          `[conversation-memory] ${api}: Redis did not answer within ${ms} ms`,
          'TimeoutError',
        ),
      );
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/** Loads node-redis only now, so importing the store's subpath never requires it. */
const loadCreateClient = async (api: string): Promise<CreateClient> => {
  try {
    const redis = (await import('redis')) as unknown as { createClient?: unknown };
    if (typeof redis.createClient !== 'function') throw new Error('redis has no createClient');
    return redis.createClient as CreateClient;
  } catch (cause) {
    throw new MemoryArgumentError(
      api,
      "options.url needs the optional peer package 'redis' (node-redis 5 or 6), which could not be loaded: install it with `npm install redis`, or pass a connected client as options.client",
      { cause },
    );
  }
};

/**
 * The store's line to Redis: either a client the caller gave (used as it is, never closed here)
 * or one made from a URL on first use and owned (closed by {@link RedisConnection.close}). Every
 * command is bounded by a timeout. An owned client fails fast rather than hanging: its first
 * connection is not retried (the next command tries again with a new client), and while it
 * reconnects after losing the server, commands reject at once (`ClientOfflineError`) instead of
 * queueing.
 *
 * @example
 * ```ts
 * const connection = new RedisConnection({ url: 'redis://127.0.0.1:6379' }, 10_000);
 * await connection.send(['PING'], 'example'); // 'PONG'
 * await connection.close();
 * ```
 */
export class RedisConnection {
  readonly #given: RedisSessionClient | undefined;
  readonly #url: string | undefined;
  readonly #duplicateOf: RedisSessionClient | undefined;
  readonly #timeoutMs: number;
  #owned: Promise<OwnedClient> | undefined;
  #closed = false;

  constructor(
    source: { url: string } | { client: RedisSessionClient } | { duplicateOf: RedisSessionClient },
    timeoutMs: number,
  ) {
    this.#given = 'client' in source ? source.client : undefined;
    this.#url = 'url' in source ? source.url : undefined;
    this.#duplicateOf = 'duplicateOf' in source ? source.duplicateOf : undefined;
    this.#timeoutMs = timeoutMs;
  }

  /** The bound on each command, in milliseconds. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /**
   * A new connection of its own to the same server, owned (for a blocking command such as
   * `XREAD BLOCK`, which would hold up every other command on a shared one): a client made from
   * the URL, or the given client's `duplicate()`.
   *
   * @throws MemoryArgumentError when the given client has no `duplicate()`
   */
  dedicated(api: string): RedisConnection {
    if (this.#closed) throw new MemoryArgumentError(api, 'the store is closed');
    if (this.#url !== undefined) return new RedisConnection({ url: this.#url }, this.#timeoutMs);
    const source = this.#given ?? this.#duplicateOf;
    if (typeof (source as { duplicate?: unknown } | undefined)?.duplicate !== 'function') {
      throw new MemoryArgumentError(
        api,
        'options.client has no duplicate() method, and a subscription needs a connection of its own: pass a node-redis client, or options.url',
      );
    }
    return new RedisConnection({ duplicateOf: source as RedisSessionClient }, this.#timeoutMs);
  }

  /** Sends one command; resolves to its reply (strings, arrays, integers, `null`). */
  async send(args: readonly string[], api: string): Promise<unknown> {
    if (this.#closed) throw new MemoryArgumentError(api, 'the store is closed');
    const client = this.#given ?? (await this.#ownedClient(api));
    return withTimeout(client.sendCommand(args, COMMAND_OPTIONS), this.#timeoutMs, api);
  }

  #ownedClient(api: string): Promise<OwnedClient> {
    if (this.#owned === undefined) {
      const connecting = this.#connect(api);
      this.#owned = connecting;
      // A failed first connection is forgotten: the next command tries again.
      connecting.catch(() => {
        if (this.#owned === connecting) this.#owned = undefined;
      });
    }
    return this.#owned;
  }

  async #connect(api: string): Promise<OwnedClient> {
    if (this.#duplicateOf !== undefined) return this.#connectDuplicate(api, this.#duplicateOf);
    const createClient = await loadCreateClient(api);
    let ready = false;
    const client = createClient({
      url: this.#url,
      name: 'conversation-memory',
      disableOfflineQueue: true,
      socket: {
        connectTimeout: this.#timeoutMs,
        // Before the first connection: give up at once (connect rejects with the cause).
        reconnectStrategy: (retries: number, cause: Error) =>
          ready ? reconnectDelay(retries) : cause,
      },
    });
    // node-redis emits socket errors as events (an unheard one would crash the process); the
    // commands reject with them anyway.
    client.on('error', () => undefined);
    client.on('ready', () => {
      ready = true;
    });
    return this.#connectOrDestroy(client, api);
  }

  /** Connects a client this store made, within the timeout; a client that fails is destroyed. */
  async #connectOrDestroy(client: OwnedClient, api: string): Promise<OwnedClient> {
    try {
      await withTimeout(client.connect(), this.#timeoutMs, api);
    } catch (error) {
      client.destroy();
      throw error;
    }
    return client;
  }

  async #connectDuplicate(api: string, of: RedisSessionClient): Promise<OwnedClient> {
    const client = (of as unknown as { duplicate: () => unknown }).duplicate() as OwnedClient;
    for (const method of ['connect', 'sendCommand', 'destroy', 'on'] as const) {
      if (typeof (client as unknown as Record<string, unknown>)[method] !== 'function') {
        throw new MemoryArgumentError(
          api,
          `options.client.duplicate() did not return a node-redis client (it has no ${method}())`,
        );
      }
    }
    client.on('error', () => undefined);
    return this.#connectOrDestroy(client, api);
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
      (client) => client.destroy(),
      () => undefined,
    );
  }

  /** Closes an owned client (waiting for its pending commands); a given client is left open. */
  async close(): Promise<void> {
    this.#closed = true;
    const owned = this.#owned;
    this.#owned = undefined;
    if (owned === undefined) return;
    let client: OwnedClient;
    try {
      client = await owned;
    } catch {
      return; // it never connected
    }
    if (!client.isReady) {
      client.destroy();
      return;
    }
    try {
      await withTimeout(client.close(), this.#timeoutMs, 'RedisSessionStore.close');
    } catch {
      client.destroy();
    }
  }
}
