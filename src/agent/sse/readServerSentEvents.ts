import { readOptionFields } from '../../internal/readOptionFields';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import type { AgentStreamEvent } from '../streamEvents';
import { readStreamEvent } from './readStreamEvent';
import { ServerSentEventParser } from './serverSentEventParser';

const API = 'readServerSentEvents';

/**
 * The longest line, and the longest event data, `readServerSentEvents` reads by default:
 * 1,048,576 characters.
 *
 * @example
 * ```ts
 * readServerSentEvents(body, { maxEventLength: SSE_MAX_EVENT_LENGTH / 4 });
 * ```
 */
export const SSE_MAX_EVENT_LENGTH = 1_048_576;

/**
 * Options of {@link readServerSentEvents}.
 *
 * @example
 * ```ts
 * const options: ReadServerSentEventsOptions = { maxEventLength: 65_536 };
 * ```
 */
export interface ReadServerSentEventsOptions {
  /** The longest line, and the longest data of one event, in characters; default 1,048,576. */
  readonly maxEventLength?: number;
}

const readMaxLength = ({ maxEventLength: value }: { maxEventLength?: unknown }): number => {
  if (value === undefined) return SSE_MAX_EVENT_LENGTH;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new MemoryArgumentError(
      API,
      `options.maxEventLength must be a whole number of at least 1, received ${describeValue(value)}`,
    );
  }
  return value;
};

async function* readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxLength: number,
): AsyncGenerator<AgentStreamEvent, void, undefined> {
  const parser = new ServerSentEventParser(maxLength, API);
  const decoder = new TextDecoder('utf-8');
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const raw of parser.feed(text)) {
        const event = readStreamEvent(API, raw.event, raw.data);
        if (event !== undefined) yield event;
      }
      if (done) break;
    }
    finished = true;
  } finally {
    // Stopped early (a break, an error, a bad event): stop the body too.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * The events of `reader`, as an iterator that also lets go of the body when it is abandoned
 * before its first `next()` (a `return()` or `throw()` first: a generator's own `finally` would
 * not run, since its body never started): the body is cancelled and its lock released, as
 * leaving the loop later does.
 */
const eventsOf = (
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxLength: number,
): AsyncIterableIterator<AgentStreamEvent> => {
  const events = readEvents(reader, maxLength);
  let started = false;
  const letGo = async (): Promise<void> => {
    if (started) return;
    started = true;
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  };
  return {
    next: () => {
      started = true;
      return events.next();
    },
    return: async (value?: unknown) => {
      await letGo();
      return events.return(value as undefined);
    },
    throw: async (error?: unknown) => {
      await letGo();
      return events.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
};

/**
 * Reads a stream of server-sent events written by `toServerSentEvents` (a `fetch` response's
 * `body`) back into agent events, as they arrive. The body is treated as hostile: the format is
 * parsed as browsers parse it (any chunking, CRLF/LF/CR line ends, comments, a UTF-8 BOM), no
 * line and no event's data may be longer than `maxEventLength` characters, events of other names
 * are skipped, and a known event whose data is not the JSON of that event ends the iteration with
 * a `ServerSentEventsError` naming the event and the field. An `event: error` (the server's
 * stream failed) ends it with a `ServerSentEventsError` carrying the server's message and its
 * `code` as `remoteCode`. A body that ends without a `finish` event (the connection dropped) just
 * ends the iteration: check that the last event was `finish`. Leaving the loop early cancels the
 * body and releases its lock, even before the first event was asked for (a `return()` first).
 * Browser-safe: web streams and `TextDecoder` only.
 *
 * @param body - the response body
 * @param options - `maxEventLength`
 * @returns the events, in order
 * @throws MemoryArgumentError when `body` is not a readable stream, or is locked by another reader
 *   (at once, not in the iteration)
 * @example
 * ```ts
 * const response = await fetch('/chat', { method: 'POST', body: JSON.stringify({ message }) });
 * for await (const event of readServerSentEvents(response.body!)) {
 *   if (event.type === 'text-delta') output.textContent += event.text;
 * }
 * ```
 */
export const readServerSentEvents = (
  body: ReadableStream<Uint8Array>,
  options: ReadServerSentEventsOptions = {},
): AsyncIterable<AgentStreamEvent> => {
  const getReader: unknown =
    typeof body === 'object' && body !== null
      ? (body as Partial<ReadableStream>).getReader
      : undefined;
  if (typeof getReader !== 'function') {
    throw new MemoryArgumentError(
      API,
      `body must be a ReadableStream of bytes (a fetch response's body), received ${describeValue(body)}`,
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      API,
      `options must be an object, received ${describeValue(options)}`,
    );
  }
  if ((body as { locked?: unknown }).locked === true) {
    throw new MemoryArgumentError(
      API,
      'body is locked: another reader is reading it (a body can be read once; read the events from a fresh response)',
    );
  }
  // Read once, before the body is touched: options that cannot be read leave it unlocked.
  const maxLength = readMaxLength(readOptionFields(options, ['maxEventLength'], API));
  return eventsOf(body.getReader(), maxLength);
};
