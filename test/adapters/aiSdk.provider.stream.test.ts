/**
 * `aiSdkProvider.stream` (`streamText`) with `@ai-sdk/openai` and `@ai-sdk/anthropic` against the
 * loopback servers speaking each provider's server-sent events: the shared streaming conformance
 * suite (test/support/providerStreamingConformance.ts) through each, then a provider's 400.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionStreamPart, Provider } from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { tool, user } from '../helpers';
import { startOpenAIServer, type OpenAIServerOptions } from '../support/loopback/openaiServer';
import { rejection, request } from '../support/providerRequests';
import { describeProviderStreaming } from '../support/providerStreamingConformance';
import { aiSdkSubject } from '../support/streamingSubjects';

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

// Text, usage, tool calls, abort and an error mid-stream: the suite every provider adapter runs.
describeProviderStreaming('aiSdkProvider via @ai-sdk/openai', aiSdkSubject('openai'));
describeProviderStreaming('aiSdkProvider via @ai-sdk/anthropic', aiSdkSubject('anthropic'));

describe('aiSdkProvider.stream with @ai-sdk/openai', () => {
  it("a provider's 400 ends the iteration with the SDK's APICallError", async () => {
    const { provider } = await viaOpenAI({});
    const error = await rejection(
      collect(streamOf(provider)(request([user('hi'), tool('x', 'nope')]))),
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(400);
  });
});
