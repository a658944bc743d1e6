import { randomUUID } from 'node:crypto';
import type { UIMessageChunk } from 'ai';
import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { checkChatId } from '../../adapters/ai-sdk/ui/checkChatId';
import {
  checkStreamStoreOptions,
  type CheckedStreamStoreOptions,
  type UIMessageStreamStoreOptions,
} from '../../adapters/ai-sdk/ui/streamStoreOptions';
import type { UIMessageStreamStore } from '../../adapters/ai-sdk/ui/uiMessageStreamStore';
import type { RedisSessionClient } from './clients';

/**
 * Options of {@link RedisUIMessageStreamStore}: the client, a key prefix, how often a reader or a
 * runner looks for news, and the limits of every stream store.
 *
 * @example
 * ```ts
 * const options: RedisUIMessageStreamStoreOptions = { client, prefix: 'chat-ui:', pollMs: 50 };
 * ```
 */
export interface RedisUIMessageStreamStoreOptions extends Omit<UIMessageStreamStoreOptions, 'now'> {
  /** A connected node-redis client (`createClient()` from `'redis'`, 5 or 6); not a cluster. */
  readonly client: RedisSessionClient;
  /** Put before every key (default `'cm:ui-stream:'`). */
  readonly prefix?: string;
  /** How often (ms) a reader looks for new chunks and a runner for a stop request. Default 50. */
  readonly pollMs?: number;
}

/** How many chunks a reader takes per `XRANGE`. */
const PAGE = 200;

/**
 * `KEYS`: active, stream, meta. `ARGV`: streamId, chunk JSON, ttl, maxChunks, maxBytes. Appends
 * when the stream is the chat's active one, not ended and not full; every key's expiry renewed.
 */
const APPEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('HGET', KEYS[3], 'ended') then return 'inactive' end
local count = tonumber(redis.call('HGET', KEYS[3], 'chunks') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[3], 'bytes') or '0')
if count >= tonumber(ARGV[4]) or bytes + string.len(ARGV[2]) > tonumber(ARGV[5]) then return 'full' end
redis.call('XADD', KEYS[2], '*', 'c', ARGV[2])
redis.call('HSET', KEYS[3], 'chunks', count + 1, 'bytes', bytes + string.len(ARGV[2]))
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return 'ok'`;

/** `KEYS`: active, stream, meta. `ARGV`: streamId, linger. Marks the end; everything lingers. */
const END = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('HGET', KEYS[3], 'ended') then return 'inactive' end
redis.call('XADD', KEYS[2], '*', 'end', '1')
redis.call('HSET', KEYS[3], 'ended', '1')
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return 'ok'`;

/** `KEYS`: active. `ARGV`: prefix of the chat's keys, ttl. Sets the active stream's stop key. */
const STOP = `
local id = redis.call('GET', KEYS[1])
if not id or redis.call('HGET', ARGV[1] .. 'm:' .. id, 'ended') then return 0 end
redis.call('SET', ARGV[1] .. 'stop:' .. id, '1', 'PX', ARGV[2])
return 1`;

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * A {@link UIMessageStreamStore} on Redis, shared by every process that reaches the server: a
 * reply running in one process is resumed by a request to another, and stopped from a third.
 * Each chat has a key naming its active stream, the stream itself (a Redis stream, `XADD`), a
 * hash of its counts, and a stop key; every write renews their expiry (`ttl`, so a crashed writer's
 * stream goes), and the end sets it to `linger`. Appends, ends and stop requests are Lua scripts
 * (atomic: a replaced or ended stream is never written). Readers and runners poll (`XRANGE` after
 * the last id, `GET` of the stop key) every `pollMs`: no blocking command ties up a connection of
 * the application's client. Keys: `<prefix>{<chatId, URI-encoded>}:…` (one hash slot per chat).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const store = new RedisUIMessageStreamStore({ client: await createClient().connect() });
 * toUIMessageStreamResponse(agent.stream(input, { messageId }), { store, chatId });
 * ```
 */
export class RedisUIMessageStreamStore implements UIMessageStreamStore {
  readonly #client: RedisSessionClient;
  readonly #prefix: string;
  readonly #pollMs: number;
  readonly #limits: CheckedStreamStoreOptions;

  constructor(options: RedisUIMessageStreamStoreOptions) {
    const api = 'RedisUIMessageStreamStore';
    if (options === undefined) {
      throw new MemoryArgumentError(
        api,
        'options must be an object such as { client }, received undefined',
      );
    }
    const { more, ...limits } = checkStreamStoreOptions(api, options, [
      'client',
      'prefix',
      'pollMs',
    ]);
    const { client, prefix = 'cm:ui-stream:', pollMs = 50 } = more;
    if (typeof (client as { sendCommand?: unknown })?.sendCommand !== 'function') {
      throw new MemoryArgumentError(
        api,
        `options.client must be a connected node-redis client, received ${describeValue(client)}`,
      );
    }
    if (typeof prefix !== 'string' || prefix.length > 256) {
      throw new MemoryArgumentError(
        api,
        `options.prefix must be a string of at most 256 characters, received ${describeValue(prefix)}`,
      );
    }
    if (
      typeof pollMs !== 'number' ||
      !Number.isSafeInteger(pollMs) ||
      pollMs < 1 ||
      pollMs > 60_000
    ) {
      throw new MemoryArgumentError(
        api,
        `options.pollMs must be an integer from 1 to 60000, received ${describeValue(pollMs)}`,
      );
    }
    this.#client = client as RedisSessionClient;
    this.#prefix = prefix;
    this.#pollMs = pollMs;
    this.#limits = limits;
  }

  /** The prefix of a chat's keys (its id in a hash tag: one slot per chat). */
  #chat(chatId: string): string {
    return `${this.#prefix}{${encodeURIComponent(chatId)}}:`;
  }

  #keys(chatId: string, streamId: string): string[] {
    const chat = this.#chat(chatId);
    return [`${chat}active`, `${chat}s:${streamId}`, `${chat}m:${streamId}`];
  }

  #send(args: string[]): Promise<unknown> {
    return this.#client.sendCommand(args);
  }

  async begin(chatId: string): Promise<string> {
    checkChatId('RedisUIMessageStreamStore.begin', chatId);
    const streamId = randomUUID();
    const [active, , meta] = this.#keys(chatId, streamId);
    await this.#send(['HSET', meta as string, 'chunks', '0', 'bytes', '0']);
    await this.#send(['PEXPIRE', meta as string, String(this.#limits.ttl)]);
    await this.#send(['SET', active as string, streamId, 'PX', String(this.#limits.ttl)]);
    return streamId;
  }

  async append(chatId: string, streamId: string, chunk: UIMessageChunk): Promise<void> {
    const api = 'RedisUIMessageStreamStore.append';
    checkChatId(api, chatId);
    let text: string | undefined;
    try {
      text = typeof chunk === 'object' && chunk !== null ? JSON.stringify(chunk) : undefined;
    } catch {
      text = undefined;
    }
    if (text === undefined) throw new MemoryArgumentError(api, 'chunk must be a JSON object');
    const { ttl, maxChunks, maxBytes } = this.#limits;
    const keys = this.#keys(chatId, String(streamId));
    const reply = await this.#send([
      'EVAL',
      APPEND,
      '3',
      ...keys,
      String(streamId),
      text,
      String(ttl),
      String(maxChunks),
      String(maxBytes),
    ]);
    this.#check(api, chatId, streamId, reply);
  }

  async end(chatId: string, streamId: string): Promise<void> {
    const api = 'RedisUIMessageStreamStore.end';
    checkChatId(api, chatId);
    const keys = this.#keys(chatId, String(streamId));
    const reply = await this.#send([
      'EVAL',
      END,
      '3',
      ...keys,
      String(streamId),
      String(this.#limits.linger),
    ]);
    this.#check(api, chatId, streamId, reply);
  }

  #check(api: string, chatId: string, streamId: string, reply: unknown): void {
    if (reply === 'full') {
      throw new MemoryArgumentError(
        api,
        `stream of chat ${JSON.stringify(chatId)} is full (at most ${this.#limits.maxChunks} chunks and ${this.#limits.maxBytes} bytes)`,
      );
    }
    if (reply !== 'ok') {
      throw new MemoryArgumentError(
        api,
        `stream ${JSON.stringify(streamId)} is not the active stream of chat ${JSON.stringify(chatId)} (it ended, was replaced or expired)`,
      );
    }
  }

  async read(
    chatId: string,
    options?: { readonly signal?: AbortSignal | undefined },
  ): Promise<AsyncIterable<UIMessageChunk> | null> {
    checkChatId('RedisUIMessageStreamStore.read', chatId);
    const active = `${this.#chat(chatId)}active`;
    const streamId = await this.#send(['GET', active]);
    if (typeof streamId !== 'string') return null;
    const [, stream] = this.#keys(chatId, streamId);
    const signal = options?.signal;
    const send = (args: string[]) => this.#send(args);
    const pollMs = this.#pollMs;
    return {
      async *[Symbol.asyncIterator]() {
        let after = '-';
        for (;;) {
          if (signal?.aborted === true) return;
          const start = after === '-' ? '-' : `(${after}`;
          const entries = (await send([
            'XRANGE',
            stream as string,
            start,
            '+',
            'COUNT',
            String(PAGE),
          ])) as [string, string[]][];
          for (const [id, fields] of entries) {
            after = id;
            if (fields[0] === 'end') return;
            yield JSON.parse(fields[1] as string) as UIMessageChunk;
          }
          if (entries.length === PAGE) continue;
          // Nothing new: the stream may have been replaced or have expired.
          if ((await send(['GET', active])) !== streamId) return;
          await sleep(pollMs, signal);
        }
      },
    };
  }

  async requestStop(chatId: string): Promise<boolean> {
    checkChatId('RedisUIMessageStreamStore.requestStop', chatId);
    const chat = this.#chat(chatId);
    const reply = await this.#send([
      'EVAL',
      STOP,
      '1',
      `${chat}active`,
      chat,
      String(this.#limits.ttl),
    ]);
    return Number(reply) === 1;
  }

  watchStop(chatId: string, streamId: string, onStop: () => void): () => void {
    checkChatId('RedisUIMessageStreamStore.watchStop', chatId);
    const key = `${this.#chat(chatId)}stop:${streamId}`;
    let watching = true;
    const look = async (): Promise<void> => {
      while (watching) {
        const seen = await this.#send(['EXISTS', key]).catch(() => 0);
        if (!watching) return;
        if (Number(seen) === 1) {
          watching = false;
          onStop();
          return;
        }
        await sleep(this.#pollMs);
      }
    };
    void look();
    return () => {
      watching = false;
    };
  }
}
