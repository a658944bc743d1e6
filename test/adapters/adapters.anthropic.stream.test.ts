/**
 * `anthropicProvider.stream` with the real `@anthropic-ai/sdk` client (`messages.stream`) against
 * the loopback server speaking the Messages API's server-sent events: the shared streaming
 * conformance suite (test/support/providerStreamingConformance.ts), then what is particular to
 * Anthropic.
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
import { describeProviderStreaming } from '../support/providerStreamingConformance';
import { anthropicSubject } from '../support/streamingSubjects';

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

// Text, usage, tool calls, abort and an error mid-stream: the suite every provider adapter runs.
describeProviderStreaming('anthropicProvider', anthropicSubject());

describe('anthropicProvider.stream', () => {
  it('asks for a stream, and complete does not', async () => {
    const { provider, server } = await start({ respond: () => ({ text: 'Hello from Claude.' }) });
    await collect(streamOf(provider)(request([user('hi')])));
    await provider.complete(request([user('hi')]));
    expect(server.requests[0]?.stream).toBe(true);
    expect(server.requests[1]?.stream).toBeUndefined();
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
