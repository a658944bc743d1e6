/**
 * `openaiProvider.stream` with the real `openai` client against the loopback Chat Completions
 * server speaking OpenAI's server-sent events: text, parallel tool calls, usage, abort, errors.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  isConversationMemoryError,
  validateTranscript,
  type CompletionStreamPart,
  type Provider,
} from 'conversation-memory';
import { assistant, call, tool, user } from '../helpers';
import { rejection, request, useOpenAIServer, weatherTool } from '../support/openaiHarness';
import type { ScriptedReply } from '../support/loopback/openaiServer';

const start = useOpenAIServer();

const streamOf = (provider: Provider) => {
  const { stream } = provider;
  if (stream === undefined) throw new Error('the provider does not stream');
  return stream;
};

const collect = async (parts: AsyncIterable<CompletionStreamPart>) => {
  const all: CompletionStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
};

const deltas = (parts: readonly CompletionStreamPart[]) =>
  parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));

/** Streams and completes the same scripted reply; returns both. */
const both = async (reply: ScriptedReply, messages = [user('hi')]) => {
  const { provider, server } = await start({ respond: () => reply });
  const streamed = await collect(streamOf(provider)(request(messages, { tools: [weatherTool] })));
  const completed = await provider.complete(request(messages, { tools: [weatherTool] }));
  return { streamed, completed, server };
};

describe('openaiProvider.stream', () => {
  it('streams the text as it arrives, then finish with what complete returns, usage included', async () => {
    const { streamed, completed, server } = await both({
      text: 'Hello there, how are you?',
      usage: { promptTokens: 12, completionTokens: 6 },
    });
    expect(deltas(streamed)).toEqual(['Hello ', 'there, ', 'how ', 'are ', 'you?']);
    expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
    expect(completed).toEqual({
      message: { role: 'assistant', content: 'Hello there, how are you?' },
      usage: { inputTokens: 12, outputTokens: 6 },
    });
    expect(server.requests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(server.requests[1]?.stream).toBeUndefined();
  });

  it('assembles parallel tool calls from interleaved fragments, one tool-call part each', async () => {
    const { streamed, completed } = await both({
      text: 'Checking both.',
      toolCalls: [
        {
          id: 'call_p',
          name: 'get_weather',
          arguments: { city: 'Paris', note: 'a long argument' },
        },
        { id: 'call_l', name: 'get_weather', arguments: { city: 'Lyon 🌧' } },
      ],
    });
    expect(streamed.filter((part) => part.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_p',
        toolName: 'get_weather',
        input: { city: 'Paris', note: 'a long argument' },
      },
      {
        type: 'tool-call',
        toolCallId: 'call_l',
        toolName: 'get_weather',
        input: { city: 'Lyon 🌧' },
      },
    ]);
    expect(deltas(streamed).join('')).toBe('Checking both.');
    expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
  });

  it('gives tool calls alone with null content, as complete does', async () => {
    const { streamed, completed } = await both({
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    expect(deltas(streamed)).toEqual([]);
    expect(completed.message.content).toBeNull();
    expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
  });

  it('gives a refusal as one delta at the end, as complete gives it as the content', async () => {
    const { streamed, completed } = await both({ text: null, refusal: 'I cannot help with that.' });
    expect(deltas(streamed)).toEqual(['I cannot help with that.']);
    expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
  });

  it('sends a tool turn back and streams the answer (the rules check passes it)', async () => {
    const { provider, server } = await start({ respond: () => 'Sunny.' });
    const parts = await collect(
      streamOf(provider)(
        request([
          user('weather?'),
          assistant(null, call('c1', 'get_weather', { city: 'Paris' })),
          tool('18 °C', 'c1'),
        ]),
      ),
    );
    expect(deltas(parts)).toEqual(['Sunny.']);
    expect(server.rejected).toEqual([]);
  });

  it('an invalid transcript gets the 400 of the non-streaming path, from the iteration', async () => {
    const { provider, server } = await start();
    const parts = streamOf(provider)(request([user('hi'), tool('orphan', 'nope')]));
    const error = await rejection(collect(parts));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/^400 Invalid parameter: messages with role 'tool'/);
    expect(server.rejected.map((r) => r.status)).toEqual([400]);
    expect(server.requests).toEqual([]);
  });

  it('an abort mid-stream ends the iteration with the signal reason, and nothing after', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { provider } = await start({
      respond: () => 'one two three four five six',
      beforeChunk: (index) => (index === 3 ? held : undefined),
    });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const iterator = streamOf(provider)(request([user('count')], { signal: controller.signal }))[
      Symbol.asyncIterator
    ]();
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'text-delta', text: 'one ' },
    });
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'text-delta', text: 'two ' },
    });
    const third = iterator.next();
    controller.abort(reason);
    release();
    await expect(third).rejects.toBe(reason);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('a stream cut before its finish_reason, a chunk of the wrong shape, or bad JSON is a ProviderResponseError', async () => {
    const sse = (...chunks: unknown[]) => ({
      raw: chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join(''),
      contentType: 'text/event-stream',
    });
    const piece = { choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] };
    const cases: [ScriptedReply, RegExp][] = [
      [sse(piece, '[DONE]'), /the openai stream ended before a finish_reason/],
      [
        sse(piece, { choices: [{ index: 0, delta: { content: 5 } }] }),
        /chunk 2 is not a chat.completion.chunk: choices\[0\]\.delta\.content: expected a string or null, got 5/,
      ],
      [sse(piece, '{oops'), /the openai reply is not valid JSON/],
      [
        sse({
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [{ index: 0, id: 'c', function: { name: 'x', arguments: '[1]' } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
        }),
        /not a usable chat.completion: .*tool_calls/,
      ],
    ];
    for (const [reply, message] of cases) {
      const { provider } = await start({ respond: () => reply });
      const error = await rejection(collect(streamOf(provider)(request([user('hi')]))));
      expect(isConversationMemoryError(error) && error.code).toBe('CM_PROVIDER_RESPONSE');
      expect((error as Error).message).toMatch(message);
    }
  });

  it("an error the server sends mid-stream is the client's APIError, unchanged", async () => {
    const { provider } = await start({
      respond: () => ({
        raw: `data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
        contentType: 'text/event-stream',
      }),
    });
    const error = await rejection(collect(streamOf(provider)(request([user('hi')]))));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/overloaded/);
  });

  it('drives agent.stream end to end: deltas, the tool turn, finish, a valid memory, no 400', async () => {
    const { provider, server } = await start({
      respond: ({ body }) =>
        body.messages.at(-1)?.role === 'tool'
          ? { text: 'It is sunny in Paris.' }
          : { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }] },
    });
    const memory = new ConversationMemory({ maxMessages: 20 });
    const agent = createAgent({
      provider,
      memory,
      tools: [{ ...weatherTool, execute: () => 'sunny' }],
    });
    const events = [];
    for await (const event of agent.stream('Weather in Paris?')) events.push(event);
    const kinds = events.map((event) => event.type).filter((type) => type !== 'memory-effect');
    expect(kinds).toEqual([
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'finish',
    ]);
    expect(server.requests.every((body) => body.stream === true)).toBe(true);
    expect(server.rejected).toEqual([]);
    expect(memory.getHistory().at(-1)?.content).toBe('It is sunny in Paris.');
    expect(validateTranscript(memory.getHistory(), 'openai')).toEqual([]);
  });
});
