/**
 * `openaiProvider.stream` with the real `openai` client against the loopback Chat Completions
 * server speaking OpenAI's server-sent events: the shared streaming conformance suite
 * (test/support/providerStreamingConformance.ts), then what is particular to OpenAI.
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
import { describeProviderStreaming } from '../support/providerStreamingConformance';
import { openaiSubject } from '../support/streamingSubjects';

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

// Text, usage, tool calls, abort and an error mid-stream: the suite every provider adapter runs.
describeProviderStreaming('openaiProvider', openaiSubject());

describe('openaiProvider.stream', () => {
  it('asks for a stream with usage, and complete does not', async () => {
    const { server } = await both({ text: 'Hello there.' });
    expect(server.requests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(server.requests[1]?.stream).toBeUndefined();
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
