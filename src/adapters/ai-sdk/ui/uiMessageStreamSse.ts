import type { UIMessageChunk } from 'ai';

/**
 * The headers of the AI SDK's UI message stream protocol (v1), as its
 * `createUIMessageStreamResponse` sends them.
 *
 * @internal
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/**
 * The UI message stream as the protocol's server-sent events: one `data: <JSON>` event per
 * chunk, then `data: [DONE]`. Cancelling the result cancels `chunks`.
 *
 * @param chunks - the chunks
 * @returns the encoded body
 * @example
 * ```ts
 * new Response(uiMessageStreamSse(chunks), { headers: UI_MESSAGE_STREAM_HEADERS });
 * ```
 * @internal
 */
export const uiMessageStreamSse = (
  chunks: ReadableStream<UIMessageChunk>,
): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  const reader = chunks.getReader();
  let done = false;
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      if (done) return;
      const next = await reader.read();
      if (next.done) {
        done = true;
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    cancel: (reason) => reader.cancel(reason),
  });
};

/**
 * A `Response` of the protocol: its headers (and any given), status 200 unless given.
 *
 * @internal
 */
export const uiMessageStreamResponse = (
  chunks: ReadableStream<UIMessageChunk>,
  init: {
    readonly status?: number | undefined;
    readonly headers?: Readonly<Record<string, string>> | undefined;
  },
): Response => {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(uiMessageStreamSse(chunks), { status: init.status ?? 200, headers });
};
