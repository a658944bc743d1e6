import type { UIMessageChunk } from 'ai';

/**
 * Where the chunks of a chat's running UI message stream are kept while it runs, so that another
 * request (a page reloaded in mid-reply: `resumeUIMessageStream`) can read it from its start, and
 * another request (a stop button) can stop it. One active stream per chat: a new one replaces
 * the one before. A store keeps a stream for a while after it ends (`linger`) and drops one whose
 * writer stopped writing (`ttl`), so a crashed process never leaves a chat "active" for good.
 *
 * Implementations: {@link createMemoryUIMessageStreamStore} (one process) and
 * `RedisUIMessageStreamStore` (`conversation-memory/node`, shared by every process). Chat ids are
 * the application's: any non-empty string of at most 256 characters.
 *
 * @example
 * ```ts
 * const store: UIMessageStreamStore = createMemoryUIMessageStreamStore();
 * const streamId = await store.begin('chat-1');
 * await store.append('chat-1', streamId, { type: 'start', messageId: 'm1' });
 * await store.end('chat-1', streamId);
 * ```
 */
export interface UIMessageStreamStore {
  /** Starts the chat's active stream (replacing any other), empty; returns its id. */
  begin(chatId: string): Promise<string>;
  /**
   * Appends a chunk to the stream, after the ones before. Rejects with `MemoryArgumentError`
   * when the stream is no longer the chat's active one (replaced, ended, expired) or is full.
   */
  append(chatId: string, streamId: string, chunk: UIMessageChunk): Promise<void>;
  /** Marks the stream complete: readers get its last chunks, then their iteration ends. */
  end(chatId: string, streamId: string): Promise<void>;
  /**
   * The chat's active stream from its first chunk, following it live until it ends (or is
   * replaced, or expires, or `signal` fires); `null` when the chat has no active stream.
   */
  read(
    chatId: string,
    options?: { readonly signal?: AbortSignal | undefined },
  ): Promise<AsyncIterable<UIMessageChunk> | null>;
  /** Asks whoever runs the chat's active stream to stop it; `false` when none is active. */
  requestStop(chatId: string): Promise<boolean>;
  /**
   * Calls `onStop` once when a stop of this stream is requested (from any process the store
   * reaches); returns what ends the watch.
   */
  watchStop(chatId: string, streamId: string, onStop: () => void): () => void;
}
