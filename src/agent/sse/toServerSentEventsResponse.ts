import type { AgentStreamEvent } from '../streamEvents';
import { toServerSentEvents } from './toServerSentEvents';
import { readExposeErrors, type ToServerSentEventsOptions } from './toServerSentEventsOptions';

import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { readOptionFields } from '../../internal/readOptionFields';

const API = 'toServerSentEventsResponse';

/**
 * A web `Response` (Node 20's global one, or a browser's or an edge runtime's) whose body is
 * {@link toServerSentEvents} of `events`, with `content-type: text/event-stream` and
 * `cache-control: no-cache`. `init` may set the status and more headers; its `cache-control`
 * wins when it gives one, the content type is always `text/event-stream`. `options` are
 * `toServerSentEvents`'s: an error is sent as `"internal error"` and its code unless
 * `exposeErrors: true` (unsafe for untrusted clients).
 *
 * @param events - the events, such as `agent.stream(message)`
 * @param init - the response's status and headers
 * @param options - `exposeErrors` (default `false`)
 * @returns the response to return from a route handler
 * @throws MemoryArgumentError when `events` is not an async iterable, or `init` or an option is
 *   wrong
 * @example
 * ```ts
 * // A Next.js route, a Hono handler or any fetch-style server:
 * export const POST = async (request: Request) => {
 *   const { message } = await request.json();
 *   return toServerSentEventsResponse(agent.stream(message, { signal: request.signal }));
 * };
 * ```
 */
export const toServerSentEventsResponse = (
  events: AsyncIterable<AgentStreamEvent>,
  init: ResponseInit = {},
  options?: ToServerSentEventsOptions,
): Response => {
  if (typeof init !== 'object' || init === null) {
    throw new MemoryArgumentError(
      API,
      `init must be an object such as { status: 200 }, received ${describeValue(init)}`,
    );
  }
  // Read once; a misspelled `header` would send the response without the caller's headers.
  const given = readOptionFields(init, ['status', 'statusText', 'headers'], API, {
    where: 'init',
  }) as ResponseInit;
  // Read once, here, so that a wrong option is named with this call.
  const exposeErrors = readExposeErrors(options, API);
  const body = toServerSentEvents(events, { exposeErrors });
  const headers = new Headers(given.headers);
  headers.set('content-type', 'text/event-stream');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
  return new Response(body, { ...given, headers });
};
