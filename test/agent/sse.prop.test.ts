import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentStreamEvent, type Provider } from 'conversation-memory';
import {
  readServerSentEvents,
  ServerSentEventsError,
  toServerSentEvents,
  toServerSentEventsResponse,
} from 'conversation-memory/sse';
import { escapeText } from '../../src/util/escapeText';
import { secretArb, secretError, secretErrorKindArb } from '../arbitraries/secretErrors';
import { agentStreamEventArb } from '../arbitraries/streamEvents';

/** Every byte of a stream, joined. */
const bytesOf = async (stream: ReadableStream<Uint8Array>): Promise<Uint8Array> =>
  new Uint8Array(await new Response(stream).arrayBuffer());

/** A stream that gives `bytes` in pieces cut at `cuts` (byte offsets; UTF-8 sequences cut too). */
const chunked = (bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> => {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(start, point));
    start = point;
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
};

async function* fromList(events: readonly AgentStreamEvent[]): AsyncGenerator<AgentStreamEvent> {
  yield* events;
}

const readAll = async (body: ReadableStream<Uint8Array>): Promise<AgentStreamEvent[]> => {
  const events: AgentStreamEvent[] = [];
  for await (const event of readServerSentEvents(body)) events.push(event);
  return events;
};

describe('server-sent events (property)', () => {
  it('round trip: any events, written then read back in pieces cut anywhere, are the same events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(agentStreamEventArb, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (events, cuts) => {
          const bytes = await bytesOf(toServerSentEvents(fromList(events)));
          const read = await readAll(chunked(bytes, cuts));
          expect(read).toEqual(JSON.parse(JSON.stringify(events)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a frame is always two lines and a blank one: no raw line break from event text', async () => {
    await fc.assert(
      fc.asyncProperty(agentStreamEventArb, async (event) => {
        const text = new TextDecoder().decode(await bytesOf(toServerSentEvents(fromList([event]))));
        expect(text.endsWith('\n\n')).toBe(true);
        const lines = text.slice(0, -2).split(/\r\n|\r|\n/);
        expect(lines).toEqual([`event: ${event.type}`, expect.stringMatching(/^data: \{.*\}$/)]);
        expect(text).not.toMatch(/[\u2028\u2029]/);
      }),
    );
  });

  it('the same events in CRLF or CR line ends, with comments and unknown events, read the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(agentStreamEventArb, { maxLength: 6 }),
        fc.constantFrom('\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (events, end, cuts) => {
          const written = new TextDecoder().decode(
            await bytesOf(toServerSentEvents(fromList(events))),
          );
          const noisy = `: a comment${end}event: ping${end}data: {}${end}${end}${written}`
            .split('\n')
            .join(end)
            .replace(/\r\r\n/g, end);
          const read = await readAll(chunked(new TextEncoder().encode(noisy), cuts));
          expect(read).toEqual(JSON.parse(JSON.stringify(events)));
        },
      ),
      { numRuns: 80 },
    );
  });
});

/** The events, then a throw of `error`. */
async function* failingAfter(
  events: readonly AgentStreamEvent[],
  error: unknown,
): AsyncGenerator<AgentStreamEvent> {
  yield* events;
  throw error;
}

/** The text of a whole event stream. */
const textOfStream = async (stream: ReadableStream<Uint8Array>): Promise<string> =>
  new TextDecoder().decode(await bytesOf(stream));

/** What the client's reader throws at the end of `text`. */
const clientError = async (text: string): Promise<ServerSentEventsError> => {
  try {
    await readAll(chunked(new TextEncoder().encode(text), []));
  } catch (error) {
    expect(error).toBeInstanceOf(ServerSentEventsError);
    return error as ServerSentEventsError;
  }
  throw new Error('expected the stream to end with an error');
};

/** A provider whose every call fails with `error`, streaming or not. */
const failingProvider = (error: unknown): Provider => ({
  name: 'failing',
  defaultModel: 'failing-1',
  complete: async () => {
    throw error;
  },
  // eslint-disable-next-line require-yield -- it only throws
  async *stream() {
    throw error;
  },
});

describe('server-sent error events (property, issue #27 §2)', () => {
  it('by default, no text of any error reaches the client: the fixed message and the code only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(agentStreamEventArb, { maxLength: 3 }),
        secretErrorKindArb,
        secretArb,
        async (events, kind, secret) => {
          const thrown = secretError(kind, secret);
          const before = await textOfStream(toServerSentEvents(fromList(events)));
          const text = await textOfStream(toServerSentEvents(failingAfter(events, thrown.error)));
          const data =
            thrown.code === undefined
              ? { message: 'internal error' }
              : { message: 'internal error', code: thrown.code };
          expect(text).toBe(`${before}event: error\ndata: ${JSON.stringify(data)}\n\n`);
          if (!before.includes(secret)) {
            expect(text).not.toContain(secret);
            expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
          }
          // The client still reads a sensible error: the stream failed, and its code.
          const error = await clientError(text);
          expect(error.event).toBe('error');
          expect(error.remoteCode).toBe(thrown.code);
          expect(error.detail).toBe(
            `the server's stream failed: internal error${thrown.code === undefined ? '' : ` (code "${thrown.code}")`}`,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with exposeErrors: true, the error text is sent (and the client shows it, escaped)', async () => {
    await fc.assert(
      fc.asyncProperty(secretErrorKindArb, secretArb, async (kind, secret) => {
        const thrown = secretError(kind, secret);
        const text = await textOfStream(
          toServerSentEvents(failingAfter([], thrown.error), { exposeErrors: true }),
        );
        const [eventLine, dataLine] = text.split('\n');
        expect(eventLine).toBe('event: error');
        const data = JSON.parse((dataLine ?? '').slice('data: '.length)) as {
          message: string;
          code?: string;
        };
        expect(data.message).toContain(secret);
        expect(data.code).toBe(thrown.code);
        const error = await clientError(text);
        expect(error.remoteCode).toBe(thrown.code);
        expect(error.message).toContain(escapeText(secret, 500).slice(0, 40));
      }),
      { numRuns: 150 },
    );
  });

  it('through agent.stream and toServerSentEventsResponse: a failing provider’s text stays on the server by default', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretErrorKindArb,
        secretArb,
        fc.boolean(),
        async (kind, secret, expose) => {
          const thrown = secretError(kind, secret);
          const agent = createAgent({ provider: failingProvider(thrown.error) });
          const response = toServerSentEventsResponse(
            agent.stream('hello'),
            {},
            expose ? { exposeErrors: true } : {},
          );
          const text = await response.text();
          const dataLine = text.split('\n').find((line) => line.startsWith('data: ')) ?? '';
          const data = JSON.parse(dataLine.slice('data: '.length)) as { message: string };
          if (expose) expect(data.message).toContain(secret);
          else {
            expect(data.message).toBe('internal error');
            expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
