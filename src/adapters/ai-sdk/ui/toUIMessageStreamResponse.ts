import { MemoryArgumentError, type AgentStreamEvent } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import {
  checkStreamCall,
  uiMessageStreamOf,
  type ToUIMessageStreamOptions,
} from './toUIMessageStream';
import { uiMessageStreamResponse } from './uiMessageStreamSse';

const API = 'toUIMessageStreamResponse';

/** `status` when it is an HTTP status a response can have (200–599); else a named error. */
const checkStatus = (status: unknown): number | undefined => {
  if (status === undefined) return undefined;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599) {
    return status;
  }
  throw new MemoryArgumentError(
    API,
    `options.status must be a whole number from 200 to 599, received ${describeValue(status)}`,
  );
};

/** `headers` when it is an object of string values (header names as its keys). */
const checkHeaders = (headers: unknown): Readonly<Record<string, string>> | undefined => {
  if (headers === undefined) return undefined;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new MemoryArgumentError(
      API,
      `options.headers must be an object of header names and string values, received ${describeValue(headers)}`,
    );
  }
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') {
      throw new MemoryArgumentError(
        API,
        `options.headers[${JSON.stringify(name)}] must be a string, received ${describeValue(value)}`,
      );
    }
    copy[name] = value;
  }
  return copy;
};

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
 * @throws MemoryArgumentError for an option that is not valid (before anything runs)
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
  const checked = checkStreamCall(API, stream, options, ['status', 'headers']);
  const status = checkStatus(checked.more.status);
  const headers = checkHeaders(checked.more.headers);
  return uiMessageStreamResponse(uiMessageStreamOf(stream, checked), { status, headers });
};
