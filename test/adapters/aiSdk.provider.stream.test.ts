/**
 * `aiSdkProvider.stream` (`streamText`) with `@ai-sdk/openai` and `@ai-sdk/anthropic` against the
 * loopback servers speaking each provider's server-sent events.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionStreamPart, Provider } from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { tool, user } from '../helpers';
import {
  startAnthropicServer,
  type AnthropicServerOptions,
} from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServerOptions } from '../support/loopback/openaiServer';
import { rejection, request, toolTurn, weather } from '../support/providerRequests';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const viaOpenAI = async (options: OpenAIServerOptions) => {
  const server = await startOpenAIServer(options);
  closers.push(() => server.close());
  const model = createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-4o-mini');
  return { server, provider: aiSdkProvider({ model, maxRetries: 0 }) };
};

const viaAnthropic = async (options: AnthropicServerOptions) => {
  const server = await startAnthropicServer(options);
  closers.push(() => server.close());
  const model = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })('claude-test');
  return { server, provider: aiSdkProvider({ model, maxRetries: 0 }) };
};

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

describe('aiSdkProvider.stream with @ai-sdk/openai', () => {
  it('streams text deltas, then finish with what complete returns, usage included', async () => {
    const { provider, server } = await viaOpenAI({
      respond: () => ({
        text: 'Hello there, friend.',
        usage: { promptTokens: 12, completionTokens: 5 },
      }),
    });
    const parts = await collect(streamOf(provider)(request([user('Hi')])));
    const completed = await provider.complete(request([user('Hi')]));
    expect(deltas(parts)).toEqual(['Hello ', 'there, ', 'friend.']);
    expect(parts.at(-1)).toEqual({ type: 'finish', result: completed });
    expect(completed.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('gives parallel tool calls as tool-call parts, the same calls complete gives', async () => {
    const { provider } = await viaOpenAI({
      respond: () => ({
        toolCalls: [
          { id: 'call_p', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_r', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      }),
    });
    const parts = await collect(streamOf(provider)(request(toolTurn, { tools: [weather] })));
    const completed = await provider.complete(request(toolTurn, { tools: [weather] }));
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_p',
        toolName: 'get_weather',
        input: { city: 'Paris' },
      },
      { type: 'tool-call', toolCallId: 'call_r', toolName: 'get_weather', input: { city: 'Rome' } },
    ]);
    expect(parts.at(-1)).toEqual({ type: 'finish', result: completed });
  });

  it("a provider's 400 ends the iteration with the SDK's APICallError", async () => {
    const { provider } = await viaOpenAI({});
    const error = await rejection(
      collect(streamOf(provider)(request([user('hi'), tool('x', 'nope')]))),
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(400);
  });

  it('an abort mid-stream ends the iteration with the signal reason, and nothing after', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { provider } = await viaOpenAI({
      respond: () => 'one two three four',
      beforeChunk: (index) => (index === 3 ? held : undefined),
    });
    const controller = new AbortController();
    const reason = new Error('stop');
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
});

describe('aiSdkProvider.stream with @ai-sdk/anthropic', () => {
  it('streams text and tool_use blocks; finish is what complete returns', async () => {
    const { provider } = await viaAnthropic({
      respond: () => ({
        text: 'Checking both cities.',
        toolUses: [
          { id: 'toolu_p', name: 'get_weather', input: { city: 'Paris' } },
          { id: 'toolu_r', name: 'get_weather', input: { city: 'Rome' } },
        ],
        usage: { input_tokens: 30, output_tokens: 12 },
      }),
    });
    const parts = await collect(
      streamOf(provider)(request([user('Weather?')], { tools: [weather] })),
    );
    const completed = await provider.complete(request([user('Weather?')], { tools: [weather] }));
    expect(deltas(parts).join('')).toBe('Checking both cities.');
    expect(deltas(parts).length).toBeGreaterThan(1);
    expect(
      parts
        .filter((part) => part.type === 'tool-call')
        .map((part) => part.type === 'tool-call' && part.toolCallId),
    ).toEqual(['toolu_p', 'toolu_r']);
    expect(parts.at(-1)).toEqual({ type: 'finish', result: completed });
    expect(completed.usage).toEqual({ inputTokens: 30, outputTokens: 12 });
  });
});
