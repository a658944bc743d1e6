import type { UIMessageChunk } from 'ai';
import { readResumeOptions } from './readStreamOptions';
import type { UIMessageStreamStore } from './uiMessageStreamStore';
import { uiMessageStreamResponse } from './uiMessageStreamSse';

/**
 * What {@link resumeUIMessageStream} takes.
 *
 * @example
 * ```ts
 * const where: ResumeUIMessageStreamOptions = { store, chatId: 'chat-1' };
 * ```
 */
export interface ResumeUIMessageStreamOptions {
  readonly store: UIMessageStreamStore;
  readonly chatId: string;
  /** Stops following the stream (the request's signal). */
  readonly signal?: AbortSignal;
}

/** The rest of the chat's running stream from its start (checked options), or `null`. */
const followStream = async ({
  store,
  chatId,
  signal: given,
}: ReturnType<typeof readResumeOptions>): Promise<ReadableStream<UIMessageChunk> | null> => {
  const follow = new AbortController();
  const signal = given === undefined ? follow.signal : AbortSignal.any([given, follow.signal]);
  const chunks = await store.read(chatId, { signal });
  if (chunks === null) return null;
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<UIMessageChunk>({
    pull: async (controller) => {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: async () => {
      follow.abort();
      await iterator.return?.();
    },
  });
};

/**
 * The chat's active UI message stream from its first chunk, following it live until it ends:
 * what a client that reconnects (`useChat({ resume: true })`, a reloaded page) reads to show the
 * whole reply. `null` when the chat has no active stream (none began, or it ended and its linger
 * passed, or it expired).
 *
 * @param options - `store`, `chatId`, `signal`
 * @returns the chunks, or `null`
 * @throws MemoryArgumentError for options that are not valid: an unknown key, a store without
 *   `read`, a chat id that is not a non-empty string of at most 256 characters, a signal that is
 *   not an `AbortSignal`
 * @example
 * ```ts
 * const rest = await resumeUIMessageStream({ store, chatId: 'chat-1' });
 * if (rest !== null) for await (const chunk of rest) console.log(chunk.type);
 * ```
 */
export const resumeUIMessageStream = async (
  options: ResumeUIMessageStreamOptions,
): Promise<ReadableStream<UIMessageChunk> | null> =>
  followStream(readResumeOptions('resumeUIMessageStream', options));

/**
 * {@link resumeUIMessageStream} as the `Response` of a resume route (`GET
 * /api/chat/:id/stream`, where `useChat`'s transport asks): the rest of the stream as the
 * protocol's server-sent events, or `204 No Content` when no stream is active (what the
 * transport reads as "nothing to resume").
 *
 * @param options - `store`, `chatId`, `signal`
 * @returns the response
 * @example
 * ```ts
 * export const GET = (request: Request, chatId: string) =>
 *   resumeUIMessageStreamResponse({ store, chatId, signal: request.signal });
 * ```
 */
export const resumeUIMessageStreamResponse = async (
  options: ResumeUIMessageStreamOptions,
): Promise<Response> => {
  const chunks = await followStream(readResumeOptions('resumeUIMessageStreamResponse', options));
  if (chunks === null) return new Response(null, { status: 204 });
  return uiMessageStreamResponse(chunks, {});
};
