import type { AgentStreamEvent } from 'conversation-memory';
import { toUIMessageStream, type ToUIMessageStreamOptions } from './toUIMessageStream';
import { uiMessageStreamResponse } from './uiMessageStreamSse';

/**
 * Options of {@link toUIMessageStreamResponse}: those of `toUIMessageStream`, and the
 * response's status and extra headers.
 *
 * @example
 * ```ts
 * const options: ToUIMessageStreamResponseOptions = { headers: { 'x-chat': 'chat-1' } };
 * ```
 */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An agent's run as the `Response` a `useChat` route returns: the UI message stream
 * (`toUIMessageStream`) as server-sent events with the protocol's headers
 * (`x-vercel-ai-ui-message-stream: v1`), ending with `data: [DONE]`. Cancelling the body (the
 * client went away) is cancelling the stream: see `toUIMessageStream` for what that stops.
 *
 * @param stream - `agent.stream(input, { messageId })`
 * @param options - `toUIMessageStream`'s, plus `status` and `headers`
 * @returns the response
 * @example
 * ```ts
 * export const POST = async (request: Request) => {
 *   const { message } = await request.json();
 *   const input = fromUIMessages([message]);
 *   if (input._tag === 'Left') return new Response(input.left.message, { status: 400 });
 *   return toUIMessageStreamResponse(agent.stream(input.right, { messageId: crypto.randomUUID() }));
 * };
 * ```
 */
export const toUIMessageStreamResponse = (
  stream: AsyncIterable<AgentStreamEvent>,
  options: ToUIMessageStreamResponseOptions = {},
): Response => {
  const { status, headers, ...streamOptions } = options;
  return uiMessageStreamResponse(toUIMessageStream(stream, streamOptions), { status, headers });
};
