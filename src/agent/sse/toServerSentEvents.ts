import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { escapeJsonText } from '../../util/escapeText';
import type { AgentStreamEvent } from '../streamEvents';
import { serverSentErrorData } from './serverSentErrorData';
import { readExposeErrors, type ToServerSentEventsOptions } from './toServerSentEventsOptions';

const API = 'toServerSentEvents';

/** An event's type must look like ours (`text-delta`, `memory-effect`) to name an SSE event. */
const EVENT_TYPE = /^[a-z][a-z-]{0,63}$/;

/** One frame: `event: TYPE\ndata: JSON\n\n` (the JSON is one line: JSON escapes line breaks). */
const frame = (type: string, data: unknown): string =>
  `event: ${type}\ndata: ${escapeJsonText(JSON.stringify(data))}\n\n`;

/** The frame of one event; throws `MemoryArgumentError` for a value that is not an event. */
const eventFrame = (event: unknown): string => {
  const type: unknown =
    typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !EVENT_TYPE.test(type) || type === 'error') {
    throw new MemoryArgumentError(
      API,
      `each event must be an object whose type is an event name such as "text-delta", received ${describeValue(type === undefined ? event : type)}`,
    );
  }
  return frame(type, event);
};

/**
 * Turns a stream of agent events (what `agent.stream` yields) into a web `ReadableStream` of
 * server-sent events, for the body of a server route. Each event is one frame,
 * `event: <type>\ndata: <the event as JSON>\n\n`, encoded in UTF-8; the JSON is on one line
 * (JSON writes line breaks as escapes; U+2028, U+2029, C1 and bidi controls are escaped too).
 *
 * An error of the source (or an event that is not one, or that JSON cannot write) ends the stream
 * with one `event: error` frame whose data is `{ message, code? }`, never the stack. By default
 * nothing of the error's text is sent: `message` is the fixed `"internal error"` and `code` the
 * error's string `code` when it is a short identifier (`CM_PROVIDER_RESPONSE`, `ECONNRESET`); log
 * the error on the server (an observer, or a wrapper around `events`). With `exposeErrors: true`,
 * `message` is the error's own message (at most 1,000 characters) and `code` any string code:
 * unsafe for untrusted clients (paths, SQL, keys, a provider's message quoting the prompt). Frames are made one
 * at a time, when the reader asks for more (no buffering ahead); cancelling the stream (the client
 * went away) calls the source's `return()`, which stops `agent.stream`'s generator.
 * Browser-safe: web streams and `TextEncoder` only.
 *
 * @param events - the events, such as `agent.stream(message)`
 * @param options - `exposeErrors` (default `false`)
 * @returns the bytes of the event stream
 * @throws MemoryArgumentError when `events` is not an async iterable, or an option is wrong
 * @example
 * ```ts
 * const body = toServerSentEvents(agent.stream('hi'));
 * // event: text-delta
 * // data: {"type":"text-delta","text":"Hello "}
 * //
 * ```
 */
export const toServerSentEvents = (
  events: AsyncIterable<AgentStreamEvent>,
  options?: ToServerSentEventsOptions,
): ReadableStream<Uint8Array> => {
  const open: unknown =
    typeof events === 'object' && events !== null
      ? (events as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator]
      : undefined;
  if (typeof open !== 'function') {
    throw new MemoryArgumentError(
      API,
      `events must be an async iterable of agent events (such as agent.stream(input)), received ${describeValue(events)}`,
    );
  }
  const expose = readExposeErrors(options, API);
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<AgentStreamEvent> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text: string;
      let done: boolean;
      try {
        iterator ??= events[Symbol.asyncIterator]();
        const next = await iterator.next();
        done = next.done === true;
        text = done ? '' : eventFrame(next.value);
      } catch (error) {
        text = frame('error', serverSentErrorData(error, expose));
        done = true;
        // The source may still be open (an event we could not write): let it clean up.
        try {
          void Promise.resolve(iterator?.return?.()).catch(() => undefined);
        } catch {
          // Its return() threw: the stream ends with the error frame all the same.
        }
      }
      if (text !== '') controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
};
