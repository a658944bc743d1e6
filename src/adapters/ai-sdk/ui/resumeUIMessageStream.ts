import type { UIMessageChunk } from 'ai';
import { readResumeOptions } from './readStreamOptions';
import type { UIMessageStreamStore } from './uiMessageStreamStore';

const API = 'resumeUIMessageStream';
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

/**
 * The chat's active UI message stream from its first chunk, following it live until it ends:
 * what a client that reconnects (`useChat({ resume: true })`, a reloaded page) reads to show the
 * whole reply. `null` when the chat has no active stream (none began, or it ended and its linger
 * passed, or it expired).
 *
 * @param options - `store`, `chatId`, `signal`
 * @returns the chunks, or `null`
 * @throws MemoryArgumentError for a chat id that is not a non-empty string of at most 256 characters
 * @example
 * ```ts
 * const rest = await resumeUIMessageStream({ store, chatId: 'chat-1' });
 * if (rest !== null) for await (const chunk of rest) console.log(chunk.type);
 * ```
 */
export const resumeUIMessageStream = async (
  options: ResumeUIMessageStreamOptions,
): Promise<ReadableStream<UIMessageChunk> | null> => {
  const { store, chatId, signal: given } = readResumeOptions(API, options);
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
  // Checked here, so that its errors name this call; a plain copy goes on.
  const chunks = await resumeUIMessageStream(
    readResumeOptions('resumeUIMessageStreamResponse', options),
  );
  if (chunks === null) return new Response(null, { status: 204 });
  return uiMessageStreamResponse(chunks, {});
};
