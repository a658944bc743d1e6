import type { UIMessageChunk } from 'ai';
import { MemoryArgumentError } from 'conversation-memory';
import { checkChatId } from './checkChatId';
import { checkStreamStoreOptions, type UIMessageStreamStoreOptions } from './streamStoreOptions';
import type { UIMessageStreamStore } from './uiMessageStreamStore';

/** One chat's active stream. */
interface ActiveStream {
  readonly streamId: string;
  readonly chunks: UIMessageChunk[];
  bytes: number;
  ended: boolean;
  /** When it was last written (begun, appended, ended). */
  touched: number;
  stopRequested: boolean;
  readonly stopWatchers: Set<() => void>;
  readonly wake: Set<() => void>;
}

const wakeAll = (stream: ActiveStream): void => {
  for (const wake of [...stream.wake]) wake();
};

/**
 * A {@link UIMessageStreamStore} in this process's memory: for one server process (and tests).
 * Readers follow a stream by waiting for its next chunk, not by polling. A chunk is copied on the
 * way in (a JSON round trip: what is not JSON is refused). Browser-safe (no Node built-ins).
 *
 * @param options - `ttl` (an unfinished stream not written for this long is dropped, default 10
 *   minutes), `linger` (how long an ended stream stays readable, default 60 s), `maxChunks`
 *   (default 100,000), `maxBytes` (default 16 MiB), `now` (the clock, for tests)
 * @returns the store
 * @example
 * ```ts
 * const store = createMemoryUIMessageStreamStore({ ttl: 60_000 });
 * const id = await store.begin('chat-1');
 * await store.append('chat-1', id, { type: 'start', messageId: 'm1' });
 * ```
 */
export const createMemoryUIMessageStreamStore = (
  options?: UIMessageStreamStoreOptions,
): UIMessageStreamStore => {
  const { ttl, linger, maxChunks, maxBytes, now } = checkStreamStoreOptions(
    'createMemoryUIMessageStreamStore',
    options,
  );
  const streams = new Map<string, ActiveStream>();

  /** The chat's stream, unless it has expired (then it is dropped). */
  const live = (chatId: string): ActiveStream | undefined => {
    const stream = streams.get(chatId);
    if (stream === undefined) return undefined;
    if (now() - stream.touched > (stream.ended ? linger : ttl)) {
      streams.delete(chatId);
      wakeAll(stream);
      return undefined;
    }
    return stream;
  };

  const writable = (api: string, chatId: string, streamId: string): ActiveStream => {
    const stream = live(checkChatId(api, chatId));
    if (stream === undefined || stream.streamId !== streamId || stream.ended) {
      throw new MemoryArgumentError(
        api,
        `stream ${JSON.stringify(streamId)} is not the active stream of chat ${JSON.stringify(chatId)} (it ended, was replaced or expired)`,
      );
    }
    return stream;
  };

  const follow = async function* (
    stream: ActiveStream,
    chatId: string,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<UIMessageChunk> {
    let next = 0;
    for (;;) {
      while (next < stream.chunks.length) yield stream.chunks[next++] as UIMessageChunk;
      if (stream.ended || signal?.aborted === true || live(chatId) !== stream) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stream.wake.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        // Wake up now and then to see whether the stream has expired.
        const timer = setTimeout(done, Math.min(ttl, 1_000));
        stream.wake.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  };

  return {
    begin: async (chatId) => {
      checkChatId('UIMessageStreamStore.begin', chatId);
      const before = streams.get(chatId);
      const stream: ActiveStream = {
        streamId: globalThis.crypto.randomUUID(),
        chunks: [],
        bytes: 0,
        ended: false,
        touched: now(),
        stopRequested: false,
        stopWatchers: new Set(),
        wake: new Set(),
      };
      streams.set(chatId, stream);
      if (before !== undefined) wakeAll(before);
      return stream.streamId;
    },
    append: async (chatId, streamId, chunk) => {
      const api = 'UIMessageStreamStore.append';
      const stream = writable(api, chatId, streamId);
      let text: string | undefined;
      try {
        text = JSON.stringify(chunk);
      } catch {
        text = undefined;
      }
      if (typeof text !== 'string' || typeof chunk !== 'object' || chunk === null) {
        throw new MemoryArgumentError(api, 'chunk must be a JSON object');
      }
      if (stream.chunks.length >= maxChunks || stream.bytes + text.length > maxBytes) {
        throw new MemoryArgumentError(
          api,
          `stream of chat ${JSON.stringify(chatId)} is full (at most ${maxChunks} chunks and ${maxBytes} bytes)`,
        );
      }
      stream.chunks.push(JSON.parse(text) as UIMessageChunk);
      stream.bytes += text.length;
      stream.touched = now();
      wakeAll(stream);
    },
    end: async (chatId, streamId) => {
      const stream = writable('UIMessageStreamStore.end', chatId, streamId);
      stream.ended = true;
      stream.touched = now();
      stream.stopWatchers.clear();
      wakeAll(stream);
    },
    read: async (chatId, readOptions) => {
      const stream = live(checkChatId('UIMessageStreamStore.read', chatId));
      if (stream === undefined) return null;
      return follow(stream, chatId, readOptions?.signal);
    },
    requestStop: async (chatId) => {
      const stream = live(checkChatId('UIMessageStreamStore.requestStop', chatId));
      if (stream === undefined || stream.ended) return false;
      stream.stopRequested = true;
      for (const onStop of [...stream.stopWatchers]) onStop();
      stream.stopWatchers.clear();
      return true;
    },
    watchStop: (chatId, streamId, onStop) => {
      const stream = streams.get(checkChatId('UIMessageStreamStore.watchStop', chatId));
      if (stream === undefined || stream.streamId !== streamId) return () => undefined;
      if (stream.stopRequested) {
        queueMicrotask(onStop);
        return () => undefined;
      }
      let called = false;
      const once = () => {
        if (called) return;
        called = true;
        onStop();
      };
      stream.stopWatchers.add(once);
      return () => void stream.stopWatchers.delete(once);
    },
  };
};
