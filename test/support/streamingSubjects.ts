/**
 * The three provider adapters as subjects of the streaming conformance suite
 * (./providerStreamingConformance.ts): each turns a provider-neutral script into its loopback
 * server's reply, and builds the adapter on its real client. The servers are closed after each
 * test.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach } from 'vitest';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { isConversationMemoryError, type Provider } from 'conversation-memory';
import {
  startAnthropicServer,
  type AnthropicServerOptions,
  type ScriptedMessage,
} from './loopback/anthropicServer';
import {
  startOpenAIServer,
  type OpenAIServerOptions,
  type ScriptedReply,
} from './loopback/openaiServer';
import type { StreamingSubject, StreamScript } from './providerStreamingConformance';

/** Closes every server a test started, after it. */
const useClosers = () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return closers;
};

/** The OpenAI server's reply and hold: chunk 0 is the role, chunk k + 1 the k-th text delta. */
const openaiServerOptions = (script: StreamScript): OpenAIServerOptions => {
  const hold = script.holdBeforeDelta;
  if (script.failAfterFirstDelta !== undefined) {
    const [first = ''] = (script.text ?? '').split(/(?<= )/);
    const chunk = { choices: [{ index: 0, delta: { content: first }, finish_reason: null }] };
    const error = { error: { message: script.failAfterFirstDelta, type: 'server_error' } };
    return {
      respond: () => ({
        raw: `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify(error)}\n\n`,
        contentType: 'text/event-stream',
      }),
    };
  }
  const reply: ScriptedReply = {
    ...(script.text === undefined ? {} : { text: script.text }),
    ...(script.toolCalls === undefined
      ? {}
      : {
          toolCalls: script.toolCalls.map(({ id, name, input }) => ({
            id,
            name,
            arguments: input,
          })),
        }),
    ...(script.usage === undefined
      ? {}
      : {
          usage: {
            promptTokens: script.usage.inputTokens,
            completionTokens: script.usage.outputTokens,
            cachedTokens: script.usage.cachedInputTokens ?? 0,
          },
        }),
  };
  return {
    respond: () => reply,
    ...(hold === undefined
      ? {}
      : { beforeChunk: (index: number) => (index === hold.index + 1 ? hold.until : undefined) }),
  };
};

/**
 * The Anthropic server's reply and hold: events 0 to 2 are message_start, ping and the text
 * block's start, event k + 3 the k-th text delta.
 */
const anthropicServerOptions = (script: StreamScript): AnthropicServerOptions => {
  const hold = script.holdBeforeDelta;
  const reply: ScriptedMessage = {
    ...(script.text === undefined ? {} : { text: script.text }),
    ...(script.toolCalls === undefined
      ? {}
      : { toolUses: script.toolCalls.map(({ id, name, input }) => ({ id, name, input })) }),
    ...(script.usage === undefined
      ? {}
      : {
          usage: {
            // Anthropic's input_tokens leaves out the tokens read from or written to the cache.
            input_tokens:
              script.usage.inputTokens -
              (script.usage.cachedInputTokens ?? 0) -
              (script.usage.cacheWriteTokens ?? 0),
            output_tokens: script.usage.outputTokens,
            cache_read_input_tokens: script.usage.cachedInputTokens ?? null,
            cache_creation_input_tokens: script.usage.cacheWriteTokens ?? null,
          },
        }),
    ...(script.failAfterFirstDelta === undefined
      ? {}
      : { failAfter: { events: 4, message: script.failAfterFirstDelta } }),
  };
  return {
    respond: () => reply,
    ...(hold === undefined
      ? {}
      : { beforeEvent: (index: number) => (index === hold.index + 3 ? hold.until : undefined) }),
  };
};

/** `openaiProvider` on the `openai` client. */
export const openaiSubject = (): StreamingSubject => {
  const closers = useClosers();
  return {
    start: async (script): Promise<Provider> => {
      const server = await startOpenAIServer(openaiServerOptions(script));
      closers.push(() => server.close());
      const client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
      return openaiProvider({ client, defaultModel: 'gpt-default' });
    },
    isServerError: (error) => error instanceof OpenAI.APIError,
    reportsCacheWrites: false,
  };
};

/** `anthropicProvider` on the `@anthropic-ai/sdk` client. */
export const anthropicSubject = (): StreamingSubject => {
  const closers = useClosers();
  return {
    start: async (script): Promise<Provider> => {
      const server = await startAnthropicServer(anthropicServerOptions(script));
      closers.push(() => server.close());
      const client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
      return anthropicProvider({ client });
    },
    isServerError: (error) => error instanceof Anthropic.APIError,
    reportsCacheWrites: true,
  };
};

/** `aiSdkProvider` on `@ai-sdk/openai` (`via: 'openai'`) or `@ai-sdk/anthropic`. */
export const aiSdkSubject = (via: 'openai' | 'anthropic'): StreamingSubject => {
  const closers = useClosers();
  return {
    start: async (script): Promise<Provider> => {
      if (via === 'openai') {
        const server = await startOpenAIServer(openaiServerOptions(script));
        closers.push(() => server.close());
        const model = createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-4o-mini');
        return aiSdkProvider({ model, maxRetries: 0 });
      }
      const server = await startAnthropicServer(anthropicServerOptions(script));
      closers.push(() => server.close());
      const model = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })(
        'claude-test',
      );
      return aiSdkProvider({ model, maxRetries: 0 });
    },
    // The SDK passes a provider's error event on as plain JSON; the adapter makes it an Error.
    isServerError: (error) =>
      isConversationMemoryError(error) &&
      error.code === 'CM_PROVIDER_RESPONSE' &&
      typeof (error as Error).cause === 'object',
    reportsCacheWrites: via === 'anthropic',
  };
};
