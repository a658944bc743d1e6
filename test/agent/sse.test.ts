import { describe, expect, it } from 'vitest';
import {
  InvalidMessageError,
  isConversationMemoryError,
  type AgentStreamEvent,
} from 'conversation-memory';
import {
  readServerSentEvents,
  ServerSentEventsError,
  toServerSentEvents,
  toServerSentEventsResponse,
} from 'conversation-memory/sse';

const textOf = async (stream: ReadableStream<Uint8Array>): Promise<string> =>
  new Response(stream).text();

const bodyOf = (...pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces)
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
};

const readAll = async (
  body: ReadableStream<Uint8Array>,
  options?: { maxEventLength?: number },
): Promise<AgentStreamEvent[]> => {
  const events: AgentStreamEvent[] = [];
  for await (const event of readServerSentEvents(body, options)) events.push(event);
  return events;
};

const caught = async (promise: Promise<unknown>): Promise<ServerSentEventsError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServerSentEventsError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_SSE');
    return error as ServerSentEventsError;
  }
  throw new Error('expected a ServerSentEventsError');
};

const delta = (text: string): AgentStreamEvent => ({ type: 'text-delta', text });

describe('toServerSentEvents', () => {
  it('writes one event: / data: frame per event', async () => {
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      yield delta('Hi\nthere');
      yield { type: 'tool-call', toolCallId: 'c1', toolName: 'calc', input: { a: 1 } };
    }
    expect(await textOf(toServerSentEvents(events()))).toBe(
      'event: text-delta\ndata: {"type":"text-delta","text":"Hi\\nthere"}\n\n' +
        'event: tool-call\ndata: {"type":"tool-call","toolCallId":"c1","toolName":"calc","input":{"a":1}}\n\n',
    );
  });

  it('ends with a generic error frame: the fixed message and the code, never the text or the stack', async () => {
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      yield delta('Hel');
      throw new InvalidMessageError('agent.stream', 'the provider broke at /srv/app/keys.json');
    }
    const text = await textOf(toServerSentEvents(events()));
    expect(text).toBe(
      'event: text-delta\ndata: {"type":"text-delta","text":"Hel"}\n\n' +
        'event: error\ndata: {"message":"internal error","code":"CM_INVALID_MESSAGE"}\n\n',
    );
    // The client still gets a sensible error: what failed, and the code to act on.
    const error = await caught(readAll(bodyOf(text)));
    expect(error.event).toBe('error');
    expect(error.remoteCode).toBe('CM_INVALID_MESSAGE');
    expect(error.message).toBe(
      '[conversation-memory] readServerSentEvents: the server\'s stream failed: internal error (code "CM_INVALID_MESSAGE")',
    );
  });

  it('with exposeErrors: true, the error frame carries the message and code, never the stack', async () => {
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      yield delta('Hel');
      throw new InvalidMessageError('agent.stream', 'the provider broke');
    }
    const text = await textOf(toServerSentEvents(events(), { exposeErrors: true }));
    expect(text).toBe(
      'event: text-delta\ndata: {"type":"text-delta","text":"Hel"}\n\n' +
        'event: error\ndata: {"message":"[conversation-memory] agent.stream: the provider broke","code":"CM_INVALID_MESSAGE"}\n\n',
    );
    expect(text).not.toMatch(/at .*\.ts/);
    const error = await caught(readAll(bodyOf(text)));
    expect(error.event).toBe('error');
    expect(error.remoteCode).toBe('CM_INVALID_MESSAGE');
    expect(error.message).toContain('the provider broke');
  });

  it('a value that is not an event, or that JSON cannot write, ends the stream with an error frame', async () => {
    async function* notEvent(): AsyncGenerator<AgentStreamEvent> {
      yield { type: 'oops\nevent: finish' } as never;
    }
    const first = await textOf(toServerSentEvents(notEvent()));
    expect(first).toBe('event: error\ndata: {"message":"internal error","code":"CM_ARGUMENT"}\n\n');
    const exposed = await textOf(toServerSentEvents(notEvent(), { exposeErrors: true }));
    expect(exposed).toMatch(/^event: error\ndata: \{"message":".*each event must be an object/);
    expect(exposed.split('\n').filter((line) => line.startsWith('event:'))).toEqual([
      'event: error',
    ]);
    async function* bigint(): AsyncGenerator<AgentStreamEvent> {
      yield { type: 'tool-call', toolCallId: 'c', toolName: 't', input: { n: 1n } } as never;
    }
    expect(await textOf(toServerSentEvents(bigint()))).toBe(
      'event: error\ndata: {"message":"internal error"}\n\n',
    );
    expect(await textOf(toServerSentEvents(bigint(), { exposeErrors: true }))).toMatch(
      /^event: error\n.*BigInt/,
    );
  });

  it('a thrown non-Error: the generic message; with exposeErrors, a described one; no code when it has none', async () => {
    // eslint-disable-next-line require-yield -- it only throws
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      throw 'plain text';
    }
    expect(await textOf(toServerSentEvents(events()))).toBe(
      'event: error\ndata: {"message":"internal error"}\n\n',
    );
    const client = await caught(
      readAll(bodyOf('event: error\ndata: {"message":"internal error"}\n\n')),
    );
    expect(client.message).toMatch(/the server's stream failed: internal error$/);
    expect(client.remoteCode).toBeUndefined();
    // eslint-disable-next-line require-yield -- it only throws
    async function* again(): AsyncGenerator<AgentStreamEvent> {
      throw 'plain text';
    }
    expect(await textOf(toServerSentEvents(again(), { exposeErrors: true }))).toBe(
      'event: error\ndata: {"message":"plain text"}\n\n',
    );
  });

  it('a code that is not a short identifier is not sent by default', async () => {
    const failing = (code: unknown) =>
      // eslint-disable-next-line require-yield -- it only throws
      async function* (): AsyncGenerator<AgentStreamEvent> {
        throw Object.assign(new Error('x'), { code });
      };
    for (const code of ['SELECT * FROM users', 'a\nb', 'x'.repeat(65), '', 42, '1abc']) {
      expect(await textOf(toServerSentEvents(failing(code)()))).toBe(
        'event: error\ndata: {"message":"internal error"}\n\n',
      );
    }
    for (const code of ['ECONNRESET', 'rate_limit_exceeded', 'CM_STORE_UNAVAILABLE', 'a.b-c']) {
      expect(await textOf(toServerSentEvents(failing(code)()))).toBe(
        `event: error\ndata: {"message":"internal error","code":"${code}"}\n\n`,
      );
    }
  });

  it('refuses bad options, naming them', () => {
    async function* none(): AsyncGenerator<AgentStreamEvent> {}
    expect(() => toServerSentEvents(none(), { exposeErrors: 'yes' } as never)).toThrow(
      /toServerSentEvents: options.exposeErrors must be true or false, received "yes"/,
    );
    expect(() => toServerSentEvents(none(), { exposeError: true } as never)).toThrow(
      /toServerSentEvents: .*exposeError.*exposeErrors/,
    );
    expect(() => toServerSentEvents(none(), 'expose' as never)).toThrow(
      /options must be an object such as \{ exposeErrors: false \}, received "expose"/,
    );
    const hostile = Object.defineProperty({}, 'exposeErrors', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(() => toServerSentEvents(none(), hostile as never)).toThrow(
      /toServerSentEvents: options could not be read: .*getter/,
    );
    expect(() => toServerSentEventsResponse(none(), {}, { exposeErrors: 1 } as never)).toThrow(
      /toServerSentEventsResponse: options.exposeErrors must be true or false, received 1/,
    );
  });

  it('cancelling the stream (the client left) returns the source, whose finally runs', async () => {
    let closed = false;
    let produced = 0;
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      try {
        for (;;) {
          produced += 1;
          yield delta('x ');
        }
      } finally {
        closed = true;
      }
    }
    const reader = toServerSentEvents(events()).getReader();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
    // Frames are made on demand: nothing ran ahead of the reader.
    expect(produced).toBeLessThanOrEqual(2);
  });

  it('refuses what is not an async iterable, naming the value', () => {
    expect(() => toServerSentEvents([delta('a')] as never)).toThrow(
      /toServerSentEvents: events must be an async iterable .*received an array of length 1/,
    );
  });
});

describe('toServerSentEventsResponse', () => {
  it('is a Response with the event-stream headers and the frames as body', async () => {
    async function* events(): AsyncGenerator<AgentStreamEvent> {
      yield delta('ok');
    }
    const response = toServerSentEventsResponse(events());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.body).not.toBeNull();
    expect(await readAll(response.body as ReadableStream<Uint8Array>)).toEqual([delta('ok')]);
  });

  it('keeps init: status, extra headers, its own cache-control; the content type stays', async () => {
    async function* events(): AsyncGenerator<AgentStreamEvent> {}
    const response = toServerSentEventsResponse(events(), {
      status: 201,
      headers: { 'x-run': '7', 'cache-control': 'no-store', 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-run')).toBe('7');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('');
  });
});

describe('readServerSentEvents on a hostile body', () => {
  it('skips unknown events, events without data, comments and a trailing unfinished event', async () => {
    const body = bodyOf(
      '\uFEFF: comment\n',
      'data: {"no":"event name"}\n\n',
      'event: ping\ndata: 1\n\n',
      'event: text-delta\n\n',
      'id: 7\nretry: 10\nevent: text-delta\ndata:{"type":"text-delta","text":"a"}\n\n',
      'event: text-delta\ndata: {"type":"text-delta","text":"never ended"}\n',
    );
    expect(await readAll(body)).toEqual([delta('a')]);
  });

  it('joins several data lines with a newline, and reads a character cut between chunks', async () => {
    const euro = new TextEncoder().encode('€');
    const body = bodyOf(
      'event: text-delta\ndata: {"type":"text-delta",\ndata: "text":"',
      euro.slice(0, 1),
      euro.slice(1),
      '"}\r',
      '\n\r\n',
    );
    expect(await readAll(body)).toEqual([delta('€')]);
  });

  it('bad JSON is an error naming the event; so is data that is not the event it names', async () => {
    const notJson = await caught(readAll(bodyOf('event: text-delta\ndata: {oops\n\n')));
    expect(notJson.event).toBe('text-delta');
    expect(notJson.message).toMatch(/event "text-delta": its data is not JSON \("\{oops"\)/);
    const wrongType = await caught(
      readAll(bodyOf('event: finish\ndata: {"type":"text-delta","text":"x"}\n\n')),
    );
    expect(wrongType.message).toMatch(
      /event "finish": its data's type must be "finish", received "text-delta"/,
    );
    const wrongField = await caught(
      readAll(
        bodyOf(
          'event: tool-result\ndata: {"type":"tool-result","toolCallId":"a","toolName":"b","output":"c","isError":"no"}\n\n',
        ),
      ),
    );
    expect(wrongField.message).toMatch(/its data's isError must be a boolean, received "no"/);
    const array = await caught(readAll(bodyOf('event: text-delta\ndata: [1]\n\n')));
    expect(array.message).toMatch(/must be a JSON object, received an array of length 1/);
  });

  it('stops at a line longer than maxEventLength, and cancels the body', async () => {
    let cancelled = false;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await caught(readAll(body, { maxEventLength: 4096 }));
    expect(error.message).toMatch(/a line of the stream is longer than 4096 characters/);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(10);
  });

  it('stops at an event whose data lines together pass the limit', async () => {
    const line = `data: ${'y'.repeat(60)}\n`;
    const error = await caught(
      readAll(bodyOf(`event: text-delta\n${line.repeat(10)}\n`), { maxEventLength: 500 }),
    );
    expect(error.message).toMatch(/an event's data is longer than 500 characters/);
  });

  it("an error event's message is shortened and escaped; a missing one is said", async () => {
    const hostile = await caught(
      readAll(
        bodyOf(
          `event: error\ndata: ${JSON.stringify({ message: `a\u001b[31m\u202e${'z'.repeat(900)}` })}\n\n`,
        ),
      ),
    );
    expect(hostile.message).not.toContain('\u001b');
    expect(hostile.message).not.toContain('\u202e');
    expect(hostile.message.length).toBeLessThan(700);
    expect(hostile.remoteCode).toBeUndefined();
    const empty = await caught(readAll(bodyOf('event: error\ndata: 42\n\n')));
    expect(empty.message).toMatch(/the server's stream failed: no message/);
  });

  it('leaving the loop early cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(
          new TextEncoder().encode('event: text-delta\ndata: {"type":"text-delta","text":"a"}\n\n'),
        );
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readServerSentEvents(body)) {
      expect(event).toEqual(delta('a'));
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('abandoned before its first next() (return() or throw() first): the body is cancelled and unlocked', async () => {
    const watched = () => {
      const state = { cancelled: false, pulls: 0 };
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          state.pulls += 1;
          controller.enqueue(
            new TextEncoder().encode(
              'event: text-delta\ndata: {"type":"text-delta","text":"a"}\n\n',
            ),
          );
        },
        cancel() {
          state.cancelled = true;
        },
      });
      return { body, state };
    };
    const returned = watched();
    const events = readServerSentEvents(returned.body)[Symbol.asyncIterator]();
    expect(returned.body.locked).toBe(true);
    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    expect(returned.body.locked).toBe(false);
    expect(returned.state.cancelled).toBe(true);
    // Ended: a later next() reads nothing.
    expect(await events.next()).toEqual({ done: true, value: undefined });

    const thrown = watched();
    const failing = readServerSentEvents(thrown.body)[Symbol.asyncIterator]();
    await expect(failing.throw?.(new Error('gave up'))).rejects.toThrow('gave up');
    expect(thrown.body.locked).toBe(false);
    expect(thrown.state.cancelled).toBe(true);

    // A consumer that takes the iterator and hands it on to a loop that stops at once.
    const handed = watched();
    const iterable = readServerSentEvents(handed.body);
    const iterator = iterable[Symbol.asyncIterator]();
    await iterator.return?.();
    for await (const event of { [Symbol.asyncIterator]: () => iterator }) {
      throw new Error(`read ${JSON.stringify(event)} after return()`);
    }
    expect(handed.body.locked).toBe(false);
    expect(handed.state.cancelled).toBe(true);
  });

  it('after the first next(), leaving still cancels once and unlocks', async () => {
    let cancels = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(
          new TextEncoder().encode('event: text-delta\ndata: {"type":"text-delta","text":"a"}\n\n'),
        );
      },
      cancel() {
        cancels += 1;
      },
    });
    const events = readServerSentEvents(body)[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ done: false, value: delta('a') });
    await events.return?.();
    expect(body.locked).toBe(false);
    expect(cancels).toBe(1);
  });

  it('a body another reader holds is refused at once, naming the problem', () => {
    const body = bodyOf('event: text-delta\ndata: {"type":"text-delta","text":"a"}\n\n');
    const reader = body.getReader();
    expect(() => readServerSentEvents(body)).toThrow(
      /readServerSentEvents: body is locked: another reader is reading it/,
    );
    reader.releaseLock();
    expect(() => readServerSentEvents(body)).not.toThrow();
  });

  it('refuses a body that is not a stream and a bad maxEventLength, at once', () => {
    expect(() => readServerSentEvents('data: x' as never)).toThrow(
      /readServerSentEvents: body must be a ReadableStream .*received "data: x"/,
    );
    expect(() => readServerSentEvents(bodyOf(''), { maxEventLength: 0 })).toThrow(
      /options.maxEventLength must be a whole number of at least 1, received 0/,
    );
  });
});
