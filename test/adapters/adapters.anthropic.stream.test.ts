/**
 * `anthropicProvider.stream` with the real `@anthropic-ai/sdk` client (`messages.stream`) against
 * the loopback server speaking the Messages API's server-sent events.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  type CompletionRequest,
  type CompletionStreamPart,
  type Message,
  type Provider,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { assistant, call, tool, user } from '../helpers';
import {
  type AnthropicServer,
  type AnthropicServerOptions,
  startAnthropicServer,
} from '../support/loopback/anthropicServer';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (options: AnthropicServerOptions) => {
  server = await startAnthropicServer(options);
  const client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
  return { server, client, provider: anthropicProvider({ client }) };
};

const request = (messages: readonly Message[], extra: Partial<CompletionRequest> = {}) => ({
  model: 'claude-test',
  systemPrompt: '',
  messages,
  tools: [{ name: 'calc', description: 'Adds', parameters: { type: 'object' } }],
  ...extra,
});

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

const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error,
  );

describe('anthropicProvider.stream', () => {
  it('streams text deltas, then finish with what complete returns, usage included', async () => {
    const { provider, server } = await start({
      respond: () => ({
        text: 'Hello from Claude.',
        usage: { input_tokens: 11, output_tokens: 4 },
      }),
    });
    const parts = await collect(streamOf(provider)(request([user('hi')])));
    const completed = await provider.complete(request([user('hi')]));
    expect(deltas(parts)).toEqual(['Hello ', 'from ', 'Claude.']);
    expect(parts.at(-1)).toEqual({ type: 'finish', result: completed });
    expect(completed).toEqual({
      message: { role: 'assistant', content: 'Hello from Claude.' },
      usage: { inputTokens: 11, outputTokens: 4 },
    });
    expect(server.requests[0]?.stream).toBe(true);
    expect(server.requests[1]?.stream).toBeUndefined();
  });

  it('streams parallel tool_use blocks (input_json_delta) as complete tool-call parts', async () => {
    const script = {
      text: 'Adding both.',
      toolUses: [
        { id: 'toolu_a', name: 'calc', input: { expr: '2+2', note: 'a longer argument' } },
        { id: 'toolu_b', name: 'calc', input: { expr: '3+3', list: [1, 2, 3] } },
      ],
    };
    const { provider } = await start({ respond: () => script });
    const parts = await collect(streamOf(provider)(request([user('add')])));
    const completed = await provider.complete(request([user('add')]));
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'toolu_a',
        toolName: 'calc',
        input: { expr: '2+2', note: 'a longer argument' },
      },
      {
        type: 'tool-call',
        toolCallId: 'toolu_b',
        toolName: 'calc',
        input: { expr: '3+3', list: [1, 2, 3] },
      },
    ]);
    expect(deltas(parts).join('')).toBe('Adding both.');
    expect(parts.at(-1)).toEqual({ type: 'finish', result: completed });
  });

  it('sends a tool turn back (the rules check passes it) and streams the answer', async () => {
    const { provider, server } = await start({ respond: () => ({ text: '4' }) });
    const parts = await collect(
      streamOf(provider)(
        request([
          user('2+2?'),
          assistant(null, call('toolu_1', 'calc', { expr: '2+2' })),
          tool('4', 'toolu_1'),
        ]),
      ),
    );
    expect(deltas(parts)).toEqual(['4']);
    expect(server.requests).toHaveLength(1);
  });

  it('an invalid transcript gets the 400 of the non-streaming path, from the iteration', async () => {
    const { provider } = await start({ respond: () => ({ text: 'never' }) });
    const error = await rejectionOf(
      collect(streamOf(provider)(request([user('hi'), tool('orphan', 'toolu_x')]))),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/tool_result/);
  });

  it('an abort mid-stream ends the iteration with the signal reason, and nothing after', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { provider } = await start({
      respond: () => ({ text: 'one two three four five' }),
      // message_start, ping, content_block_start, then 'one ', 'two ': hold before 'three '.
      beforeEvent: (index) => (index === 5 ? held : undefined),
    });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const parts = streamOf(provider)(request([user('count')], { signal: controller.signal }));
    const iterator = parts[Symbol.asyncIterator]();
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

  it('a final message that is not valid is the ProviderResponseError complete gives', async () => {
    const { provider } = await start({
      respond: () => ({ toolUses: [{ id: 'toolu_1', name: 'calc', input: [1, 2] }] }),
    });
    const streamed = await rejectionOf(collect(streamOf(provider)(request([user('hi')]))));
    const completed = await rejectionOf(provider.complete(request([user('hi')])));
    expect(isConversationMemoryError(streamed) && streamed.code).toBe('CM_PROVIDER_RESPONSE');
    expect((streamed as Error).message).toBe((completed as Error).message);
  });
});
