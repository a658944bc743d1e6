/**
 * `toUIMessageStream` / `toUIMessageStreamResponse` (issue #31 §2, §3 stop) with the real `ai`
 * package: `readUIMessageStream` rebuilds the UI message `toUIMessages` gives for the memory
 * afterwards; the SSE body read by the SDK's own parser; the protocol's headers; a stop in
 * mid-reply (the request's signal, or the client leaving) ends with `abort` and `finish`, keeps
 * the streamed part marked interrupted with the message id, and the next request is accepted by
 * a loopback OpenAI server that checks requests by the provider's rules (the AI SDK tracker's
 * repro); a failing run ends with `error`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  parseJsonEventStream,
  readUIMessageStream,
  UI_MESSAGE_STREAM_HEADERS,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  PROVIDER_SAFE,
  type AgentTool,
  type Provider,
} from 'conversation-memory';
import {
  aiSdkProvider,
  toUIMessages,
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIMessageStreamFinish,
} from 'conversation-memory/ai-sdk';
import { LocalProvider } from 'conversation-memory/testing';
import { startOpenAIServer, type OpenAIServer } from '../../support/loopback/openaiServer';
import { iterateStream } from '../../support/readStream';

const clock: AgentTool = {
  name: 'get_time',
  description: 'The time of day in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('no such city');
    return `noon in ${String(city)}`;
  },
};

const memory = () => new ConversationMemory({ ...PROVIDER_SAFE, tokenizer: 'heuristic' });

const chunksOf = async (stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> => {
  const out: UIMessageChunk[] = [];
  for await (const chunk of iterateStream(stream)) out.push(chunk);
  return out;
};

/** Chunks already read, as a stream again. */
const replay = (chunks: readonly UIMessageChunk[]): ReadableStream<UIMessageChunk> =>
  new ReadableStream({
    start: (controller) => {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

const lastMessage = async (
  stream: ReadableStream<UIMessageChunk>,
): Promise<UIMessage | undefined> => {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last;
};

describe('toUIMessageStream', () => {
  it('readUIMessageStream rebuilds the message toUIMessages gives for the memory afterwards', async () => {
    const cases = [
      'my name is Ada',
      '/call get_time {"city": "Oslo"}',
      '/call get_time {"city": "Atlantis"}',
    ];
    for (const text of cases) {
      const mem = memory();
      const agent = createAgent({ provider: new LocalProvider(), memory: mem, tools: [clock] });
      const streamed = await lastMessage(
        toUIMessageStream(agent.stream(text, { messageId: `reply-${text.length}` })),
      );
      const stored = toUIMessages(mem.getHistory());
      expect(stored).toHaveLength(2);
      expect(streamed).toEqual(stored[1]);
      expect(streamed?.id).toBe(`reply-${text.length}`);
    }
  });

  it('a run out of iterations streams its unrun calls and its notice as memory keeps them', async () => {
    const mem = memory();
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: mem,
      tools: [clock],
      config: { maxIterations: 1 },
    });
    const chunks = await chunksOf(
      toUIMessageStream(
        agent.stream('/call get_time {"city": "Oslo"}\n/call get_time {"city": "Rome"}', {
          messageId: 'long',
        }),
      ),
    );
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'length' });
    const streamed = await lastMessage(replay(chunks));
    expect(streamed).toEqual(toUIMessages(mem.getHistory())[1]);
  });

  it('writes the steps of a tool run in the order the AI SDK writes them', async () => {
    const agent = createAgent({ provider: new LocalProvider(), memory: memory(), tools: [clock] });
    const chunks = await chunksOf(
      toUIMessageStream(agent.stream('/call get_time {"city": "Oslo"}', { messageId: 'm1' })),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'start-step',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      ...Array(5).fill('text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a failed tool is a tool-output-error; a failing run ends with error, its text not sent by default', async () => {
    const agent = createAgent({ provider: new LocalProvider(), memory: memory(), tools: [clock] });
    const chunks = await chunksOf(
      toUIMessageStream(agent.stream('/call get_time {"city": "Atlantis"}', { messageId: 'm2' })),
    );
    expect(chunks.find((chunk) => chunk.type === 'tool-output-error')).toMatchObject({
      toolCallId: expect.any(String),
      errorText: expect.stringContaining('no such city'),
    });
    const failing: Provider = {
      name: 'failing',
      defaultModel: 'f-1',
      complete: async () => {
        throw new Error('secret database path /srv/x');
      },
    };
    const finishes: UIMessageStreamFinish[] = [];
    const failed = await chunksOf(
      toUIMessageStream(createAgent({ provider: failing }).stream('hi'), {
        onFinish: (event) => void finishes.push(event),
      }),
    );
    expect(failed.at(-1)).toEqual({ type: 'error', errorText: 'An error occurred.' });
    expect(finishes).toEqual([expect.objectContaining({ isError: true, isAborted: false })]);
    const told = await chunksOf(
      toUIMessageStream(createAgent({ provider: failing }).stream('hi'), {
        onError: () => 'Try again later.',
      }),
    );
    expect(told.at(-1)).toEqual({ type: 'error', errorText: 'Try again later.' });
  });
});

describe('toUIMessageStreamResponse', () => {
  it('has the protocol headers, and the AI SDK parser reads the same chunks from its body', async () => {
    const run = () =>
      createAgent({ provider: new LocalProvider(), memory: memory(), tools: [clock] }).stream(
        '/call get_time {"city": "Rome"}',
        { messageId: 'same', runId: 'r' },
      );
    const response = toUIMessageStreamResponse(run(), { headers: { 'x-chat': 'c1' } });
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
      expect(response.headers.get(name)).toBe(value);
    }
    expect(response.headers.get('x-chat')).toBe('c1');
    const text = await response.clone().text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const parsed: UIMessageChunk[] = [];
    for await (const result of iterateStream(
      parseJsonEventStream({
        stream: response.body as ReadableStream<Uint8Array>,
        schema: uiMessageChunkSchema,
      }),
    )) {
      if (!result.success) throw result.error;
      parsed.push(result.value);
    }
    expect(parsed).toEqual(await chunksOf(toUIMessageStream(run())));
  });
});

describe('stop in mid-reply, against a loopback OpenAI server', () => {
  let server: OpenAIServer;
  let hold: Promise<void> = Promise.resolve();
  let release = (): void => undefined;
  beforeAll(async () => {
    server = await startOpenAIServer({
      respond: ({ body }) =>
        body.messages.at(-1)?.content === 'count to eight'
          ? 'one two three four five six seven eight'
          : 'Fine, go on.',
      beforeChunk: (index) => (index === 3 ? hold : undefined),
    });
  });
  afterAll(() => server.close());
  const provider = () =>
    aiSdkProvider({
      model: createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-4o-mini'),
      maxRetries: 0,
    });

  it.each(['the request signal', 'the client leaving'] as const)(
    'stopped by %s: abort then finish, the part kept interrupted, the next request accepted',
    async (how) => {
      hold = new Promise<void>((resolve) => (release = resolve));
      const mem = memory();
      const agent = createAgent({ provider: provider(), memory: mem });
      const controller = new AbortController();
      const finishes: UIMessageStreamFinish[] = [];
      const stream = toUIMessageStream(
        agent.stream('count to eight', { messageId: 'cut-1', signal: controller.signal }),
        { onFinish: (event) => void finishes.push(event) },
      );
      const reader = stream.getReader();
      const seen: UIMessageChunk[] = [];
      while (!seen.some((chunk) => chunk.type === 'text-delta')) {
        const next = await reader.read();
        if (next.done) break;
        seen.push(next.value);
      }
      if (how === 'the request signal') {
        controller.abort();
        for (;;) {
          const next = await reader.read();
          if (next.done) break;
          seen.push(next.value);
        }
        expect(seen.slice(-2)).toEqual([{ type: 'abort' }, { type: 'finish' }]);
      } else {
        await reader.cancel();
      }
      release();
      await expect.poll(() => finishes.length).toBe(1);
      expect(finishes[0]).toMatchObject({ messageId: 'cut-1', isAborted: true });
      await expect.poll(() => mem.getHistory().length).toBe(2);
      const kept = mem.getHistory()[1];
      expect(kept).toMatchObject({
        role: 'assistant',
        id: 'cut-1',
        metadata: { interrupted: true },
      });
      expect(kept?.content?.startsWith('one')).toBe(true);
      expect(kept?.content).not.toContain('eight');

      const before = server.requests.length;
      const rejected = server.rejected.length;
      const next = await lastMessage(
        toUIMessageStream(agent.stream('go on', { messageId: 'next-1' })),
      );
      expect(server.rejected.length).toBe(rejected);
      expect(server.requests.length).toBe(before + 1);
      expect(next?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Fine, go on.' });
      const sent = server.requests.at(-1)?.messages.map((m) => m.role);
      expect(sent).toEqual(['user', 'assistant', 'user']);
    },
  );
});
