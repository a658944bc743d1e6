import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AgentStreamEvent } from 'conversation-memory';
import { readServerSentEvents, toServerSentEvents } from 'conversation-memory/sse';
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
